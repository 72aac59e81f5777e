"""Hoarder: research the best face-up card, place cards that leave time (or end the fair), else secure.

A worked example of a user strategy for Fair Enough (see the tutorial "Writing
your own strategy"). Run it with:

    playtest simulate fair-enough --strategy-file docs/examples/hoarder.py \
        --strategy hoarder --strategy random --strategy random --strategy random
"""

from numba import njit

from simulator.fair_enough.layout import (COLLECT, NONE, OBS_ROUND, OBS_ROUNDS, OBS_ROW_KIND, OBS_ROW_VALUE,
                                          OBS_SEAT, OPT_A, OPT_B, OPT_OWNER, OPT_SPECIAL, OPT_TIME, OPT_VALUE,
                                          RESEARCH)

NAME = "hoarder"
PARAMS = [3.0]  # secure rather than place a card that would leave this much time or less


@njit
def decide(kind, opt, n_options, obs, params, rng):
    best, best_k = -1e18, 0
    if kind == RESEARCH:
        # row k takes the face-up cards at positions opt[k, OPT_A] and opt[k, OPT_B] (-1: none); row 0 takes
        # nothing. Take one card: the highest collection card (a special's kind is -1: never taken)
        for k in range(n_options):
            position = opt[k, OPT_A]
            if position >= 0 and opt[k, OPT_B] < 0 and obs[OBS_ROW_KIND + position] >= 0:
                if obs[OBS_ROW_VALUE + position] > best:
                    best, best_k = obs[OBS_ROW_VALUE + position], k
        return best_k
    if kind == COLLECT:
        # row 0 secures. Place the highest plain card that brings the time to exactly zero (the fair ends and
        # only my placed cards are kept), or in the last round anything that fits (a card left in hand costs
        # twice its value), or one that leaves more than params[0] time
        last = obs[OBS_ROUND] == obs[OBS_ROUNDS] - 1
        best_k = 0
        for k in range(1, n_options):
            if opt[k, OPT_SPECIAL] != NONE:
                continue
            worth = opt[k, OPT_VALUE] + (1000.0 if opt[k, OPT_TIME] == 0 else 0.0)
            if (last or opt[k, OPT_TIME] == 0 or opt[k, OPT_TIME] > params[0]) and worth > best:
                best, best_k = worth, k
        return best_k
    # TARGET (after Sold Out): remove another seat's highest placed card
    for k in range(n_options):
        worth = opt[k, OPT_VALUE] - (1000.0 if opt[k, OPT_OWNER] == obs[OBS_SEAT] else 0.0)
        if worth > best:
            best, best_k = worth, k
    return best_k
