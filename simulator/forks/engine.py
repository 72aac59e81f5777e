"""Forks fast engine: a game state of flat arrays and the state verbs of ``simulator.core.state``.

All verbs are jit-compiled and allocation-free (only ``new_state``
allocates). ``choose`` is a kernel template that
``simulator.core.kernels.bind_engine`` compiles against a strategy
dispatcher (``strategies.registry.make_dispatch``), called as
``decide(sid, seat, rngs, params, rng, par, kind, opt_dest, opt_value,
n_options, obs) -> int``: it hands seat ``seat``'s decision function (see
``simulator.forks.layout``) that seat's own stream and parameters. The state
record, the action ids and the decision kinds are documented in
``simulator.forks.layout``.

A round is asked as ``players`` INVEST decisions (seat 0 first), then
``players`` KEEP (merge: MARKET) decisions; every seat's observation shows
the table as it was at the start of the round, so the sequential asking
keeps the picks simultaneous.

Trace layout (int64): ``[n_cards, deck order as codes..., then per round the
first pick of every seat, then the second decision of every seat]``, where a
card's code is ``100 * destination + value`` and the second decision is the
invested card (standard) or the card sent to marketing (merge).
"""

import numba as nb
import numpy as np

from simulator.core import leaders
from simulator.core.bound import unbound
from simulator.core.cards import fresh_deck, remove_at
from simulator.core.inlining import VERBS
from simulator.core.rng import randint, seed_game, shuffle
from simulator.core.state import H_FINISHED, H_KIND, H_TO_MOVE, H_TRACE, ST_HEAD, ST_RNGS, copy_1d, illegal
from simulator.forks.features import N_FEATURES, OBS_SIZE, SEAT_FEATURE, features  # noqa: F401 (the state API)
from simulator.forks.layout import MAX_ACTIONS  # noqa: F401 (the state API: the option buffers' length)
from simulator.forks.layout import (HD_POS, HD_ROUND, INVEST, KEEP, MARKET, OBS_DECK, OBS_DESTINATIONS, OBS_MARKETING,
                                    OBS_MINE, OBS_PLAYERS, OBS_ROUND, OBS_ROUNDS, OBS_SEAT, OBS_TIEBREAK, OBS_TOP,
                                    R_DEST, R_INITIAL, R_MERGE, R_PLAYERS, R_REMOVE, R_REVEAL, R_ROUNDS, R_TOP, STATE,
                                    ST_CANON, ST_DECK, ST_HAND, ST_HAND_N, ST_HIDDEN, ST_MARKET, ST_MINE, ST_MKT,
                                    ST_OBS, ST_OPT_DEST, ST_OPT_VALUE, ST_PAR, ST_POOL, ST_RNG, ST_TAKEN, ST_WHERE)

# the names the templates here are bound with (simulator.core.bound)
decide = unbound("decide")

# dealt_values, invested_values: bit v set when the seat was dealt a card of value v among its first three
# cards (round 1), holds an invested card of value v at the end (values up to VALUE_BITS - 1 only)
SEAT_COLUMNS = ("gained", "lost", "dealt_values", "invested_values")
SC_GAINED, SC_LOST, SC_DEALT_VALUES, SC_INVESTED_VALUES = range(len(SEAT_COLUMNS))
VALUE_BITS = 31  # the seat columns are int32
GAME_COLUMNS = ("rounds", "finished", *leaders.COLUMNS)  # leaders: written by the game loop
GC_ROUNDS, GC_FINISHED = range(2)


_allocate = STATE.allocator()
_copy_game = STATE.copier()


