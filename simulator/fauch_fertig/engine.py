"""Fauch & Fertig fast engine: flat arrays, no allocation inside a game.

``play_game`` is a kernel template (the batch loop and tracer are shared) that
``simulator.core.kernels.bind_engine`` compiles against a strategy dispatcher
``decide(sid, seat, rngs, params, rng, par, kind, options, n_options, obs) -> int``
(``strategies.registry.make_dispatch``; the decision functions themselves
have the signature documented in ``simulator.fauch_fertig.layout``). The helpers they call are jit-compiled
with ``cache=True``.

Each display is kept as count vectors (cards per colour and per number) plus
the list of its cards whose condition is still open; a purchase updates the
counts and re-tests only the buyer's open conditions and the buyer's two
community cards (``simulator.fauch_fertig.conditions``).

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

from simulator.core.cards import fresh_deck
from simulator.core.rng import seed_game, shuffle
from simulator.fauch_fertig.conditions import holds
from simulator.fauch_fertig.layout import (A_BLIND, A_COINS, ACTION, BLACK, C_BONUS, C_FREE, C_PAY, KEEP, MARKET,
                                           MAX_PLAYERS, N_CARDS, OBS_CARD, OBS_CARD_COLOUR, OBS_CARD_COND,
                                           OBS_CARD_NUMBER, OBS_COINS, OBS_COLOUR_COUNT, OBS_COMMUNITY,
                                           OBS_COMMUNITY_DONE, OBS_COMMUNITY_N, OBS_DISCARD, OBS_EGGS, OBS_EGGS_ON,
                                           OBS_MARKET, OBS_MARKET_COINS, OBS_NUMBER_COUNT, OBS_OWNER, OBS_PILE,
                                           OBS_PLACED, OBS_PLAYERS, OBS_ROUND, OBS_SEAT, OBS_SIZE, PAY,
                                           R_BLIND_DRAW, R_BONUS_BLACKS, R_BONUS_COINS, R_COMMUNITY_N,
                                           R_COMMUNITY_RANDOM, R_COMPLETER_EGGS, R_DISPLAY, R_EGGS, R_MARKET_COIN,
                                           R_MAX_ROUNDS, R_NEIGHBOUR_EGGS, R_PLAYERS, R_START_COINS, R_SUPPLY,
                                           R_TAKE)

ALLOCATION_FREE = True  # play_game creates no arrays or views: compiled without reference counting
SEAT_COLUMNS = ("golden", "coins", "market_buys", "blind_buys", "coin_takes", "turns", "finished")
GAME_COLUMNS = ("rounds",)

# per-seat counters (scratch ``seat``)
S_COINS, S_PLACED, S_MARKET, S_BLIND, S_TAKES, S_TURNS = range(6)
# game scalars (scratch ``g``): pile position and end, discard size, coin supply, trace position
G_POS, G_END, G_DISCARD, G_SUPPLY, G_T = range(5)
STANDING_COINS = 1 << 32  # standing = eggs placed * STANDING_COINS + coins


@nb.njit(cache=True)
def new_scratch(arrays, params):
    """Allocate one thread's working arrays and write the static part of ``obs``. Jit-compiled."""
    colour, number, card_cond, pool, rules = arrays
    players = rules[R_PLAYERS]
    obs = np.zeros(OBS_SIZE, np.int64)
    for card in range(N_CARDS):
        obs[OBS_CARD_COLOUR + card] = colour[card]
        obs[OBS_CARD_NUMBER + card] = number[card]
        for j in range(4):
            obs[OBS_CARD_COND + 4 * card + j] = card_cond[card, j]
    obs[OBS_PLAYERS] = players
    obs[OBS_EGGS] = rules[R_EGGS]
    return (np.empty(N_CARDS, np.int64),                # pile, drawn from g[G_POS] up to g[G_END]
            np.empty(N_CARDS, np.int64),                # discard pile
            np.empty(MARKET, np.int64),                 # market card per slot, -1 empty
            np.empty(MARKET, np.int64),                 # coins on each market slot
            np.empty(N_CARDS, np.int64),                # eggs on each card
            np.empty((MAX_PLAYERS + 1, 5), np.int64),   # cards per colour (4 = black) per seat; last row: two
            np.empty((MAX_PLAYERS + 1, 9), np.int64),   # cards per number per seat     seats together
            np.empty((MAX_PLAYERS, N_CARDS), np.int64),  # cards whose condition is still open, per seat
            np.empty(MAX_PLAYERS, np.int64),            # how many
            np.empty((MAX_PLAYERS, N_CARDS), np.int64),  # black-card bonus cards laid out, per seat
            np.empty(MAX_PLAYERS, np.int64),            # how many
            np.empty((MAX_PLAYERS, 6), np.int64),       # per-seat counters (S_*)
            np.empty((MAX_PLAYERS, 4), np.int64),       # community conditions in play
            np.empty(MAX_PLAYERS, np.int64),            # community card completed
            np.empty(max(pool.shape[0], 1), np.int64),  # community draw order
            np.empty(max(MARKET + 2, rules[R_BLIND_DRAW]), np.int64),  # decision options
            np.zeros(5, np.int64),                      # game scalars (G_*)
            obs,
            np.empty((players + 1, 4), np.uint64),     # random streams: chance, then one per seat
            np.empty(4, np.uint64),                     # the deciding seat's stream
            np.empty(params.shape[1], np.float64))      # the deciding seat's parameters


