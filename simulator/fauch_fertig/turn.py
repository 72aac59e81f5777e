"""Fauch & Fertig rule steps on the state record: the deal, draws, purchases, eggs. All jit-compiled.

The state (``engine.new_state``) is a tuple of arrays; the names below index
it. Each display is kept as count vectors (cards per colour and per number)
plus the list of its cards whose condition is still open; a purchase updates
the counts and re-tests only the buyer's open conditions and the buyer's two
community cards (``simulator.fauch_fertig.conditions``). The public part of
every observation (``VIEW``, the layout's observation vector) is updated
as eggs are placed and cards laid out.
"""

import numba as nb

from simulator.core.cards import fresh_deck
from simulator.core.rng import shuffle
from simulator.core.state import H_TRACE, HEAD
from simulator.fauch_fertig.conditions import holds
from simulator.fauch_fertig.layout import (A_BLIND, A_COINS, BLACK, C_BONUS, C_FREE, C_PAY, MARKET, MAX_PLAYERS,
                                           N_CARDS, OBS_COLOUR_COUNT, OBS_COMMUNITY, OBS_COMMUNITY_DONE,
                                           OBS_COMMUNITY_N, OBS_EGGS_ON, OBS_NUMBER_COUNT, OBS_OWNER, OBS_PLACED,
                                           R_BONUS_BLACKS, R_BONUS_COINS, R_COMMUNITY_N, R_COMMUNITY_RANDOM,
                                           R_COMPLETER_EGGS, R_DISPLAY, R_MARKET_COIN, R_NEIGHBOUR_EGGS, R_PLAYERS,
                                           R_START_COINS, R_SUPPLY)

# the state tuple: head, streams, the game's arrays, then the per-thread buffers (not part of the game)
(RNGS, PILE, DISCARD, DISCARDER, MARKET_CARDS, MCOINS, EGGS_ON, CCOUNT, NCOUNT, OPEN, OPEN_N, BONUS, BONUS_N,
 SEAT, COMM, COMM_DONE, DRAWN, VIEW, PICKS, OPTS, HIDDEN, RNG, PAR) = range(1, 24)
# the game's head slots: pile position and end, discard size, coin supply, round (0-based), cards drawn by a
# pending blind buy, the pay card of a pending pay choice, the action of the turn in progress
G_POS, G_END, G_DISCARD, G_SUPPLY, G_ROUND, G_DRAWN, G_CARD, G_ACTION = range(HEAD, HEAD + 8)
HEAD_SIZE = HEAD + 8
# per-seat counters (``SEAT``)
S_COINS, S_PLACED, S_MARKET, S_BLIND, S_TAKES, S_TURNS = range(6)


@nb.njit(cache=True)
def from_supply(head, amount):
    """Take up to ``amount`` coins from the supply; return how many came. Jit-compiled."""
    if amount > head[G_SUPPLY]:
        amount = head[G_SUPPLY]
    head[G_SUPPLY] -= amount
    return amount


@nb.njit(cache=True)
def record(state, trace, rec, value):
    """Append ``value`` to the trace (with ``rec``). Jit-compiled."""
    if rec:
        head = state[0]
        trace[head[H_TRACE]] = value
        head[H_TRACE] += 1


@nb.njit(cache=True)
def _record_shuffle(state, trace, cards, n, rec):
    """Append ``n`` and ``cards[:n]`` to the trace (with ``rec``). Jit-compiled."""
    record(state, trace, rec, n)
    for i in range(n):
        record(state, trace, rec, cards[i])


@nb.njit(cache=True)
def draw(state, trace, rec):
    """Top card of the pile, refilling an empty pile from the shuffled discard pile; -1 if both are empty.

    Jit-compiled.
    """
    head, pile, discard = state[0], state[PILE], state[DISCARD]
    if head[G_POS] == head[G_END] and head[G_DISCARD] > 0:
        n = head[G_DISCARD]
        for i in range(n):
            pile[i] = discard[i]
        shuffle(pile, n, state[RNGS][0])
        _record_shuffle(state, trace, pile, n, rec)
        head[G_POS], head[G_END], head[G_DISCARD] = 0, n, 0
    if head[G_POS] == head[G_END]:
        return -1
    head[G_POS] += 1
    return pile[head[G_POS] - 1]


