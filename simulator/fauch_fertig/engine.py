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
from simulator.core.bound import unbound
from simulator.core.inlining import VERBS
from simulator.core.rng import next_u64, seed_game, seed_stream, shuffle
from simulator.core.state import H_FINISHED, H_KIND, H_TO_MOVE, ST_HEAD, ST_RNGS, copy_2d, illegal
from simulator.core.state import action_as_key as move_key  # noqa: F401 (the state API)
from simulator.core.state import no_horizon_mark as horizon_mark  # noqa: F401 (the state API)
from simulator.fauch_fertig.features import N_FEATURES, OBS_SIZE, SEAT_FEATURE, features  # noqa: F401 (the state API)
from simulator.fauch_fertig.layout import (ACTION, A_BLIND, A_COINS, A_DECLINE, A_KEEP, C_PAY, KEEP, MARKET,
                                           MAX_PLAYERS, N_CARDS, OBS_CARD, OBS_CARD_COLOUR, OBS_CARD_COND,
                                           OBS_CARD_NUMBER, OBS_COINS, OBS_DISCARD, OBS_EGGS, OBS_MARKET,
                                           OBS_MARKET_COINS, OBS_PILE, OBS_PLACED, OBS_PLAYERS, OBS_ROUND, OBS_SCRATCH,
                                           OBS_SEAT, PAY, R_BLIND_DRAW, R_EGGS, R_MAX_ROUNDS, R_PLAYERS, R_TAKE)
from simulator.fauch_fertig.turn import (HD_ACTION, HD_CARD, HD_DISCARD, HD_DRAWN, HD_END, HD_POS, HD_ROUND, SC_BLIND,
                                         SC_BOUGHT, SC_COINS, SC_DEALT, SC_MARKET, SC_PLACED, SC_TAKES, SC_TURNS, STATE,
                                         ST_BONUS, ST_BONUS_N, ST_CCOUNT, ST_COMM, ST_COMM_DONE, ST_DISCARD,
                                         ST_DISCARDER, ST_DRAWN, ST_EGGS_ON, ST_HIDDEN, ST_MARKET_CARDS, ST_MCOINS,
                                         ST_NCOUNT, ST_OPEN, ST_OPEN_N, ST_OPTS, ST_PAR, ST_PILE, ST_RNG,
                                         ST_SEAT, ST_VIEW, deal, draw, finish_purchase, from_supply, lay_out,
                                         legal_turn_actions, pay_for_egg, record)

# the names the templates here are bound with (simulator.core.bound)
decide = unbound("decide")

assert N_CARDS <= 128  # determinize keeps the hidden cards as a 128-bit set
# dealt_kinds, bought_kinds: bit k set when a card of kind k (the table's k-th condition, setup.card_kinds) was
# dealt to the seat's opening display, bought by the seat
SEAT_COLUMNS = ("golden", "coins", "market_buys", "blind_buys", "coin_takes", "turns", "dealt_kinds", "bought_kinds")
GAME_COLUMNS = ("rounds", "finished", *leaders.COLUMNS)  # leaders: written by the game loop
STANDING_COINS = 1 << 32  # standing = eggs placed * STANDING_COINS + coins
STATIC = OBS_CARD_COLOUR  # obs[STATIC:] is the static part (card descriptions) and the strategy's scratch


_allocate = STATE.allocator()


@nb.njit(cache=True)
def new_state(arrays, params):
    """Allocate one thread's state (the only allocation) and write the static part of its view. Jit-compiled.

    The tuple is the slots of ``simulator.fauch_fertig.turn.STATE``: the head
    and the random streams (``simulator.core.state``), the game's arrays and
    the per-thread buffers: the community draw order, the options handed to
    strategies, determinize's working list, the deciding seat's stream and
    parameter row.
    """
    colour, number, card_cond, pool, rules = arrays
    players = rules[R_PLAYERS]
    draws = min(max(rules[R_BLIND_DRAW], 1), N_CARDS)
    state = _allocate(players, draws, max(pool.shape[0], 1), max(MARKET + 2, draws), params.shape[1])
    view = state[ST_VIEW]
    for card in range(N_CARDS):
        view[OBS_CARD_COLOUR + card] = colour[card]
        view[OBS_CARD_NUMBER + card] = number[card]
        for j in range(4):
            view[OBS_CARD_COND + 4 * card + j] = card_cond[card, j]
    view[OBS_PLAYERS] = players
    view[OBS_EGGS] = rules[R_EGGS]
    return state


