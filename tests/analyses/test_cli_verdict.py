"""The verdict on the command line (small Forks and Fauch & Fertig runs): text, --json, rotation, lineups,
--until-ci, unfinished games and compare."""

import json

import numpy as np
import polars as pl
import pytest

from analyses.moments import seat_moments
from analyses.planning import max_half_width
from playtest import api
from playtest.api.run import _until_ci_stop
from cli_support import invoke


def test_simulate_prints_the_verdict_with_the_margin():
    result = invoke("simulate", "forks", "--games", 3000, "--seed", 2, "--margin", 2.5)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "within ±2.5 points" in text or "at ±2.5 points" in text
    assert "chi-square test of equal shares" in text and "seat win rates differ" not in text
    report = json.loads(invoke("simulate", "forks", "--games", 3000, "--seed", 2, "--margin", 2.5, "--json").output)
    assert report["verdict"] in ("balanced", "unbalanced", "inconclusive") and report["margin"] == 2.5
    assert set(report["largest_edge"]) >= {"seat", "edge", "lo", "hi"}
    assert set(report["seat_test"]) == {"statistic", "df", "p"} and report["seat_test"]["df"] == 3
    assert "games_needed" in report
    big = report["largest_edge"]
    assert big["lo"] < big["edge"] < big["hi"]
    assert abs(big["edge"]) == pytest.approx(max(abs(100 * (s["win_share"] - 0.25)) for s in report["seats"]))


def test_mixed_lineup_speaks_of_lineups_and_points_to_rotation():
    result = invoke("simulate", "forks", "--games", 2000, "-s", "greedy", "-s", "random", "-s", "random", "-s",
                    "random")
    text = " ".join(result.output.split())
    assert result.exit_code == 0, result.output
    assert "lineup 0 (greedy)" in text and "--rotate-seats" in text and "tournament" in text


def test_rotated_run_counts_deals_and_compares_strategies():
    result = invoke("simulate", "forks", "--games", 1500, "-s", "greedy", "-s", "random", "--players", 2,
                    "--rotate-seats", "--feel", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["counts"] == "1,500 deals × 2 rotations = 3,000 games"
    assert report["deals"] == 1500 and report["rotations"] == 2 and report["games"] == 3000
    assert {s["strategy"] for s in report["strategies"]} == {"greedy", "random"}
    spread = next(r for r in report["feel"] if r["metric"] == "mean score spread")
    assert spread["low"] < spread["value"] < spread["high"]
    (diff,) = report["strategy_differences"]
    assert diff["low"] < diff["difference"] < diff["high"]
    text = " ".join(invoke("simulate", "forks", "--games", 1500, "-s", "greedy", "-s", "random", "--players", 2,
                           "--rotate-seats").output.split())
    assert "1,500 deals × 2 rotations = 3,000 games" in text and "greedy minus random" in text


def test_until_ci_says_when_games_ran_out():
    result = invoke("simulate", "forks", "--games", 2000, "--chunk-size", 1000, "--until-ci", 0.1, "--json")
    status = json.loads(result.output)["until_ci"]
    assert not status["reached"] and status["games_needed"] > 2000
    text = " ".join(invoke("simulate", "forks", "--games", 2000, "--until-ci", 0.1).output.split())
    assert "--games ran out before the target" in text


def test_until_ci_counts_the_chunks_already_on_disk(tmp_path):
    out = tmp_path / "run"
    api.simulate("forks", games=4000, chunk_size=2000, seed=3, out=out)
    on_disk = seat_moments(pl.scan_parquet(out / "seats" / "*.parquet"))
    chunk = api.simulate("forks", games=1000, seed=4).seats()
    both = max_half_width(on_disk + seat_moments(chunk))
    alone = max_half_width(seat_moments(chunk))
    target = (both + alone) / 2  # met by the whole run, not by the new chunk alone
    resumed, fresh = _until_ci_stop(target, out), _until_ci_stop(target)
    assert resumed(None) == (max_half_width(on_disk) < target) and not fresh(None)  # run_batch asks first
    assert resumed(chunk) and not fresh(chunk)


def test_unfinished_games_come_first_and_can_be_the_verdict(tmp_path):
    capped = tmp_path / "capped.toml"
    capped.write_text("[game]\nmax_rounds = 5\n")  # chaser's games last 8 to 14 rounds: nearly none finishes
    result = invoke("simulate", "fauch-fertig", "-s", "chaser", "--games", 300, "--setup", capped, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["unfinished"] > 150 and report["verdict"] == "unfinished"
    text = invoke("simulate", "fauch-fertig", "-s", "chaser", "--games", 300, "--setup", capped).output
    assert text.splitlines()[0].endswith("games hit the 5-round cap and are left out")


def test_compare_two_runs_and_bad_input(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    table = tmp_path / "b.toml"
    table.write_text('[tiebreak]\norder = ["grey", "blue", "yellow", "green", "red"]\n')
    assert invoke("simulate", "forks", "--games", 2000, "--seed", 5, "--out", a).exit_code == 0
    assert invoke("simulate", "forks", "--games", 2000, "--seed", 5, "--setup", table, "--out", b).exit_code == 0
    result = invoke("compare", a, b, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["paired"] and report["verdict"] in ("fairer", "worse", "indistinguishable")
    assert len(report["seats"]) == 4 and np.isfinite(report["largest_edge"]["lo"])
    missing = invoke("compare", a, tmp_path / "nope")
    assert missing.exit_code == 2 and missing.output.startswith("error:") and len(missing.output.splitlines()) == 1
    other = tmp_path / "c"
    assert invoke("simulate", "forks", "--games", 500, "--players", 3, "--out", other).exit_code == 0
    mismatch = invoke("compare", a, other)
    assert mismatch.exit_code == 2 and "error: the runs differ in players" in mismatch.output


def test_until_ci_takes_points_and_still_reads_the_former_fraction(capsys):
    from playtest.cli_types import until_ci_type

    assert until_ci_type().convert("0.5", None, None) == 0.5
    assert capsys.readouterr().err == ""
    assert until_ci_type().convert("0.005", None, None) == pytest.approx(0.5)
    assert capsys.readouterr().err.strip() == ("note: --until-ci now takes points of win share; 0.005 is read as a "
                                               "fraction, ± 0.5 points (write --until-ci 0.5)")
