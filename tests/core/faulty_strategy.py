"""A Forks strategy file that misbehaves in a rare situation (first met in game 4 of seed 5).

PARAMS[0] = 0: it raises ValueError; 1: it returns an illegal option index, -2.
Elsewhere it takes the first option. Used by the fault tests.
"""

NAME = "faulty"
PARAMS = [0.0]


def decide(kind, opt_dest, opt_value, n_options, obs, params, rng):
    if n_options > 0 and opt_value[0] >= 10 and obs[0] >= 20:
        if params[0] == 0:
            raise ValueError("no card to play")
        return -2
    return 0
