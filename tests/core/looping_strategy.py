"""A Forks strategy that never returns in a rare situation (first met in game 4 of seed 5, as faulty_strategy).

Elsewhere it takes the first option. Used by the interrupt tests.
"""

NAME = "looping"


def decide(kind, opt_dest, opt_value, n_options, obs, params, rng):
    if n_options > 0 and opt_value[0] >= 10 and obs[0] >= 20:
        k = 0
        while obs[0] >= 0:  # obs[0] stays >= 20: never ends
            k += 1
        return k
    return 0
