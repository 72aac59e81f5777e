"""Fool! fast engine: the game as a steppable state (``simulator.core.state``), no allocation inside a game.

The verbs below are jit-compiled (``@nb.njit(cache=True)``); ``choose`` is
the kernel template that ``simulator.core.kernels.bind_engine`` compiles
against a strategy dispatcher (``strategies.registry.make_dispatch``), called
as ``decide(sid, seat, rngs, params, rng, par, opt_colour, opt_value,
n_options, obs) -> int``: it hands seat ``seat``'s decision function (see
``simulator.fool.layout``) that seat's own stream and parameters.

A game is played deal after deal until a total reaches ``-loss_limit`` or the
``tally_limit``-th tally is scored, or the safety cap of ``game.max_deals``
deals stops it (``finished`` = 0). Cards are ids into the setup's
``card_colour`` / ``card_value`` arrays (colour 0: the wild "1"); hands are
held as colour and value arrays (the kernel's working form) and as one value
mask per colour (what strategies see). An action is a position in the hand
of the seat to move (``simulator.fool.layout``); chance (the shuffles) and
the end of tricks and deals run inside ``reset`` and ``apply``.

Trace layout (int64): ``[number of deals, then per deal: start seat, the
hands (hand-size card codes per seat, seat 0 first), number of cards played,
the played card codes in order]``; a card's code is ``100 * colour + value``.
"""

import numba as nb
import numpy as np

from simulator.core import leaders
from simulator.core.bound import unbound
from simulator.core.cards import fresh_deck
from simulator.core.inlining import VERBS
from simulator.core.rng import next_u64, randint, seed_game, uniform
from simulator.core.slots import Slots
from simulator.core.state import H_FINISHED, H_KIND, H_TO_MOVE, H_TRACE, HEAD, ST_HEAD, ST_RNGS, illegal
from simulator.fool.features import N_FEATURES, OBS_SIZE, SEAT_FEATURE, features  # noqa: F401 (the state API)
from simulator.fool.layout import (KIND_PLAY, MAX_COLOURS, MAX_PLAYERS, MAX_VALUE, OBS_COLOURS, OBS_COUNT, OBS_DEAL,
                                   OBS_DISCS, OBS_EMPTY_HAND, OBS_LEAD, OBS_LEADER, OBS_LOSS_LIMIT, OBS_MINE,
                                   OBS_PASSING, OBS_PLAYED, OBS_PLAYERS, OBS_SEAT, OBS_TALLIES, OBS_TALLY_LIMIT,
                                   OBS_TOTAL, OBS_TO_PLAY, OBS_TRICK, OBS_TRICK_COLOUR, OBS_TRICK_SEAT, OBS_TRICK_VALUE,
                                   OBS_UNSEEN, OBS_WILD_PENALTY, R_CARDS, R_COLOURS, R_DISCS, R_EMPTY_HAND, R_HAND,
                                   R_LOSS_LIMIT, R_MAX_DEALS, R_PLAYERS, R_TALLY_LIMIT, R_WILD_PENALTY, WILD_VALUE)

# the names the templates here are bound with (simulator.core.bound)
decide = unbound("decide")

# tricks won, +10 scores, times befooled; wild "1"s and colour tops (the highest card of a colour) in the seat's
# opening hand (the first deal's), wild "1"s it played in the whole game
SEAT_COLUMNS = ("tricks", "tallies", "fooled", "wilds_dealt", "tops_dealt", "wilds_played")
# deals, tricks in the whole game, lead changes, 1 if the game ended by the rules (0: stopped by max_deals)
GAME_COLUMNS = ("rounds", "tricks_played", "lead_changes", "finished", *leaders.COLUMNS)  # leaders: the game loop
SC_TRICKS, SC_TALLIES, SC_FOOLED, SC_WILDS_DEALT, SC_TOPS_DEALT, SC_WILDS_PLAYED = range(6)
GC_ROUNDS, GC_TRICKS_PLAYED, GC_LEAD_CHANGES, GC_FINISHED = range(4)
_ONE = np.int64(1)
_TAKEN = np.int64(1) << 40   # added to the key of a card that already took a disc

# Head fields of the game (after the common ones)
(HD_START, HD_DEAL, HD_TALLIES, HD_TRICKS, HD_LEADER_ALONE, HD_LEAD_CHANGES, HD_COUNT_AT, HD_LEADER, HD_TRICK, HD_LEAD,
 HD_PLAYED, HD_STEP, HD_OVER, HD_ACTIVE) = range(HEAD, HEAD + 14)
