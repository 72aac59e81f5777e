"""The command line end to end on Forks: output contract, replay, listings and bad input."""

import json
import subprocess
import sys

import polars as pl
import pytest

from cli_support import invoke

CONTRACT = ["game", "seat", "strategy", "score", "rank", "win", "players", "rounds"]


@pytest.mark.parametrize("players, variant", [(2, "standard"), (3, "standard"), (4, "merge"), (5, "standard"),
                                              (6, "merge")])
def test_simulate_writes_the_output_contract(tmp_path, players, variant):
    out = tmp_path / "run"
    lineup = (["greedy", "random"] * 3)[:players]
    per_seat = [a for name in lineup for a in ("--strategy", name)]
    result = invoke("simulate", "forks", "--players", players, "--games", 3000, "--seed", 7, "--variant", variant,
                    *per_seat, "--out", out, "--chunk-size", 1000)
    assert result.exit_code == 0, result.output
    rows = pl.read_parquet(out / "seats" / "*.parquet")
    assert rows.columns[:len(CONTRACT)] == CONTRACT and {"gained", "lost"} <= set(rows.columns)
    assert rows.height == 3000 * players
    assert rows.group_by("game").agg(pl.col("win").sum())["win"].round(9).unique().to_list() == [1.0]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["games"] == 3000 and manifest["seed"] == 7
    assert manifest["strategies"] == lineup
    assert manifest["setup"]["players"][str(players)]["remove"] in (9, 1, 4, 7)
    assert manifest["setup"]["tiebreak"]["order"] == ["red", "green", "yellow", "blue", "grey"]
    assert manifest["variant"] == variant and manifest["version"]
    assert "seat" in result.output and "chi-square" in result.output


def test_simulate_leaves_scipy_stats_and_optimize_unloaded(tmp_path):
    # about 45 MB and half a second of every run's start; only some analyses need them (analyses.planning)
    code = ("import sys; from click.testing import CliRunner; from playtest.cli import cli; "
            "r = CliRunner().invoke(cli, ['simulate', 'forks', '--games', '200', '--out', sys.argv[1]]); "
            "assert r.exit_code == 0, r.output; "
            "print([m for m in ('scipy.stats', 'scipy.optimize', 'analyses.verdict') if m in sys.modules])")
    loaded = subprocess.run([sys.executable, "-c", code, str(tmp_path / "run")], capture_output=True, text=True,
                            check=True).stdout.strip()
    assert loaded == "['analyses.verdict']"  # the verdict was reached, without them


def test_replay_is_the_same_game_as_the_batch_row(tmp_path):
    out = tmp_path / "run"
    assert invoke("simulate", "forks", "--games", 200, "--seed", 7, "--out", out).exit_code == 0
    rows = pl.read_parquet(out / "seats" / "*.parquet").filter(pl.col("game") == 123).sort("seat")
    result = invoke("replay", "forks", "--seed", 7, "--game", 123)
    assert result.exit_code == 0, result.output
    assert f"scores: {', '.join(map(str, rows['score'].to_list()))}" in result.output
    assert "seat 0 is dealt" in result.output and "invests" in result.output and "markets" in result.output


def test_the_speed_line_counts_deals_and_games_in_a_rotated_run(tmp_path):
    out = tmp_path / "run"
    plain = invoke("simulate", "forks", "--players", 3, "--games", 300, "--out", tmp_path / "plain")
    result = invoke("simulate", "forks", "--players", 3, "--games", 300, "--rotate-seats", "-s", "greedy", "-s",
                    "random", "-s", "random", "--out", out)
    assert plain.exit_code == 0 and result.exit_code == 0, result.output
    deals = json.loads((out / "manifest.json").read_text())["games_per_second"]  # game indices: deals
    assert f", {deals:,.1f} deals/s ({3 * deals:,.0f} games/s); results in" in result.output
    assert "deals/s" not in plain.output and " games/s; results in" in plain.output


def test_listings():
    assert "forks" in invoke("games").output
    strategies = invoke("strategies", "forks").output
    for name in ["random", "greedy", "leader", "pusher", "hedger"]:
        assert name in strategies
    assert "[players.4]" in invoke("setup", "forks").output


def test_setup_override_changes_the_game(tmp_path):
    table = tmp_path / "t.toml"
    table.write_text("[tiebreak]\norder = ['grey', 'blue', 'yellow', 'green', 'red']\n")
    out = tmp_path / "run"
    assert invoke("simulate", "forks", "--games", 100, "--setup", table, "--out", out).exit_code == 0
    assert json.loads((out / "manifest.json").read_text())["setup"]["tiebreak"]["order"][0] == "grey"