@nb.njit(cache=True)
def _from_supply(g, amount):
    """Take up to ``amount`` coins from the supply; return how many came. Jit-compiled."""
    if amount > g[G_SUPPLY]:
        amount = g[G_SUPPLY]
    g[G_SUPPLY] -= amount
    return amount


@nb.njit(cache=True)
def _record_shuffle(trace, g, cards, n, record):
    if record:
        t = g[G_T]
        trace[t] = n
        for i in range(n):
            trace[t + 1 + i] = cards[i]
        g[G_T] = t + 1 + n


@nb.njit(cache=True)
def _draw(pile, discard, g, chance, trace, record):
    """Top card of the pile, refilling an empty pile from the shuffled discard pile; -1 if both are empty.

    Jit-compiled.
    """
    if g[G_POS] == g[G_END] and g[G_DISCARD] > 0:
        n = g[G_DISCARD]
        for i in range(n):
            pile[i] = discard[i]
        shuffle(pile, n, chance)
        _record_shuffle(trace, g, pile, n, record)
        g[G_POS], g[G_END], g[G_DISCARD] = 0, n, 0
    if g[G_POS] == g[G_END]:
        return -1
    g[G_POS] += 1
    return pile[g[G_POS] - 1]


@nb.njit(cache=True)
def _egg(p, card, seat, eggs_on, obs):
    """Seat ``p`` places an egg (on ``card``, or on a community card if ``card`` is -1). Jit-compiled."""
    seat[p, S_PLACED] += 1
    obs[OBS_PLACED + p] += 1
    if card >= 0:
        eggs_on[card] += 1
        obs[OBS_EGGS_ON + card] += 1


@nb.njit(cache=True)
def _add_card(p, card, colour, number, ccount, ncount, obs):
    """Put ``card`` into seat ``p``'s display summaries. Jit-compiled."""
    ccount[p, colour[card]] += 1
    obs[OBS_COLOUR_COUNT + 5 * p + colour[card]] += 1
    if number[card] > 0:
        ncount[p, number[card]] += 1
        obs[OBS_NUMBER_COUNT + 9 * p + number[card]] += 1
    obs[OBS_OWNER + card] = p


@nb.njit(cache=True)
def _register(p, card, card_cond, open_, open_n, bonus, bonus_n, seat, eggs_on, obs):
    """File a card just laid out by its condition: free egg, bonus card or open condition. Jit-compiled.

    Pay cards are left to the caller (the choice is the player's).
    """
    kind = card_cond[card, 0]
    if kind == C_FREE:
        _egg(p, card, seat, eggs_on, obs)
    elif kind == C_BONUS:
        bonus[p, bonus_n[p]] = card
        bonus_n[p] += 1
    elif kind != C_PAY:
        open_[p, open_n[p]] = card
        open_n[p] += 1


