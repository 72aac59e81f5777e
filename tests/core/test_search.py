"""The information-set MCTS template on a game with a known solution: two-player Nim, take 1 to 3 (the example
game, simulator.example), whose winning move leaves a multiple of four."""

import numpy as np
import pytest

from simulator import games
from simulator.core.kernels import bind_choose, bind_search, engine_verbs
from strategies.games import strategy_set

NIM = games.get("nim")
CHOOSE = bind_choose(NIM, strategy_set("nim").dispatch, cache=False)  # (the rollouts here are uniform: unused)
NEW_SEARCH, SEARCH, _, _ = bind_search(dict(engine_verbs(NIM), choose=CHOOSE), cache=False, search_sid=0)


def decide(pile, iterations=2000, exploration=0.7, rollout=-1, forbid=0, seed=3):
    arrays = NIM.configure(2, override={"pile": {"min": pile, "max": pile}, "turn": {"take": 3}}).arrays
    engine = NIM.engine
    sids = np.zeros(2, np.int64)
    params = np.array([[iterations, exploration, rollout, forbid, 0]] * 2, np.float64)  # horizon 0
    state = engine.new_state(arrays, params)
    engine.reset(state, arrays, seed, 0, np.empty(0, np.int64), False)
    buf = NEW_SEARCH(arrays, params, sids)
    out = (np.empty(2, np.int32), np.empty(2, np.int64), np.zeros((2, len(NIM.seat_columns)), np.int32),
           np.zeros(len(NIM.game_columns), np.int32))
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


@pytest.mark.parametrize("pile", [7, 3, 11])
def test_a_forbidden_class_is_never_taken_while_there_is_another_option(pile):
    action, _, _ = decide(pile, forbid=1)
    assert action != 2


def test_a_forbidden_class_is_taken_when_it_is_the_only_option():
    assert decide(1, forbid=3)[0] == 0   # only "take one" is legal, and it is forbidden
    assert decide(4, forbid=3)[0] == 1   # "take two" is all that is allowed (though it loses)


@pytest.mark.parametrize("seed", range(6))
def test_a_visit_tie_at_the_root_goes_to_the_higher_mean_value(seed):
    """2 counters, 2 iterations: each move is tried once; taking both wins, taking one loses (the opponent takes
    the last), so the tie goes to the winning move, not to the lower key."""
    assert decide(2, iterations=2, seed=seed)[0] == 1
