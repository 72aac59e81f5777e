"""Counter-based random streams: independent streams per (run seed, game index, lane).

Every game owns a xoshiro256** generator whose 256-bit state is derived from
``(seed, game)`` by SplitMix64. Game ``i`` of a run therefore draws the same
numbers whatever the thread count, the chunk size or the machine, and nothing
here touches numba's global (per-thread, unreproducible) ``np.random``.

All functions are jit-compiled with ``numba.njit(cache=True)``; a state is a
``uint64[4]`` array that the functions advance in place.
"""

import numba as nb
import numpy as np

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@nb.njit(cache=True, inline="always")
def _mix64(z):
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@nb.njit(cache=True)
def seed_stream(state, seed, game, lane):
    """Fill ``state`` (uint64[4]) with stream ``lane`` of game ``game`` of run ``seed``.

    Jit-compiled. Lane 0 is the game's chance stream (shuffles, dice); lane
    ``1 + s`` belongs to the strategy in seat ``s``, so a strategy's own coin
    flips never move the cards, and rotating strategies over seats keeps the
    deal. Seed, game and lane are mixed in turn by SplitMix64, so neighbouring
    values give unrelated streams.
    """
    z = _mix64(np.uint64(seed) + _GOLDEN)
    z = _mix64(z + np.uint64(game) * _GOLDEN)
    z = z + np.uint64(lane) * _MIX1
    for k in range(4):
        z += _GOLDEN
        state[k] = _mix64(z)


def new_stream(seed, game=0, lane=0):
    """A fresh ``uint64[4]`` stream, seeded as ``seed_stream`` seeds lane ``lane`` of game ``game`` of run ``seed``.

    Plain Python: for tests and tools that call an engine's verbs (``determinize`` takes a stream).
    """
    state = np.empty(4, np.uint64)
    seed_stream(state, seed, game, lane)
    return state


@nb.njit(cache=True)
def next_u64(state):
    """Return the next 64-bit output of the xoshiro256** stream. Jit-compiled."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@nb.njit(cache=True)
def randint(state, n):
    """Return a uniform integer in ``[0, n)`` for ``1 <= n < 2**32``. Jit-compiled.

    Uses the high 32 bits times ``n`` (Lemire's multiply-shift); the bias is at
    most ``n / 2**32``, far below any Monte Carlo resolution.
    """
    return np.int64(((next_u64(state) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@nb.njit(cache=True)
def uniform(state):
    """Return a uniform float in ``[0, 1)`` with 53 random bits. Jit-compiled."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@nb.njit(cache=True)
def shuffle(arr, n, state):
    """Shuffle ``arr[:n]`` in place (Fisher-Yates). Jit-compiled."""
    for i in range(n - 1, 0, -1):
        j = randint(state, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@nb.njit(cache=True)
def seed_game(states, seed, game):
    """Seed every lane of ``states`` (uint64[lanes, 4]) for one game. Jit-compiled."""
    for lane in range(states.shape[0]):
        seed_stream(states[lane], seed, game, lane)


@nb.njit(cache=True)
def reseed_from(states, state):
    """Draw every stream of ``states`` (``[lanes, 4]``) afresh from the stream ``state``, lane by lane. Jit-compiled.

    A player that determinizes a game for its seat calls this on the copy, so
    nothing hidden in the live game's streams (the next cards dealt, the other
    seats' coin flips) reaches the worlds it imagines.
    """
    for lane in range(states.shape[0]):
        for k in range(4):
            states[lane, k] = next_u64(state)