@nb.njit(cache=True)
def new_state(arrays, params):
    """Allocate one state (the slots ``ST_*`` of ``simulator.forks.layout``: the game and its per-thread buffers);
    the only allocation. Jit-compiled."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    state = _allocate(card_dest.size, rules[R_PLAYERS], rules[R_ROUNDS], params.shape[1])
    _observe_rules(arrays, state[ST_OBS])
    copy_1d(state[ST_CANON], np.argsort(100 * card_dest + card_value, kind="mergesort"))
    return state


@nb.njit(cache=True, _nrt=False, inline="always")
def _code(card, card_dest, card_value):
    """A card's code, ``100 * destination + value`` (``layout.MAX_VALUE + 1`` is 100): its trace entry and its
    move key."""
    return 100 * card_dest[card] + card_value[card]


@nb.njit(cache=True, _nrt=False, inline="always")
def _start(state, arrays):
    """Put a dealt deck back to the first decision: empty hands, initial marketing, round 0 dealt."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    head, deck, hand_n, mine, mkt = state[ST_HEAD], state[ST_DECK], state[ST_HAND_N], state[ST_MINE], state[ST_MKT]
    hand_n[:] = 0
    mine[:, :] = 0
    mkt[:] = 0
    pos = rules[R_REMOVE]
    for _ in range(rules[R_INITIAL]):
        mkt[card_dest[deck[pos]]] += card_value[deck[pos]]
        pos += 1
    head[HD_ROUND] = 0
    head[HD_POS] = pos + 3 * rules[R_PLAYERS]
    head[H_TO_MOVE] = 0
    head[H_KIND] = INVEST
    head[H_FINISHED] = 0


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def reset(state, arrays, seed, game, trace, record):
    """Shuffle and deal game ``game`` of run ``seed``; seat 0's first pick is pending. Jit-compiled.

    With ``record`` the trace header (card count, deck order) goes to ``trace``.
    """
    card_dest, card_value = arrays[0], arrays[1]
    head, rngs, deck = state[ST_HEAD], state[ST_RNGS], state[ST_DECK]
    n = card_dest.size
    seed_game(rngs, seed, game)
    fresh_deck(deck, n, rngs[0])
    state[ST_TAKEN][:, :] = -1
    state[ST_MARKET][:, :] = -1
    head[H_TRACE] = 0
    if record:
        trace[0] = n
        for i in range(n):
            trace[1 + i] = _code(deck[i], card_dest, card_value)
        head[H_TRACE] = 1 + n
    _start(state, arrays)


@nb.njit(cache=True, _nrt=False, inline="always")
def _dealt(state, players, seat, j):
    """Card id of the ``j``-th card dealt to ``seat`` this round."""
    return state[ST_DECK][state[ST_HEAD][HD_POS] - 3 * players + 3 * seat + j]


@nb.njit(cache=True, _nrt=False, inline="always")
def _passed(state, players, seat, j):
    """Card id of the ``j``-th (0 or 1) card ``seat`` passed this round (dealing order)."""
    taken = state[ST_TAKEN][state[ST_HEAD][HD_ROUND], seat]
    return _dealt(state, players, seat, j if j < taken else j + 1)


@nb.njit(cache=True, _nrt=False, inline="always")
def _invest(state, seat, card, card_dest, card_value):
    hand, hand_n, mine = state[ST_HAND], state[ST_HAND_N], state[ST_MINE]
    hand[seat, hand_n[seat]] = card
    hand_n[seat] += 1
    mine[seat, card_dest[card]] += card_value[card]


