"""Fauch & Fertig: features of one seat's observation for the learned evaluation (``simulator.core.learned``).

Read only from the observation (``simulator.fauch_fertig.layout``): every
display's colour and number counts, the owner of each card and the eggs on
it, the conditions, the community cards, the market and the seat's own coins
(the other seats' coins are not in it). The game is won by placing every
egg first, so beyond the eggs placed what counts is how close each display
is to its open conditions: a card's *deficit* is the fewest cards the display
still needs for it (``deficit``; exact for all conditions but runs, where it
is a greedy estimate), and the eggs *in reach* are the open cards counted at
``2 ** -deficit`` each (one card away: a half).

====  =========================================================================
0-2   eggs placed against the best and the mean other seat (/ eggs per seat) and
      the rank share on them (1 most, 0 fewest)
3     its eggs placed / eggs per seat
4     progress: the most eggs any seat has placed / eggs per seat, at most 1
5     (0) times the progress
6     (2) times the progress
7     its eggs in reach / 4
8     its eggs placed plus in reach, minus the best other seat's, / eggs per seat
9     (8) times the progress
10    its open cards one card from their egg / 4
11    its open cards two cards from their egg / 4
12    its open cards / 10
13    cards in its display / 20
14    eggs its black-card bonus cards can still take (two each) / 4
15    its open community cards counted like its own cards (the two displays together) / 2
16    its coins / 10
17    coins on the market / 6
18    the most of its open cards one market card would bring closer / 4
19    different numbers in its display / 8
20    its place after the first player, seat / (players - 1)
21    round / 30, at most 1
22    cards left in the draw pile / 72
23    1 if it has fewer than 2 coins (a market buy costs one coin on each other market card)
24-26 players 2..4, one-hot
====  =========================================================================
"""

import numba as nb

from simulator.core.features import one_hot, standing
from simulator.fauch_fertig.layout import (BLACK, C_BLACK, C_BONUS, C_COLOUR, C_COLOURS, C_DISTINCT, C_RANGE, C_RUNS,
                                           C_SETS, MARKET, MAX_PLAYERS, N_CARDS, N_COLOURS, N_NUMBERS, OBS_CARD_COLOUR,
                                           OBS_CARD_COND, OBS_CARD_NUMBER, OBS_COINS, OBS_COLOUR_COUNT,
                                           OBS_COMMUNITY, OBS_COMMUNITY_DONE, OBS_COMMUNITY_N, OBS_EGGS, OBS_EGGS_ON,
                                           OBS_MARKET, OBS_MARKET_COINS, OBS_NUMBER_COUNT, OBS_OWNER, OBS_PILE,
                                           OBS_PLACED, OBS_PLAYERS, OBS_ROUND, OBS_SEAT)
from simulator.fauch_fertig.layout import OBS_SIZE  # noqa: F401 (the feature API: the observation's length)

N_FEATURES = 27
SEAT_FEATURE = 20  # the seat's place after the first player; shipped models read it as a middle seat
MAX_DEFICIT = 8     # deficits are capped here (a condition the cards cannot meet counts as this far)
BONUS_EGGS = 2      # eggs a black-card bonus card takes at most (the printed rule)
MIN_PLAYERS = 2
assert MAX_PLAYERS == 4  # features keeps each seat's eggs in reach in four scalars


