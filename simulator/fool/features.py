"""Fool!: features of one seat's observation for the learned evaluation (``simulator.core.learned``).

Read only from the observation (``simulator.fool.layout``): the game totals
before this deal, every seat's hand count and disc, the seat's own hand and
the cards of the deal it has not seen. Points are divided by the loss limit
(80 in the printed game), card counts by ``HAND_SCALE``.

====  =========================================================================
0-2   the seat's total minus the best other total, minus the mean of the others
      (both / loss limit), its rank share on the totals (1 leader, 0 last)
3     its total / loss limit
4     progress: how near the game's end is, the larger of the lowest total / -loss
      limit and the tallies / tally limit
5     (0) times the progress
6     (2) times the progress
7     cards in its hand / HAND_SCALE
8     its hand's penalty if the deal ended now (values, wilds at the wild penalty) / loss limit
9     the smallest other hand / HAND_SCALE (the deal ends when a hand is empty)
10    its hand minus that smallest other hand / HAND_SCALE
11    the mean other hand / HAND_SCALE
12    projected lead: its total minus its penalty, minus the best other seat's total
      minus that seat's cards at the mean penalty of an unseen card, / loss limit
13    1 if it holds a disc (passes this trick)
14    wild "1"s in its hand / 3
15    colours it holds no card of / colours (it may shed there)
16    its cards higher than every unseen card of their colour / HAND_SCALE
17    its cards lower than every unseen card of their colour / HAND_SCALE (0 where none is unseen)
18    its longest colour / HAND_SCALE
19    its place after this trick's leader, clockwise / players
20    the seat's place after the first player, seat / (players - 1)
21    the deal's number (0 = first) / 10, at most 1
22    tricks of this deal played / HAND_SCALE
23-27 players 4..8, one-hot
====  =========================================================================
"""

import numba as nb

from simulator.core.features import one_hot, standing
from simulator.fool.layout import (OBS_COLOURS, OBS_COUNT, OBS_DEAL, OBS_LEADER, OBS_LOSS_LIMIT, OBS_MINE,
                                   OBS_PASSING, OBS_PLAYERS, OBS_SEAT, OBS_TALLIES, OBS_TALLY_LIMIT, OBS_TOTAL,
                                   OBS_TRICK, OBS_UNSEEN, OBS_WILD_PENALTY)
from simulator.fool.layout import OBS_SIZE  # noqa: F401 (the feature API: the observation's length)

N_FEATURES = 28
SEAT_FEATURE = 20  # the seat's place after the first player; shipped models read it as a middle seat
HAND_SCALE = 12.0   # cards in a printed hand
MIN_PLAYERS, MAX_PLAYERS = 4, 8


@nb.njit(cache=True, _nrt=False, inline="always")
def _bits(mask):
    """Number of set bits of a non-negative int64."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@nb.njit(cache=True, _nrt=False, inline="always")
def _top_bit(mask):
    """Index of the highest set bit (-1 for 0)."""
    b = -1
    while mask:
        mask >>= 1
        b += 1
    return b


@nb.njit(cache=True, _nrt=False, inline="always")
def _low_bit(mask):
    """Index of the lowest set bit (64 for 0)."""
    if mask == 0:
        return 64
    b = 0
    while (mask >> b) & 1 == 0:
        b += 1
    return b


@nb.njit(cache=True, _nrt=False, inline="always")
def _value_sum(mask):
    """Sum of the values whose bits are set."""
    total, v = 0, 0
    while mask:
        if mask & 1:
            total += v
        mask >>= 1
        v += 1
    return total


@nb.njit(cache=True, _nrt=False)
def features(obs, out):
    """Fill ``out[:N_FEATURES]`` (float64) with the features of the module docstring from a Fool! observation.

    Jit-compiled, allocation-free; reads nothing but ``obs``.
    """
    players, seat, colours = obs[OBS_PLAYERS], obs[OBS_SEAT], obs[OBS_COLOURS]
    loss, penalty = max(obs[OBS_LOSS_LIMIT], 1), obs[OBS_WILD_PENALTY]
    standing(obs, OBS_TOTAL, players, seat, loss, out, 0)
    lowest = 0
    for q in range(players):
        lowest = min(lowest, obs[OBS_TOTAL + q])
    progress = min(1.0, max(-lowest / loss, obs[OBS_TALLIES] / max(obs[OBS_TALLY_LIMIT], 1)))
    out[3] = obs[OBS_TOTAL + seat] / loss
    out[4] = progress
    out[5] = out[0] * progress
    out[6] = out[2] * progress
    # the seat's hand, and the unseen cards (the other hands and nothing else: a deal uses every card)
    wilds = obs[OBS_MINE]
    mine_pen = wilds * penalty
    unseen_n = obs[OBS_UNSEEN]
    unseen_pen = obs[OBS_UNSEEN] * penalty
    void, high, low, longest = 0, 0, 0, 0
    for c in range(1, colours + 1):
        m, u = obs[OBS_MINE + c], obs[OBS_UNSEEN + c]
        k = _bits(m)
        mine_pen += _value_sum(m)
        unseen_n += _bits(u)
        unseen_pen += _value_sum(u)
        longest = max(longest, k)
        if k == 0:
            void += 1
            continue
        top_unseen, low_unseen = _top_bit(u), _low_bit(u)
        high += _bits(m >> (top_unseen + 1)) if top_unseen >= 0 else k
        low += _bits(m & ((1 << low_unseen) - 1)) if low_unseen < 63 else 0
    mean_pen = unseen_pen / unseen_n if unseen_n > 0 else 0.0
    cards = obs[OBS_COUNT + seat]
    smallest, others, best_projected = 1 << 30, 0.0, -1e18
    for q in range(players):
        if q == seat:
            continue
        n = obs[OBS_COUNT + q]
        smallest = min(smallest, n)
        others += n
        best_projected = max(best_projected, obs[OBS_TOTAL + q] - n * mean_pen)
    out[7] = cards / HAND_SCALE
    out[8] = mine_pen / loss
    out[9] = smallest / HAND_SCALE
    out[10] = (cards - smallest) / HAND_SCALE
    out[11] = others / max(players - 1, 1) / HAND_SCALE
    out[12] = (obs[OBS_TOTAL + seat] - mine_pen - best_projected) / loss
    out[13] = float(obs[OBS_PASSING + seat])
    out[14] = wilds / 3.0
    out[15] = void / max(colours, 1)
    out[16] = high / HAND_SCALE
    out[17] = low / HAND_SCALE
    out[18] = longest / HAND_SCALE
    out[19] = ((seat - obs[OBS_LEADER]) % players) / players
    out[20] = seat / max(players - 1, 1)
    out[21] = min(obs[OBS_DEAL] / 10.0, 1.0)
    out[22] = obs[OBS_TRICK] / HAND_SCALE
    one_hot(players, MIN_PLAYERS, MAX_PLAYERS, out, 23)
