"""The search player's defaults per game (the benchmark journal, bench/journal/), ``mcts@N`` over them, and the
validation of its parameter vector, the horizon in particular.

Fool! defaults to 64 iterations with rollouts stopped at the end of the deal
(horizon 1), Forks to 256 stopped at the end of the round (horizon 1), Fair
Enough and Fauch & Fertig to 256 with rollouts to the end of the game
(horizon 0): they have no evaluation point. Resolving names compiles
nothing.
"""

import re

import pytest
from click.testing import CliRunner

from playtest.cli import cli
from strategies.games import strategy_set
from strategies.registry import StrategyError

DEFAULT_BUDGET = {"forks": 256, "fool": 64, "fair-enough": 256, "fauch-fertig": 256}
DEFAULT_HORIZON = {"forks": 1, "fool": 1, "fair-enough": 0, "fauch-fertig": 0}


def mcts_row(game, vector, lineup=("mcts", "random", "random", "random")):
    _, params, _ = strategy_set(game).seats(list(lineup), 4, overrides={"mcts": vector})
    return list(params[0])


@pytest.mark.parametrize("name", sorted(DEFAULT_BUDGET))
def test_mcts_plays_the_documented_defaults_and_mcts_at_n_overrides_the_budget(name):
    sset = strategy_set(name)
    _, params, _ = sset.seats(["mcts", "mcts@64"] + ["random"] * 2, 4)
    assert params[0, 0] == DEFAULT_BUDGET[name]
    assert params[1, 0] == 64
    # exploration, rollout, forbid, horizon
    assert list(params[0, 1:5]) == list(params[1, 1:5]) == [0.7, -1.0, 0.0, DEFAULT_HORIZON[name]]


def test_a_parameter_vector_replaces_the_default_budget_in_fool():
    assert mcts_row("fool", [300.0, 0.7, 3.0, 0.0, 0.0], ("mcts", "cautious", "cautious", "cautious")) == [
        300.0, 0.7, 3.0, 0.0, 0.0]


@pytest.mark.parametrize("name", sorted(DEFAULT_BUDGET))
def test_a_vector_without_a_horizon_gets_the_game_default(name):
    assert mcts_row(name, [300.0, 0.7, -1.0, 0.0]) == [300.0, 0.7, -1.0, 0.0, DEFAULT_HORIZON[name]]
    assert mcts_row(name, [300.0]) == [300.0, 0.7, -1.0, 0.0, DEFAULT_HORIZON[name]]


def test_the_rollout_strategy_parameters_follow_the_horizon():
    # counter (strategy 4) takes two parameters: its defaults when left out, else after the horizon
    assert mcts_row("fool", [64.0, 0.7, 4.0, 0.0]) == [64.0, 0.7, 4.0, 0.0, 1.0, 10.0, 3.0]
    assert mcts_row("fool", [64.0, 0.7, 4.0, 0.0, 0.0, 8.0, 2.0]) == [64.0, 0.7, 4.0, 0.0, 0.0, 8.0, 2.0]
    # the layout before the horizon existed (rollout parameters from position 4): one parameter short
    for old in ([64.0, 0.7, 4.0, 0.0, 8.0, 2.0], [64.0, 0.7, 4.0, 0.0, 1.0, 2.0]):
        with pytest.raises(StrategyError, match="the rollout strategy 'counter' takes 2 parameters, got 1"):
            mcts_row("fool", old)


@pytest.mark.parametrize("horizon", [0.5, -1.0, 2.0 ** 31])
def test_a_horizon_that_is_not_a_whole_number_from_0_is_refused(horizon):
    with pytest.raises(StrategyError, match=f"parameters for 'mcts': mcts horizon must be a whole number: 0 .* "
                                            f"got {re.escape(f'{horizon:g}')}$"):
        mcts_row("fool", [64.0, 0.7, -1.0, 0.0, horizon])


@pytest.mark.parametrize("name", ["fool", "forks"])
def test_any_whole_horizon_is_taken_in_a_game_with_evaluation_points(name):
    for horizon in (0.0, 1.0, 2.0, 7.0):
        assert mcts_row(name, [64.0, 0.7, -1.0, 0.0, horizon])[4] == horizon


@pytest.mark.parametrize("name", ["fair-enough", "fauch-fertig"])
def test_a_horizon_is_refused_in_a_game_without_evaluation_points(name):
    for horizon in (1.0, 2.0):
        with pytest.raises(StrategyError, match=f"horizon {horizon:g} stops rollouts at the game's evaluation "
                                                f"points, and this game has none: use horizon 0"):
            mcts_row(name, [64.0, 0.7, -1.0, 0.0, horizon])
    assert mcts_row(name, [64.0, 0.7, -1.0, 0.0, 0.0])[4] == 0.0


def test_random_rollouts_take_five_parameters():
    with pytest.raises(StrategyError, match="takes 5 parameters, got 6"):
        mcts_row("fool", [64.0, 0.7, -1.0, 0.0, 1.0, 3.0])


@pytest.mark.parametrize("name, line", [
    ("fool", "evaluation point (mcts horizon h stops at the h-th ahead): the end of the deal"),
    ("forks", "evaluation point (mcts horizon h stops at the h-th ahead): the end of a round"),
    ("fair-enough", "evaluation point: none (mcts rollouts play to the end of the game, horizon 0)")])
def test_playtest_strategies_says_where_the_evaluation_point_is(name, line):
    result = CliRunner().invoke(cli, ["strategies", name])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # the lines are wrapped to the terminal's width
    assert line in said
    assert "horizon (0 to the end of the game, h to the h-th evaluation point ahead)" in said
