"""Per-seat buffers handed to a strategy at each decision. All functions are jit-compiled.

A decision function receives its seat's random stream and parameter vector
as small contiguous arrays. Copying them into fixed buffers (instead of
slicing ``rngs[1 + seat]`` and ``params[seat]``) avoids creating array views,
whose reference counting costs more than the copy in the hot loop.
"""

import numba as nb


@nb.njit(cache=True, inline="always")
def load_seat(rngs, params, seat, rng, par):
    """Copy seat ``seat``'s stream (lane ``1 + seat``) into ``rng`` and its parameters into ``par``."""
    for k in range(4):
        rng[k] = rngs[1 + seat, k]
    for k in range(par.size):
        par[k] = params[seat, k]


@nb.njit(cache=True, inline="always")
def store_seat(rngs, seat, rng):
    """Write the advanced stream ``rng`` back to seat ``seat``'s lane."""
    for k in range(4):
        rngs[1 + seat, k] = rng[k]