@nb.njit(cache=True, _nrt=False, inline="always")
def _option_count(state):
    kind = state[ST_HEAD][H_KIND]
    if state[ST_HEAD][H_TO_MOVE] < 0:
        return 0
    if kind == INVEST:
        return 3
    if kind == KEEP:
        return 2
    return state[ST_HAND_N][state[ST_HEAD][H_TO_MOVE]]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def legal_actions(state, arrays, actions):
    """Write the legal action ids of the seat to move into ``actions`` and return their count. Jit-compiled.

    The ids are the option indices (see ``simulator.forks.layout``); 0 once the game is over.
    """
    n = _option_count(state)
    for i in range(n):
        actions[i] = i
    return n


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def move_key(state, arrays, action):
    """The face of the card that option ``action`` invests (``INVEST``, ``KEEP``) or sends to marketing
    (``MARKET``), as its code ``100 * destination + value`` (``layout``, "Move keys"). Jit-compiled."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    players = rules[R_PLAYERS]
    p, kind = state[ST_HEAD][H_TO_MOVE], state[ST_HEAD][H_KIND]
    if kind == INVEST:
        card = _dealt(state, players, p, action)
    elif kind == KEEP:
        card = _passed(state, players, (p - 1 + players) % players, action)
    else:
        card = state[ST_HAND][p, action]
    return _code(card, card_dest, card_value)


@nb.njit(cache=True, _nrt=False, inline="always")
def _options(state, arrays, opt_dest, opt_value):
    """Write the pending decision's options (destination, value) in action order; return their count."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    players = rules[R_PLAYERS]
    head, deck, hand = state[ST_HEAD], state[ST_DECK], state[ST_HAND]
    p, kind = head[H_TO_MOVE], head[H_KIND]
    n = _option_count(state)
    dealt = head[HD_POS] - 3 * players  # this round's first dealt card
    if kind == INVEST:
        for j in range(3):
            opt_dest[j] = card_dest[deck[dealt + 3 * p + j]]
            opt_value[j] = card_value[deck[dealt + 3 * p + j]]
    elif kind == KEEP:
        for j in range(2):
            card = _passed(state, players, (p - 1 + players) % players, j)
            opt_dest[j] = card_dest[card]
            opt_value[j] = card_value[card]
    else:
        for j in range(n):
            opt_dest[j] = card_dest[hand[p, j]]
            opt_value[j] = card_value[hand[p, j]]
    return n


@nb.njit(cache=True, _nrt=False, inline="always")
def _observe_rules(arrays, obs):
    """Write the parts of an observation that only the setup fixes (the same for every seat and turn)."""
    tiebreak_rank, rules = arrays[2], arrays[3]
    for d in range(rules[R_DEST]):
        obs[OBS_TIEBREAK + d] = tiebreak_rank[d]
    obs[OBS_DESTINATIONS] = rules[R_DEST]
    obs[OBS_TOP] = rules[R_TOP]
    obs[OBS_ROUNDS] = rules[R_ROUNDS]
    obs[OBS_PLAYERS] = rules[R_PLAYERS]


@nb.njit(cache=True, _nrt=False, inline="always")
def _observe_turn(state, arrays, seat, obs):
    """Write the parts of ``seat``'s observation that change during a game."""
    head, mine, mkt = state[ST_HEAD], state[ST_MINE], state[ST_MKT]
    for d in range(arrays[3][R_DEST]):
        obs[OBS_MARKETING + d] = mkt[d]
        obs[OBS_MINE + d] = mine[seat, d]
    obs[OBS_ROUND] = head[HD_ROUND]
    obs[OBS_DECK] = arrays[0].size - head[HD_POS]
    obs[OBS_SEAT] = seat


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def observe(state, arrays, seat, obs):
    """Write what ``seat`` sees into ``obs`` (layout ``simulator.forks.layout.OBS_*``). Jit-compiled.

    The marketing totals are those revealed so far, so during a round every
    seat sees the table as it was before the round's marketing cards.
    Entries for destinations past ``OBS_DESTINATIONS`` are not written (a
    fresh ``np.zeros(OBS_SIZE)`` buffer holds zeros there, as strategies expect).
    """
    _observe_rules(arrays, obs)
    _observe_turn(state, arrays, seat, obs)


