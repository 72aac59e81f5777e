"""The search player's default budget per game (docs/skill.md, "How strong it is"), and ``mcts@N`` over it.

Fool! defaults to 1,024 iterations, the other games to 256: at 256 the search
does not beat Fool!'s strongest heuristic. Resolving names compiles nothing.
"""

import pytest

from strategies.games import strategy_set

DEFAULT_BUDGET = {"forks": 256, "fool": 1024, "fair-enough": 256, "fauch-fertig": 256}


@pytest.mark.parametrize("name", sorted(DEFAULT_BUDGET))
def test_mcts_plays_the_documented_default_budget_and_mcts_at_n_overrides_it(name):
    sset = strategy_set(name)
    _, params, _ = sset.seats(["mcts", "mcts@64"] + ["random"] * 2, 4)
    assert params[0, 0] == DEFAULT_BUDGET[name]
    assert params[1, 0] == 64
    assert list(params[0, 1:4]) == list(params[1, 1:4]) == [0.7, -1.0, 0.0]  # exploration, rollout, forbid


def test_a_parameter_vector_replaces_the_default_budget_in_fool():
    _, params, _ = strategy_set("fool").seats(["mcts"] + ["cautious"] * 3, 4,
                                              overrides={"mcts": [300.0, 0.7, 3.0, 0.0]})
    assert list(params[0, :4]) == [300.0, 0.7, 3.0, 0.0]
