"""Built-in Fool! strategies: numba decision functions.

Each function has the Fool! signature (see ``simulator.fool.layout``)::

    decide(opt_colour, opt_value, n_options, obs, params, rng) -> int

and is jit-compiled (``cache=True``). The options are the legal cards. The
strategies read only ``obs`` (their own hand, the cards played so far in the
trick and the deal, hand counts, who passes, the totals) and their own
random stream ``rng``.
"""

import numba as nb

from simulator.core.rng import randint


@nb.njit(cache=True)
def random(opt_colour, opt_value, n, obs, params, rng):
    """Uniform over the legal cards. Jit-compiled."""
    return randint(rng, n)
