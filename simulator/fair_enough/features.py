"""Fair Enough: features of one seat's observation for the learned evaluation (``simulator.core.learned``).

Read only from the observation (``simulator.fair_enough.layout``). The
final score is the collected values, plus 5 x (n - 2) for each kind
collected n >= 3 times, minus twice the values left in hand and 10 per
special left in hand. The observation shows the seat's own collection by
kind but not its values (nor anything of the other collections but their
size), so a collected card is counted at ``MEAN_VALUE``, the mean of the
printed values 1 to 10. Points are divided by ``POINT_SCALE``.

====  =========================================================================
0     estimated score: MEAN_VALUE per collected card + set bonus - hand penalty
1     (0) times the progress
2-4   collected cards against the best and the mean other seat (/ 10) and the rank
      share on them (1 most, 0 fewest)
5     (2) times the progress
6     set bonus of the collection (5 x (n - 2) per kind with n >= 3)
7     collected cards / 20
8     largest set / 10
9     kinds collected exactly twice (one card from a set) / 5
10    hand penalty if the game ended now (2 x values + 10 per special)
11    collection cards in hand / 10
12-14 Queue, Pre-order, Sold Out cards in hand / 2
15    set bonus the hand's collection cards would add to the collection
16    placed, unsecured cards / 5
17    their value / 20
18    set bonus they would add when secured
19    1 once the seat has secured in this Collecting phase
20    remaining time / this round's time card (in a Collecting phase, else 0)
21    1 in a Collecting phase, 0 in a Research phase
22    cards in hand minus the others' mean / 10
23    progress: (round + 1/2 in the Collecting phase) / rounds, at most 1
24    face-up cards of a kind the seat holds or has collected at least twice / 3
25    its place after the start player, clockwise / players
26    its place after the first player, seat / (players - 1)
27-30 players 2..5, one-hot
====  =========================================================================
"""

import numba as nb

from simulator.core.features import one_hot, standing
from simulator.fair_enough.layout import (MAX_KINDS, OBS_COLLECTED_N, OBS_HAND_N, OBS_KINDS, OBS_MY_HAND_KIND,
                                          OBS_MY_HAND_SPECIAL, OBS_MY_HAND_VALUE, OBS_MY_KIND, OBS_PLACED_KIND,
                                          OBS_PLACED_N, OBS_PLACED_VALUE, OBS_PLAYERS, OBS_ROUND, OBS_ROUNDS,
                                          OBS_ROW_KIND, OBS_ROW_N, OBS_SEAT, OBS_SECURED, OBS_START, OBS_TIME,
                                          OBS_TIME_CARD, OBS_TIMES_USED, PREORDER, QUEUE, SOLD_OUT)
from simulator.fair_enough.layout import OBS_SIZE  # noqa: F401 (the feature API: the observation's length)

N_FEATURES = 31
SEAT_FEATURE = 26  # the seat's place after the first player; shipped models read it as a middle seat
MEAN_VALUE = 5.5     # the mean of the printed values 1..10
POINT_SCALE = 50.0
MIN_PLAYERS, MAX_PLAYERS = 2, 5


@nb.njit(cache=True, _nrt=False, inline="always")
def _bonus(n):
    """Set bonus of n cards of one kind."""
    return 5 * (n - 2) if n >= 3 else 0


@nb.njit(cache=True, _nrt=False)
def features(obs, out):
    """Fill ``out[:N_FEATURES]`` (float64) with the features of the module docstring from a Fair Enough
    observation. Jit-compiled, allocation-free; reads nothing but ``obs``."""
    players, seat, kinds = obs[OBS_PLAYERS], obs[OBS_SEAT], min(obs[OBS_KINDS], MAX_KINDS)
    rounds, r = max(obs[OBS_ROUNDS], 1), obs[OBS_ROUND]
    collecting = r < rounds and obs[OBS_TIMES_USED + r] != 0
    progress = min(1.0, (r + (0.5 if collecting else 0.0)) / rounds)
    bonus, collected, largest, pairs, hand_cards, hand_gain, placed_gain = 0, 0, 0, 0, 0, 0, 0
    for k in range(kinds):
        c, h = obs[OBS_MY_KIND + k], obs[OBS_MY_HAND_KIND + k]
        placed = obs[OBS_PLACED_KIND + seat * MAX_KINDS + k]
        bonus += _bonus(c)
        collected += c
        largest = max(largest, c)
        pairs += 1 if c == 2 else 0
        hand_cards += h
        hand_gain += _bonus(c + h) - _bonus(c)
        placed_gain += _bonus(c + placed) - _bonus(c)
    specials = obs[OBS_MY_HAND_SPECIAL + QUEUE] + obs[OBS_MY_HAND_SPECIAL + PREORDER] + \
        obs[OBS_MY_HAND_SPECIAL + SOLD_OUT]
    penalty = 2 * obs[OBS_MY_HAND_VALUE] + 10 * specials
    out[0] = (MEAN_VALUE * collected + bonus - penalty) / POINT_SCALE
    out[1] = out[0] * progress
    standing(obs, OBS_COLLECTED_N, players, seat, 10.0, out, 2)
    out[5] = out[2] * progress
    out[6] = bonus / POINT_SCALE
    out[7] = collected / 20.0
    out[8] = largest / 10.0
    out[9] = pairs / 5.0
    out[10] = penalty / POINT_SCALE
    out[11] = hand_cards / 10.0
    out[12] = obs[OBS_MY_HAND_SPECIAL + QUEUE] / 2.0
    out[13] = obs[OBS_MY_HAND_SPECIAL + PREORDER] / 2.0
    out[14] = obs[OBS_MY_HAND_SPECIAL + SOLD_OUT] / 2.0
    out[15] = hand_gain / POINT_SCALE
    out[16] = obs[OBS_PLACED_N + seat] / 5.0
    out[17] = obs[OBS_PLACED_VALUE + seat] / 20.0
    out[18] = placed_gain / POINT_SCALE
    out[19] = float(obs[OBS_SECURED + seat]) if collecting else 0.0
    out[20] = obs[OBS_TIME] / max(obs[OBS_TIME_CARD], 1) if collecting else 0.0
    out[21] = 1.0 if collecting else 0.0
    others = 0
    for q in range(players):
        others += obs[OBS_HAND_N + q] if q != seat else 0
    out[22] = (obs[OBS_HAND_N + seat] - others / max(players - 1, 1)) / 10.0
    out[23] = progress
    useful = 0
    for i in range(obs[OBS_ROW_N]):
        k = obs[OBS_ROW_KIND + i]
        if k >= 0 and obs[OBS_MY_KIND + k] + obs[OBS_MY_HAND_KIND + k] >= 2:
            useful += 1
    out[24] = useful / 3.0
    out[25] = ((seat - obs[OBS_START]) % players) / players
    out[26] = seat / max(players - 1, 1)
    one_hot(players, MIN_PLAYERS, MAX_PLAYERS, out, 27)
