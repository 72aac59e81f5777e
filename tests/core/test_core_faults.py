"""Faults during a run: strategies that raise or cheat, bad setup types, unwritable or full output.

Each fault stops the run with one clear line; the chunks finished before it
stay on disk, no half-written file is left and the manifest says the run is
incomplete (so ``--resume`` can continue it).
"""

import errno
import json
from pathlib import Path

import numba
import numpy as np
import polars as pl
import pytest

from playtest import api
from simulator.core import output
from simulator.core.batch import LocalChunks, RunError, StrategyFailure, allocate, run_batch, trace_one
from simulator.core.kernels import RAISED
from cli_support import invoke

FAULTY = Path(__file__).with_name("faulty_strategy.py")
LINEUP = ["faulty", "random", "random", "random"]
FIRST_FAULTY_GAME = 4  # with seed 5: games 0-3 never meet the situation


def assert_interrupted_run(out, chunks_kept):
    """Only whole chunks ``0..chunks_kept-1`` on disk, all readable, no temp file, manifest incomplete."""
    parts = sorted(p.name for p in (out / "seats").iterdir())
    assert parts == [f"part-{c:06d}.parquet" for c in range(chunks_kept)]
    assert not list(out.glob("*.tmp"))
    for part in parts:
        pl.read_parquet(out / "seats" / part)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["chunks_done"] == chunks_kept


def test_strategy_raising_names_strategy_game_and_seed_and_keeps_finished_chunks(tmp_path):
    spec, sset = api.prepare("forks", seed=5, games=40, chunk_size=2, strategies=LINEUP, strategy_files=[FAULTY])
    kernels = sset.kernels()
    out = tmp_path / "run"
    with pytest.raises(StrategyFailure) as failure:
        run_batch(spec, LocalChunks(kernels, suspects=["faulty"]), out)
    assert str(failure.value) == (f"strategy 'faulty' raised ValueError: no card to play in game "
                                  f"{FIRST_FAULTY_GAME} of the run with seed 5")
    # the named game is the first that raises when played alone
    for game in range(FIRST_FAULTY_GAME):
        trace_one(spec, kernels[1], game)
    with pytest.raises(ValueError, match="no card to play"):
        trace_one(spec, kernels[1], FIRST_FAULTY_GAME)
    assert_interrupted_run(out, chunks_kept=FIRST_FAULTY_GAME // 2)


def test_the_batch_kernel_marks_every_game_whose_strategy_raised_on_any_thread():
    # numba loses (or half sets: a SystemError) an exception raised inside a prange on another thread than the
    # caller's, so the kernel catches each game's own and marks it RAISED; on 1 thread and on 2 the marks are
    # exactly the games whose replay alone raises
    spec, sset = api.prepare("forks", seed=5, games=600, strategies=LINEUP, strategy_files=[FAULTY])
    run_chunk, trace_game = sset.kernels()
    raising = []
    for game in range(spec.games):
        try:
            trace_one(spec, trace_game, game)
        except ValueError:
            raising.append(game)
    assert raising[0] == FIRST_FAULTY_GAME and len(raising) < spec.games // 2
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            outputs = allocate(spec.game, 4, spec.games)
            run_chunk(spec.config.arrays, spec.sids, spec.params, spec.seed, 0, spec.games, *outputs)
            assert np.flatnonzero(outputs[-1] == RAISED).tolist() == raising
            assert not np.any(outputs[-1] > 0)
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def test_illegal_index_is_one_line_exit_2_and_keeps_finished_chunks(tmp_path):
    out = tmp_path / "run"
    result = invoke("simulate", "forks", "--games", 40, "--chunk-size", 2, "--seed", 5, "--strategy-file", FAULTY,
                    *[a for name in LINEUP for a in ("--strategy", name)], "--param", "faulty=1", "--out", out)
    assert result.exit_code == 2
    assert result.output == (f"error: strategy 'faulty' (seat 0) made an illegal choice (it returned -2, not one of "
                             f"its options) in game {FIRST_FAULTY_GAME} of the run with seed 5\n")
    assert_interrupted_run(out, chunks_kept=FIRST_FAULTY_GAME // 2)


def test_setup_with_wrong_types_is_one_line_and_writes_nothing(tmp_path):
    table = tmp_path / "t.toml"
    table.write_text("[deck]\nvalues = [3, 4, 'five', 6]\n")
    result = invoke("simulate", "forks", "--setup", table, "--out", tmp_path / "run")
    assert result.exit_code == 2
    assert result.output == "error: setup table: deck.values[2]: must be a whole number, got 'five'\n"
    assert not (tmp_path / "run").exists()


def test_output_inside_a_regular_file_is_refused_cleanly(tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("not a directory\n")
    result = invoke("simulate", "forks", "--games", 100, "--out", blocker / "run")
    assert result.exit_code == 2
    assert result.output == f"error: cannot create output directory {blocker / 'run'}: Not a directory\n"
    assert blocker.read_text() == "not a directory\n"
    with pytest.raises(RunError, match="is a file, not a directory"):
        api.simulate("forks", games=10, out=blocker)


def test_full_disk_names_the_directory_removes_the_temp_file_and_keeps_finished_chunks(tmp_path, monkeypatch):
    real_open = open
    calls = []

    def open_until_the_disk_fills(path, mode="r", *args, **kwargs):
        f = real_open(path, mode, *args, **kwargs)
        if "w" in mode:
            calls.append(Path(path))
            if len(calls) == 2:
                f.write(b"PAR1 half a chunk")
                f.close()
                raise OSError(errno.ENOSPC, "No space left on device")
        return f

    monkeypatch.setattr(output, "open", open_until_the_disk_fills, raising=False)
    out = tmp_path / "run"
    with pytest.raises(RunError) as failure:
        api.simulate("forks", games=3000, chunk_size=1000, seed=1, out=out)
    assert str(failure.value).startswith(f"cannot write chunk 1 to {out / 'seats'}: No space left on device")
    assert str(calls[1]).endswith(".tmp") and not calls[1].exists()
    assert_interrupted_run(out, chunks_kept=1)


def test_replaying_a_game_whose_strategy_raises_is_one_error_line():
    result = invoke("replay", "forks", "--strategy-file", str(FAULTY), "-s", "faulty", "--seed", "5",
                    "--game", str(FIRST_FAULTY_GAME))
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: strategy 'faulty' raised ValueError: no card to play in game "
                                     f"{FIRST_FAULTY_GAME} of the run with seed 5")
