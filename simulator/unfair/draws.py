"""Drawing from the setup table's distributions inside the kernels."""

import numba as nb

from simulator.core.rng import randint


@nb.njit(cache=True)
def draw(values, cum, state):
    """Return one of ``values`` with chances proportional to its weight. Jit-compiled.

    ``cum`` holds the cumulative weights (``cum[-1] > 0``); trailing entries
    may repeat the total (padding), they are never chosen.
    """
    r = randint(state, cum[cum.size - 1])
    i = 0
    while cum[i] <= r:
        i += 1
    return values[i]