def choose(state, arrays, sids, params):
    """Kernel template: the seat to move's strategy picks an option; return its action id (-1: illegal).

    Builds the seat's observation (``observe``: the state's own buffer holds
    the setup's part since ``new_state``, so only the turn's part is
    written) and its options, calls the bound global ``decide``; the chosen
    option index is the action id.
    """
    p, kind = state[ST_HEAD][H_TO_MOVE], state[ST_HEAD][H_KIND]
    obs, opt_dest, opt_value = state[ST_OBS], state[ST_OPT_DEST], state[ST_OPT_VALUE]
    _observe_turn(state, arrays, p, obs)
    n = _options(state, arrays, opt_dest, opt_value)
    rngs, rng, par = state[ST_RNGS], state[ST_RNG], state[ST_PAR]
    if kind == INVEST:  # constant option counts let the compiler specialise the strategy call
        k = decide(sids[p], p, rngs, params, rng, par, INVEST, opt_dest, opt_value, 3, obs)
    elif kind == KEEP:
        k = decide(sids[p], p, rngs, params, rng, par, KEEP, opt_dest, opt_value, 2, obs)
    else:
        k = decide(sids[p], p, rngs, params, rng, par, MARKET, opt_dest, opt_value, n, obs)
    return k if 0 <= k < n else illegal(state, k)


