"""The guided search ``expert``: its names and parameter vector, where its prior's temperature is read, and whole
games on the example game (Nim)."""

import numpy as np
import pytest

from playtest import api
from simulator.core.search import P_ITERATIONS, P_ROLLOUT_PARAMS, prior_temperature
from strategies.games import strategy_set
from strategies.registry import StrategyError


@pytest.fixture(scope="module")
def sset():
    return strategy_set("fair-enough")


def test_expert_is_a_search_seat_with_the_shipped_model_and_the_game_defaults(sset):
    sid, s = sset.get("expert")
    learned = sset.all[sset.learned_sid].params
    iterations, exploration, temperature = sset.expert_defaults
    assert sid == sset.search_sid
    assert s.params == (iterations, exploration, sset.learned_sid, 0.0, 0.0, *learned, temperature)
    assert sset.get("expert@64")[1].params[P_ITERATIONS] == 64.0
    assert sset.get("expert@64")[1].name == "expert@64"
    assert sset.get("mcts")[1].params == (256.0, 0.7, -1.0, 0.0, 0.0)   # mcts keeps its defaults


def test_playtest_strategies_lists_expert(sset):
    table = api.strategies("fair-enough")
    row = table.filter(table["name"] == "expert").row(0, named=True)
    assert row["id"] == sset.search_sid and "PUCT" in row["summary"]


@pytest.mark.parametrize("vector, problem", [
    ([64, 1, -1], "rollout is the learned model"),
    ([64, 1, None, 0, 1], "horizon 0"),
    ([64, -1], "exploration must be 0 or more"),
    ([0.5], "whole number"),
    ("temperature 0", "one temperature > 0"),
    ("two temperatures", "one temperature > 0"),
    ("short model", "has 532 numbers"),
])
def test_a_bad_expert_vector_is_refused_saying_why(sset, vector, problem):
    default = list(sset.get("expert")[1].params)
    if vector == "temperature 0":
        vector = default[:-1] + [0.0]
    elif vector == "two temperatures":
        vector = default + [0.1]
    elif vector == "short model":
        vector = default[:-10]
    else:
        vector = [sset.learned_sid if v is None else v for v in vector]
    with pytest.raises(StrategyError, match=problem):
        sset.seats(["expert"], 4, overrides={"expert": vector})


def test_a_short_vector_takes_the_shipped_model_and_the_default_temperature(sset):
    _, params, _ = sset.seats(["expert"], 4, overrides={"expert": [300, 2.0]})
    default = sset.get("expert")[1].params
    np.testing.assert_array_equal(params[0], [300, 2.0, *default[2:]])


def test_the_temperature_is_the_number_after_the_model_and_zero_without_one(sset):
    sids, params, _ = sset.seats(["expert", "mcts", "mcts", "mcts"], 4,
                                 overrides={"mcts": [256, 0.7, sset.learned_sid, 0, 0]})
    assert params.shape[1] == len(sset.get("expert")[1].params)   # the mcts rows are padded with zeros
    assert prior_temperature(params, 0) == sset.expert_defaults[2]
    assert prior_temperature(params, 1) == 0.0                    # mcts with the learned leaf: UCB1, no prior
    row = params[:1].copy()
    row[0, P_ROLLOUT_PARAMS:] = 0.0                               # a linear model of 0 features: 4 numbers
    row[0, P_ROLLOUT_PARAMS + 4] = 0.25                           # after [kind 0, 0 features, 0 hidden, bias]
    assert prior_temperature(row, 0) == 0.25


def test_expert_plays_whole_games_reproducibly_on_any_thread_count():
    runs = [api.simulate("nim", players=2, games=12, seed=5, strategies=["expert@16", "random"], threads=t)
            for t in (1, 2)]
    a, b = (r.seats().sort("game", "seat") for r in runs)
    assert a.equals(b) and len(a) == 24
