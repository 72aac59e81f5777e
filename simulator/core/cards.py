"""Deck helpers for flat card arrays. All functions are jit-compiled."""

import numba as nb
import numpy as np

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
def sort_range(arr, lo, hi):
    """Sort ``arr[lo:hi]`` in place by value (insertion sort, for short ranges). Jit-compiled.

    A ``determinize`` sorts the hidden cards before it shuffles them, so that
    its draw depends only on which cards are hidden, not on where they lie in
    the live state (``simulator.core.state``).
    """
    for i in range(lo + 1, hi):
        x = arr[i]
        j = i - 1
        while j >= lo and arr[j] > x:
            arr[j + 1] = arr[j]
            j -= 1
        arr[j + 1] = x


@nb.njit(cache=True)
def rank_table(keys):
    """The table ``sort_by_rank`` sorts card ids with, for ``keys`` (one distinct key per card id). Jit-compiled.

    Row 0 is each card's rank among the keys, row 1 the card of each rank,
    row 2 zeros (the sort's scratch).
    """
    n = keys.size
    table = np.zeros((3, n), np.int64)
    order = np.argsort(keys)
    for r in range(n):
        table[0, order[r]] = r
        table[1, r] = order[r]
    return table


@nb.njit(cache=True)
def sort_by_rank(arr, lo, hi, table):
    """Sort the distinct card ids ``arr[lo:hi]`` in place by their rank in ``table`` (``rank_table``).

    Jit-compiled. A counting sort, linear in the number of card ids: it marks
    each card's rank in the table's scratch row, then reads the marked ranks in
    order and clears them again.
    """
    for i in range(lo, hi):
        table[2, table[0, arr[i]]] = 1
    j = lo
    for r in range(table.shape[1]):
        if table[2, r]:
            table[2, r] = 0
            arr[j] = table[1, r]
            j += 1