@nb.njit(cache=True, _nrt=False, inline="always")
def _next_seat(state, arrays):
    """After a pick: the next seat, or the next phase, or the reveal and the next round (or the end)."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    head, deck, market = state[ST_HEAD], state[ST_DECK], state[ST_MARKET]
    players = rules[R_PLAYERS]
    if head[H_TO_MOVE] + 1 < players:
        head[H_TO_MOVE] += 1
        return
    head[H_TO_MOVE] = 0
    r = head[HD_ROUND]
    if head[H_KIND] == INVEST:
        if rules[R_MERGE] == 1:  # both passed cards join the receiver's hand
            for q in range(players):
                src = (q - 1 + players) % players
                _invest(state, q, _passed(state, players, src, 0), card_dest, card_value)
                _invest(state, q, _passed(state, players, src, 1), card_dest, card_value)
            head[H_KIND] = MARKET
        else:
            head[H_KIND] = KEEP
        return
    # reveal the round's marketing cards (and, if the table says so, deck cards)
    mkt = state[ST_MKT]
    n = card_dest.size
    for q in range(players):
        mkt[card_dest[market[r, q]]] += card_value[market[r, q]]
    pos = head[HD_POS]
    for _ in range(rules[R_REVEAL]):
        if pos < n:
            mkt[card_dest[deck[pos]]] += card_value[deck[pos]]
            pos += 1
    head[HD_ROUND] = r + 1
    head[H_KIND] = INVEST
    if r + 1 == rules[R_ROUNDS]:
        head[HD_POS] = pos
        head[H_TO_MOVE] = -1
        head[H_FINISHED] = 1
    else:
        head[HD_POS] = pos + 3 * players


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def apply(state, arrays, action, trace, record):
    """The seat to move takes option ``action`` (see ``legal_actions``); play on to the next decision. Jit-compiled.

    With ``record`` the pick's card code is appended to ``trace``.
    """
    card_dest, card_value, tiebreak_rank, rules = arrays
    head = state[ST_HEAD]
    players = rules[R_PLAYERS]
    p, kind, r = head[H_TO_MOVE], head[H_KIND], head[HD_ROUND]
    if kind == INVEST:
        card = _dealt(state, players, p, action)
        state[ST_TAKEN][r, p] = action
        _invest(state, p, card, card_dest, card_value)
    elif kind == KEEP:
        src = (p - 1 + players) % players
        card = _passed(state, players, src, action)
        state[ST_MARKET][r, p] = _passed(state, players, src, 1 - action)
        _invest(state, p, card, card_dest, card_value)
    else:
        hand_n = state[ST_HAND_N]
        card = remove_at(state[ST_HAND][p], hand_n[p], action)
        hand_n[p] -= 1
        state[ST_MINE][p, card_dest[card]] -= card_value[card]
        state[ST_MARKET][r, p] = card
    if record:
        trace[head[H_TRACE]] = _code(card, card_dest, card_value)
        head[H_TRACE] += 1
    _next_seat(state, arrays)


@nb.njit(cache=True, _nrt=False, inline="always")
def _write_values(state, arrays, seat_stats):
    """The seat columns ``dealt_values`` (round 1's three cards) and ``invested_values`` (the hand now) as bits
    of the card values below ``VALUE_BITS``. Jit-compiled."""
    card_value, rules = arrays[1], arrays[3]
    deck, hand, hand_n = state[ST_DECK], state[ST_HAND], state[ST_HAND_N]
    first = rules[R_REMOVE] + rules[R_INITIAL]
    for p in range(rules[R_PLAYERS]):
        dealt = 0
        for j in range(3):
            v = card_value[deck[first + 3 * p + j]]
            dealt |= (1 << v) if v < VALUE_BITS else 0
        invested = 0
        for j in range(hand_n[p]):
            v = card_value[hand[p, j]]
            invested |= (1 << v) if v < VALUE_BITS else 0
        seat_stats[p, SC_DEALT_VALUES] = dealt
        seat_stats[p, SC_INVESTED_VALUES] = invested


@nb.njit(cache=True, _nrt=False, inline="always")
def _scores_positive(mkt, tiebreak_rank, rules, d):
    """True when destination ``d`` places among the ``R_TOP`` first by marketing total (ties to the earlier
    tiebreak entry): its invested values score positive, else negative."""
    place = 0
    for e in range(rules[R_DEST]):
        if mkt[e] > mkt[d] or (mkt[e] == mkt[d] and tiebreak_rank[e] < tiebreak_rank[d]):
            place += 1
    return place < rules[R_TOP]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def standing(state, arrays, standing):
    """The standing ``result`` writes (the score: value invested on the destinations that score positive less
    the value on the others), alone: what the game loop records a round's leader from. Jit-compiled."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    mine, mkt = state[ST_MINE], state[ST_MKT]
    players = rules[R_PLAYERS]
    for p in range(players):
        standing[p] = 0
    for d in range(rules[R_DEST]):
        sign = 1 if _scores_positive(mkt, tiebreak_rank, rules, d) else -1
        for p in range(players):
            standing[p] += sign * mine[p, d]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Write the final outputs of a finished game. Jit-compiled.

    Seat scores (``standing`` = score), the points gained on top
    destinations and lost on the others per seat, the values dealt and
    invested per seat (``_write_values``), and the game columns
    ``rounds`` and ``finished`` (always 1: a Forks game ends by its rules).
    Destinations are ranked by marketing total, ties to the earlier
    tiebreak entry. Mid-game (the search's evaluation point) the same
    scoring applies to the marketing revealed and the cards invested so far.
    """
    card_dest, card_value, tiebreak_rank, rules = arrays
    mine, mkt = state[ST_MINE], state[ST_MKT]
    players = rules[R_PLAYERS]
    n_dest = rules[R_DEST]
    for p in range(players):
        seat_stats[p, SC_GAINED] = 0
        seat_stats[p, SC_LOST] = 0
    for d in range(n_dest):
        top = _scores_positive(mkt, tiebreak_rank, rules, d)
        for p in range(players):
            if top:
                seat_stats[p, SC_GAINED] += mine[p, d]
            else:
                seat_stats[p, SC_LOST] += mine[p, d]
    for p in range(players):
        scores[p] = seat_stats[p, SC_GAINED] - seat_stats[p, SC_LOST]
        standing[p] = scores[p]
    _write_values(state, arrays, seat_stats)
    game_stats[GC_ROUNDS] = state[ST_HEAD][HD_ROUND]
    game_stats[GC_FINISHED] = state[ST_HEAD][H_FINISHED]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def copy_state(src, dst):
    """Copy the game in ``src`` (head, streams, deck, log, hands, marketing) into ``dst``. Jit-compiled.

    ``dst`` comes from ``new_state`` with the same config; its per-thread
    buffers are left alone.
    """
    _copy_game(src, dst)


@nb.njit(cache=True, _nrt=False)
def _deal_start(rules, n, t):
    """Deck position of round ``t``'s first dealt card."""
    pos = rules[R_REMOVE] + rules[R_INITIAL]
    for _ in range(t):
        pos += 3 * rules[R_PLAYERS]
        pos += min(rules[R_REVEAL], n - pos)
    return pos


@nb.njit(cache=True, _nrt=False)
def _mark_hidden(state, arrays, seat):
    """Set ``ST_HIDDEN[pos]`` to 1 where ``seat`` has not seen the card at deck position ``pos``, else 0.

    Seen: the initial marketing and the revealed deck cards, the seat's own
    deals, the cards passed to it (from the second pick of a round on), and
    in the standard game each completed round's marketing card in the pair
    it came from. Hidden: the removed cards, the undealt deck and every other
    dealt card.
    """
    card_dest, card_value, tiebreak_rank, rules = arrays
    head, deck, taken = state[ST_HEAD], state[ST_DECK], state[ST_TAKEN]
    market, hidden = state[ST_MARKET], state[ST_HIDDEN]
    players, n = rules[R_PLAYERS], card_dest.size
    r, second = head[HD_ROUND], head[H_KIND] != INVEST
    left = (seat - 1 + players) % players
    hidden[:] = 1
    pos = rules[R_REMOVE]
    for _ in range(rules[R_INITIAL]):
        hidden[pos] = 0
        pos += 1
    for t in range(r + 1):
        for q in range(players):
            for j in range(3):
                at = pos + 3 * q + j
                if (q == seat or (q == left and (t < r or second) and j != taken[t, q])
                        or (rules[R_MERGE] == 0 and t < r and deck[at] == market[t, (q + 1) % players])):
                    hidden[at] = 0
        pos += 3 * players
        if t < r:
            for _ in range(min(rules[R_REVEAL], n - pos)):
                hidden[pos] = 0
                pos += 1


@nb.njit(cache=True, _nrt=False)
def _free_acquisition(state, arrays, seat, last_round, k):
    """The ``k``-th still free hidden deck position among the cards ``seat`` took in rounds up to
    ``last_round`` (its invested cards and the cards passed to it); with ``k < 0`` their count."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    taken, hidden = state[ST_TAKEN], state[ST_HIDDEN]
    players, n = rules[R_PLAYERS], card_dest.size
    src = (seat - 1 + players) % players
    found = 0
    for t in range(last_round + 1):
        base = _deal_start(rules, n, t)
        for j in range(3):
            for at, took in ((base + 3 * seat + j, j == taken[t, seat]), (base + 3 * src + j, j != taken[t, src])):
                if took and hidden[at] == 1:
                    if found == k:
                        return at
                    found += 1
    return found


@nb.njit(cache=True, _nrt=False)
def _market_option(state, arrays, card):
    """The action id with which the seat to move sends ``card`` to marketing."""
    players = arrays[3][R_PLAYERS]
    p = state[ST_HEAD][H_TO_MOVE]
    if state[ST_HEAD][H_KIND] == KEEP:  # keep the other passed card
        return 0 if _passed(state, players, (p - 1 + players) % players, 1) == card else 1
    hand = state[ST_HAND]
    for j in range(state[ST_HAND_N][p]):
        if hand[p, j] == card:
            return j
    return -1


@nb.njit(cache=True, _nrt=False)
def determinize(state, arrays, seat, rng):
    """Resample in place everything ``seat`` cannot see, consistently with what it has seen. Jit-compiled.

    Draws only from ``rng`` (uint64[4]), uniformly over the games that agree
    with everything the seat has seen (the exact posterior if the other seats
    play at random): the other seats' hands and deals, the removed cards and
    the undealt deck order are a uniform shuffle of the cards the seat has
    not seen (see ``_mark_hidden``), except that in the merge variant a card
    a seat sent to marketing from a hidden part of its hand is placed
    uniformly among that seat's hidden cards of that round or earlier; the
    face-down marketing picks of this round that the seat has not seen are
    redrawn uniformly among their options. The seen cards, the choice log and
    the head stay; the hands and totals are rebuilt by replaying the log. The
    strategy streams are left as they are. A finished game is left alone.
    """
    if state[ST_HEAD][H_TO_MOVE] < 0:
        return
    card_dest, card_value, tiebreak_rank, rules = arrays
    head, deck, market = state[ST_HEAD], state[ST_DECK], state[ST_MARKET]
    hidden, pool, where = state[ST_HIDDEN], state[ST_POOL], state[ST_WHERE]
    n, players = card_dest.size, rules[R_PLAYERS]
    r0, kind0, p0 = head[HD_ROUND], head[H_KIND], head[H_TO_MOVE]
    _mark_hidden(state, arrays, seat)
    for i in range(n):
        where[deck[i]] = i
    canon = state[ST_CANON]
    m = 0
    for k in range(n):  # in the order of the cards' faces: the draw depends only on which faces are hidden
        if hidden[where[canon[k]]] == 1:
            pool[m] = canon[k]
            m += 1
    if rules[R_MERGE] == 1:
        for t in range(r0):
            for q in range(players):
                card = market[t, q]
                if q == seat or hidden[where[card]] == 0:
                    continue
                at = _free_acquisition(state, arrays, q, t, randint(rng, _free_acquisition(state, arrays, q, t, -1)))
                hidden[at] = 2
                deck[at] = card
                for i in range(m):
                    if pool[i] == card:
                        m -= 1
                        pool[i] = pool[m]
                        break
    shuffle(pool, m, rng)
    k = 0
    for i in range(n):
        if hidden[i] == 1:
            deck[i] = pool[k]
            k += 1
    _start(state, arrays)
    while not (head[HD_ROUND] == r0 and head[H_KIND] == kind0 and head[H_TO_MOVE] == p0):
        q, t = head[H_TO_MOVE], head[HD_ROUND]
        if head[H_KIND] == INVEST:
            action = state[ST_TAKEN][t, q]
        elif t == r0 and q != seat:  # played face down this round: unseen
            action = randint(rng, _option_count(state))
        else:
            action = _market_option(state, arrays, market[t, q])
        apply(state, arrays, action, pool, False)


@nb.njit(cache=True, _nrt=False, inline="always")
def horizon_mark(state):
    """The rounds finished (``HD_ROUND``): it changes exactly when a round's marketing cards have been revealed
    and the next round dealt. Jit-compiled."""
    return state[ST_HEAD][HD_ROUND]


@nb.njit(cache=True)
def action_class(state, arrays, action):
    """Bit mask of the descriptor's ``action_classes`` that ``action`` of the seat to move belongs to. Jit-compiled.

    ``market-held`` (bit 0): the card the action sends to marketing lifts a
    destination the seat holds value in (counting the card it keeps with the
    same action); only second picks (``KEEP``, ``MARKET``) send a card to
    marketing.
    """
    card_dest, card_value, tiebreak_rank, rules = arrays
    players = rules[R_PLAYERS]
    p, kind = state[ST_HEAD][H_TO_MOVE], state[ST_HEAD][H_KIND]
    mine = state[ST_MINE]
    if kind == KEEP:
        src = (p - 1 + players) % players
        kept, sent = _passed(state, players, src, action), _passed(state, players, src, 1 - action)
        held = mine[p, card_dest[sent]] + (card_value[kept] if card_dest[kept] == card_dest[sent] else 0)
    elif kind == MARKET:
        sent = state[ST_HAND][p, action]
        held = mine[p, card_dest[sent]] - card_value[sent]
    else:
        return 0
    return 1 if held > 0 else 0
