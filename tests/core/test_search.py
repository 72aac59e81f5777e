"""The information-set MCTS template on a game with a known solution (tests/core/toy_nim.py)."""

import numpy as np
import pytest

import toy_nim
from simulator.core import search
from simulator.core.kernels import bind

VERBS = dict(new_state=toy_nim.new_state, copy_state=toy_nim.copy_state, determinize=toy_nim.determinize,
             legal_actions=toy_nim.legal_actions, apply=toy_nim.apply, result=toy_nim.result,
             choose=toy_nim.choose, MAX_ACTIONS=toy_nim.MAX_ACTIONS, SEARCH_SID=0)
SEARCH = bind(search.search, cache=False, parallel=False, **VERBS)
NEW_SEARCH = bind(search.new_search, cache=False, parallel=False, **VERBS)


def decide(pile, iterations=2000, exploration=0.7, rollout=-1, seed=3):
    arrays = (np.int64(pile),)
    sids = np.zeros(2, np.int64)
    params = np.array([[iterations, exploration, rollout]] * 2, np.float64)
    state = toy_nim.new_state(arrays, params)
    toy_nim.reset(state, arrays, seed, 0, np.empty(0, np.int64), False)
    buf = NEW_SEARCH(arrays, params, sids)
    out = (np.empty(2, np.int32), np.empty(2, np.int64), np.zeros((2, 1), np.int32), np.zeros(1, np.int32))
    before = [a.copy() for a in state]
    action = SEARCH(state, arrays, sids, params, buf, *out)
    return action, before, state


@pytest.mark.parametrize("pile, take", [(10, 2), (7, 3), (5, 1), (13, 1), (6, 2)])
def test_search_leaves_a_multiple_of_four(pile, take):
    action, _, _ = decide(pile)
    assert action + 1 == take


def test_search_changes_only_its_own_stream_and_is_reproducible():
    a1, before, after = decide(10, iterations=300)
    a2, _, _ = decide(10, iterations=300)
    assert a1 == a2
    np.testing.assert_array_equal(before[0], after[0])
    np.testing.assert_array_equal(before[1][[0, 2]], after[1][[0, 2]])   # chance and the other seat
    assert not np.array_equal(before[1][1], after[1][1])                 # the searcher's stream advanced


def test_a_losing_position_still_returns_a_legal_action():
    action, _, _ = decide(8, iterations=200)
    assert 0 <= action < 3
