"""One unit in every file a command writes: every edge, share or difference is named with its unit.

The convention (``analyses.units``): such a column or key ends in ``_points``
(percentage points of win share) or ``_share`` (a fraction), before an
optional ``_lo``/``_hi``/``_low``/``_high``. Every writer is run small
(Forks, a few hundred games) and every CSV header, JSON key and TOML key or
comment it leaves is checked.
"""

import json
import tomllib

import polars as pl
import pytest

from analyses import units
from cli_support import invoke


def numeric_keys(node):
    """Every key of a nested JSON value whose value is a number."""
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                yield key
            yield from numeric_keys(value)
    elif isinstance(node, list):
        for value in node:
            yield from numeric_keys(value)


def test_the_convention_flags_unnamed_quantities_and_round_trips_fractions():
    assert units.violations(["edge", "max_edge_lo", "first_seat_edge", "difference", "win_share", "equal_share_p",
                             "max_edge_points_lo", "win_share_high", "seat", "mean_rounds"]) == \
        ["edge", "max_edge_lo", "first_seat_edge", "difference"]
    frame = pl.DataFrame({"max_edge": [0.0519], "max_edge_lo": [0.0363], "win_lo": [0.3], "games": [4000]})
    on_file = units.to_file(frame)
    assert on_file.columns == ["max_edge_points", "max_edge_points_lo", "win_share_lo", "games"]
    assert on_file["max_edge_points"][0] == pytest.approx(5.19) and on_file["win_share_lo"][0] == 0.3
    assert units.from_file(on_file).equals(frame)


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Every writer of the command line, run small into one folder."""
    root = tmp_path_factory.mktemp("writers")
    grid = root / "grid.toml"
    grid.write_text('games = 100\nplayers = 2\nstrategies = ["greedy"]\n[setup.players.2]\n'
                    'seat_bonus = [[0.0, 0.0], [0.0, 1.0]]\n')
    commands = [
        ("simulate", "forks", "-p", 2, "-s", "greedy", "-n", 200, "--threads", 1, "--feel", "--out", root / "run"),
        ("simulate", "forks", "-p", 2, "-s", "greedy", "-s", "random", "--rotate-seats", "-n", 100, "--threads", 1,
         "--out", root / "rotated"),
        ("report", root / "run", root / "rotated", "--out", root / "runs.html"),
        ("tournament", "forks", "-s", "greedy", "-s", "random", "-p", 2, "-n", 50, "--out", root / "tournament"),
        ("sweep", "forks", "--grid", grid, "--out", root / "sweep"),
        ("survey", "forks", "-p", "2,3", "-s", "greedy", "-n", 200, "--threads", 1, "--out", root / "survey"),
        ("cards", "forks", "-p", 2, "-s", "greedy", "-n", 200, "--threads", 1, "--card", "value 3", "--out",
         root / "cards"),
        ("compensate", "forks", "-p", 2, "-s", "greedy", "-n", 100, "--max-games", 100, "--threads", 1, "--out",
         root / "bonus.toml", "--write-unconfirmed"),
    ]
    for command in commands:
        done = invoke(*command)
        assert done.exit_code == 0, (command, done.output)
    return root


def test_every_numeric_column_and_key_a_command_writes_says_its_unit(written):
    checked = {"csv": 0, "json": 0, "toml": 0}
    bad = {}
    for path in sorted(written.rglob("*")):
        if path.suffix == ".csv":
            names = pl.read_csv(path).columns
        elif path.suffix == ".json":
            names = set(numeric_keys(json.loads(path.read_text())))
        elif path.suffix == ".toml" and path.name != "grid.toml":
            names = set(numeric_keys(tomllib.loads(path.read_text())))
            comments = " ".join(line for line in path.read_text().splitlines() if line.startswith("#"))
            assert "UNCONFIRMED" in comments and "points" in comments
        else:
            continue
        checked[path.suffix[1:]] += 1
        if units.violations(names):
            bad[str(path.relative_to(written))] = units.violations(names)
    assert bad == {}
    assert checked["csv"] >= 15 and checked["json"] >= 6 and checked["toml"] == 1
    feel = pl.read_csv(next(written.glob("runs-data/*-feel.csv")))
    units_of = dict(zip(feel["metric"], feel["unit"]))  # a table of mixed figures names each row's unit
    assert units_of["close games"] == "share" and units_of["mean score spread"] == "as named"


def test_the_survey_and_sweep_summaries_carry_edges_in_points(written):
    survey = pl.read_csv(written / "survey" / "summary.csv")
    rows = json.loads((written / "survey" / "survey.json").read_text())["rows"]
    assert survey["max_edge_points"].to_list() == pytest.approx([r["max_edge_points"] for r in rows])
    assert (survey["max_edge_points_lo"] <= survey["max_edge_points"]).all()
    assert (survey["max_edge_points"] > 1).any()  # points, not fractions: a Forks count's edge is several points
    sweep = pl.read_csv(written / "sweep" / "summary.csv")
    share = sweep["first_seat_share"] - 0.5
    assert sweep["first_seat_edge_points"].to_list() == pytest.approx((100 * share).to_list())
