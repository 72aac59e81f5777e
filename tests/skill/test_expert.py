"""The guided search ``expert``: its names and parameter vector, where its prior's temperature is read, and whole
games on the example game (Nim)."""

import numpy as np
import pytest

from playtest import api
from simulator import games
from simulator.core.learned import LINEAR
from simulator.core.search import (LEARNED_LEAF, P_HORIZON, P_ITERATIONS, P_ROLLOUT_PARAMS, RANDOM_ROLLOUT,
                                   leaf_design, prior_temperature)
from strategies.games import strategy_set
from strategies.registry import StrategyError


@pytest.fixture(scope="module")
def sset():
    return strategy_set("fair-enough")


def test_expert_is_a_search_seat_with_the_shipped_model_and_the_game_defaults(sset):
    sid, s = sset.get("expert")
    learned = sset.all[sset.learned_sid].params
    iterations, exploration, temperature, *_ = sset.expert_defaults
    assert sid == sset.search_sid
    assert s.params == (iterations, exploration, sset.learned_sid, 0.0, 0.0, *learned, temperature, LEARNED_LEAF)
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
    ("three after the model", "one temperature > 0"),
    ("short model", "has 532 numbers"),
    ("design 2", "design must be 0"),
    ("design B with horizon 1", "this game has none"),
])
def test_a_bad_expert_vector_is_refused_saying_why(sset, vector, problem):
    default = list(sset.get("expert")[1].params)
    if vector == "temperature 0":
        vector = default[:-2] + [0.0]
    elif vector == "three after the model":
        vector = default + [0.1]
    elif vector == "design 2":
        vector = default[:-1] + [2.0]
    elif vector == "design B with horizon 1":   # Fair Enough has no evaluation point
        vector = default[:4] + [1.0] + default[5:-1] + [RANDOM_ROLLOUT]
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
    _, params, _ = sset.seats(["expert"], 4, overrides={"expert": list(default[:-2]) + [0.5]})
    np.testing.assert_array_equal(params[0], [*default[:-2], 0.5, default[-1]])   # the default design


def test_a_model_alone_is_played_with_the_games_defaults_around_it(sset):
    """`--param expert=@my-model.npy` with a file `playtest train` wrote: that model, every other number the
    default's; a model of another game's size is refused as a vector."""
    default = sset.get("expert")[1].params
    shipped = default[P_ROLLOUT_PARAMS:-2]
    mine = np.array(shipped) * 0.5
    mine[:3] = shipped[:3]
    _, params, _ = sset.seats(["expert"], 4, overrides={"expert": list(mine)})
    np.testing.assert_array_equal(params[0], [*default[:P_ROLLOUT_PARAMS], *mine, *default[-2:]])
    other = np.array(shipped[:-1])
    other[1] -= 1   # one feature fewer: no model of this game
    with pytest.raises(StrategyError):
        sset.seats(["expert"], 4, overrides={"expert": list(other)})


def test_design_b_rolls_out_to_the_games_horizon_and_design_a_to_none():
    forks = strategy_set("forks")
    horizon = forks.get("mcts")[1].params[P_HORIZON]
    default = list(forks.get("expert")[1].params)
    a = forks.seats(["expert"], 4, overrides={"expert": default[:4] + [0.0] + default[5:-1] + [LEARNED_LEAF]})
    b = forks.seats(["expert"], 4, overrides={"expert": default[:4] + [horizon] + default[5:-1] + [RANDOM_ROLLOUT]})
    assert horizon == 1.0 and leaf_design(b[1], 0) == RANDOM_ROLLOUT and leaf_design(a[1], 0) == LEARNED_LEAF
    assert default[P_HORIZON] == (horizon if default[-1] == RANDOM_ROLLOUT else 0.0)   # B: mcts's horizon
    with pytest.raises(StrategyError, match="horizon 0"):   # design A with the horizon of B
        forks.seats(["expert"], 4, overrides={"expert": list(b[1][0, :-1]) + [LEARNED_LEAF]})


def nim_decision(design, weight, iterations=10, pile=10):
    """The move (counters taken) of ``expert`` in design ``design`` at the first turn of Nim from ``pile``
    counters (take 1 to 3), its model valuing a pile left at a multiple of 4 (Nim's second feature) at
    ``weight`` for the seat that moved, and an exploration so large that the prior alone picks among the tried
    moves."""
    g = games.get("nim")
    sset = strategy_set("nim")
    cfg = g.configure(2, override={"pile": {"min": pile, "max": pile}, "turn": {"take": 3}})
    model = [LINEAR, 2.0, 0.0, 0.0, 0.0, weight]
    vector = [iterations, 1000.0, sset.learned_sid, 0.0, 0.0, *model, 0.1, design]
    sids, params, _ = sset.seats(["expert"], 2, overrides={"expert": vector})
    new_search, search = sset.search_player()
    state = g.engine.new_state(cfg.arrays, params)
    g.engine.reset(state, cfg.arrays, 3, 0, np.empty(0, np.int64), False)
    outputs = (np.zeros(2, np.int32), np.zeros(2, np.int64), np.zeros((2, max(1, len(g.seat_columns))), np.int32),
               np.zeros(max(1, len(g.game_columns)), np.int32))
    action = search(state, cfg.arrays, sids, params, new_search(cfg.arrays, params, sids), *outputs)
    g.engine.apply(state, cfg.arrays, action, np.empty(0, np.int64), False)
    obs = np.zeros(g.engine.OBS_SIZE, np.int64)
    g.engine.observe(state, cfg.arrays, 0, obs)
    return pile - int(obs[0])


def test_design_b_takes_its_prior_from_the_model_at_each_new_child():
    """From 10 counters only taking 2 leaves a multiple of 4. Design B's prior is the model's value of each
    child for its mover: a model that likes such a pile takes 2, one that dislikes it does not. Design A
    normalises every seat's value of the leaf into shares; both seats see the same pile, so its prior is flat
    and the model's sign cannot change its move."""
    assert nim_decision(RANDOM_ROLLOUT, 1.0) == 2
    assert nim_decision(RANDOM_ROLLOUT, -1.0) != 2
    assert nim_decision(LEARNED_LEAF, 1.0) == nim_decision(LEARNED_LEAF, -1.0)


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