N_HEAD = HEAD + 14
# HD_START: start seat of the deal; HD_DEAL: deals begun; HD_TALLIES: tallies so far; HD_TRICKS: tricks completed;
# HD_LEADER_ALONE: the last seat to lead the totals alone after a deal (-1: none); HD_COUNT_AT: trace index of
# the deal's card count; HD_LEADER: leader of the trick; HD_TRICK: tricks of the deal completed; HD_LEAD: lead
# colour (0: none yet); HD_PLAYED: cards in the trick; HD_STEP: place of the seat to move in the trick's
# clockwise order from the leader; HD_OVER: 1 once a hand is empty in this trick; HD_ACTIVE: seats not passing

# The state (simulator.core.slots): the head and streams (simulator.core.state), then the game
STATE = Slots(N_HEAD, "cards", "players", "hand", "params")
ST_HAND_C = STATE.slot(np.int64, ("players", "hand"))        # colours of the hands (first ST_HAND_N[p] cards held)
ST_HAND_V = STATE.slot(np.int64, ("players", "hand"))        # their values
ST_HAND_N = STATE.slot(np.int64, "players")                  # hand sizes
ST_MASKS = STATE.slot(np.int64, ("players", MAX_COLOURS + 1))  # the hands as masks ([0] wilds, [c] value mask)
ST_UNPLAYED = STATE.slot(np.int64, MAX_COLOURS + 1)          # the cards of the deal not yet played, as masks
ST_TRICK_SEAT = STATE.slot(np.int64, MAX_PLAYERS)            # the cards of the trick so far: their seats,
ST_TRICK_COLOUR = STATE.slot(np.int64, MAX_PLAYERS)          # colours
ST_TRICK_VALUE = STATE.slot(np.int64, MAX_PLAYERS)           # and values
ST_FOOLED = STATE.slot(np.int64, "players")                  # 1 if the seat holds a disc
ST_VOIDS = STATE.slot(np.int64, "players")                   # bit c set once the seat has shown it holds no colour c
ST_TOTALS = STATE.slot(np.int64, "players")                  # game totals
ST_STATS = STATE.slot(np.int64, ("players", len(SEAT_COLUMNS)))  # the seat columns
ST_OBS = STATE.slot(np.int64, OBS_SIZE)   # the observation, its public fields kept current by reset and apply
                                          # (choose adds the seat's own: observe_seat)
GAME_SLOTS = STATE.end_of_game()          # then per-thread buffers that copy_state leaves alone:
ST_DECK = STATE.slot(np.int64, "cards")
ST_POINTS = STATE.slot(np.int64, "players")
ST_FULL = STATE.slot(np.int64, MAX_COLOURS + 1)              # the deck as masks ([0] wilds, [c] value mask)
ST_TOPS = STATE.slot(np.int64, MAX_COLOURS + 1)              # [c] the bit of colour c's highest card (0: none)
ST_OPT_COLOUR = STATE.slot(np.int64, "hand")
ST_OPT_VALUE = STATE.slot(np.int64, "hand")
ST_OPT_POS = STATE.slot(np.int64, "hand")
ST_RNG = STATE.slot(np.uint64, 4)                            # the deciding seat's stream
ST_PAR = STATE.slot(np.float64, "params")                    # the deciding seat's parameters
ST_POOL_C = STATE.slot(np.int64, "cards")                    # determinize's hidden cards
ST_POOL_V = STATE.slot(np.int64, "cards")
ST_ORDER = STATE.slot(np.int64, "players")                   # determinize's seat order
ST_BOUND = STATE.slot(np.int64, "players")                   # determinize's acceptance bounds
_allocate = STATE.allocator()
_copy_game = STATE.copier()


@nb.njit(cache=True)
def new_state(arrays, params):
    """Allocate one thread's state (the slots of ``STATE`` above; the only allocation). Jit-compiled."""
    card_colour, card_value, rules = arrays
    players = rules[R_PLAYERS]
    hand = rules[R_HAND]
    n_cards = card_colour.size
    state = _allocate(n_cards, players, hand, params.shape[1])
    full, tops = state[ST_FULL], state[ST_TOPS]
    for i in range(n_cards):
        if card_colour[i] == 0:
            full[0] += 1
        else:
            full[card_colour[i]] |= _ONE << card_value[i]
    for c in range(1, MAX_COLOURS + 1):
        for v in range(MAX_VALUE, 0, -1):
            if (full[c] >> v) & 1:
                tops[c] = _ONE << v
                break
    state[ST_HEAD][H_TO_MOVE] = -1
    return state


