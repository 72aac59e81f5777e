"""The shared counter of run_chunk's threads hands out every block exactly once."""

import numba as nb
import numpy as np
import pytest

from simulator.core.atomic import fetch_add

# one worker runs the whole module: its kernels are compiled uncached, once in every process that needs them
pytestmark = pytest.mark.xdist_group("tests/core/test_core_atomic.py")


@nb.njit(parallel=True)
def take_all(blocks, workers):
    """Every worker takes blocks from one counter until none is left; returns who took each block."""
    taken = np.zeros(1, np.int64)
    taker = np.full(blocks, -1, np.int64)
    times = np.zeros(blocks, np.int64)
    for w in nb.prange(workers):
        b = fetch_add(taken, 1)
        while b < blocks:
            taker[b] = w
            times[b] += 1
            b = fetch_add(taken, 1)
    return taken, taker, times  # the array: a plain taken[0] here reads the value before the loop


@pytest.mark.parametrize("blocks", [0, 1, 7, 100_000])
def test_every_block_is_taken_once_and_the_counter_counts_every_grab(blocks):
    workers = 64
    count, taker, times = take_all(blocks, workers)
    assert (times == 1).all()
    assert (taker >= 0).all()
    assert count[0] == blocks + workers  # each worker's last grab finds nothing


def test_fetch_add_returns_the_value_before_the_addition():
    @nb.njit
    def twice(counter):
        return fetch_add(counter, 5), fetch_add(counter, -2), counter[0]

    assert twice(np.array([10], np.int64)) == (10, 15, 13)
