"""Built-in Nim strategies: numba decision functions with the signature of ``simulator.example.layout``::

    decide(pile, n_options, obs, params, rng) -> int

Each returns an option index (``k`` takes ``k + 1`` counters) and is
jit-compiled (``cache=True``).
"""

import numba as nb

from simulator.core.rng import randint
from simulator.example.layout import OBS_TAKE


@nb.njit(cache=True)
def random(pile, n_options, obs, params, rng):
    """Uniform over the options. Jit-compiled."""
    return randint(rng, n_options)


@nb.njit(cache=True)
def modular(pile, n_options, obs, params, rng):
    """Take what leaves a multiple of ``take + 1`` counters if that is an option, else one. Jit-compiled."""
    k = pile % (obs[OBS_TAKE] + 1) - 1
    return k if 0 <= k < n_options else 0
