"""The search's remedies for a shallow keyed tree in real games: kept worlds, and the default slots off.

With ``worlds`` W >= 1 the search determinizes W worlds in its first W
iterations and plays every later iteration in one of them again (chance
lanes and all; OpenSpiel's ``max_world_samples``); with 0, the default, every
iteration is a fresh world, the search as it was before the slot. Widening
is hand-checked on toy Nim (tests/core/test_search.py).
"""

import numpy as np
import pytest
from test_move_keys import KeyTable, searched_with_log, states

from simulator.core.rng import next_u64
from simulator.core.search import P_WORLDS
from simulator.core.state import to_move


def world(t, state, stream):
    """``state`` determinized for its seat to move from ``stream`` (a copy), every lane reseeded, as the search
    does at the start of an iteration."""
    rng = stream.copy()
    work = t.copy(state)
    t.engine.determinize(work, t.cfg.arrays, int(to_move(state)), rng)
    lanes = work[1]
    for lane in range(lanes.shape[0]):
        for k in range(4):
            lanes[lane, k] = next_u64(rng)
    return work


def steps_outside(t, state, buf, stream):
    """How many iterations of the log (rows iteration, node, action) leave the world of ``stream``: replayed
    there from the start, one of their actions is illegal or another move than the node's key."""
    log, key = buf[20], buf[2]
    outside = 0
    for it in range(buf[21].shape[0]):
        work = world(t, state, stream)
        for _, node, action in log[log[:, 0] == it]:
            if action not in legal_actions(t, work) or t.engine.move_key(work, t.cfg.arrays, action) != key[node]:
                outside += 1
                break
            t.engine.apply(work, t.cfg.arrays, int(action), np.empty(0, np.int64), False)
    return outside


def legal_actions(t, state):
    actions = np.empty(t.engine.MAX_ACTIONS, np.int64)
    return actions[:t.engine.legal_actions(state, t.cfg.arrays, actions)]


@pytest.fixture(scope="module")
def fool():
    return KeyTable("fool", iterations=60, horizon=1)


def searched(t, state, worlds):
    """The buffers of a 60-iteration search of a copy of ``state`` (the search advances its seat's stream) with
    ``worlds`` kept worlds, the tree log on."""
    t.params[:, P_WORLDS] = float(worlds)
    try:
        return searched_with_log(t, t.copy(state), 60)
    finally:
        t.params[:, P_WORLDS] = 0.0


def test_one_kept_world_plays_every_iteration_in_the_first_iterations_world(fool):
    """Fool!, worlds 1: every step of every iteration replays in the world of iteration 0 (whose stream the search
    kept); with a fresh world every iteration (worlds 0) other iterations play cards that world does not deal."""
    fresh = 0
    for state in states(fool)[:3]:
        buf = searched(fool, state, 1)
        np.testing.assert_array_equal(buf[22][0], buf[21][0])   # the kept stream is iteration 0's
        assert steps_outside(fool, state, buf, buf[21][0]) == 0
        buf = searched(fool, state, 0)
        fresh += steps_outside(fool, state, buf, buf[21][0])
    assert fresh > 10


def test_as_many_kept_worlds_as_iterations_is_the_search_without_them(fool):
    """Every iteration of a 60-iteration search with 60 kept worlds draws a fresh one: the same tree."""
    for state in states(fool)[:4]:
        plain, kept = searched(fool, state, 0), searched(fool, state, 60)
        np.testing.assert_array_equal(plain[20], kept[20])   # the same steps in the same iterations
        nodes = np.unique(plain[20][plain[20][:, 0] >= 0, 1])
        np.testing.assert_array_equal(plain[6][nodes], kept[6][nodes])   # their visits
        np.testing.assert_array_equal(plain[8][nodes], kept[8][nodes])   # and rewards
