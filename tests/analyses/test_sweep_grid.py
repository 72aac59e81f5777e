"""Grid files: checking, the cartesian product, and the pick of the best configuration."""

import polars as pl
import pytest

from analyses import sweep

GRID = {"players": 4, "games": 100, "strategies": ["greedy"],
        "setup": {"players": {"4": {"remove": [4, 6], "remove_values": [[], [12]]}}},
        "params": {"greedy": [[0.0], [1.0, 2.0]]}}


def test_configurations_are_the_cartesian_product():
    options, axes = sweep.read_grid(GRID)
    assert options == {"players": 4, "games": 100, "strategies": ["greedy"]}
    assert [label for label, _ in axes] == ["players.4.remove", "players.4.remove_values", "param:greedy"]
    configs = list(sweep.configurations(axes))
    assert len(configs) == 8
    values, setup, params = configs[-1]
    assert setup == {"players": {"4": {"remove": 6, "remove_values": [12]}}}
    assert params == {"greedy": [1.0, 2.0]}
    assert values["param:greedy"] == [1.0, 2.0]


@pytest.mark.parametrize("grid, message", [
    ({"setup": {"deck": {"top": 3}}}, "setup.deck.top must be a non-empty list"),
    ({"params": {"greedy": [1.0]}}, "params.greedy must be a non-empty list of parameter vectors"),
    ({"players": 4}, "nothing to sweep"),
    ({"player": 4, "setup": {"a": [1]}}, "unknown key(s) player"),
])
def test_bad_grids_name_the_key(grid, message):
    with pytest.raises(sweep.GridError, match=message.replace("(", r"\(").replace(")", r"\)")):
        sweep.read_grid(grid)


def test_best_skips_unplayable_and_uses_the_last_stage():
    summary = pl.DataFrame({"config": [0, 1, 2, 1], "stage": [0, 0, 0, 1], "max_edge": [0.01, 0.02, None, 0.03],
                            "unplayable": [None, None, "deck runs out", None]})
    assert sweep.best(summary)["config"] == 1
    assert sweep.best(summary.drop("stage").head(3))["config"] == 0
    with pytest.raises(sweep.GridError):
        sweep.best(summary.filter(pl.col("config") == 2))
