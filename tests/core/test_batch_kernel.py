"""The batch kernel's threads (``simulator.core.kernels.BatchKernel``), with a Python stand-in for the compiled
``play_blocks``: one share per thread of the caller's setting, the caller's own thread among them, one shared
block counter, and an exception of any share raised in the caller."""

import threading

import numba
import numpy as np
import pytest

from simulator.core.kernels import BLOCK, BatchKernel
from simulator.core.leaders import ROUNDS

TWO = min(2, numba.config.NUMBA_NUM_THREADS)


def stand_in(fail_in_helpers=False):
    """``(calls, kernel)``: ``kernel`` records ``(thread, args)`` of each call in ``calls`` and, with
    ``fail_in_helpers``, raises in every thread but the caller's."""
    calls, lock, caller = [], threading.Lock(), threading.current_thread()

    def kernel(*args):
        with lock:
            calls.append((threading.current_thread(), args))
        if fail_in_helpers and threading.current_thread() is not caller:
            raise ValueError("a strategy's bug")

    return calls, kernel


def play(kernel, count, threads, **leaders):
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        BatchKernel(kernel)("arrays", "sids", "params", 7, 100, count, "scores", "standing", "seat_stats",
                            "game_stats", "status", **leaders)
    finally:
        numba.set_num_threads(before)


@pytest.mark.parametrize("threads", sorted({1, TWO}))
def test_one_share_per_thread_the_callers_among_them_with_one_counter(threads):
    calls, kernel = stand_in()
    play(kernel, 10 * BLOCK, threads)
    assert len(calls) == threads
    assert threading.current_thread() in [thread for thread, _ in calls]
    counters = [args[-2] for _, args in calls]
    assert all(c is counters[0] for c in counters)  # the blocks are handed out by one counter
    assert counters[0].dtype == np.int64 and counters[0].tolist() == [0]  # a stand-in takes no block
    assert all(args[:-2] == calls[0][1][:-2] and args[-1] == ROUNDS for _, args in calls)
    assert calls[0][1][:6] == ("arrays", "sids", "params", 7, 100, 10 * BLOCK)


def test_the_leader_rounds_reach_every_share_and_are_capped_at_what_the_columns_hold():
    for asked, passed in ((0, 0), (3, 3), (ROUNDS + 5, ROUNDS)):
        calls, kernel = stand_in()
        play(kernel, 10 * BLOCK, TWO, leader_rounds=asked)
        assert [args[-1] for _, args in calls] == [passed] * TWO


def test_no_more_shares_than_blocks_and_one_even_for_no_game():
    for count, shares in ((1, 1), (BLOCK, 1), (0, 1)):
        calls, kernel = stand_in()
        play(kernel, count, TWO)
        assert [thread for thread, _ in calls] == [threading.current_thread()] * shares, count


@pytest.mark.skipif(TWO < 2, reason="numba may use one thread only on this machine")
def test_an_exception_in_another_thread_is_raised_in_the_caller():
    calls, kernel = stand_in(fail_in_helpers=True)
    with pytest.raises(ValueError, match="a strategy's bug"):
        play(kernel, 10 * BLOCK, 2)
    assert len(calls) == 2
