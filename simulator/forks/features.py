"""Forks: features of one seat's observation for the learned evaluation (``simulator.core.learned``).

Read only from the observation (``simulator.forks.layout``): the marketing
totals revealed so far, the value the seat has invested per destination, the
tiebreak order and the table. The other seats' investments are hidden, so
every feature is the seat's own position on the public marketing.

``out`` after ``features(obs, out)``, values divided so that they are about
0 to 1 (``VALUE_SCALE`` points, a few cards' worth):

====  =========================================================================
0     score if the game ended now (invested on the top destinations minus the rest)
1     that score times the progress
2     a soft score: each destination's value times ``tanh(margin / MARGIN_SCALE)``,
      the margin being its marketing total's distance from the cut between the
      last positive and the first negative place
3-7   value invested per place band: safely top (places up to top - 3),
      place top - 2, top - 1 (last positive), top (first negative), the rest
8     value invested in all
9     the largest single destination's share of it (0 with nothing invested)
10    destinations held / destinations
11    the marketing gap at the cut (top - 1 minus top place totals)
12    progress: rounds completed / rounds
13    the soft score times the progress
14    the seat's place after the first, seat / (players - 1)
15-19 players 2..6, one-hot
====  =========================================================================
"""

import math

import numba as nb

from simulator.core.features import one_hot
from simulator.forks.layout import (OBS_DESTINATIONS, OBS_MARKETING, OBS_MINE, OBS_PLAYERS, OBS_ROUND,
                                    OBS_ROUNDS, OBS_SEAT, OBS_TIEBREAK, OBS_TOP)
from simulator.forks.layout import OBS_SIZE  # noqa: F401 (the feature API: the observation's length)

N_FEATURES = 20
SEAT_FEATURE = 14  # the seat's place after the first player; shipped models read it as a middle seat
VALUE_SCALE = 20.0     # points: about two cards
MARGIN_SCALE = 10.0    # marketing points over which a destination's place becomes safe
MIN_PLAYERS, MAX_PLAYERS = 2, 6


@nb.njit(cache=True, _nrt=False, inline="always")
def _place(obs, d):
    """Place of destination ``d`` on the marketing totals (0 = best; ties to the earlier tiebreak entry)."""
    mine = obs[OBS_MARKETING + d]
    place = 0
    for e in range(obs[OBS_DESTINATIONS]):
        other = obs[OBS_MARKETING + e]
        if other > mine or (other == mine and obs[OBS_TIEBREAK + e] < obs[OBS_TIEBREAK + d]):
            place += 1
    return place


@nb.njit(cache=True, _nrt=False)
def features(obs, out):
    """Fill ``out[:N_FEATURES]`` (float64) with the features of the module docstring from a Forks observation.

    Jit-compiled, allocation-free; reads nothing but ``obs``.
    """
    n_dest, top = obs[OBS_DESTINATIONS], obs[OBS_TOP]
    # the marketing totals at the cut: the last positive place (top - 1) and the first negative (top)
    last_in, first_out = 0, 0
    for d in range(n_dest):
        p = _place(obs, d)
        if p == top - 1:
            last_in = obs[OBS_MARKETING + d]
        elif p == top:
            first_out = obs[OBS_MARKETING + d]
    cut = 0.5 * (last_in + first_out)
    score, soft, total, largest, held = 0.0, 0.0, 0.0, 0.0, 0
    for b in range(5):
        out[3 + b] = 0.0
    for d in range(n_dest):
        v = float(obs[OBS_MINE + d])
        p = _place(obs, d)
        score += v if p < top else -v
        soft += v * math.tanh((obs[OBS_MARKETING + d] - cut) / MARGIN_SCALE)
        band = 0 if p < top - 2 else (4 if p > top else p - top + 3)
        out[3 + band] += v / VALUE_SCALE
        total += v
        largest = max(largest, v)
        held += 1 if v > 0 else 0
    rounds, players = obs[OBS_ROUNDS], obs[OBS_PLAYERS]
    progress = obs[OBS_ROUND] / max(rounds, 1)
    out[0] = score / VALUE_SCALE
    out[1] = out[0] * progress
    out[2] = soft / VALUE_SCALE
    out[8] = total / VALUE_SCALE
    out[9] = largest / total if total > 0 else 0.0
    out[10] = held / max(n_dest, 1)
    out[11] = (last_in - first_out) / VALUE_SCALE
    out[12] = progress
    out[13] = out[2] * progress
    out[14] = obs[OBS_SEAT] / max(players - 1, 1)
    one_hot(players, MIN_PLAYERS, MAX_PLAYERS, out, 15)