@nb.njit(cache=True)
def _check_open(p, card_cond, ccount, ncount, open_, open_n, seat, eggs_on, obs):
    """Place an egg on each of seat ``p``'s open cards whose condition now holds. Jit-compiled."""
    k = 0
    while k < open_n[p]:
        card = open_[p, k]
        if holds(card_cond[card, 0], card_cond[card, 1], card_cond[card, 2], card_cond[card, 3],
                 ccount, ncount, p):
            _egg(p, card, seat, eggs_on, obs)
            open_n[p] -= 1
            open_[p, k] = open_[p, open_n[p]]
        else:
            k += 1


@nb.njit(cache=True)
def _check_community(p, players, comm, comm_done, n_comm, ccount, ncount, rules, seat, eggs_on, obs):
    """Complete the open community cards next to seat ``p`` that the two displays now meet. Jit-compiled.

    Community card ``k`` lies between seats ``k`` and ``k + 1``; ``p``'s
    purchase completed it, so ``p`` places the completer's eggs and the other
    neighbour the neighbour's eggs.
    """
    for k in range(n_comm):
        left, right = k, (k + 1) % players
        if comm_done[k] or (p != left and p != right):
            continue
        other = right if p == left else left
        for c in range(5):
            ccount[MAX_PLAYERS, c] = ccount[p, c] + ccount[other, c]
        for n in range(9):
            ncount[MAX_PLAYERS, n] = ncount[p, n] + ncount[other, n]
        if holds(comm[k, 0], comm[k, 1], comm[k, 2], comm[k, 3], ccount, ncount, MAX_PLAYERS):
            comm_done[k] = 1
            obs[OBS_COMMUNITY_DONE + k] = 1
            for _ in range(rules[R_COMPLETER_EGGS]):
                _egg(p, -1, seat, eggs_on, obs)
            for _ in range(rules[R_NEIGHBOUR_EGGS]):
                _egg(other, -1, seat, eggs_on, obs)


@nb.njit(cache=True)
def _setup(arrays, scratch, chance, trace, record):
    """Shuffle, deal the displays (pay cards replaced and shuffled back), lay out the community cards and
    the market, hand out the start coins and place the eggs the deal already earns. Jit-compiled."""
    colour, number, card_cond, pool, rules = arrays
    (pile, discard, market, mcoins, eggs_on, ccount, ncount, open_, open_n, bonus, bonus_n, seat, comm,
     comm_done, picks, opts, g, obs, rngs, rng, par) = scratch
    players = rules[R_PLAYERS]
    eggs_on[:] = 0
    ccount[:] = 0
    ncount[:] = 0
    open_n[:] = 0
    bonus_n[:] = 0
    seat[:] = 0
    comm_done[:] = 0
    g[:] = 0
    g[G_SUPPLY] = rules[R_SUPPLY]
    obs[OBS_PLACED:OBS_OWNER] = 0
    obs[OBS_OWNER:OBS_OWNER + N_CARDS] = -1
    obs[OBS_EGGS_ON:OBS_EGGS_ON + N_CARDS] = 0
    obs[OBS_COMMUNITY:OBS_COMMUNITY_DONE + MAX_PLAYERS] = 0

    fresh_deck(pile, N_CARDS, chance)
    _record_shuffle(trace, g, pile, N_CARDS, record)
    pos, aside = 0, 0
    for p in range(players):
        for _ in range(rules[R_DISPLAY]):
            while card_cond[pile[pos], 0] == C_PAY:
                discard[aside] = pile[pos]
                aside += 1
                pos += 1
            _add_card(p, pile[pos], colour, number, ccount, ncount, obs)
            pos += 1
    m = N_CARDS - pos
    for i in range(m):
        pile[i] = pile[pos + i]
    for i in range(aside):
        pile[m + i] = discard[i]
    m += aside
    shuffle(pile, m, chance)
    _record_shuffle(trace, g, pile, m, record)
    g[G_POS], g[G_END] = 0, m

    n_pool = pool.shape[0]
    n_comm = rules[R_COMMUNITY_N]
    for i in range(n_pool):
        picks[i] = i
    if rules[R_COMMUNITY_RANDOM]:
        shuffle(picks, n_pool, chance)
    obs[OBS_COMMUNITY_N] = n_comm
    for k in range(n_comm):
        for j in range(4):
            comm[k, j] = pool[picks[k], j]
            obs[OBS_COMMUNITY + 4 * k + j] = comm[k, j]
        if record:
            trace[g[G_T]] = picks[k]
            g[G_T] += 1

    for s in range(MARKET):      # R_SUPPLY is the supply left after the market and start coins
        market[s] = _draw(pile, discard, g, chance, trace, record)
        mcoins[s] = rules[R_MARKET_COIN]
    for p in range(players):
        seat[p, S_COINS] = rules[R_START_COINS + p]
    for card in range(N_CARDS):
        p = obs[OBS_OWNER + card]
        if p >= 0:
            _register(p, card, card_cond, open_, open_n, bonus, bonus_n, seat, eggs_on, obs)
    for p in range(players):
        _check_open(p, card_cond, ccount, ncount, open_, open_n, seat, eggs_on, obs)