@nb.njit(cache=True, _nrt=False, inline="always")
def _colour(obs, s, t, c, add_colour):
    """Cards of colour ``c`` in seat ``s``'s display, plus seat ``t``'s (-1: none), plus one card of
    ``add_colour`` (-1: none)."""
    n = obs[OBS_COLOUR_COUNT + 5 * s + c] + (1 if c == add_colour else 0)
    return n + (obs[OBS_COLOUR_COUNT + 5 * t + c] if t >= 0 else 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def _number(obs, s, t, n, add_number):
    """Cards of number ``n`` in seat ``s``'s display (and ``t``'s, and one added card; see ``_colour``)."""
    k = obs[OBS_NUMBER_COUNT + 9 * s + n] + (1 if n == add_number else 0)
    return k + (obs[OBS_NUMBER_COUNT + 9 * t + n] if t >= 0 else 0)


@nb.njit(cache=True, _nrt=False)
def deficit(obs, kind, a, b, c, s, t, add_colour, add_number):
    """The fewest cards seat ``s``'s display (with seat ``t``'s, -1: none, and one added card of
    ``add_colour``/``add_number``, -1: none) still needs to meet the condition ``(kind, a, b, c)``, at most
    ``MAX_DEFICIT``; 0 for conditions that are not about the display (free egg, pay, bonus).

    Exact for every condition but runs, whose deficit is the greedy one (each run placed where it misses
    the fewest numbers). Jit-compiled, allocation-free.
    """
    need = 0
    if kind == C_COLOUR:
        have = 0
        for col in range(N_COLOURS):
            if b < 0 or col == b:
                have = max(have, _colour(obs, s, t, col, add_colour))
        need = a - have
    elif kind == C_RANGE:
        have = 0
        for n in range(max(b, 1), min(c, N_NUMBERS) + 1):
            have += _number(obs, s, t, n, add_number)
        need = a - have
    elif kind == C_DISTINCT:
        have = 0
        for n in range(1, N_NUMBERS + 1):
            have += 1 if _number(obs, s, t, n, add_number) > 0 else 0
        need = a - have if a <= N_NUMBERS else MAX_DEFICIT
    elif kind == C_COLOURS:
        have = 0
        for col in range(N_COLOURS):
            have += min(_colour(obs, s, t, col, add_colour), a)
        need = a * b - have if b <= N_COLOURS else MAX_DEFICIT
    elif kind == C_BLACK:
        need = a - _colour(obs, s, t, BLACK, add_colour)
    elif kind == C_SETS or kind == C_RUNS:
        packed = 0  # the counts per number, 4 bits each
        for n in range(1, N_NUMBERS + 1):
            packed |= min(_number(obs, s, t, n, add_number), 15) << (4 * n)
        if kind == C_SETS:
            for _ in range(a):  # each set from the number with the most cards left: exact
                best = 1
                for n in range(2, N_NUMBERS + 1):
                    if (packed >> (4 * n)) & 15 > (packed >> (4 * best)) & 15:
                        best = n
                left = (packed >> (4 * best)) & 15
                need += max(0, b - left) if b <= 2 * N_COLOURS else MAX_DEFICIT
                packed &= ~(15 << (4 * best))
                packed |= max(0, left - b) << (4 * best)
        else:
            for _ in range(a):
                best, fewest = -1, MAX_DEFICIT + 1
                for start in range(1, N_NUMBERS + 2 - b):
                    missing = 0
                    for n in range(start, start + b):
                        missing += 1 if (packed >> (4 * n)) & 15 == 0 else 0
                    if missing < fewest:
                        best, fewest = start, missing
                if best < 0:
                    return MAX_DEFICIT
                need += fewest
                for n in range(best, best + b):
                    if (packed >> (4 * n)) & 15 > 0:
                        packed -= 1 << (4 * n)
    return min(max(need, 0), MAX_DEFICIT)


@nb.njit(cache=True, _nrt=False, inline="always")
def _is_display_condition(kind):
    return kind == C_COLOUR or kind == C_RANGE or kind == C_DISTINCT or kind == C_SETS or kind == C_RUNS or \
        kind == C_COLOURS or kind == C_BLACK


@nb.njit(cache=True, _nrt=False, inline="always")
def _helps(obs, slot, kind, a, b, c, seat, d):
    """1 if the market card in ``slot`` would bring ``seat``'s condition ``(kind, a, b, c)`` below its
    deficit ``d``, else 0 (also for an empty slot)."""
    m = obs[OBS_MARKET + slot]
    if m < 0:
        return 0
    return 1 if deficit(obs, kind, a, b, c, seat, -1, obs[OBS_CARD_COLOUR + m], obs[OBS_CARD_NUMBER + m]) < d else 0


@nb.njit(cache=True, _nrt=False)
def features(obs, out):
    """Fill ``out[:N_FEATURES]`` (float64) with the features of the module docstring from a Fauch & Fertig
    observation. Jit-compiled, allocation-free; reads nothing but ``obs``."""
    players, seat, eggs = obs[OBS_PLAYERS], obs[OBS_SEAT], max(obs[OBS_EGGS], 1)
    standing(obs, OBS_PLACED, players, seat, eggs, out, 0)
    most = 0
    for q in range(players):
        most = max(most, obs[OBS_PLACED + q])
    progress = min(1.0, most / eggs)
    out[3] = obs[OBS_PLACED + seat] / eggs
    out[4] = progress
    out[5] = out[0] * progress
    out[6] = out[2] * progress
    # one pass over the displays: each seat's eggs in reach; the seat's own open cards, and for each
    # market slot how many of them its card would bring closer
    r0, r1, r2, r3 = 0.0, 0.0, 0.0, 0.0
    one, two, n_open, h0, h1, h2, bonus_left = 0, 0, 0, 0, 0, 0, 0
    for card in range(N_CARDS):
        owner, base = obs[OBS_OWNER + card], OBS_CARD_COND + 4 * card
        kind = obs[base]
        if owner == seat and kind == C_BONUS:
            bonus_left += max(0, BONUS_EGGS - obs[OBS_EGGS_ON + card])
        if owner < 0 or obs[OBS_EGGS_ON + card] > 0 or not _is_display_condition(kind):
            continue
        a, b, c = obs[base + 1], obs[base + 2], obs[base + 3]
        d = deficit(obs, kind, a, b, c, owner, -1, -1, -1)
        w = 1.0 / (1 << d)
        r0 += w if owner == 0 else 0.0
        r1 += w if owner == 1 else 0.0
        r2 += w if owner == 2 else 0.0
        r3 += w if owner == 3 else 0.0
        if owner == seat:
            one += 1 if d == 1 else 0
            two += 1 if d == 2 else 0
            n_open += 1
            h0 += _helps(obs, 0, kind, a, b, c, seat, d)
            h1 += _helps(obs, 1, kind, a, b, c, seat, d)
            h2 += _helps(obs, 2, kind, a, b, c, seat, d)
    reach = (r0, r1, r2, r3)[seat]
    best_other = -1e9
    for q in range(players):
        if q != seat:
            best_other = max(best_other, obs[OBS_PLACED + q] + (r0, r1, r2, r3)[q])
    out[7] = reach / 4.0
    out[8] = (obs[OBS_PLACED + seat] + reach - best_other) / eggs
    out[9] = out[8] * progress
    out[10] = one / 4.0
    out[11] = two / 4.0
    out[12] = n_open / 10.0
    display = 0
    for col in range(BLACK + 1):
        display += obs[OBS_COLOUR_COUNT + 5 * seat + col]
    out[13] = display / 20.0
    out[14] = bonus_left / 4.0
    community = 0.0
    for k in range(obs[OBS_COMMUNITY_N]):
        left, right = k, (k + 1) % players
        if obs[OBS_COMMUNITY_DONE + k] or (seat != left and seat != right):
            continue
        base = OBS_COMMUNITY + 4 * k
        d = deficit(obs, obs[base], obs[base + 1], obs[base + 2], obs[base + 3], left, right, -1, -1)
        community += 1.0 / (1 << d)
    out[15] = community / 2.0
    out[16] = obs[OBS_COINS] / 10.0
    coins = 0
    for slot in range(MARKET):
        coins += obs[OBS_MARKET_COINS + slot]
    out[17] = coins / 6.0
    out[18] = max(h0, h1, h2) / 4.0
    distinct = 0
    for n in range(1, N_NUMBERS + 1):
        distinct += 1 if obs[OBS_NUMBER_COUNT + 9 * seat + n] > 0 else 0
    out[19] = distinct / 8.0
    out[20] = seat / max(players - 1, 1)
    out[21] = min(obs[OBS_ROUND] / 30.0, 1.0)
    out[22] = obs[OBS_PILE] / float(N_CARDS)
    out[23] = 1.0 if obs[OBS_COINS] < 2 else 0.0
    one_hot(players, MIN_PLAYERS, MAX_PLAYERS, out, 24)