@nb.njit(cache=True, _nrt=False, inline="always")
def put_card(hand_c, hand_v, masks, p, j, c, v):
    """Card (colour ``c``, value ``v``) becomes card ``j`` of seat ``p``'s hand and joins its masks. Jit-compiled."""
    hand_c[p, j] = c
    hand_v[p, j] = v
    if c == 0:
        masks[p, 0] += 1
    else:
        masks[p, c] |= _ONE << v


@nb.njit(cache=True, _nrt=False)
def deal_hands(deck, hand_c, hand_v, hand_n, masks, full, unplayed, card_colour, card_value):
    """Deal ``deck`` in blocks (seat 0 first) into the hands and their masks. Jit-compiled."""
    players, size = hand_c.shape
    masks[:, :] = 0
    for c in range(full.size):
        unplayed[c] = full[c]
    for p in range(players):
        hand_n[p] = size
        for j in range(size):
            put_card(hand_c, hand_v, masks, p, j, card_colour[deck[p * size + j]], card_value[deck[p * size + j]])


@nb.njit(cache=True, _nrt=False)
def worst_key(colour, value, lead, order):
    """Badness of the ``order``-th card of a trick, smaller is worse. Jit-compiled.

    Shed cards (neither ``lead`` nor wild) rank below wilds, wilds below
    lead-colour cards; then by value; equal cards: the later one is worse.
    """
    kind = 1 if colour == 0 else (2 if colour == lead else 0)
    return (kind * 64 + value) * 16 + 15 - order


@nb.njit(cache=True, _nrt=False)
def trick_place(key):
    """The place in the trick (0 = first card) of the card with this ``worst_key``. Jit-compiled."""
    return 15 - (key & 15)


@nb.njit(cache=True, _nrt=False)
def deal_points(hand_c, hand_v, hand_n, fooled, empty_hand, wild_penalty, points):
    """Write each seat's points for the deal into ``points``; return the number of tallies. Jit-compiled.

    An empty hand scores ``empty_hand`` (a tally) unless befooled in the last
    trick (0); otherwise minus the cards left, a wild counting ``wild_penalty``.
    """
    tallies = 0
    for p in range(hand_n.size):
        if hand_n[p] == 0:
            if fooled[p]:
                points[p] = 0
            else:
                points[p] = empty_hand
                tallies += 1
        else:
            lost = 0
            for j in range(hand_n[p]):
                lost += wild_penalty if hand_c[p, j] == 0 else hand_v[p, j]
            points[p] = -lost
    return tallies


@nb.njit(cache=True, _nrt=False)
def next_start(points, previous):
    """The lowest deal score starts; ties go clockwise from ``previous``, counting it first. Jit-compiled."""
    players = points.size
    best = previous
    for i in range(1, players):
        s = (previous + i) % players
        if points[s] < points[best]:
            best = s
    return best


@nb.njit(cache=True, _nrt=False, inline="always")
def start_trick(state, arrays):
    """Open a trick led by the head's leader (never a passing seat); the leader is to move. Jit-compiled."""
    head, fooled, obs = state[ST_HEAD], state[ST_FOOLED], state[ST_OBS]
    active = fooled.size
    for p in range(fooled.size):
        active -= fooled[p]
    head[HD_ACTIVE] = active
    head[HD_LEAD] = 0
    head[HD_PLAYED] = 0
    head[HD_STEP] = 0
    head[H_TO_MOVE] = head[HD_LEADER]
    obs[OBS_TRICK] = head[HD_TRICK]
    obs[OBS_LEADER] = head[HD_LEADER]


@nb.njit(cache=True, _nrt=False)
def count_opening_hands(masks, tops, stats):
    """Write each seat's wild "1"s and colour tops (``tops``: the highest card of each colour in play, as a
    bit) of the opening hand into its seat columns. Jit-compiled."""
    for p in range(masks.shape[0]):
        stats[p, SC_WILDS_DEALT] = masks[p, 0]
        held = 0
        for c in range(1, tops.size):
            held += 1 if masks[p, c] & tops[c] else 0
        stats[p, SC_TOPS_DEALT] = held


