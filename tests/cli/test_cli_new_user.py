"""What a new user tripped over (issue 27): the seat table in 80 columns, the progress bar while compiling, one
strategy rotated over every seat, a resumed run's summary and the game-feel lines."""

import io
import json

import polars as pl
import pytest

from cli_support import invoke


@pytest.mark.parametrize("game, players, games", [("fool", 8, 40), ("forks", 4, 3000)])
def test_the_seat_table_fits_an_80_column_terminal_with_every_figure_whole(game, players, games):
    from rich.console import Console

    from analyses.seat_summary import seat_summary
    from playtest import api
    from playtest.cli import seat_table

    strategies = ["cautious", "random"] if game == "fool" else ["greedy", "random"]
    run = api.simulate(game, players=players, games=games, seed=3, strategies=strategies * (players // 2))
    summary = seat_summary(run.scan(), run.manifest)
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(seat_table("title", summary.table, summary.verdict.edges))
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines) and "…" not in "".join(lines)
    words = " ".join(lines).split()
    for r, e in zip(summary.table.iter_rows(named=True), summary.verdict.edges):
        assert f"{100 * r['win_share']:.2f}%" in words and e.short().split()[0] in words
        assert all(part in words for part in e.short().split())


def test_rotating_one_strategy_in_every_seat_plays_each_deal_once_and_says_so(tmp_path):
    rotated = invoke("simulate", "forks", "--games", "20", "--rotate-seats", "--seed", "5", "--out", tmp_path / "a")
    plain = invoke("simulate", "forks", "--games", "20", "--seed", "5", "--out", tmp_path / "b")
    assert rotated.exit_code == 0 and plain.exit_code == 0
    assert rotated.stderr.startswith("note: ") and max(map(len, rotated.stderr.splitlines())) <= 80
    assert " ".join(rotated.stderr.split()) == ("note: every seat plays random, so each rotation of the seats would "
                                                "replay the same games; each deal was played once, without "
                                                "--rotate-seats")
    assert json.loads((tmp_path / "a" / "manifest.json").read_text())["rotate_seats"] is False
    assert pl.read_parquet(tmp_path / "a" / "seats").equals(pl.read_parquet(tmp_path / "b" / "seats"))
    mixed = invoke("simulate", "forks", "--games", "5", "--rotate-seats", "-s", "greedy", "-s", "random",
                   "-p", "2", "--out", tmp_path / "c")
    assert mixed.stderr == "" and pl.read_parquet(tmp_path / "c" / "seats").height == 5 * 2 * 2


def test_a_resumed_run_says_so_and_what_it_played_now(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "forks", "--games", "30", "--chunk-size", "10", "--seed", "6", "--out", out]
    assert invoke(*args).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["chunk_files"]["2"]
    (out / "manifest.json").write_text(json.dumps({**manifest, "complete": False, "games_done": 20}))
    (out / "seats" / "part-000002.parquet").unlink()
    resumed = invoke(*args, "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "4 players, 30 games" in resumed.stdout
    assert "resumed: 20 games kept from disk, 10 played now in " in resumed.stdout.replace("\n", " ")
    assert json.loads((out / "manifest.json").read_text())["resumed_with_games"] == 20


def test_the_progress_bar_says_compiling_until_play_starts_and_then_counts_from_there():
    from playtest.cli import _progress, rate

    with _progress(100) as progress:
        task = progress.bar.tasks[0]
        assert task.description == "compiling (first run only)"
        begun = progress.bar.get_time()
        progress.start(40, 100)  # a resumed run: 40 games already on disk
        task = progress.bar.tasks[0]
        assert task.description == "playing" and task.completed == 40 and task.start_time >= begun
        progress.advance(60, 100)
        assert progress.first == 40
    assert rate(20, 0.5) == "40 games/s" and rate(20, 0) == "" and rate(0, None) == ""


def test_feel_lines_say_a_constant_length_once_and_shares_in_percent():
    same = invoke("simulate", "forks", "--games", "200", "--seed", "3", "--feel")
    assert same.exit_code == 0, same.output
    lines = [line.strip() for line in same.stdout.splitlines()]
    assert "every game lasted 4 rounds" in lines
    assert not [line for line in lines if line.startswith(("mean rounds:", "sd of rounds:"))]
    tie = next(line for line in lines if line.startswith("tie rate:"))
    assert tie.split(":")[1].split()[0].endswith("%")
    varied = invoke("simulate", "fool", "--games", "60", "--seed", "3", "--feel")
    assert varied.exit_code == 0, varied.output
    assert "every game lasted" not in varied.stdout and "mean rounds: " in varied.stdout


def test_playing_on_says_which_games_it_kept(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "forks", "--chunk-size", "10", "--seed", "6", "--out", out]
    assert invoke(*args, "--games", "25").exit_code == 0
    resumed = invoke(*args, "--games", "30", "--resume")
    assert resumed.exit_code == 0, resumed.output
    # the short chunk of 5 games is played again in full: 25 games were on disk, 20 of them kept
    assert "resumed: 20 games kept from disk, 10 played now in " in resumed.stdout.replace("\n", " ")