@nb.njit(cache=True)
def _legal_actions(p, market, seat, g, opts):
    """Write seat ``p``'s legal action codes into ``opts``; return how many. Jit-compiled."""
    in_market = 0
    for s in range(MARKET):
        if market[s] >= 0:
            in_market += 1
    coins = seat[p, S_COINS]
    n = 0
    for s in range(MARKET):
        if market[s] >= 0 and coins >= in_market - 1:
            opts[n] = s
            n += 1
    if g[G_END] - g[G_POS] + g[G_DISCARD] > 0 and coins >= in_market:
        opts[n] = A_BLIND
        n += 1
    opts[n] = A_COINS
    return n + 1


@nb.njit(cache=True)
def _show(p, market, mcoins, seat, g, obs):
    """Bring the per-decision part of ``obs`` up to date for seat ``p`` (no pay card: a PAY decision sets it).

    Jit-compiled.
    """
    obs[OBS_SEAT] = p
    obs[OBS_CARD] = -1
    obs[OBS_COINS] = seat[p, S_COINS]
    obs[OBS_PILE] = g[G_END] - g[G_POS]
    obs[OBS_DISCARD] = g[G_DISCARD]
    for s in range(MARKET):
        obs[OBS_MARKET + s] = market[s]
        obs[OBS_MARKET_COINS + s] = mcoins[s]


@nb.njit(cache=True)
def _lay_out(p, card, arrays, scratch):
    """Put a bought card into seat ``p``'s display: summaries, black-card bonuses, filing. Jit-compiled."""
    colour, number, card_cond, pool, rules = arrays
    (pile, discard, market, mcoins, eggs_on, ccount, ncount, open_, open_n, bonus, bonus_n, seat, comm,
     comm_done, picks, opts, g, obs, rngs, rng, par) = scratch
    _add_card(p, card, colour, number, ccount, ncount, obs)
    if colour[card] == BLACK:
        for i in range(bonus_n[p]):
            b = bonus[p, i]
            if eggs_on[b] < rules[R_BONUS_BLACKS]:
                seat[p, S_COINS] += _from_supply(g, rules[R_BONUS_COINS])
                _egg(p, b, seat, eggs_on, obs)
    _register(p, card, card_cond, open_, open_n, bonus, bonus_n, seat, eggs_on, obs)


@nb.njit(cache=True)
def _finish(rules, seat, rounds, finished, scores, standing, seat_stats, game_stats):
    """Write a finished (or capped) game's outputs. Jit-compiled."""
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
        seat_stats[p, 6] = finished
    game_stats[0] = rounds