@nb.njit(cache=True, _nrt=False)
def start_deal(state, arrays, trace, record):
    """Shuffle with the chance stream, deal, and open the deal's first trick. Jit-compiled."""
    card_colour, card_value, rules = arrays
    head, rngs, obs, totals = state[ST_HEAD], state[ST_RNGS], state[ST_OBS], state[ST_TOTALS]
    deck = state[ST_DECK]
    players = rules[R_PLAYERS]
    size = rules[R_HAND]
    fresh_deck(deck, rules[R_CARDS], rngs[0])
    deal_hands(deck, state[ST_HAND_C], state[ST_HAND_V], state[ST_HAND_N], state[ST_MASKS], state[ST_FULL],
               state[ST_UNPLAYED], card_colour, card_value)
    if head[HD_DEAL] == 0:
        count_opening_hands(state[ST_MASKS], state[ST_TOPS], state[ST_STATS])
    state[ST_FOOLED][:] = 0
    state[ST_VOIDS][:] = 0
    for p in range(players):
        obs[OBS_COUNT + p] = size
        obs[OBS_PASSING + p] = 0
        obs[OBS_TOTAL + p] = totals[p]
    obs[OBS_DEAL] = head[HD_DEAL]
    obs[OBS_TALLIES] = head[HD_TALLIES]
    if record:
        t = head[H_TRACE]
        trace[t] = head[HD_START]
        for i in range(players * size):
            trace[t + 1 + i] = 100 * card_colour[deck[i]] + card_value[deck[i]]
        head[HD_COUNT_AT] = t + 1 + players * size
        head[H_TRACE] = head[HD_COUNT_AT] + 1
    head[HD_DEAL] += 1
    head[HD_LEADER] = head[HD_START]
    head[HD_TRICK] = 0
    head[HD_OVER] = 0
    start_trick(state, arrays)


@nb.njit(cache=True, _nrt=False)
def reset(state, arrays, seed, game, trace, record):
    """Deal game ``game`` of run ``seed``; the first deal's start player (seat 0) is to move. Jit-compiled.

    With ``record`` the trace (see the module docstring) is written to ``trace``.
    """
    rules = arrays[2]
    head, obs = state[ST_HEAD], state[ST_OBS]
    seed_game(state[ST_RNGS], seed, game)
    state[ST_TOTALS][:] = 0
    state[ST_STATS][:, :] = 0
    state[ST_TRICK_SEAT][:] = 0
    state[ST_TRICK_COLOUR][:] = 0
    state[ST_TRICK_VALUE][:] = 0
    head[:] = 0
    head[H_KIND] = KIND_PLAY
    head[H_TRACE] = 1 if record else 0
    head[HD_LEADER_ALONE] = -1
    obs[:] = 0
    obs[OBS_PLAYERS] = rules[R_PLAYERS]
    obs[OBS_COLOURS] = rules[R_COLOURS]
    obs[OBS_DISCS] = rules[R_DISCS]
    obs[OBS_EMPTY_HAND] = rules[R_EMPTY_HAND]
    obs[OBS_WILD_PENALTY] = rules[R_WILD_PENALTY]
    obs[OBS_LOSS_LIMIT] = rules[R_LOSS_LIMIT]
    obs[OBS_TALLY_LIMIT] = rules[R_TALLY_LIMIT]
    start_deal(state, arrays, trace, record)


