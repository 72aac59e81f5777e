"""Fauch & Fertig fast engine: the game as a steppable state (``simulator.core.state``).

The verbs (``new_state``, ``reset``, ``legal_actions``, ``apply``,
``result``, ``observe``, ``copy_state``, ``determinize``) are jit-compiled
with ``cache=True``; ``choose`` is a kernel template that
``simulator.core.kernels.bind_engine`` compiles against a strategy dispatcher
``decide(sid, seat, rngs, params, rng, par, kind, options, n_options, obs) -> int``
(``strategies.registry.make_dispatch``; the decision functions themselves
have the signature documented in ``simulator.fauch_fertig.layout``, which
also documents the action ids). The rule steps the verbs are made of are in
``simulator.fauch_fertig.turn``.

A turn is one to three decisions of the same seat: the action, then after a
blind buy the card to keep, then after laying out an affordable pay card the
pay choice. ``apply`` runs everything between two decisions (draws,
reshuffles, eggs, the market refill, the next turn or the end of the game).

Trace layout (int64), the values the game consumed, in order::

    72, the shuffled deck (card ids, top first)
    m, the pile after the deal (pay cards dealt were replaced and shuffled back)
    the indices of the community cards laid out (card k lies between seats k and k+1)
    per turn: the action code; after a blind buy, the index of the kept card;
    after laying out an affordable pay card, 0 or 1; and whenever the empty
    draw pile is refilled from the discard pile, the count and the new pile.
"""

import numba as nb
import numpy as np

from simulator.core import leaders
from simulator.core.inlining import VERBS
from simulator.core.rng import next_u64, seed_game, seed_stream, shuffle
from simulator.core.state import H_FINISHED, H_KIND, H_TO_MOVE, copy_2d, illegal
from simulator.core.state import action_as_key as move_key  # noqa: F401 (the state API)
from simulator.core.state import no_horizon_mark as horizon_mark  # noqa: F401 (the state API)
from simulator.fauch_fertig.features import N_FEATURES, OBS_SIZE, SEAT_FEATURE, features  # noqa: F401 (the state API)
from simulator.fauch_fertig.layout import (A_BLIND, A_COINS, A_DECLINE, A_KEEP, ACTION, C_PAY, KEEP, MARKET,
                                           MAX_PLAYERS, N_CARDS, OBS_CARD, OBS_CARD_COLOUR, OBS_CARD_COND,
                                           OBS_CARD_NUMBER, OBS_COINS, OBS_DISCARD, OBS_EGGS, OBS_MARKET,
                                           OBS_MARKET_COINS, OBS_PILE, OBS_PLACED, OBS_PLAYERS, OBS_ROUND, OBS_SEAT,
                                           OBS_SCRATCH, PAY, R_BLIND_DRAW, R_EGGS, R_MAX_ROUNDS, R_PLAYERS, R_TAKE)
from simulator.fauch_fertig.turn import (BONUS, BONUS_N, CCOUNT, COMM, COMM_DONE, DISCARD, DISCARDER, DRAWN,
                                         EGGS_ON, G_ACTION, G_CARD, G_DISCARD, G_DRAWN, G_END, G_POS, G_ROUND,
                                         HEAD_SIZE, HIDDEN, MARKET_CARDS, MCOINS, N_COUNTERS, NCOUNT, OPEN, OPEN_N,
                                         OPTS, PAR, PILE, RNG, RNGS, S_BLIND, S_BOUGHT, S_COINS, S_DEALT,
                                         S_MARKET, S_PLACED, S_TAKES, S_TURNS, SEAT, VIEW, deal, draw,
                                         finish_purchase, from_supply, lay_out, legal_turn_actions, pay_for_egg,
                                         record)

assert N_CARDS <= 128  # determinize keeps the hidden cards as a 128-bit set
# dealt_kinds, bought_kinds: bit k set when a card of kind k (the table's k-th condition, setup.card_kinds) was
# dealt to the seat's opening display, bought by the seat
SEAT_COLUMNS = ("golden", "coins", "market_buys", "blind_buys", "coin_takes", "turns", "dealt_kinds", "bought_kinds")
GAME_COLUMNS = ("rounds", "finished", *leaders.COLUMNS)  # leaders: written by the game loop
STANDING_COINS = 1 << 32  # standing = eggs placed * STANDING_COINS + coins
STATIC = OBS_CARD_COLOUR  # obs[STATIC:] is the static part (card descriptions) and the strategy's scratch


