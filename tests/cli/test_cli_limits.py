"""Every value is checked before any play: one `error:` line, exit code 2, nothing written."""

import numpy as np
import pytest

from playtest import api
from simulator.core import batch, output, rundir
from simulator.core.batch import RunError
from cli_support import invoke


def assert_refused(result, message, out=None):
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    assert message in result.output and "Traceback" not in result.output
    if out is not None:
        assert not out.exists()


@pytest.mark.parametrize("args, message", [
    (["--seed", -1], "-1 is not in the range 0<=x<=9223372036854775807"),
    (["--seed", 2 ** 63], "is not in the range 0<=x<=9223372036854775807"),
    (["--threads", 0], "the number of threads must be from 1 to"),
    (["--threads", 10 ** 6], "the number of threads must be from 1 to"),
    (["--games", 99999999999999], "make 1,000,000,000 chunks; a run holds at most 100,000"),
    (["--games", 10 ** 12, "--chunk-size", 10 ** 12], "of memory, more than 50% of this machine's"),
    (["--chunk-size", 0], "0 is not in the range x>=1"),
])
def test_out_of_range_run_options_are_refused_before_play(tmp_path, args, message):
    out = tmp_path / "run"
    assert_refused(invoke("simulate", "forks", *args, "--out", out), message, out)


def test_a_run_that_cannot_fit_on_disk_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(rundir, "free_bytes", lambda path: 10 ** 6)
    with pytest.raises(RunError, match=r"need at least 0.0 GB on disk .* has 0.0 GB free"):
        api.simulate("forks", games=200_000, out=tmp_path / "run")
    assert not (tmp_path / "run").exists()


def test_rows_kept_in_memory_are_bounded_too(monkeypatch):
    monkeypatch.setattr(batch, "physical_memory", lambda: 10 ** 6)
    with pytest.raises(RunError, match="games kept in memory need about .* write the run to a directory"):
        api.simulate("forks", games=100_000)


def test_api_refuses_what_the_command_line_refuses():
    for seed in (-1, 2 ** 63, 1.5, True):
        with pytest.raises(RunError, match="the seed must be a whole number"):
            api.prepare("forks", seed=seed)
    for games in (0, -3, 2.5):
        with pytest.raises(RunError, match="the number of games must be"):
            api.simulate("forks", games=games)


@pytest.mark.parametrize("args, message", [
    (["dice", "--beans", "0..99999999999"], "give at most 200 counts"),
    (["dice", "--beans", "5,100000"], "each from 0 to 1000"),
    (["dice", "--goal", "at-least", "--target", 10 ** 12], "is not in the range"),
    (["fame", "--trials", 10 ** 10], "is not in the range 2<=x<=1000000"),
    (["gems", "--seed", -4], "is not in the range 0<=x<="),
    (["gems", "--players", 10 ** 9], "players: must be from 1 to 100"),
])
def test_unfair_ranges_are_bounded(args, message):
    assert_refused(invoke("unfair", *args), message)


def test_unfair_setup_numbers_that_size_loops_are_bounded(tmp_path):
    table = tmp_path / "t.toml"
    table.write_text("[dice]\nfaces = 1000000\n")
    assert_refused(invoke("unfair", "dice", "--setup", table), "dice.faces: must be at most 100")


def test_finished_is_a_boolean_column_whichever_kind_of_column_the_engine_gives():
    class Game:
        game_columns, seat_columns = ("rounds", "finished"), ("eggs",)

    class SeatFinished:
        game_columns, seat_columns = ("rounds",), ("eggs", "finished")

    scores = np.array([[3, 1], [2, 2]], np.int32)
    per_game = output.seat_frame(Game, ["a", "b"], 0, scores, scores.astype(np.int64), np.zeros((2, 2, 1), np.int32),
                                 np.array([[9, 1], [200, 0]], np.int32))
    assert per_game["finished"].to_list() == [True, True, False, False]
    seat_stats = np.array([[[0, 1], [0, 1]], [[0, 0], [0, 0]]], np.int32)
    per_seat = output.seat_frame(SeatFinished, ["a", "b"], 0, scores, scores.astype(np.int64), seat_stats,
                                 np.array([[9], [200]], np.int32))
    assert per_seat["finished"].to_list() == [True, True, False, False]
    assert str(per_game["finished"].dtype) == str(per_seat["finished"].dtype) == "Boolean"


def test_ranks_and_wins_agree_with_the_definition():
    rng = np.random.default_rng(1)
    standing = rng.integers(0, 4, size=(20_000, 5)).astype(np.int64)  # many ties
    rank, win = output.ranks_and_wins(standing)
    better = (standing[:, None, :] > standing[:, :, None]).sum(axis=2)
    top = standing == standing.max(axis=1, keepdims=True)
    np.testing.assert_array_equal(rank, 1 + better)
    np.testing.assert_allclose(win, top / top.sum(axis=1, keepdims=True))
    np.testing.assert_allclose(win.sum(axis=1), 1.0)
