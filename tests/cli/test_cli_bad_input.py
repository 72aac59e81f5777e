"""Issue 27's classes of bad input: each gets one ``error:`` line, exit code 2, and leaves the disk as it was.

Nothing here plays more than a few games of Forks with built-in strategies.
"""

import json
import os
import shutil
import subprocess
import sys

import polars as pl
import pytest

from playtest import environment
from simulator.core.setup import MAX_BYTES, MAX_DEPTH, SetupError, read_toml
from cli_support import assert_refused, invoke, tree


def deep(kind, depth):
    """A TOML document nesting arrays or inline tables ``depth`` deep."""
    if kind == "array":
        return "a = " + "[" * depth + "1" + "]" * depth + "\n"
    return "a = " + "{b = " * depth + "1" + "}" * depth + "\n"


@pytest.fixture
def special_files(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    return {"fifo": fifo, "device": "/dev/zero", "null device": "/dev/null"}


@pytest.mark.parametrize("kind", ["fifo", "device", "null device"])
@pytest.mark.parametrize("command", [["simulate", "forks", "--games", "1", "--setup"],
                                     ["unfair", "wishing-well", "--setup"], ["scenario"],
                                     ["simulate", "forks", "--games", "1", "--param"],
                                     ["sweep", "forks", "-o", "sweep", "--grid"]])
def test_setup_files_that_are_not_regular_files_are_refused_without_blocking(tmp_path, monkeypatch, special_files,
                                                                            kind, command):
    monkeypatch.chdir(tmp_path)
    path = special_files[kind]
    value = f"random=@{path}" if command[-1] == "--param" else path
    before = tree(tmp_path)
    assert_refused(invoke(*command, value), "not a regular file")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("kind", ["array", "table"])
@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000])
def test_deeply_nested_setup_files_are_refused_not_a_recursion_error(tmp_path, kind, depth):
    setup = tmp_path / "deep.toml"
    setup.write_text(deep(kind, depth))
    assert_refused(invoke("simulate", "forks", "--games", "1", "--setup", setup), "nests", str(MAX_DEPTH))


def test_nesting_up_to_the_limit_is_read(tmp_path):
    setup = tmp_path / "deep.toml"
    setup.write_text(deep("array", MAX_DEPTH - 1))  # the top-level table is one more level
    assert read_toml(setup)["a"]


def test_setup_files_over_the_size_limit_are_refused(tmp_path):
    setup = tmp_path / "big.toml"
    setup.write_text("# " + "x" * MAX_BYTES + "\n")
    assert_refused(invoke("simulate", "forks", "--games", "1", "--setup", setup), "larger than")
    setup.write_text("# " + "x" * (MAX_BYTES - 10) + "\n")
    assert read_toml(setup) == {}


def test_a_setup_file_that_is_not_text_is_refused(tmp_path):
    setup = tmp_path / "bin.toml"
    setup.write_bytes(b"a = '\xff\xfe'\n")
    with pytest.raises(SetupError, match="UTF-8"):
        read_toml(setup)


@pytest.mark.parametrize("game, row", [
    ("forks", "remove = 4\ninitial_marketing = 3\nremove_values = []\nreveal_after_round = 0\n"),
    ("fool", "green = [2, 17]\nyellow = [2, 11]\norange = [2, 13]\nblue = [2, 8]\nwilds = 3\ndiscs = 1\n"
             "hand = 12\n"),
    ("fair-enough", "time_cards = [16, 19, 22, 25, 28, 31]\n"),
    ("fauch-fertig", "start_coins = [10, 9, 8, 8]\n"),
])
@pytest.mark.parametrize("players", [-1, 0, 1, 128])
def test_player_counts_below_two_or_beyond_the_columns_are_refused_even_with_a_row(tmp_path, game, row, players):
    setup = tmp_path / "rows.toml"
    setup.write_text(f"[players.{players}]\n{row}")
    out = tmp_path / "run"
    assert_refused(invoke("simulate", game, "--games", "1", "--setup", setup, "-p", players, "--out", out),
                   "players", str(players))
    assert not out.exists()


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1.5", "2x"])
def test_a_bad_numba_thread_count_in_the_environment_is_one_error_line(tmp_path, value):
    env = {**os.environ, environment.THREADS: value}
    run = subprocess.run([sys.executable, "-m", "playtest", "simulate", "forks", "--games", "1", "--out",
                          tmp_path / "run"], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2, run.stderr
    assert run.stdout == "" and run.stderr.strip().splitlines() == [
        f"error: the environment variable NUMBA_NUM_THREADS={value!r} must be a whole number of threads of at "
        "least 1"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value, problem", [(None, False), ("", False), ("1", False), (" 2 ", False),
                                            ("0", True), ("abc", True), ("-3", True)])
