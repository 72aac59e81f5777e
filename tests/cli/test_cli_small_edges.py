"""The smaller edges of the command line: a misspelt game, variant or setup key gets a "did you mean", `simulate
unfair` points to `playtest unfair`, a report's format follows its file name, and the shipped example grid plays
in full."""

import tomllib
from pathlib import Path

from cli_support import assert_refused, invoke

from analyses import sweep
from playtest import api
from simulator.core.setup import SetupError

EXAMPLE_GRID = Path(__file__).parents[2] / "docs" / "examples" / "forks-grid.toml"


def test_a_misspelt_game_gets_a_did_you_mean(tmp_path):
    assert_refused(invoke("simulate", "forkz", "-n", 10), "'forkz'", "did you mean 'forks'?")
    assert_refused(invoke("replay", "fol", "--game", 1), "did you mean 'fool'?")


def test_a_misspelt_variant_gets_a_did_you_mean(tmp_path):
    out = tmp_path / "r"
    assert_refused(invoke("simulate", "forks", "-n", 10, "--variant", "standrd", "--out", out),
                   "unknown variant 'standrd'", "did you mean 'standard'?")
    assert not out.exists()


def test_a_misspelt_setup_key_gets_a_did_you_mean(tmp_path):
    setup = tmp_path / "s.toml"
    setup.write_text("[players.2]\ninital_marketing = 2\n")
    assert_refused(invoke("simulate", "forks", "-n", 10, "-p", 2, "--setup", setup),
                   "players.2.inital_marketing", "did you mean 'initial_marketing'?")


def test_simulate_unfair_points_to_the_unfair_commands():
    assert_refused(invoke("simulate", "unfair"), "`playtest unfair`")


def test_the_report_format_follows_the_file_name(tmp_path):
    run = tmp_path / "r"
    assert invoke("simulate", "forks", "-p", 2, "-n", 30, "--out", run).exit_code == 0
    md = invoke("report", run, "--out", tmp_path / "x.md")
    assert md.exit_code == 0, md.output
    assert (tmp_path / "x.md").read_text().startswith("#") and (tmp_path / "x-data" / "r-seat-edges.png").is_file()
    assert_refused(invoke("report", run, "--out", tmp_path / "x.txt"), "ending in .html or .md")
    assert_refused(invoke("report", run, "--out", tmp_path / "y.md", "--format", "html"), "ending in .html")
    assert not (tmp_path / "x.txt").exists() and not (tmp_path / "y.md").exists()


def test_every_configuration_of_the_example_grid_plays(tmp_path):
    grid = tomllib.loads(EXAMPLE_GRID.read_text())
    summary = sweep.sweep(api.simulate, "forks", {**grid, "games": 20}, tmp_path / "s", unplayable=(SetupError,))
    assert summary.height == 9 and summary["unplayable"].is_null().all()