@nb.njit(cache=True)
def new_state(arrays, params):
    """Allocate one thread's state (the only allocation) and write the static part of its view. Jit-compiled.

    The tuple is the head and the random streams (``simulator.core.state``),
    the game's arrays (indices named in ``simulator.fauch_fertig.turn``) and
    the per-thread buffers: the community draw order, the options handed to
    strategies, determinize's working list, the deciding seat's stream and
    parameter row.
    """
    colour, number, card_cond, pool, rules = arrays
    players = rules[R_PLAYERS]
    view = np.zeros(OBS_SIZE, np.int64)
    for card in range(N_CARDS):
        view[OBS_CARD_COLOUR + card] = colour[card]
        view[OBS_CARD_NUMBER + card] = number[card]
        for j in range(4):
            view[OBS_CARD_COND + 4 * card + j] = card_cond[card, j]
    view[OBS_PLAYERS] = players
    view[OBS_EGGS] = rules[R_EGGS]
    draws = min(max(rules[R_BLIND_DRAW], 1), N_CARDS)
    return (np.zeros(HEAD_SIZE, np.int64),               # head: simulator.core.state slots, then G_*
            np.zeros((players + 1, 4), np.uint64),      # random streams: chance, then one per seat
            np.empty(N_CARDS, np.int64),                # pile, drawn from G_POS up to G_END
            np.empty(N_CARDS, np.int64),                # discard pile
            np.empty(N_CARDS, np.int64),                # the seat that discarded each discard-pile card
            np.empty(MARKET, np.int64),                 # market card per slot, -1 empty
            np.empty(MARKET, np.int64),                 # coins on each market slot
            np.empty(N_CARDS, np.int64),                # eggs on each card
            np.empty((MAX_PLAYERS + 1, 5), np.int64),   # cards per colour (4 = black) per seat; last row: two
            np.empty((MAX_PLAYERS + 1, 9), np.int64),   # cards per number per seat     seats together
            np.empty((MAX_PLAYERS, N_CARDS), np.int64),  # cards whose condition is still open, per seat
            np.empty(MAX_PLAYERS, np.int64),            # how many
            np.empty((MAX_PLAYERS, N_CARDS), np.int64),  # black-card bonus cards laid out, per seat
            np.empty(MAX_PLAYERS, np.int64),            # how many
            np.empty((MAX_PLAYERS, N_COUNTERS), np.int64),  # per-seat counters (S_*)
            np.empty((MAX_PLAYERS, 4), np.int64),       # community conditions in play
            np.empty(MAX_PLAYERS, np.int64),            # community card completed
            np.empty(draws, np.int64),                  # the cards drawn by a pending blind buy (G_DRAWN)
            view,                                       # the public part of every observation, kept up to date
            np.empty(max(pool.shape[0], 1), np.int64),  # per thread: community draw order
            np.empty(max(MARKET + 2, draws), np.int64),  # decision options
            np.empty(N_CARDS, np.int64),                # determinize's list of hidden cards
            np.empty(4, np.uint64),                     # the deciding seat's stream
            np.empty(params.shape[1], np.float64))      # the deciding seat's parameters


@nb.njit(cache=True, _nrt=False, inline="always")
def _begin_turn(head, seat, p):
    """Seat ``p``'s turn starts with its action decision. Jit-compiled."""
    seat[p, S_TURNS] += 1
    head[H_TO_MOVE] = p
    head[H_KIND] = ACTION


