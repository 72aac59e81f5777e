"""Grid files: checking, the cartesian product, and the pick of the best configuration."""

import numpy as np
import polars as pl
import pytest

from analyses import sweep
from analyses.moments import SeatMoments

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


def test_best_skips_unplayable_and_uses_the_confirmation_games():
    summary = pl.DataFrame({"config": [0, 1, 2, 1, 0], "phase": ["race", "race", "race", "confirm", "confirm"],
                            "max_edge": [0.01, 0.02, None, 0.03, 0.025], "best": [None, None, None, False, True],
                            "unplayable": [None, None, "deck runs out", None, None]})
    assert sweep.best(summary)["config"] == 0 and sweep.best(summary)["phase"] == "confirm"
    assert sweep.standing(summary)["config"].to_list() == [0, 1]
    assert sweep.best(summary.head(3).drop("best"))["config"] == 0
    with pytest.raises(sweep.GridError):
        sweep.best(summary.filter(pl.col("config") == 2))


P = 4


def fake_play(rng, edges):
    """``play`` for ``sweep.race``: configuration c's seat shares are 1/4 + edges[c] (shares); every call
    plays fresh independent games (multinomial counts), as a fresh seed does."""
    def play(config, games, phase):
        counts = rng.multinomial(games, 0.25 + edges[config]).astype(float)
        return SeatMoments(games, counts, np.diag(counts))
    return play


def run_races(edges, reps, games, seed):
    """The confirmed winner of ``reps`` races: (config, reported estimate, low, high, race estimate)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(reps):
        stages, confirm, best = sweep.race(fake_play(rng, edges), list(range(len(edges))), games, max_stages=3)
        race_estimate = stages[-1][best][1] if best in stages[-1] else np.nan
        out.append((best, *confirm[best][1:], race_estimate))
    return np.array(out, dtype=float)


def spread(edge):
    """Seat edges (shares) with the first seat at ``edge`` points and the others sharing the loss."""
    return np.array([edge, -edge / 3, -edge / 3, -edge / 3]) / 100


def test_race_reports_the_winner_from_fresh_games():
    # every configuration has a true largest edge of 1.0 point: the race's own estimate of its pick is
    # biased low (it picked the luckiest), the confirmation's is not, and its interval covers 1.0
    edges = [spread(1.0)] * 6
    result = run_races(edges, 1200, 4000, seed=11)
    best, estimate, low, high, race_estimate = result.T
    assert ((low <= 0.01) & (0.01 <= high)).mean() >= 0.95 - 0.02
    assert abs(estimate.mean() - 0.01) < 0.0005
    assert np.nanmean(race_estimate) < estimate.mean() - 0.001


def test_race_finds_the_best_of_spread_out_configurations():
    edges = [spread(e) for e in (0.0, 1.5, 3.0, 4.5, 6.0)]
    result = run_races(edges, 500, 4000, seed=12)
    best, estimate, low, high, _ = result.T
    assert (best == 0).mean() > 0.95
    truth = np.array([np.abs(edges[int(b)]).max() for b in best])
    assert ((low <= truth) & (truth <= high)).mean() >= 0.95 - 0.02


@pytest.mark.parametrize("key, value", [("games", "abc"), ("games", 0), ("seed", -1), ("players", 2.5),
                                        ("strategies", 3), ("variant", 1)])
def test_a_run_setting_of_the_wrong_type_is_refused(key, value):
    with pytest.raises(sweep.GridError, match=f"grid: {key}"):
        sweep.read_grid({key: value, "setup": {"players": {"4": {"remove": [1, 2]}}}})


def test_a_grid_that_is_not_toml_is_refused(tmp_path):
    bad = tmp_path / "grid.toml"
    bad.write_text("games = [")
    with pytest.raises(sweep.GridError, match="cannot read"):
        sweep.read_grid(bad)


def test_the_terminal_table_speaks_points_of_win_share_throughout():
    summary = pl.DataFrame({"config": [0, 1], "remove": [2, 4], "games": [2000, 2000],
                            "verdict": ["unbalanced", "inconclusive"], "max_edge": [0.07934, 0.012],
                            "max_edge_lo": [0.0512, 0.0], "max_edge_hi": [0.1001, 0.031], "worst_seat": [3, 0],
                            "first_seat_edge": [-0.02, 0.012], "mean_rounds": [4.0, 5.25], "mean_spread": [12.3, 9.0],
                            "tie_rate": [0.0125, 0.0], "unplayable": [None, None]})
    header, rows = sweep.table_cells(summary, ["remove"])
    assert "largest edge, points" in header and "max_edge" not in header
    assert "7.93 (5.12 to 10.01) seat 3" in rows[0] and "-2.00" in rows[0] and "1.25%" in rows[0]
    assert "0.07934" not in repr(rows)