def test_set_aside_removes_only_a_bad_thread_count(value, problem):
    environ = {} if value is None else {environment.THREADS: value}
    found = environment.set_aside(environ)
    assert (found is not None) == problem
    assert (environment.THREADS in environ) == (value is not None and not problem)


def test_a_bad_inlining_setting_in_the_environment_is_one_error_line(tmp_path):
    env = {**os.environ, environment.INLINE: "sometimes"}
    run = subprocess.run([sys.executable, "-m", "playtest", "simulate", "forks", "--games", "1", "--out",
                          tmp_path / "run"], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 2, run.stderr
    assert run.stdout == "" and run.stderr.strip().splitlines() == [
        "error: the environment variable PLAYTEST_INLINE='sometimes' must be always or never"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("environ, refused", [({}, False), ({"PLAYTEST_INLINE": "never"}, False),
                                              ({"PLAYTEST_INLINE": "always"}, False),
                                              ({"PLAYTEST_INLINE": "sometimes"}, True),
                                              ({"PLAYTEST_INLINE": "no", environment.THREADS: "2"}, True),
                                              ({"PLAYTEST_INLINE": "no", environment.THREADS: "0"}, True)])
def test_set_aside_removes_a_bad_inlining_setting_and_a_bad_thread_count_beside_it(environ, refused):
    given = dict(environ)
    found = environment.set_aside(environ)
    assert (found == f"the environment variable PLAYTEST_INLINE={given.get('PLAYTEST_INLINE')!r} must be always "
                     "or never") == refused
    # a bad thread count beside it is removed too, or numba's import would raise
    kept = {k: v for k, v in given.items() if k != "PLAYTEST_INLINE" and v != "0"}
    assert environ == (kept if refused else given)


@pytest.mark.parametrize("args, words", [
    (["simulate", "forks", "--resume", "--force", "--out", "run"], ["--resume", "--force"]),
    (["simulate", "forks", "--resume"], ["--resume", "--out"]),
    (["simulate", "forks", "--out", ""], ["--out", "''"]),
    (["simulate", "forks", "--out", "-"], ["--out", "'-'"]),
    (["sweep", "forks", "--grid", "grid.toml", "--out", "-"], ["--out"]),
    (["tournament", "forks", "-s", "random", "-s", "greedy", "-p", "2", "--out", ""], ["--out"]),
    (["ladder", "forks", "--out", "-"], ["--out"]),
    (["tune", "forks", "hedger", "-f", "random", "--out", ""], ["--out"]),
    (["tournament", "forks", "-s", "random", "-s", "greedy", "-s", "random", "-p", "3", "--out", "t"],
     ["random entered more than once"]),
    (["tournament", "forks", "-s", "greedy", "-s", "greedy", "-p", "2", "--out", "t"],
     ["greedy entered more than once"]),
])
def test_contradictory_or_degenerate_options_are_refused(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grid.toml").write_text('[setup]\n"deck.top" = [2, 3]\n')
    (tmp_path / "run").mkdir()
    before = tree(tmp_path)
    assert_refused(invoke(*args), *words)
    assert tree(tmp_path) == before and sorted(p.name for p in tmp_path.iterdir()) == ["grid.toml", "run"]


@pytest.mark.parametrize("goal, target, words", [
    ("exactly", 99, "never reached"), ("exactly", -5, "never reached"), ("exactly", 1, "never reached"),
    ("exactly", 13, "never reached"), ("at-least", 13, "never reached"), ("at-least", 99, "never reached"),
    ("at-least", -5, "reached by every roll"), ("at-least", 2, "reached by every roll"),
])
def test_dice_targets_two_dice_decide_alone_are_refused(goal, target, words):
    assert_refused(invoke("unfair", "dice", "--goal", goal, "--target", target, "-n", "10"), words, "2 to 12")


@pytest.mark.parametrize("goal, target", [("exactly", 2), ("exactly", 12), ("at-least", 3), ("at-least", 12)])
def test_dice_targets_at_the_ends_of_the_range_are_studied(goal, target):
    result = invoke("unfair", "dice", "--goal", goal, "--target", target, "-n", "10", "--beans", "0", "--json")
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)["dice"][0]
    assert row["exact_p"] == {2: 1 / 36, 12: 1 / 36, 3: 35 / 36}[target]


def test_resume_names_an_unlisted_chunk_file_in_one_line_and_deletes_nothing(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "forks", "--games", "30", "--chunk-size", "10", "--seed", "2", "--out", out]
    assert invoke(*args).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["chunk_files"]["1"]
    (out / "manifest.json").write_text(json.dumps({**manifest, "complete": False}))
    before = tree(tmp_path)
    assert_refused(invoke(*args, "--resume"), "seats/part-000001.parquet is not in its manifest.json")
    assert tree(tmp_path) == before


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A finished Forks run of three chunks (random in every seat)."""
    out = tmp_path_factory.mktemp("runs") / "run"
    assert invoke("simulate", "forks", "--games", "30", "--chunk-size", "10", "--seed", "4", "--out", out).exit_code == 0
    return out


def copy_run(run, to):
    shutil.copytree(run, to)
    return to


@pytest.mark.parametrize("damage, words", [
    (lambda f: f.drop("score"), "has no column 'score'"),
    (lambda f: f.drop("gained"), "has no column 'gained'"),
    (lambda f: f.with_columns(pl.col("win").cast(pl.String)), "has the column 'win' as String"),
    (lambda f: f.with_columns(pl.col("seat").cast(pl.Float32)), "has the column 'seat' as Float32"),
    (lambda f: f.with_columns(pl.col("strategy").cast(pl.String)), "has the column 'strategy' as String"),
    (lambda f: f.with_columns(extra=pl.lit(1)), "a column 'extra' that a run of forks does not write"),
])
@pytest.mark.parametrize("command", ["report", "compare"])
def test_a_chunk_with_a_column_dropped_retyped_or_added_is_named_with_its_column(tmp_path, small_run, damage, words,
                                                                                command):
    bad = copy_run(small_run, tmp_path / "bad")
    part = bad / "seats" / "part-000001.parquet"
    damage(pl.read_parquet(part)).write_parquet(part)
    before = tree(tmp_path)
    args = ["report", bad, "-o", tmp_path / "r.html"] if command == "report" else ["compare", small_run, bad]
    assert_refused(invoke(*args), str(part), words)
    assert tree(tmp_path) == before


def test_a_damaged_chunk_inside_a_tournament_is_named(tmp_path):
    out = tmp_path / "t"
    assert invoke("tournament", "forks", "-s", "greedy", "-s", "random", "-p", "2", "-n", "10", "-o", out,
                  "--no-report").exit_code == 0
    part = sorted(out.glob("*/seats/part-000000.parquet"))[0]
    pl.read_parquet(part).drop("rank").write_parquet(part)
    assert_refused(invoke("report", out, "-o", tmp_path / "r.html"), str(part), "has no column 'rank'")
    assert not (tmp_path / "r.html").exists()


def test_a_report_on_an_interrupted_run_warns_on_the_terminal_and_in_the_report(tmp_path, small_run):
    run = copy_run(small_run, tmp_path / "run")
    manifest = json.loads((run / "manifest.json").read_text())
    del manifest["chunk_files"]["2"]
    (run / "manifest.json").write_text(json.dumps({**manifest, "complete": False, "games_done": 20}))
    (run / "seats" / "part-000002.parquet").unlink()
    result = invoke("report", run, "-o", tmp_path / "r.html")
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("warning: ") and " ".join(result.stderr.split()) == (  # wrapped to 80 columns
        f"warning: the run {run} did not finish (20 of 30 games played); the report covers only those, and the "
        "same simulate command with --resume finishes it")
    page = (tmp_path / "r.html").read_text()
    assert "This run did not finish: 20 of 30 games were played" in page
    finished = invoke("report", small_run, "-o", tmp_path / "f.html")
    assert finished.stderr == "" and "did not finish" not in (tmp_path / "f.html").read_text()


@pytest.mark.parametrize("game, typed, meant", [("forks", "gredy", "greedy"), ("forks", "Random", "random"),
                                                ("fool", "cautios", "cautious"), ("forks", "mtcs", "mcts")])
def test_a_misspelt_strategy_is_refused_with_the_name_it_is_closest_to(tmp_path, game, typed, meant):
    out = tmp_path / "run"
    assert_refused(invoke("simulate", game, "-s", typed, "--out", out), f"unknown strategy {typed!r}",
                   f"did you mean {meant!r}?")
    assert not out.exists()


def test_a_strategy_name_close_to_none_gets_no_suggestion():
    result = invoke("simulate", "forks", "-s", "genius")
    assert_refused(result, "unknown strategy 'genius'")
    assert "did you mean" not in result.output


def test_an_unknown_class_to_forbid_is_named_as_the_user_gave_it():
    # before: "strategy 'mcts:no-skip': 'no-skip' is not no-CLASS ...", a name the user never typed
    assert_refused(invoke("restrict", "forks", "--forbid", "skip", "-n", "10"),
                   "--forbid skip: forks has no action class 'skip' (its classes: market-held)")