@nb.njit(cache=True)
def _egg(state, p, card):
    """Seat ``p`` places an egg (on ``card``, or on a community card if ``card`` is -1). Jit-compiled."""
    view = state[VIEW]
    state[SEAT][p, S_PLACED] += 1
    view[OBS_PLACED + p] += 1
    if card >= 0:
        state[EGGS_ON][card] += 1
        view[OBS_EGGS_ON + card] += 1


@nb.njit(cache=True)
def _add_card(state, arrays, p, card):
    """Put ``card`` into seat ``p``'s display summaries. Jit-compiled."""
    colour, number = arrays[0], arrays[1]
    view = state[VIEW]
    state[CCOUNT][p, colour[card]] += 1
    view[OBS_COLOUR_COUNT + 5 * p + colour[card]] += 1
    if number[card] > 0:
        state[NCOUNT][p, number[card]] += 1
        view[OBS_NUMBER_COUNT + 9 * p + number[card]] += 1
    view[OBS_OWNER + card] = p


@nb.njit(cache=True)
def _register(state, arrays, p, card):
    """File a card just laid out by its condition: free egg, bonus card or open condition. Jit-compiled.

    Pay cards are left to the caller (the choice is the player's).
    """
    kind = arrays[2][card, 0]
    if kind == C_FREE:
        _egg(state, p, card)
    elif kind == C_BONUS:
        bonus_n = state[BONUS_N]
        state[BONUS][p, bonus_n[p]] = card
        bonus_n[p] += 1
    elif kind != C_PAY:
        open_n = state[OPEN_N]
        state[OPEN][p, open_n[p]] = card
        open_n[p] += 1


@nb.njit(cache=True)
def _check_open(state, arrays, p):
    """Place an egg on each of seat ``p``'s open cards whose condition now holds. Jit-compiled."""
    card_cond = arrays[2]
    open_, open_n = state[OPEN], state[OPEN_N]
    k = 0
    while k < open_n[p]:
        card = open_[p, k]
        if holds(card_cond[card, 0], card_cond[card, 1], card_cond[card, 2], card_cond[card, 3],
                 state[CCOUNT], state[NCOUNT], p):
            _egg(state, p, card)
            open_n[p] -= 1
            open_[p, k] = open_[p, open_n[p]]
        else:
            k += 1


@nb.njit(cache=True)
def _check_community(state, arrays, p):
    """Complete the open community cards next to seat ``p`` that the two displays now meet. Jit-compiled.

    Community card ``k`` lies between seats ``k`` and ``k + 1``; ``p``'s
    purchase completed it, so ``p`` places the completer's eggs and the other
    neighbour the neighbour's eggs.
    """
    rules = arrays[4]
    comm, comm_done, ccount, ncount = state[COMM], state[COMM_DONE], state[CCOUNT], state[NCOUNT]
    players = rules[R_PLAYERS]
    for k in range(rules[R_COMMUNITY_N]):
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
            state[VIEW][OBS_COMMUNITY_DONE + k] = 1
            for _ in range(rules[R_COMPLETER_EGGS]):
                _egg(state, p, -1)
            for _ in range(rules[R_NEIGHBOUR_EGGS]):
                _egg(state, other, -1)


