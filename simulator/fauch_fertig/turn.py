"""Fauch & Fertig rule steps on the state record: the deal, draws, purchases, eggs. All jit-compiled.

The state is a tuple of arrays, declared below slot by slot (``STATE``,
``simulator.core.slots``); the slot constants ``ST_*`` index it. Each
display is kept as count vectors (cards per colour and per number) plus the
list of its cards whose condition is still open; a purchase updates
the counts and re-tests only the buyer's open conditions and the buyer's two
community cards (``simulator.fauch_fertig.conditions``). The public part of
every observation (``ST_VIEW``, the layout's observation vector) is updated
as eggs are placed and cards laid out.
"""

import numba as nb
import numpy as np

from simulator.core.cards import fresh_deck
from simulator.core.rng import shuffle
from simulator.core.slots import Slots
from simulator.core.state import H_TRACE, HEAD, ST_HEAD
from simulator.fauch_fertig.conditions import holds
from simulator.fauch_fertig.layout import (A_BLIND, A_COINS, BLACK, C_BONUS, C_FREE, C_PAY, MARKET, MAX_PLAYERS,
                                           N_CARDS, OBS_COLOUR_COUNT, OBS_COMMUNITY, OBS_COMMUNITY_DONE,
                                           OBS_COMMUNITY_N, OBS_EGGS_ON, OBS_NUMBER_COUNT, OBS_OWNER, OBS_PLACED,
                                           OBS_SIZE, R_BONUS_BLACKS, R_BONUS_COINS, R_CARD_KIND, R_COMMUNITY_N,
                                           R_COMMUNITY_RANDOM, R_COMPLETER_EGGS, R_DISPLAY, R_MARKET_COIN,
                                           R_NEIGHBOUR_EGGS, R_PLAYERS, R_START_COINS, R_SUPPLY)

# the game's head fields: pile position and end, discard size, coin supply, round (0-based), cards drawn by a
# pending blind buy, the pay card of a pending pay choice, the action of the turn in progress
HD_POS, HD_END, HD_DISCARD, HD_SUPPLY, HD_ROUND, HD_DRAWN, HD_CARD, HD_ACTION = range(HEAD, HEAD + 8)
N_HEAD = HEAD + 8
# per-seat counters (the columns of ``ST_SEAT``); SC_DEALT, SC_BOUGHT: bit k set once a card of kind k
# (``R_CARD_KIND``) was dealt to the seat's opening display, bought by the seat
SC_COINS, SC_PLACED, SC_MARKET, SC_BLIND, SC_TAKES, SC_TURNS, SC_DEALT, SC_BOUGHT = range(8)
N_COUNTERS = 8

# the state (simulator.core.slots): head, streams, the game's arrays, then the per-thread buffers
STATE = Slots(N_HEAD, "players", "draws", "pool", "options", "params")
ST_PILE = STATE.slot(np.int64, N_CARDS)                  # pile, drawn from HD_POS up to HD_END
ST_DISCARD = STATE.slot(np.int64, N_CARDS)               # discard pile
ST_DISCARDER = STATE.slot(np.int64, N_CARDS)             # the seat that discarded each discard-pile card
ST_MARKET_CARDS = STATE.slot(np.int64, MARKET)           # market card per slot, -1 empty
ST_MCOINS = STATE.slot(np.int64, MARKET)                 # coins on each market slot
ST_EGGS_ON = STATE.slot(np.int64, N_CARDS)               # eggs on each card
ST_CCOUNT = STATE.slot(np.int64, (MAX_PLAYERS + 1, 5))   # cards per colour (4 = black) per seat; last row: two
ST_NCOUNT = STATE.slot(np.int64, (MAX_PLAYERS + 1, 9))   # cards per number per seat                seats together
ST_OPEN = STATE.slot(np.int64, (MAX_PLAYERS, N_CARDS))   # cards whose condition is still open, per seat
ST_OPEN_N = STATE.slot(np.int64, MAX_PLAYERS)            # how many
ST_BONUS = STATE.slot(np.int64, (MAX_PLAYERS, N_CARDS))  # black-card bonus cards laid out, per seat
ST_BONUS_N = STATE.slot(np.int64, MAX_PLAYERS)           # how many
ST_SEAT = STATE.slot(np.int64, (MAX_PLAYERS, N_COUNTERS))  # per-seat counters (SC_*)
ST_COMM = STATE.slot(np.int64, (MAX_PLAYERS, 4))         # community conditions in play
ST_COMM_DONE = STATE.slot(np.int64, MAX_PLAYERS)         # community card completed
ST_DRAWN = STATE.slot(np.int64, "draws")                 # the cards drawn by a pending blind buy (HD_DRAWN)
ST_VIEW = STATE.slot(np.int64, OBS_SIZE)                 # the public part of every observation, kept up to date
GAME_SLOTS = STATE.end_of_game()
ST_PICKS = STATE.slot(np.int64, "pool")                  # per thread: community draw order
ST_OPTS = STATE.slot(np.int64, "options")                # decision options
ST_HIDDEN = STATE.slot(np.int64, N_CARDS)                # determinize's list of hidden cards
ST_RNG = STATE.slot(np.uint64, 4)                        # the deciding seat's stream
ST_PAR = STATE.slot(np.float64, "params")                # the deciding seat's parameters


