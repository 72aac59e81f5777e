"""Contrarian: invest in the destination with the least marketing, market the card of the leader.

A worked example of a user strategy for Forks (see README, "Write your own
strategy"). Run it with:

    playtest simulate forks --strategy-file docs/examples/contrarian.py \
        --strategy contrarian --strategy random --strategy random --strategy random
"""

from numba import njit

from simulator.forks.layout import INVEST, KEEP, OBS_MARKETING

NAME = "contrarian"
PARAMS = [1.0]  # weight of the card's value against the destination's marketing total


@njit
def decide(kind, opt_dest, opt_value, n_options, obs, params, rng):
    # a card is worth params[0] * value minus its destination's marketing total
    best, best_k = -1e18, 0
    for k in range(n_options):
        worth = params[0] * opt_value[k] - obs[OBS_MARKETING + opt_dest[k]]
        if kind != INVEST and kind != KEEP:
            worth = -worth  # merge variant: choose the card to send to marketing
        if worth > best:
            best, best_k = worth, k
    return best_k
