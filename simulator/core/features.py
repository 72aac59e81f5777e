"""Building blocks of the games' feature functions (``simulator/GAME/features.py``).

A game's ``features(obs, out)`` turns the int64 observation of one seat into
``N_FEATURES`` float64 numbers for the learned evaluation
(``simulator.core.learned``). The helpers here write a few entries of ``out``
from ``k`` on and return the next free index; every one is jit-compiled,
allocation-free and inlined into its caller.
"""

import numba as nb


@nb.njit(cache=True, _nrt=False, inline="always")
def one_hot(value, lo, hi, out, k):
    """``out[k + i] = 1`` for ``i = value - lo``, else 0, for ``i`` in ``0..hi - lo``; return ``k + hi - lo + 1``.

    A value outside ``lo..hi`` sets no entry. Jit-compiled.
    """
    for i in range(hi - lo + 1):
        out[k + i] = 1.0 if value - lo == i else 0.0
    return k + hi - lo + 1


@nb.njit(cache=True, _nrt=False, inline="always")
def standing(obs, base, players, seat, scale, out, k):
    """Where ``seat`` stands on the per-seat numbers ``obs[base + q]`` (higher is better); return ``k + 3``.

    ``out[k]``: its number minus the best other seat's, ``out[k + 1]``: minus
    the mean of the others (both divided by ``scale``); ``out[k + 2]``: its
    rank share, ``(players - 1 - rank) / (players - 1)`` with rank 0 the
    highest and tied seats sharing the mean of their ranks' values (1 for a
    sole leader, 0 for the sole last, 0.5 for everyone when all are level).
    Jit-compiled.
    """
    mine = obs[base + seat]
    best = -(1 << 62)
    total = 0.0
    above = 0
    level = 0
    for q in range(players):
        if q == seat:
            continue
        v = obs[base + q]
        best = max(best, v)
        total += v
        above += 1 if v > mine else 0
        level += 1 if v == mine else 0
    others = max(players - 1, 1)
    out[k] = (mine - best) / scale
    out[k + 1] = (mine - total / others) / scale
    out[k + 2] = (players - 1 - above - 0.5 * level) / others
    return k + 3