@nb.njit(cache=True, _nrt=False)
def from_supply(head, amount):
    """Take up to ``amount`` coins from the supply; return how many came. Jit-compiled."""
    if amount > head[HD_SUPPLY]:
        amount = head[HD_SUPPLY]
    head[HD_SUPPLY] -= amount
    return amount


@nb.njit(cache=True, _nrt=False, inline="always")
def record(head, trace, rec, value):
    """Append ``value`` to the trace (with ``rec``); ``head`` is the state's head. Jit-compiled."""
    if rec:
        trace[head[H_TRACE]] = value
        head[H_TRACE] += 1


@nb.njit(cache=True, _nrt=False)
def _record_shuffle(head, trace, cards, n, rec):
    """Append ``n`` and ``cards[:n]`` to the trace (with ``rec``). Jit-compiled."""
    if rec:
        record(head, trace, rec, n)
        for i in range(n):
            record(head, trace, rec, cards[i])


@nb.njit(cache=True, _nrt=False)
def draw(head, pile, discard, chance, trace, rec):
    """Top card of the pile, refilling an empty pile from the discard pile shuffled with the stream
    ``chance``; -1 if both are empty. Jit-compiled."""
    if head[HD_POS] == head[HD_END] and head[HD_DISCARD] > 0:
        n = head[HD_DISCARD]
        for i in range(n):
            pile[i] = discard[i]
        shuffle(pile, n, chance)
        _record_shuffle(head, trace, pile, n, rec)
        head[HD_POS], head[HD_END], head[HD_DISCARD] = 0, n, 0
    if head[HD_POS] == head[HD_END]:
        return -1
    head[HD_POS] += 1
    return pile[head[HD_POS] - 1]


@nb.njit(cache=True, _nrt=False)
def _egg(p, card, seat, eggs_on, view):
    """Seat ``p`` places an egg (on ``card``, or on a community card if ``card`` is -1). Jit-compiled."""
    seat[p, SC_PLACED] += 1
    view[OBS_PLACED + p] += 1
    if card >= 0:
        eggs_on[card] += 1
        view[OBS_EGGS_ON + card] += 1


@nb.njit(cache=True, _nrt=False)
def _add_card(p, card, colour, number, ccount, ncount, view):
    """Put ``card`` into seat ``p``'s display summaries. Jit-compiled."""
    ccount[p, colour[card]] += 1
    view[OBS_COLOUR_COUNT + 5 * p + colour[card]] += 1
    if number[card] > 0:
        ncount[p, number[card]] += 1
        view[OBS_NUMBER_COUNT + 9 * p + number[card]] += 1
    view[OBS_OWNER + card] = p