@nb.njit(cache=True, _nrt=False, inline="always")
def list_options(state, seat, opt_colour, opt_value, opt_pos):
    """Write the legal cards of ``seat`` (hand order) into the option arrays; return how many. Jit-compiled.

    With a lead colour in hand: that colour and wilds; else any card.
    """
    hand_c, hand_v, lead = state[ST_HAND_C], state[ST_HAND_V], state[ST_HEAD][HD_LEAD]
    free = np.int64(lead == 0 or state[ST_MASKS][seat, lead] == 0)
    k = 0
    for j in range(state[ST_HAND_N][seat]):
        # written every time, kept when legal: no unpredictable branch
        c = hand_c[seat, j]
        opt_colour[k] = c
        opt_value[k] = hand_v[seat, j]
        opt_pos[k] = j
        k += free | np.int64(c == lead) | np.int64(c == 0)
    return k


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def legal_actions(state, arrays, actions):
    """The seat to move's legal actions (hand positions, hand order) into ``actions``; return how many.

    Jit-compiled; uses the state's option buffers.
    """
    n = list_options(state, state[ST_HEAD][H_TO_MOVE], state[ST_OPT_COLOUR], state[ST_OPT_VALUE], state[ST_OPT_POS])
    opt_pos = state[ST_OPT_POS]
    for k in range(n):
        actions[k] = opt_pos[k]
    return n


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def move_key(state, arrays, action):
    """The card that playing hand position ``action`` puts in the trick, ``colour * (MAX_VALUE + 1) + value``
    (``layout``, "Move keys"). Jit-compiled."""
    p = state[ST_HEAD][H_TO_MOVE]
    return state[ST_HAND_C][p, action] * (MAX_VALUE + 1) + state[ST_HAND_V][p, action]


@nb.njit(cache=True, _nrt=False, inline="always")
def observe_seat(state, arrays, seat, obs):
    """Write the fields of ``obs`` that belong to ``seat`` and to the pending play. Jit-compiled.

    The other fields of ``obs`` must already be the state's (as in the
    state's own observation buffer, which ``reset`` and ``apply`` keep current).
    """
    head, masks, unplayed = state[ST_HEAD], state[ST_MASKS], state[ST_UNPLAYED]
    obs[OBS_SEAT] = seat
    obs[OBS_LEAD] = head[HD_LEAD]
    obs[OBS_PLAYED] = head[HD_PLAYED]
    obs[OBS_TO_PLAY] = head[HD_ACTIVE] - head[HD_PLAYED] - 1
    obs[OBS_MINE] = masks[seat, 0]
    obs[OBS_UNSEEN] = unplayed[0] - masks[seat, 0]
    for c in range(1, arrays[2][R_COLOURS] + 1):
        obs[OBS_MINE + c] = masks[seat, c]
        obs[OBS_UNSEEN + c] = unplayed[c] & ~masks[seat, c]


@nb.njit(cache=True, _nrt=False)
def observe(state, arrays, seat, obs):
    """Write what ``seat`` sees into ``obs`` (the layout of ``simulator.fool.layout``). Jit-compiled.

    The seat-dependent fields are ``seat``'s; ``OBS_LEAD``, ``OBS_PLAYED`` and
    ``OBS_TO_PLAY`` describe the trick as it waits for the seat to move.
    """
    own = state[ST_OBS]
    for i in range(OBS_SIZE):
        obs[i] = own[i]
    observe_seat(state, arrays, seat, obs)


def choose(state, arrays, sids, params):
    """Kernel template: the seat to move's strategy picks a card; return its action (-1: an illegal pick).

    Builds the options (the legal cards, hand order) and the seat's
    observation (``observe_seat`` on the state's own observation buffer),
    and calls the bound global ``decide``.
    """
    p = state[ST_HEAD][H_TO_MOVE]
    opt_colour, opt_value, opt_pos, obs = state[ST_OPT_COLOUR], state[ST_OPT_VALUE], state[ST_OPT_POS], state[ST_OBS]
    k = list_options(state, p, opt_colour, opt_value, opt_pos)
    observe_seat(state, arrays, p, obs)
    choice = decide(sids[p], p, state[ST_RNGS], params, state[ST_RNG], state[ST_PAR], opt_colour, opt_value, k, obs)
    if choice < 0 or choice >= k:
        return illegal(state, choice)
    return opt_pos[choice]


