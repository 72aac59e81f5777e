import json

import pytest
from click.testing import CliRunner

from playtest.cli_unfair import parse_beans, unfair


def run(*args):
    return CliRunner().invoke(unfair, list(args))


def test_dice_json_prints_the_exact_table():
    res = run("dice", "--goal", "double", "--beans", "0..5", "--json", "--trials", "2000")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["dice"]
    assert [r["exact_fraction"] for r in rows] == ["6/36", "16/36", "24/36", "30/36", "34/36", "36/36"]
    assert [r["beans"] for r in rows] == [0, 1, 2, 3, 4, 5]


@pytest.mark.parametrize("text, beans", [("0..5", [0, 1, 2, 3, 4, 5]), ("2", [2]), ("0,2,4", [0, 2, 4])])
def test_bean_lists(text, beans):
    assert parse_beans(text) == beans


def test_bad_bean_list_is_a_usage_error():
    res = run("dice", "--beans", "a..b")
    assert res.exit_code == 2 and "--beans" in res.output


def test_sum_goal_without_target_is_refused():
    res = run("dice", "--goal", "at-least")
    assert res.exit_code == 2 and "target" in res.output


def test_bad_setup_file_names_the_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[gems]\ncounts = [1, 1, 1, 1, 1, 1, 1, 1, 1]\n")
    res = run("gems", "--setup", str(path), "--trials", "10")
    assert res.exit_code == 2
    assert "error: setup table: gems.counts: must total 25 tokens" in res.output


@pytest.mark.parametrize("command, tables", [
    ("wishing-well", ["wishing well"]), ("fame", ["fame by round", "mythic markers at game end"]),
    ("gems", ["facility value", "supply"]), ("panoramas", ["panoramas"])])
def test_every_study_prints_json(command, tables):
    res = run(command, "--trials", "50", "--first-date", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert list(out) == tables
    assert all(row["rounds"] == 6 for rows in out.values() for row in rows)