@nb.njit(cache=True, _nrt=False, inline="always")
def _mark_kind(seat, p, counter, kind):
    """Set bit ``kind`` of seat ``p``'s ``counter`` (no bit for -1, a kind not recorded). Jit-compiled."""
    if kind >= 0:
        seat[p, counter] |= 1 << kind


@nb.njit(cache=True, _nrt=False)
def _register(p, card, card_cond, open_, open_n, bonus, bonus_n, seat, eggs_on, view):
    """File a card just laid out by its condition: free egg, bonus card or open condition. Jit-compiled.

    Pay cards are left to the caller (the choice is the player's).
    """
    kind = card_cond[card, 0]
    if kind == C_FREE:
        _egg(p, card, seat, eggs_on, view)
    elif kind == C_BONUS:
        bonus[p, bonus_n[p]] = card
        bonus_n[p] += 1
    elif kind != C_PAY:
        open_[p, open_n[p]] = card
        open_n[p] += 1


@nb.njit(cache=True, _nrt=False)
def _check_open(p, card_cond, ccount, ncount, open_, open_n, seat, eggs_on, view):
    """Place an egg on each of seat ``p``'s open cards whose condition now holds. Jit-compiled."""
    k = 0
    while k < open_n[p]:
        card = open_[p, k]
        if holds(card_cond[card, 0], card_cond[card, 1], card_cond[card, 2], card_cond[card, 3],
                 ccount, ncount, p):
            _egg(p, card, seat, eggs_on, view)
            open_n[p] -= 1
            open_[p, k] = open_[p, open_n[p]]
        else:
            k += 1


@nb.njit(cache=True, _nrt=False)
def _check_community(p, players, comm, comm_done, n_comm, ccount, ncount, rules, seat, eggs_on, view):
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
            view[OBS_COMMUNITY_DONE + k] = 1
            for _ in range(rules[R_COMPLETER_EGGS]):
                _egg(p, -1, seat, eggs_on, view)
            for _ in range(rules[R_NEIGHBOUR_EGGS]):
                _egg(other, -1, seat, eggs_on, view)


@nb.njit(cache=True, _nrt=False)
def deal(state, arrays, trace, rec):
    """Shuffle, deal the displays (pay cards replaced and shuffled back), lay out the community cards and
    the market, hand out the start coins and place the eggs the deal already earns. Jit-compiled.

    Expects a zeroed head and seeded streams.
    """
    colour, number, card_cond, pool, rules = arrays
    (head, rngs, pile, discard, _, market, mcoins, eggs_on, ccount, ncount, open_, open_n, bonus, bonus_n, seat,
     comm, comm_done, _, view, picks, _, _, _, _) = state
    chance = rngs[0]
    players = rules[R_PLAYERS]
    eggs_on[:] = 0
    ccount[:, :] = 0
    ncount[:, :] = 0
    open_n[:] = 0
    bonus_n[:] = 0
    seat[:, :] = 0
    comm_done[:] = 0
    head[HD_SUPPLY] = rules[R_SUPPLY]
    for i in range(OBS_PLACED, OBS_OWNER):
        view[i] = 0
    for card in range(N_CARDS):
        view[OBS_OWNER + card] = -1
        view[OBS_EGGS_ON + card] = 0
    for i in range(OBS_COMMUNITY, OBS_COMMUNITY_DONE + MAX_PLAYERS):
        view[i] = 0

    fresh_deck(pile, N_CARDS, chance)
    _record_shuffle(head, trace, pile, N_CARDS, rec)
    pos, aside = 0, 0
    for p in range(players):
        for _ in range(rules[R_DISPLAY]):
            while card_cond[pile[pos], 0] == C_PAY:
                discard[aside] = pile[pos]
                aside += 1
                pos += 1
            _add_card(p, pile[pos], colour, number, ccount, ncount, view)
            pos += 1
    m = N_CARDS - pos
    for i in range(m):
        pile[i] = pile[pos + i]
    for i in range(aside):
        pile[m + i] = discard[i]
    m += aside
    shuffle(pile, m, chance)
    _record_shuffle(head, trace, pile, m, rec)
    head[HD_POS], head[HD_END] = 0, m

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
        record(head, trace, rec, picks[k])

    for s in range(MARKET):      # R_SUPPLY is the supply left after the market and start coins
        market[s] = draw(head, pile, discard, chance, trace, rec)
        mcoins[s] = rules[R_MARKET_COIN]
    for p in range(players):
        seat[p, SC_COINS] = rules[R_START_COINS + p]
    for card in range(N_CARDS):
        p = view[OBS_OWNER + card]
        if p >= 0:
            _mark_kind(seat, p, SC_DEALT, rules[R_CARD_KIND + card])
            _register(p, card, card_cond, open_, open_n, bonus, bonus_n, seat, eggs_on, view)
    for p in range(players):
        _check_open(p, card_cond, ccount, ncount, open_, open_n, seat, eggs_on, view)