@nb.njit(cache=True, _nrt=False, inline="always")
def _begin_turn(head, seat, p):
    """Seat ``p``'s turn starts with its action decision. Jit-compiled."""
    seat[p, SC_TURNS] += 1
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
        if seat[q, SC_PLACED] >= rules[R_EGGS]:
            done = True
    if done or head[HD_ROUND] + 1 >= rules[R_MAX_ROUNDS]:
        head[H_TO_MOVE] = -1
        head[H_FINISHED] = 1 if done else 0
        return
    head[HD_ROUND] += 1
    _begin_turn(head, seat, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def _after_purchase(state, arrays, p, card, trace, rec):
    """Lay out the card ``p`` bought; ask for the pay choice if it arises, else finish the turn. Jit-compiled."""
    card_cond = arrays[2]
    lay_out(p, card, arrays, state)
    if card_cond[card, 0] == C_PAY and state[ST_SEAT][p, SC_COINS] >= card_cond[card, 1]:
        state[ST_HEAD][H_KIND] = PAY
        state[ST_HEAD][HD_CARD] = card
        return
    finish_purchase(p, arrays, state, trace, rec)
    _end_turn(state[ST_HEAD], state[ST_SEAT], arrays[4])


@nb.njit(cache=True, _nrt=False)
def reset(state, arrays, seed, game, trace, rec):
    """Deal game ``game`` of run ``seed``; seat 0 is to choose its first action. Jit-compiled."""
    head = state[ST_HEAD]
    head[:] = 0
    seed_game(state[ST_RNGS], seed, game)
    deal(state, arrays, trace, rec)
    _begin_turn(head, state[ST_SEAT], 0)


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def legal_actions(state, arrays, actions):
    """Write the legal action ids of the seat to move into ``actions``; return how many (0 once over).

    Jit-compiled. The order is the order of the options its strategy is
    shown (``layout``): market slots, blind, coins; the drawn cards in the
    order drawn; decline, pay.
    """
    head = state[ST_HEAD]
    kind = head[H_KIND]
    if head[H_TO_MOVE] < 0:
        return 0
    if kind == ACTION:
        return legal_turn_actions(head[H_TO_MOVE], head, state[ST_MARKET_CARDS], state[ST_SEAT], actions)
    if kind == KEEP:
        drawn = state[ST_DRAWN]
        for i in range(head[HD_DRAWN]):
            actions[i] = A_KEEP + drawn[i]
        return head[HD_DRAWN]
    actions[0], actions[1] = A_DECLINE, A_DECLINE + 1
    return 2


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def apply(state, arrays, action, trace, rec):
    """The seat to move takes ``action`` (one of its legal action ids); the game runs on to the next decision
    or its end. Jit-compiled."""
    rules = arrays[4]
    head, seat, market, mcoins = state[ST_HEAD], state[ST_SEAT], state[ST_MARKET_CARDS], state[ST_MCOINS]
    p, kind = head[H_TO_MOVE], head[H_KIND]
    if kind == ACTION:
        record(head, trace, rec, action)
        head[HD_ACTION] = action
        if action == A_COINS:
            seat[p, SC_COINS] += from_supply(head, rules[R_TAKE])
            seat[p, SC_TAKES] += 1
            _end_turn(state[ST_HEAD], state[ST_SEAT], arrays[4])
            return
        for s in range(MARKET):          # pay 1 onto every other market card first
            if s != action and market[s] >= 0:
                seat[p, SC_COINS] -= 1
                mcoins[s] += 1
        if action == A_BLIND:
            seat[p, SC_BLIND] += 1
            drawn = state[ST_DRAWN]
            n = 0
            while n < rules[R_BLIND_DRAW]:
                c = draw(head, state[ST_PILE], state[ST_DISCARD], state[ST_RNGS][0], trace, rec)
                if c < 0:
                    break
                drawn[n] = c
                n += 1
            head[HD_DRAWN] = n
            head[H_KIND] = KEEP
            return
        seat[p, SC_MARKET] += 1
        card = market[action]
        seat[p, SC_COINS] += mcoins[action]
        market[action], mcoins[action] = -1, 0
        _after_purchase(state, arrays, p, card, trace, rec)
    elif kind == KEEP:
        drawn, discard, discarder = state[ST_DRAWN], state[ST_DISCARD], state[ST_DISCARDER]
        card = action - A_KEEP
        for j in range(head[HD_DRAWN]):
            if drawn[j] == card:
                record(head, trace, rec, j)
            else:
                discard[head[HD_DISCARD]] = drawn[j]
                discarder[head[HD_DISCARD]] = p
                head[HD_DISCARD] += 1
        head[HD_DRAWN] = 0
        _after_purchase(state, arrays, p, card, trace, rec)
    else:
        paid = action - A_DECLINE
        record(head, trace, rec, paid)
        if paid == 1:
            pay_for_egg(p, head[HD_CARD], arrays, state)
        finish_purchase(p, arrays, state, trace, rec)
        _end_turn(state[ST_HEAD], state[ST_SEAT], arrays[4])


@nb.njit(cache=True, _nrt=False)
def round_mark(state):
    """The rounds finished (``HD_ROUND``): it changes when every seat has had its turn and the game goes on
    (``simulator.core.leaders`` records the standing there). Jit-compiled."""
    return state[ST_HEAD][HD_ROUND]


@nb.njit(cache=True, _nrt=False)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Write a finished (or capped) game's outputs. Jit-compiled.

    Score = eggs placed (golden included), standing = eggs placed then coins,
    the ``SEAT_COLUMNS`` per seat, the rounds played and whether the game
    ended by its rules (0: stopped by the table's ``max_rounds``).
    """
    rules = arrays[4]
    head, seat = state[ST_HEAD], state[ST_SEAT]
    for p in range(rules[R_PLAYERS]):
        placed = seat[p, SC_PLACED]
        scores[p] = placed
        standing[p] = placed * STANDING_COINS + seat[p, SC_COINS]
        seat_stats[p, 0] = max(0, placed - rules[R_EGGS])
        seat_stats[p, 1] = seat[p, SC_COINS]
        seat_stats[p, 2] = seat[p, SC_MARKET]
        seat_stats[p, 3] = seat[p, SC_BLIND]
        seat_stats[p, 4] = seat[p, SC_TAKES]
        seat_stats[p, 5] = seat[p, SC_TURNS]
        seat_stats[p, 6] = seat[p, SC_DEALT]
        seat_stats[p, 7] = seat[p, SC_BOUGHT]
    game_stats[0] = head[HD_ROUND] + 1
    game_stats[1] = head[H_FINISHED]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def observe(state, arrays, seat, obs):
    """Write what ``seat`` sees into ``obs`` (the layout's observation vector). Jit-compiled.

    The public part is kept up to date in the state's own view as the game
    goes; given that view as ``obs`` (as ``choose`` does) only the seat's
    fields are written, given any other int64[OBS_SIZE] the whole observation
    (the strategy's scratch space excepted) is copied into it first.
    """
    head, view, market, mcoins = state[ST_HEAD], state[ST_VIEW], state[ST_MARKET_CARDS], state[ST_MCOINS]
    if obs.ctypes.data != view.ctypes.data:
        for i in range(OBS_SCRATCH):
            obs[i] = view[i]
    obs[OBS_SEAT] = seat
    obs[OBS_ROUND] = head[HD_ROUND]
    obs[OBS_CARD] = head[HD_CARD] if head[H_KIND] == PAY and head[H_TO_MOVE] >= 0 else -1
    obs[OBS_COINS] = state[ST_SEAT][seat, SC_COINS]
    obs[OBS_PILE] = head[HD_END] - head[HD_POS]
    obs[OBS_DISCARD] = head[HD_DISCARD]
    for s in range(MARKET):
        obs[OBS_MARKET + s] = market[s]
        obs[OBS_MARKET_COINS + s] = mcoins[s]


def choose(state, arrays, sids, params):
    """Kernel template: the strategy of the seat to move picks one of its options; return its action id, or
    -1 for an index out of range.

    The options are the decision signature's (``layout``): the legal action
    codes, the drawn card ids, or 0/1 for the pay choice.
    """
    head, rngs, drawn, view = state[ST_HEAD], state[ST_RNGS], state[ST_DRAWN], state[ST_VIEW]
    opts, rng, par = state[ST_OPTS], state[ST_RNG], state[ST_PAR]
    p, kind = head[H_TO_MOVE], head[H_KIND]
    observe(state, arrays, p, view)
    if kind == ACTION:
        n = legal_turn_actions(p, head, state[ST_MARKET_CARDS], state[ST_SEAT], opts)
    elif kind == KEEP:
        n = head[HD_DRAWN]
        for i in range(n):
            opts[i] = drawn[i]
    else:
        n = 2
        opts[0], opts[1] = 0, 1
    k = decide(sids[p], p, rngs, params, rng, par, kind, opts, n, view)
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
    head = src[ST_HEAD]
    for i in range(head.shape[0]):
        dst[ST_HEAD][i] = head[i]
    copy_2d(dst[ST_RNGS], src[ST_RNGS])
    for i in range(head[HD_POS], head[HD_END]):
        dst[ST_PILE][i] = src[ST_PILE][i]
    for i in range(head[HD_DISCARD]):
        dst[ST_DISCARD][i] = src[ST_DISCARD][i]
        dst[ST_DISCARDER][i] = src[ST_DISCARDER][i]
    for i in range(head[HD_DRAWN]):
        dst[ST_DRAWN][i] = src[ST_DRAWN][i]
    _copy_tables(src, dst)


@nb.njit(cache=True, _nrt=False)
def _copy_tables(src, dst):
    """The fixed-size part of ``copy_state``. Jit-compiled."""
    for s in range(MARKET):
        dst[ST_MARKET_CARDS][s] = src[ST_MARKET_CARDS][s]
        dst[ST_MCOINS][s] = src[ST_MCOINS][s]
    for card in range(N_CARDS):
        dst[ST_EGGS_ON][card] = src[ST_EGGS_ON][card]
    copy_2d(dst[ST_CCOUNT], src[ST_CCOUNT])
    copy_2d(dst[ST_NCOUNT], src[ST_NCOUNT])
    for p in range(MAX_PLAYERS):
        dst[ST_OPEN_N][p] = src[ST_OPEN_N][p]
        for i in range(src[ST_OPEN_N][p]):
            dst[ST_OPEN][p, i] = src[ST_OPEN][p, i]
        dst[ST_BONUS_N][p] = src[ST_BONUS_N][p]
        for i in range(src[ST_BONUS_N][p]):
            dst[ST_BONUS][p, i] = src[ST_BONUS][p, i]
    copy_2d(dst[ST_SEAT], src[ST_SEAT])
    copy_2d(dst[ST_COMM], src[ST_COMM])
    for k in range(MAX_PLAYERS):
        dst[ST_COMM_DONE][k] = src[ST_COMM_DONE][k]
    for i in range(OBS_PLACED, STATIC):
        dst[ST_VIEW][i] = src[ST_VIEW][i]


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
    head, pile, discard, discarder = state[ST_HEAD], state[ST_PILE], state[ST_DISCARD], state[ST_DISCARDER]
    drawn, hidden = state[ST_DRAWN], state[ST_HIDDEN]
    others_drew = head[H_TO_MOVE] >= 0 and head[H_KIND] == KEEP and head[H_TO_MOVE] != seat
    low, high = np.uint64(0), np.uint64(0)  # the hidden cards as a set of card ids (bits 0-63, 64-127)
    if others_drew:
        for i in range(head[HD_DRAWN]):
            low, high = _with_card(low, high, drawn[i])
    for i in range(head[HD_DISCARD]):
        if discarder[i] != seat:
            low, high = _with_card(low, high, discard[i])
    for i in range(head[HD_POS], head[HD_END]):
        low, high = _with_card(low, high, pile[i])
    n = 0
    for card in range(N_CARDS):  # in card id order: the draw depends only on which cards are hidden
        if (low if card < 64 else high) >> np.uint64(card & 63) & np.uint64(1):
            hidden[n] = card
            n += 1
    shuffle(hidden, n, rng)
    n = 0
    if others_drew:
        for i in range(head[HD_DRAWN]):
            drawn[i] = hidden[n]
            n += 1
    for i in range(head[HD_DISCARD]):
        if discarder[i] != seat:
            discard[i] = hidden[n]
            n += 1
    for i in range(head[HD_POS], head[HD_END]):
        pile[i] = hidden[n]
        n += 1
    seed_stream(state[ST_RNGS][0], next_u64(rng), 0, 0)


@nb.njit(cache=True)
def action_class(state, arrays, action):
    """Bit mask of the descriptor's ``action_classes`` that ``action`` of the seat to move belongs to. Jit-compiled.

    ``blind`` (bit 0): buying blind (paying onto the market to draw from the pile).
    """
    return 1 if action == A_BLIND else 0