@nb.njit(cache=True, _nrt=False, inline="always")
def end_trick(state, arrays):
    """Score the full trick: the winner leads next, the worst cards take the discs. Jit-compiled.

    The trick is resolved without branches on the cards: that was measured
    about twice as fast as helpers taking the trick arrays.
    """
    head, t_seat = state[ST_HEAD], state[ST_TRICK_SEAT]
    t_colour, t_value = state[ST_TRICK_COLOUR], state[ST_TRICK_VALUE]
    fooled, stats, obs = state[ST_FOOLED], state[ST_STATS], state[ST_OBS]
    n, lead = head[HD_PLAYED], head[HD_LEAD]
    # Winner: the highest lead-colour card; the first player if only wilds were played.
    winner = t_seat[0]
    best = 0
    for i in range(n):
        value = t_value[i] if t_colour[i] == lead else 0
        winner = t_seat[i] if value > best else winner
        best = max(best, value)
    # Befooled: the worst card takes a disc, then the worst of the rest. Keys are unique
    # and carry the card's place in the trick (see worst_key).
    fooled[:] = 0
    taken = 0         # bit i: the i-th card already took a disc
    for _ in range(arrays[2][R_DISCS]):
        worst = _TAKEN
        for i in range(n):
            worst = min(worst, worst_key(t_colour[i], t_value[i], lead, i) + ((taken >> i) & 1) * _TAKEN)
        i = trick_place(worst)
        taken |= 1 << i
        fooled[t_seat[i]] = 1
    stats[winner, SC_TRICKS] += 1
    for p in range(fooled.size):
        stats[p, SC_FOOLED] += fooled[p]
        obs[OBS_PASSING + p] = fooled[p]
    head[HD_LEADER] = winner
    head[HD_TRICK] += 1
    head[HD_TRICKS] += 1


@nb.njit(cache=True, _nrt=False)
def end_deal(state, arrays, trace, record):
    """Score the deal; then end the game (by its rules or the cap) or deal the next one. Jit-compiled."""
    rules = arrays[2]
    head, hand_n, fooled, totals, stats, points = (state[ST_HEAD], state[ST_HAND_N], state[ST_FOOLED], state[ST_TOTALS],
                                                   state[ST_STATS], state[ST_POINTS])
    players = hand_n.size
    head[HD_TALLIES] += deal_points(state[ST_HAND_C], state[ST_HAND_V], hand_n, fooled, rules[R_EMPTY_HAND],
                                   rules[R_WILD_PENALTY], points)
    lowest = 0
    for p in range(players):
        totals[p] += points[p]
        if hand_n[p] == 0 and not fooled[p]:
            stats[p, SC_TALLIES] += 1
        lowest = min(lowest, totals[p])
    best, top = 0, 0
    for p in range(players):
        if p == 0 or totals[p] > totals[best]:
            best, top = p, 1
        elif totals[p] == totals[best]:
            top += 1
    if top == 1:
        head[HD_LEAD_CHANGES] += 1 if head[HD_LEADER_ALONE] >= 0 and best != head[HD_LEADER_ALONE] else 0
        head[HD_LEADER_ALONE] = best
    if record:
        trace[head[HD_COUNT_AT]] = head[H_TRACE] - head[HD_COUNT_AT] - 1
    ended = lowest <= -rules[R_LOSS_LIMIT] or head[HD_TALLIES] >= rules[R_TALLY_LIMIT]
    if ended or head[HD_DEAL] >= rules[R_MAX_DEALS]:
        head[H_TO_MOVE] = -1
        head[H_FINISHED] = 1 if ended else 0
        if record:
            trace[0] = head[HD_DEAL]
        return
    head[HD_START] = next_start(points, head[HD_START])
    start_deal(state, arrays, trace, record)


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def apply(state, arrays, action, trace, record):
    """The seat to move plays the card at hand position ``action`` (a legal action). Jit-compiled.

    Then the next seat not passing is to move; after the trick's last card the
    trick, and after the deal's last trick the deal, is scored and the next
    one opened (or the game ends).
    """
    head, hand_c, hand_v, hand_n = state[ST_HEAD], state[ST_HAND_C], state[ST_HAND_V], state[ST_HAND_N]
    masks, unplayed = state[ST_MASKS], state[ST_UNPLAYED]
    fooled, obs = state[ST_FOOLED], state[ST_OBS]
    players = hand_n.size
    p = head[H_TO_MOVE]
    j = action
    c = hand_c[p, j]
    v = hand_v[p, j]
    lead = head[HD_LEAD]
    n = head[HD_PLAYED]
    hand_n[p] -= 1
    hand_c[p, j] = hand_c[p, hand_n[p]]
    hand_v[p, j] = hand_v[p, hand_n[p]]
    if c == 0:
        masks[p, 0] -= 1
        unplayed[0] -= 1
        state[ST_STATS][p, SC_WILDS_PLAYED] += 1
    else:
        masks[p, c] &= ~(_ONE << v)
        unplayed[c] &= ~(_ONE << v)
        if lead == 0:
            head[HD_LEAD] = c
        elif c != lead:
            state[ST_VOIDS][p] |= _ONE << lead     # shed: holds no card of the lead colour
    state[ST_TRICK_SEAT][n] = p
    state[ST_TRICK_COLOUR][n] = c
    state[ST_TRICK_VALUE][n] = v
    obs[OBS_TRICK_COLOUR + n] = c
    obs[OBS_TRICK_VALUE + n] = v
    obs[OBS_TRICK_SEAT + n] = p
    obs[OBS_COUNT + p] = hand_n[p]
    head[HD_PLAYED] = n + 1
    if hand_n[p] == 0:
        head[HD_OVER] = 1
    if record:
        trace[head[H_TRACE]] = 100 * c + v
        head[H_TRACE] += 1
    step = head[HD_STEP] + 1
    leader = head[HD_LEADER]
    while step < players and fooled[(leader + step) % players]:
        step += 1
    if step < players:
        head[HD_STEP] = step
        head[H_TO_MOVE] = (leader + step) % players
        return
    end_trick(state, arrays)
    if head[HD_OVER]:
        end_deal(state, arrays, trace, record)
    else:
        start_trick(state, arrays)


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def standing(state, arrays, standing):
    """The standing ``result`` writes (the game totals), alone: what the game loop records a deal's leader
    from. Jit-compiled."""
    totals = state[ST_TOTALS]
    for p in range(totals.size):
        standing[p] = totals[p]