@nb.njit(cache=True, _nrt=False, inline="always")
def legal_turn_actions(p, head, market, seat, actions):
    """Write seat ``p``'s legal action codes (market slots, blind, coins) into ``actions``; return how many.

    Jit-compiled. Buying costs 1 coin per other market card (all of them
    when buying blind, which needs a card to draw).
    """
    in_market = 0
    for s in range(MARKET):
        if market[s] >= 0:
            in_market += 1
    coins = seat[p, SC_COINS]
    n = 0
    for s in range(MARKET):
        if market[s] >= 0 and coins >= in_market - 1:
            actions[n] = s
            n += 1
    if head[HD_END] - head[HD_POS] + head[HD_DISCARD] > 0 and coins >= in_market:
        actions[n] = A_BLIND
        n += 1
    actions[n] = A_COINS
    return n + 1


@nb.njit(cache=True, _nrt=False, inline="always")
def lay_out(p, card, arrays, state):
    """Put a bought card into seat ``p``'s display: summaries, black-card bonuses, filing. Jit-compiled."""
    colour, number, card_cond, pool, rules = arrays
    (head, _, _, _, _, _, _, eggs_on, ccount, ncount, open_, open_n, bonus, bonus_n, seat, _, _, _, view,
     _, _, _, _, _) = state
    _add_card(p, card, colour, number, ccount, ncount, view)
    _mark_kind(seat, p, SC_BOUGHT, rules[R_CARD_KIND + card])
    if colour[card] == BLACK:
        for i in range(bonus_n[p]):
            b = bonus[p, i]
            if eggs_on[b] < rules[R_BONUS_BLACKS]:
                seat[p, SC_COINS] += from_supply(head, rules[R_BONUS_COINS])
                _egg(p, b, seat, eggs_on, view)
    _register(p, card, card_cond, open_, open_n, bonus, bonus_n, seat, eggs_on, view)


@nb.njit(cache=True, _nrt=False, inline="always")
def pay_for_egg(p, card, arrays, state):
    """Seat ``p`` pays the pay card ``card``'s price back to the supply and places its egg. Jit-compiled."""
    price = arrays[2][card, 1]
    seat = state[ST_SEAT]
    seat[p, SC_COINS] -= price
    state[ST_HEAD][HD_SUPPLY] += price
    _egg(p, card, seat, state[ST_EGGS_ON], state[ST_VIEW])


@nb.njit(cache=True, _nrt=False, inline="always")
def finish_purchase(p, arrays, state, trace, rec):
    """The eggs seat ``p``'s purchase earns (its open conditions, its community cards), then the market
    refill after a market buy. Jit-compiled."""
    card_cond, rules = arrays[2], arrays[4]
    (head, rngs, pile, discard, _, market, _, eggs_on, ccount, ncount, open_, open_n, _, _, seat, comm, comm_done,
     _, view, _, _, _, _, _) = state
    _check_open(p, card_cond, ccount, ncount, open_, open_n, seat, eggs_on, view)
    _check_community(p, rules[R_PLAYERS], comm, comm_done, rules[R_COMMUNITY_N], ccount, ncount, rules, seat,
                     eggs_on, view)
    action = head[HD_ACTION]
    if action != A_BLIND:
        market[action] = draw(head, pile, discard, rngs[0], trace, rec)