@nb.njit(cache=True, _nrt=False, inline="always")
def _end_turn(head, seat, rules):
    """Pass the turn on; after the last seat, end the game (an egg supply used up, or the cap) or start a
    new round. Jit-compiled."""
    players = rules[R_PLAYERS]
    p = head[H_TO_MOVE]
    if p + 1 < players:
        _begin_turn(head, seat, p + 1)
        return
    done = False
    for q in range(players):
        if seat[q, S_PLACED] >= rules[R_EGGS]:
            done = True
    if done or head[G_ROUND] + 1 >= rules[R_MAX_ROUNDS]:
        head[H_TO_MOVE] = -1
        head[H_FINISHED] = 1 if done else 0
        return
    head[G_ROUND] += 1
    _begin_turn(head, seat, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def _after_purchase(state, arrays, p, card, trace, rec):
    """Lay out the card ``p`` bought; ask for the pay choice if it arises, else finish the turn. Jit-compiled."""
    card_cond = arrays[2]
    lay_out(p, card, arrays, state)
    if card_cond[card, 0] == C_PAY and state[SEAT][p, S_COINS] >= card_cond[card, 1]:
        state[0][H_KIND] = PAY
        state[0][G_CARD] = card
        return
    finish_purchase(p, arrays, state, trace, rec)
    _end_turn(state[0], state[SEAT], arrays[4])


@nb.njit(cache=True, _nrt=False)
def reset(state, arrays, seed, game, trace, rec):
    """Deal game ``game`` of run ``seed``; seat 0 is to choose its first action. Jit-compiled."""
    head = state[0]
    head[:] = 0
    seed_game(state[RNGS], seed, game)
    deal(state, arrays, trace, rec)
    _begin_turn(head, state[SEAT], 0)


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def legal_actions(state, arrays, actions):
    """Write the legal action ids of the seat to move into ``actions``; return how many (0 once over).

    Jit-compiled. The order is the order of the options its strategy is
    shown (``layout``): market slots, blind, coins; the drawn cards in the
    order drawn; decline, pay.
    """
    head = state[0]
    kind = head[H_KIND]
    if head[H_TO_MOVE] < 0:
        return 0
    if kind == ACTION:
        return legal_turn_actions(head[H_TO_MOVE], head, state[MARKET_CARDS], state[SEAT], actions)
    if kind == KEEP:
        drawn = state[DRAWN]
        for i in range(head[G_DRAWN]):
            actions[i] = A_KEEP + drawn[i]
        return head[G_DRAWN]
    actions[0], actions[1] = A_DECLINE, A_DECLINE + 1
    return 2


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def apply(state, arrays, action, trace, rec):
    """The seat to move takes ``action`` (one of its legal action ids); the game runs on to the next decision
    or its end. Jit-compiled."""
    rules = arrays[4]
    head, seat, market, mcoins = state[0], state[SEAT], state[MARKET_CARDS], state[MCOINS]
    p, kind = head[H_TO_MOVE], head[H_KIND]
    if kind == ACTION:
        record(head, trace, rec, action)
        head[G_ACTION] = action
        if action == A_COINS:
            seat[p, S_COINS] += from_supply(head, rules[R_TAKE])
            seat[p, S_TAKES] += 1
            _end_turn(state[0], state[SEAT], arrays[4])
            return
        for s in range(MARKET):          # pay 1 onto every other market card first
            if s != action and market[s] >= 0:
                seat[p, S_COINS] -= 1
                mcoins[s] += 1
        if action == A_BLIND:
            seat[p, S_BLIND] += 1
            drawn = state[DRAWN]
            n = 0
            while n < rules[R_BLIND_DRAW]:
                c = draw(head, state[PILE], state[DISCARD], state[RNGS][0], trace, rec)
                if c < 0:
                    break
                drawn[n] = c
                n += 1
            head[G_DRAWN] = n
            head[H_KIND] = KEEP
            return
        seat[p, S_MARKET] += 1
        card = market[action]
        seat[p, S_COINS] += mcoins[action]
        market[action], mcoins[action] = -1, 0
        _after_purchase(state, arrays, p, card, trace, rec)
    elif kind == KEEP:
        drawn, discard, discarder = state[DRAWN], state[DISCARD], state[DISCARDER]
        card = action - A_KEEP
        for j in range(head[G_DRAWN]):
            if drawn[j] == card:
                record(head, trace, rec, j)
            else:
                discard[head[G_DISCARD]] = drawn[j]
                discarder[head[G_DISCARD]] = p
                head[G_DISCARD] += 1
        head[G_DRAWN] = 0
        _after_purchase(state, arrays, p, card, trace, rec)
    else:
        paid = action - A_DECLINE
        record(head, trace, rec, paid)
        if paid == 1:
            pay_for_egg(p, head[G_CARD], arrays, state)
        finish_purchase(p, arrays, state, trace, rec)
        _end_turn(state[0], state[SEAT], arrays[4])


@nb.njit(cache=True, _nrt=False)
def round_mark(state):
    """The rounds finished (``G_ROUND``): it changes when every seat has had its turn and the game goes on
    (``simulator.core.leaders`` records the standing there). Jit-compiled."""
    return state[0][G_ROUND]


@nb.njit(cache=True, _nrt=False)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Write a finished (or capped) game's outputs. Jit-compiled.

    Score = eggs placed (golden included), standing = eggs placed then coins,
    the ``SEAT_COLUMNS`` per seat, the rounds played and whether the game
    ended by its rules (0: stopped by the table's ``max_rounds``).
    """
    rules = arrays[4]
    head, seat = state[0], state[SEAT]
    for p in range(rules[R_PLAYERS]):
        placed = seat[p, S_PLACED]
        scores[p] = placed
        standing[p] = placed * STANDING_COINS + seat[p, S_COINS]
        seat_stats[p, 0] = max(0, placed - rules[R_EGGS])
        seat_stats[p, 1] = seat[p, S_COINS]
        seat_stats[p, 2] = seat[p, S_MARKET]
        seat_stats[p, 3] = seat[p, S_BLIND]
        seat_stats[p, 4] = seat[p, S_TAKES]
        seat_stats[p, 5] = seat[p, S_TURNS]
        seat_stats[p, 6] = seat[p, S_DEALT]
        seat_stats[p, 7] = seat[p, S_BOUGHT]
    game_stats[0] = head[G_ROUND] + 1
    game_stats[1] = head[H_FINISHED]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def observe(state, arrays, seat, obs):
    """Write what ``seat`` sees into ``obs`` (the layout's observation vector). Jit-compiled.

    The public part is kept up to date in the state's own view as the game
    goes; given that view as ``obs`` (as ``choose`` does) only the seat's
    fields are written, given any other int64[OBS_SIZE] the whole observation
    (the strategy's scratch space excepted) is copied into it first.
    """
    head, view, market, mcoins = state[0], state[VIEW], state[MARKET_CARDS], state[MCOINS]
    if obs.ctypes.data != view.ctypes.data:
        for i in range(OBS_SCRATCH):
            obs[i] = view[i]
    obs[OBS_SEAT] = seat
    obs[OBS_ROUND] = head[G_ROUND]
    obs[OBS_CARD] = head[G_CARD] if head[H_KIND] == PAY and head[H_TO_MOVE] >= 0 else -1
    obs[OBS_COINS] = state[SEAT][seat, S_COINS]
    obs[OBS_PILE] = head[G_END] - head[G_POS]
    obs[OBS_DISCARD] = head[G_DISCARD]
    for s in range(MARKET):
        obs[OBS_MARKET + s] = market[s]
        obs[OBS_MARKET_COINS + s] = mcoins[s]


def choose(state, arrays, sids, params):
    """Kernel template: the strategy of the seat to move picks one of its options; return its action id, or
    -1 for an index out of range.

    The options are the decision signature's (``layout``): the legal action
    codes, the drawn card ids, or 0/1 for the pay choice.
    """
    head, rngs, drawn, view, opts, rng, par = state[0], state[RNGS], state[DRAWN], state[VIEW], state[OPTS], \
        state[RNG], state[PAR]
    p, kind = head[H_TO_MOVE], head[H_KIND]
    observe(state, arrays, p, view)
    if kind == ACTION:
        n = legal_turn_actions(p, head, state[MARKET_CARDS], state[SEAT], opts)
    elif kind == KEEP:
        n = head[G_DRAWN]
        for i in range(n):
            opts[i] = drawn[i]
    else:
        n = 2
        opts[0], opts[1] = 0, 1
    k = decide(sids[p], p, rngs, params, rng, par, kind, opts, n, view)  # noqa: F821 (bound)
    if k < 0 or k >= n:
        return illegal(state, k)
    if kind == ACTION:
        return opts[k]
    if kind == KEEP:
        return A_KEEP + drawn[k]
    return A_DECLINE + k


@nb.njit(cache=True, _nrt=False)
def copy_state(src, dst):
    """Copy the whole game of ``src`` into ``dst`` (a state of the same setup): head, streams, piles, market,
    displays and the public view; not the per-thread buffers. Jit-compiled."""
    head = src[0]
    for i in range(head.shape[0]):
        dst[0][i] = head[i]
    copy_2d(dst[RNGS], src[RNGS])
    for i in range(head[G_POS], head[G_END]):
        dst[PILE][i] = src[PILE][i]
    for i in range(head[G_DISCARD]):
        dst[DISCARD][i] = src[DISCARD][i]
        dst[DISCARDER][i] = src[DISCARDER][i]
    for i in range(head[G_DRAWN]):
        dst[DRAWN][i] = src[DRAWN][i]
    _copy_tables(src, dst)


@nb.njit(cache=True, _nrt=False)
def _copy_tables(src, dst):
    """The fixed-size part of ``copy_state``. Jit-compiled."""
    for s in range(MARKET):
        dst[MARKET_CARDS][s] = src[MARKET_CARDS][s]
        dst[MCOINS][s] = src[MCOINS][s]
    for card in range(N_CARDS):
        dst[EGGS_ON][card] = src[EGGS_ON][card]
    copy_2d(dst[CCOUNT], src[CCOUNT])
    copy_2d(dst[NCOUNT], src[NCOUNT])
    for p in range(MAX_PLAYERS):
        dst[OPEN_N][p] = src[OPEN_N][p]
        for i in range(src[OPEN_N][p]):
            dst[OPEN][p, i] = src[OPEN][p, i]
        dst[BONUS_N][p] = src[BONUS_N][p]
        for i in range(src[BONUS_N][p]):
            dst[BONUS][p, i] = src[BONUS][p, i]
    copy_2d(dst[SEAT], src[SEAT])
    copy_2d(dst[COMM], src[COMM])
    for k in range(MAX_PLAYERS):
        dst[COMM_DONE][k] = src[COMM_DONE][k]
    for i in range(OBS_PLACED, STATIC):
        dst[VIEW][i] = src[VIEW][i]


@nb.njit(cache=True, _nrt=False, inline="always")
def _with_card(low, high, card):
    """The set of card ids ``(low, high)`` (bits 0-63, 64-127) with ``card`` added. Jit-compiled."""
    if card < 64:
        return low | np.uint64(1) << np.uint64(card), high
    return low, high | np.uint64(1) << np.uint64(card - 64)


@nb.njit(cache=True, _nrt=False)
def determinize(state, arrays, seat, rng):
    """Resample in place everything ``seat`` cannot see, drawing from the stream ``rng``. Jit-compiled.

    Hidden from ``seat`` are the order of the draw pile, which cards lie on
    the discard pile (except the ones ``seat`` discarded there itself since
    it was last shuffled into the pile) and, while another seat is choosing
    which card to keep from a blind buy, that seat's drawn cards. Those
    cards are dealt anew, uniformly, over the same places (pile, other
    seats' discards, the drawn cards), and the chance stream is reseeded
    from ``rng``, so later reshuffles are fresh too. Everything else (every
    display, egg and coin, the market, the community cards, the pile and
    discard sizes, who discarded what count) is public and stays.
    """
    head, pile, discard, discarder, drawn, hidden = (state[0], state[PILE], state[DISCARD], state[DISCARDER],
                                                     state[DRAWN], state[HIDDEN])
    others_drew = head[H_TO_MOVE] >= 0 and head[H_KIND] == KEEP and head[H_TO_MOVE] != seat
    low, high = np.uint64(0), np.uint64(0)  # the hidden cards as a set of card ids (bits 0-63, 64-127)
    if others_drew:
        for i in range(head[G_DRAWN]):
            low, high = _with_card(low, high, drawn[i])
    for i in range(head[G_DISCARD]):
        if discarder[i] != seat:
            low, high = _with_card(low, high, discard[i])
    for i in range(head[G_POS], head[G_END]):
        low, high = _with_card(low, high, pile[i])
    n = 0
    for card in range(N_CARDS):  # in card id order: the draw depends only on which cards are hidden
        if (low if card < 64 else high) >> np.uint64(card & 63) & np.uint64(1):
            hidden[n] = card
            n += 1
    shuffle(hidden, n, rng)
    n = 0
    if others_drew:
        for i in range(head[G_DRAWN]):
            drawn[i] = hidden[n]
            n += 1
    for i in range(head[G_DISCARD]):
        if discarder[i] != seat:
            discard[i] = hidden[n]
            n += 1
    for i in range(head[G_POS], head[G_END]):
        pile[i] = hidden[n]
        n += 1
    seed_stream(state[RNGS][0], next_u64(rng), 0, 0)


@nb.njit(cache=True)
def action_class(state, arrays, action):
    """Bit mask of the descriptor's ``action_classes`` that ``action`` of the seat to move belongs to. Jit-compiled.

    ``blind`` (bit 0): buying blind (paying onto the market to draw from the pile).
    """
    return 1 if action == A_BLIND else 0