@nb.njit(cache=True, _nrt=False)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Write the final totals (``standing`` = totals), the seat columns and the game columns. Jit-compiled."""
    head, totals, stats = state[ST_HEAD], state[ST_TOTALS], state[ST_STATS]
    for p in range(totals.size):
        scores[p] = totals[p]
        standing[p] = totals[p]
        for k in range(stats.shape[1]):
            seat_stats[p, k] = stats[p, k]
    game_stats[GC_ROUNDS] = head[HD_DEAL]
    game_stats[GC_TRICKS_PLAYED] = head[HD_TRICKS]
    game_stats[GC_LEAD_CHANGES] = head[HD_LEAD_CHANGES]
    game_stats[GC_FINISHED] = head[H_FINISHED]


@nb.njit(cache=True, _nrt=False)
def copy_state(src, dst):
    """Copy the game of ``src`` (head, streams, every game array) into ``dst``, not its buffers. Jit-compiled."""
    _copy_game(src, dst)


@nb.njit(cache=True, _nrt=False, inline="always")
def swap_cards(pool_c, pool_v, a, b):
    """Swap cards ``a`` and ``b`` of the pool. Jit-compiled."""
    c, v = pool_c[a], pool_v[a]
    pool_c[a], pool_v[a] = pool_c[b], pool_v[b]
    pool_c[b], pool_v[b] = c, v


@nb.njit(cache=True, _nrt=False)
def determinize(state, arrays, seat, rng):
    """Resample in place what ``seat`` cannot see, drawing only from ``rng``. Jit-compiled.

    Hidden from ``seat``: the cards of the other hands and their order, and
    the chance stream (the shuffles of later deals). Kept: everything else,
    in particular ``seat``'s hand, every hand's size, the cards played, the
    discs and the voids each seat has shown by shedding. The other hands are an
    exact uniform draw among the deals of the hidden cards that give every
    seat its hand size and no card of a colour it has shown void in, each hand
    in a uniform order; the chance stream is reseeded from ``rng``.

    Method (exact rejection sampling): the seats with a void that matters (the
    hidden cards hold that colour) are served first, those allowed the fewest
    hidden cards first, each a uniform draw from
    the cards it may hold, kept with probability C(a, h) / C(m, h) where ``a``
    is the number of such cards left, ``h`` its hand size and ``m`` a bound on
    ``a`` over every draw of the seats before it; a refused draw starts again.
    Every consistent deal then has the same chance per attempt. The other
    seats share the rest uniformly.
    """
    head, rngs = state[ST_HEAD], state[ST_RNGS]
    for k in range(4):
        rngs[0, k] = next_u64(rng)
    if head[H_TO_MOVE] < 0:
        return
    hand_c, hand_v, hand_n = state[ST_HAND_C], state[ST_HAND_V], state[ST_HAND_N]
    masks, voids = state[ST_MASKS], state[ST_VOIDS]
    pool_c, pool_v, order, bound = state[ST_POOL_C], state[ST_POOL_V], state[ST_ORDER], state[ST_BOUND]
    players = hand_n.size
    # the hidden cards: the deal's unplayed cards outside the seat's hand (a deal uses every card), by colour,
    # then value, so the draw depends only on which cards are hidden; ``present``: their colours, as bits
    unplayed = state[ST_UNPLAYED]
    n = 0
    for _ in range(unplayed[0] - masks[seat, 0]):
        pool_c[n] = 0
        pool_v[n] = WILD_VALUE
        n += 1
    present = _ONE if n else 0
    for c in range(1, masks.shape[1]):
        hidden = unplayed[c] & ~masks[seat, c]
        present |= _ONE << c if hidden else 0
        v = 0
        while hidden:
            if hidden & 1:
                pool_c[n] = c
                pool_v[n] = v
                n += 1
            hidden >>= 1
            v += 1
    # the other seats, those with a void that matters first
    others = 0
    for p in range(players):
        if p != seat and voids[p] & present:
            order[others] = p
            others += 1
    constrained = others
    # fewest cards allowed first (insertion sort by the count of hidden cards each may hold)
    for k in range(constrained):
        p = order[k]
        mine = 0
        for i in range(n):
            mine += 1 if not (voids[p] >> pool_c[i]) & 1 else 0
        bound[k] = mine
        m = k
        while m > 0 and bound[m - 1] > mine:
            bound[m], order[m] = bound[m - 1], order[m - 1]
            m -= 1
        bound[m], order[m] = mine, p
    for p in range(players):
        if p != seat and not voids[p] & present:
            order[others] = p
            others += 1
    # bound[k]: the most cards seat order[k] may hold that can be left after the seats before it
    before = 0        # the colours the seats before may hold, as bits
    taken = 0         # the cards they hold
    for k in range(constrained):
        p = order[k]
        allowed = ~voids[p]
        mine, outside = 0, 0
        for i in range(n):
            bit = _ONE << pool_c[i]
            mine += 1 if bit & allowed else 0
            outside += 1 if bit & before & ~allowed else 0
        bound[k] = mine - max(0, taken - outside)
        before |= allowed
        taken += hand_n[p]
    dealt = False
    i = 0
    while not dealt:
        dealt = True
        i = 0
        for k in range(constrained):
            p = order[k]
            h = hand_n[p]
            # the cards left that p may hold go to the front of the rest; draw h of them
            a = i
            for r in range(i, n):
                if not (voids[p] >> pool_c[r]) & 1:
                    swap_cards(pool_c, pool_v, a, r)
                    a += 1
            a -= i
            keep = 0.0
            if a >= h:    # then bound[k] >= a >= h
                keep = 1.0
                for q in range(h):
                    keep *= (a - q) / (bound[k] - q)
            if keep < 1.0 and uniform(rng) >= keep:
                dealt = False
                break
            for q in range(h):
                swap_cards(pool_c, pool_v, i + q, i + q + randint(rng, a - q))
            i += h
    for k in range(i, n - 1):
        swap_cards(pool_c, pool_v, k, k + randint(rng, n - k))
    i = 0
    for k in range(others):
        p = order[k]
        for c in range(masks.shape[1]):
            masks[p, c] = 0
        for j in range(hand_n[p]):
            put_card(hand_c, hand_v, masks, p, j, pool_c[i], pool_v[i])
            i += 1


@nb.njit(cache=True, _nrt=False, inline="always")
def horizon_mark(state):
    """The deals begun (``HD_DEAL``): it changes exactly when a deal has been scored and the next dealt. Jit-compiled.

    When the scoring of a deal ends the game, the game is over instead (the
    mark stays); either way ``result`` then writes the totals after that deal.
    """
    return state[ST_HEAD][HD_DEAL]


@nb.njit(cache=True, _nrt=False)
def action_class(state, arrays, action):
    """Bit mask of the descriptor's ``action_classes`` that ``action`` of the seat to move belongs to. Jit-compiled.

    ``wild-over-lead`` (bit 0): playing a wild "1" while holding a card of the
    trick's lead colour.
    """
    p, lead = state[ST_HEAD][H_TO_MOVE], state[ST_HEAD][HD_LEAD]
    return 1 if state[ST_HAND_C][p, action] == 0 and lead != 0 and state[ST_MASKS][p, lead] != 0 else 0