@nb.njit(cache=True)
def deal(state, arrays, trace, rec):
    """Shuffle, deal the displays (pay cards replaced and shuffled back), lay out the community cards and
    the market, hand out the start coins and place the eggs the deal already earns. Jit-compiled.

    Expects a zeroed head and seeded streams.
    """
    colour, number, card_cond, pool, rules = arrays
    head, pile, discard, market, mcoins, comm, picks, view = (state[0], state[PILE], state[DISCARD],
                                                              state[MARKET_CARDS], state[MCOINS], state[COMM],
                                                              state[PICKS], state[VIEW])
    chance = state[RNGS][0]
    players = rules[R_PLAYERS]
    state[EGGS_ON][:] = 0
    state[CCOUNT][:, :] = 0
    state[NCOUNT][:, :] = 0
    state[OPEN_N][:] = 0
    state[BONUS_N][:] = 0
    state[SEAT][:, :] = 0
    state[COMM_DONE][:] = 0
    head[G_SUPPLY] = rules[R_SUPPLY]
    for i in range(OBS_PLACED, OBS_OWNER):
        view[i] = 0
    for card in range(N_CARDS):
        view[OBS_OWNER + card] = -1
        view[OBS_EGGS_ON + card] = 0
    for i in range(OBS_COMMUNITY, OBS_COMMUNITY_DONE + MAX_PLAYERS):
        view[i] = 0

    fresh_deck(pile, N_CARDS, chance)
    _record_shuffle(state, trace, pile, N_CARDS, rec)
    pos, aside = 0, 0
    for p in range(players):
        for _ in range(rules[R_DISPLAY]):
            while card_cond[pile[pos], 0] == C_PAY:
                discard[aside] = pile[pos]
                aside += 1
                pos += 1
            _add_card(state, arrays, p, pile[pos])
            pos += 1
    m = N_CARDS - pos
    for i in range(m):
        pile[i] = pile[pos + i]
    for i in range(aside):
        pile[m + i] = discard[i]
    m += aside
    shuffle(pile, m, chance)
    _record_shuffle(state, trace, pile, m, rec)
    head[G_POS], head[G_END] = 0, m

    n_pool = pool.shape[0]
    n_comm = rules[R_COMMUNITY_N]
    for i in range(n_pool):
        picks[i] = i
    if rules[R_COMMUNITY_RANDOM]:
        shuffle(picks, n_pool, chance)
    view[OBS_COMMUNITY_N] = n_comm
    for k in range(n_comm):
        for j in range(4):
            comm[k, j] = pool[picks[k], j]
            view[OBS_COMMUNITY + 4 * k + j] = comm[k, j]
        record(state, trace, rec, picks[k])

    for s in range(MARKET):      # R_SUPPLY is the supply left after the market and start coins
        market[s] = draw(state, trace, rec)
        mcoins[s] = rules[R_MARKET_COIN]
    for p in range(players):
        state[SEAT][p, S_COINS] = rules[R_START_COINS + p]
    for card in range(N_CARDS):
        p = view[OBS_OWNER + card]
        if p >= 0:
            _register(state, arrays, p, card)
    for p in range(players):
        _check_open(state, arrays, p)


@nb.njit(cache=True)
def legal_turn_actions(state, p, actions):
    """Write seat ``p``'s legal action codes (market slots, blind, coins) into ``actions``; return how many.

    Jit-compiled. Buying costs 1 coin per other market card (all of them
    when buying blind, which needs a card to draw).
    """
    head, market = state[0], state[MARKET_CARDS]
    in_market = 0
    for s in range(MARKET):
        if market[s] >= 0:
            in_market += 1
    coins = state[SEAT][p, S_COINS]
    n = 0
    for s in range(MARKET):
        if market[s] >= 0 and coins >= in_market - 1:
            actions[n] = s
            n += 1
    if head[G_END] - head[G_POS] + head[G_DISCARD] > 0 and coins >= in_market:
        actions[n] = A_BLIND
        n += 1
    actions[n] = A_COINS
    return n + 1


@nb.njit(cache=True)
def lay_out(state, arrays, p, card):
    """Put a bought card into seat ``p``'s display: summaries, black-card bonuses, filing. Jit-compiled."""
    colour, rules = arrays[0], arrays[4]
    head, seat, bonus, bonus_n, eggs_on = state[0], state[SEAT], state[BONUS], state[BONUS_N], state[EGGS_ON]
    _add_card(state, arrays, p, card)
    if colour[card] == BLACK:
        for i in range(bonus_n[p]):
            b = bonus[p, i]
            if eggs_on[b] < rules[R_BONUS_BLACKS]:
                seat[p, S_COINS] += from_supply(head, rules[R_BONUS_COINS])
                _egg(state, p, b)
    _register(state, arrays, p, card)


@nb.njit(cache=True)
def pay_for_egg(state, arrays, p, card):
    """Seat ``p`` pays the pay card ``card``'s price back to the supply and places its egg. Jit-compiled."""
    price = arrays[2][card, 1]
    state[SEAT][p, S_COINS] -= price
    state[0][G_SUPPLY] += price
    _egg(state, p, card)


@nb.njit(cache=True)
def finish_purchase(state, arrays, p, trace, rec):
    """The eggs seat ``p``'s purchase earns (its open conditions, its community cards), then the market
    refill after a market buy. Jit-compiled."""
    head = state[0]
    _check_open(state, arrays, p)
    _check_community(state, arrays, p)
    action = head[G_ACTION]
    if action != A_BLIND:
        state[MARKET_CARDS][action] = draw(state, trace, rec)
