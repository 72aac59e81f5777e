"""Bold: play the card that ranks highest in the trick, so that another seat's card ends up worst.

A worked example of a user strategy for Fool! (see the tutorial "Writing your
own strategy"). Run it with:

    playtest simulate fool --strategy-file docs/examples/bold.py \
        --strategy bold --strategy random --strategy random --strategy random
"""

from numba import njit

from simulator.fool.layout import OBS_LEAD

NAME = "bold"
PARAMS = [100.0]  # how far a wild ranks above a shed card, and a card of the lead colour above a wild


@njit
def decide(opt_colour, opt_value, n_options, obs, params, rng):
    # the trick's ranking: a shed card (off the lead colour) < a wild (colour 0) < a card of the lead colour,
    # then by value; while only wilds or nothing are down, any coloured card sets the lead colour
    lead = obs[OBS_LEAD]
    best, best_k = -1e18, 0
    for k in range(n_options):
        colour = opt_colour[k]
        rank = 0.0
        if colour == 0:
            rank = params[0]
        elif lead == 0 or colour == lead:
            rank = 2.0 * params[0]
        worth = rank + opt_value[k]
        if worth > best:
            best, best_k = worth, k
    return best_k