def play_game(arrays, sids, params, seed, game, scratch, scores, standing, seat_stats, game_stats,
              trace, record):
    """Kernel template: play game ``game`` of run ``seed``; return the trace length (0 unless ``record``),
    or -(1+seat) if that seat chose illegally.

    Writes score = eggs placed (golden included), standing = eggs placed then
    coins, the ``SEAT_COLUMNS`` per seat and the rounds played. A game still
    running after the table's ``max_rounds`` stops there with finished = 0.
    """
    colour, number, card_cond, pool, rules = arrays
    (pile, discard, market, mcoins, eggs_on, ccount, ncount, open_, open_n, bonus, bonus_n, seat, comm,
     comm_done, picks, opts, g, obs, rngs, rng, par) = scratch
    players = rules[R_PLAYERS]
    seed_game(rngs, seed, game)
    chance = rngs[0]
    _setup(arrays, scratch, chance, trace, record)

    rounds, finished = rules[R_MAX_ROUNDS], 0
    for r in range(rules[R_MAX_ROUNDS]):
        obs[OBS_ROUND] = r
        for p in range(players):
            seat[p, S_TURNS] += 1
            n = _legal_actions(p, market, seat, g, opts)
            _show(p, market, mcoins, seat, g, obs)
            k = decide(sids[p], p, rngs, params, rng, par, ACTION, opts, n, obs)  # noqa: F821 (bound)
            if k < 0 or k >= n:
                return -(1 + p)
            action = opts[k]
            if record:
                trace[g[G_T]] = action
                g[G_T] += 1
            if action == A_COINS:
                seat[p, S_COINS] += _from_supply(g, rules[R_TAKE])
                seat[p, S_TAKES] += 1
                continue
            for s in range(MARKET):          # pay 1 onto every other market card first
                if s != action and market[s] >= 0:
                    seat[p, S_COINS] -= 1
                    mcoins[s] += 1
            if action == A_BLIND:
                seat[p, S_BLIND] += 1
                drawn = 0
                while drawn < rules[R_BLIND_DRAW]:
                    c = _draw(pile, discard, g, chance, trace, record)
                    if c < 0:
                        break
                    opts[drawn] = c
                    drawn += 1
                _show(p, market, mcoins, seat, g, obs)
                k = decide(sids[p], p, rngs, params, rng, par, KEEP, opts, drawn, obs)  # noqa: F821 (bound)
                if k < 0 or k >= drawn:
                    return -(1 + p)
                if record:
                    trace[g[G_T]] = k
                    g[G_T] += 1
                card = opts[k]
                for j in range(drawn):
                    if j != k:
                        discard[g[G_DISCARD]] = opts[j]
                        g[G_DISCARD] += 1
            else:
                seat[p, S_MARKET] += 1
                card = market[action]
                seat[p, S_COINS] += mcoins[action]
                market[action], mcoins[action] = -1, 0
            _lay_out(p, card, arrays, scratch)
            if card_cond[card, 0] == C_PAY and seat[p, S_COINS] >= card_cond[card, 1]:
                _show(p, market, mcoins, seat, g, obs)
                obs[OBS_CARD] = card
                opts[0], opts[1] = 0, 1
                k = decide(sids[p], p, rngs, params, rng, par, PAY, opts, 2, obs)  # noqa: F821 (bound)
                if k < 0 or k >= 2:
                    return -(1 + p)
                if record:
                    trace[g[G_T]] = k
                    g[G_T] += 1
                if k == 1:
                    seat[p, S_COINS] -= card_cond[card, 1]
                    g[G_SUPPLY] += card_cond[card, 1]
                    _egg(p, card, seat, eggs_on, obs)
            _check_open(p, card_cond, ccount, ncount, open_, open_n, seat, eggs_on, obs)
            _check_community(p, players, comm, comm_done, rules[R_COMMUNITY_N], ccount, ncount, rules, seat,
                             eggs_on, obs)
            if action != A_BLIND:
                market[action] = _draw(pile, discard, g, chance, trace, record)
        done = False
        for p in range(players):
            if seat[p, S_PLACED] >= rules[R_EGGS]:
                done = True
        if done:
            rounds, finished = r + 1, 1
            break
    _finish(rules, seat, rounds, finished, scores, standing, seat_stats, game_stats)
    return g[G_T]

