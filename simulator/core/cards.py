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


@nb.njit(cache=True)
def sort_range(arr, lo, hi, key):
    """Sort ``arr[lo:hi]`` in place by ``key[arr[i]]`` (insertion sort; ``key=None``: by value). Jit-compiled.

    An engine's ``determinize`` sorts the hidden cards before it shuffles them,
    so that its draw depends only on which cards are hidden, not on where they
    lie in the live state (``simulator.core.state``).
    """
    for i in range(lo + 1, hi):
        x = arr[i]
        kx = x if key is None else key[x]
        j = i - 1
        while j >= lo and (arr[j] if key is None else key[arr[j]]) > kx:
            arr[j + 1] = arr[j]
            j -= 1
        arr[j + 1] = x
