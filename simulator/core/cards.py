"""Deck helpers for flat card arrays. All functions are jit-compiled."""

import numba as nb

from simulator.core.rng import shuffle


@nb.njit(cache=True)
def fresh_deck(deck, n, chance):
    """Write cards ``0..n-1`` into ``deck[:n]`` and shuffle them with ``chance``. Jit-compiled."""
    for i in range(n):
        deck[i] = i
    shuffle(deck, n, chance)


@nb.njit(cache=True)
def remove_at(arr, n, k):
    """Remove ``arr[k]`` from ``arr[:n]`` keeping order; return the removed item. Jit-compiled."""
    item = arr[k]
    for j in range(k, n - 1):
        arr[j] = arr[j + 1]
    return item
