"""The deck helpers determinize sorts with: the counting sort by rank agrees with Python's sort."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.core.cards import rank_table, sort_by_rank, sort_range


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_sort_by_rank_orders_distinct_cards_by_their_keys_and_leaves_the_scratch_clear(data):
    n = data.draw(st.integers(1, 60))
    keys = np.array(data.draw(st.lists(st.integers(-10**6, 10**6), min_size=n, max_size=n, unique=True)), np.int64)
    cards = data.draw(st.permutations(range(n)))
    lo = data.draw(st.integers(0, n))
    hi = data.draw(st.integers(lo, n))
    table = rank_table(keys)
    arr = np.array(cards, np.int64)
    sort_by_rank(arr, lo, hi, table)
    assert list(arr[:lo]) == cards[:lo] and list(arr[hi:]) == cards[hi:]
    assert list(arr[lo:hi]) == sorted(cards[lo:hi], key=lambda c: keys[c])
    assert not table[2].any()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=30), st.data())
def test_sort_range_sorts_only_its_range(values, data):
    lo = data.draw(st.integers(0, len(values)))
    hi = data.draw(st.integers(lo, len(values)))
    arr = np.array(values, np.int64)
    sort_range(arr, lo, hi)
    assert list(arr) == values[:lo] + sorted(values[lo:hi]) + values[hi:]