@pytest.mark.parametrize("args, message", [
    (["simulate", "chess"], "Invalid value for 'GAME'"),
    (["simulate", "forks", "--strategy", "genius"], "unknown strategy 'genius'"),
    (["simulate", "forks", "--players", "7"], "no row for 7 players (it has rows for 2, 3, 4, 5, 6)"),
    (["simulate", "forks", "--games", "-5"], "-5 is not in the range"),
    (["simulate", "forks", "--setup", "missing.toml"], "file not found: missing.toml"),
    (["simulate", "forks", "--variant", "turbo"], "unknown variant 'turbo'"),
    (["simulate", "forks", "--strategy", "random", "--strategy", "random", "--strategy", "random"],
     "one per seat: got 3 for 4 players"),
])
def test_bad_input_is_one_clear_line(tmp_path, args, message):
    result = invoke(*args, "--out", tmp_path / "run")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("table, key", [
    ("[players.4]\nremove = 60\n", "players.4.remove"),
    ("[players.4]\nremove = 5\n", "players.4"),
    ("[players.4]\nremove = 'four'\n", "players.4.remove: must be a whole number"),
    ("[tiebreak]\norder = ['red', 'red', 'yellow', 'blue', 'grey']\n", "tiebreak.order"),
    ("[deck]\nvalues = [3, 4, 5\n", "is not valid TOML"),
    ("[players.4]\nremov = 5\n", "players.4.remov: is not a key of the setup table"),
    ("[tiebreak]\noder = ['red']\n", "tiebreak.oder: is not a key"),
])
def test_unplayable_setup_table_is_refused_and_nothing_written(tmp_path, table, key):
    path = tmp_path / "t.toml"
    path.write_text(table)
    result = invoke("simulate", "forks", "--setup", path, "--out", tmp_path / "run")
    assert result.exit_code == 2, result.output
    assert key in result.output and result.output.startswith("error: setup table")
    assert not (tmp_path / "run").exists()


def test_existing_output_needs_force_and_resume_continues(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "forks", "--games", 3000, "--seed", 2, "--chunk-size", 1000, "--out", out]
    assert invoke(*args).exit_code == 0
    full = pl.read_parquet(out / "seats" / "*.parquet")
    again = invoke(*args)
    assert again.exit_code == 2 and "--force" in again.output
    # simulate an interruption after the first chunk: drop the later chunk files
    for part in sorted((out / "seats").glob("*.parquet"))[1:]:
        part.unlink()
    manifest = json.loads((out / "manifest.json").read_text())
    manifest.update(complete=False, chunks_done=1)
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert invoke(*args, "--resume").exit_code == 0
    assert pl.read_parquet(out / "seats" / "*.parquet").equals(full)
    assert json.loads((out / "manifest.json").read_text())["complete"]
    different = invoke("simulate", "forks", "--games", 3000, "--seed", 3, "--chunk-size", 1000, "--out", out,
                       "--resume")
    assert different.exit_code == 2 and "differs in seed" in different.output
    assert invoke(*args, "--force").exit_code == 0


def test_a_setup_row_adds_a_player_count(tmp_path):
    # 7 players: 55 cards, remove 13, 0 initial marketing -> 42 = 2 rounds of 3 x 7
    table = tmp_path / "seven.toml"
    table.write_text("[players.7]\nremove = 13\ninitial_marketing = 0\nremove_values = []\nreveal_after_round = 0\n")
    result = invoke("simulate", "forks", "--players", 7, "--games", 500, "--setup", table, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert len(report["seats"]) == 7 and report["manifest"]["players"] == 7


def test_until_ci_stops_when_intervals_are_narrow(tmp_path):
    result = invoke("simulate", "forks", "--games", 400000, "--chunk-size", 20000, "--until-ci", 1,
                    "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["manifest"]["games_done"] < 400000
    assert max((s["win_hi"] - s["win_lo"]) / 2 for s in report["seats"]) < 0.01


def test_resuming_a_run_that_met_its_until_ci_plays_nothing_more(tmp_path):
    args = ("simulate", "forks", "--games", 400000, "--chunk-size", 20000, "--until-ci", 1, "--seed", 5,
            "--out", tmp_path / "run")
    assert invoke(*args).exit_code == 0
    first = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert first["games_done"] < 400000 and first["stopped_early"]
    result = invoke(*args, "--resume", "--json")
    assert result.exit_code == 0, result.output
    again = json.loads(result.output)["manifest"]
    assert again["games_done"] == first["games_done"] and again["chunk_files"] == first["chunk_files"]
    assert again["stopped_early"] and again["complete"]
