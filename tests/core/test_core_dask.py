"""The Dask backend on a real LocalCluster (2 worker processes on loopback) against the local backend.

Same seed, same rows: whichever worker plays a chunk, in whatever order the
chunks finish, and even when a worker is killed mid-run.
"""

import json
import logging
import os
import re
import signal
import tempfile

import dask.distributed
import polars as pl
import pytest
from click.testing import CliRunner
from dask.distributed import Client, LocalCluster

from playtest import api
from playtest.cli import cli
from simulator.core.batch import StrategyFailure
from studies import dask_backend

# strategy files of the example game, Nim, whose kernels compile in a few seconds (a worker compiles its own)
TAKER = 'NAME = "taker"\n\ndef decide(pile, n_options, obs, params, rng):\n    return n_options - 1\n'
FAULTY = ('NAME = "faulty"\n\ndef decide(pile, n_options, obs, params, rng):\n'
          '    if pile == 25:  # a game starting at the largest pile, which seat 0 opens\n'
          '        raise ValueError("no counter to take")\n    return 0\n')


def strategy_file(tmp_path, text):
    path = tmp_path / "nim_strategy.py"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=logging.ERROR) as c, Client(c) as client:
        yield c, client


def test_dask_rows_equal_local_rows_and_workers_keep_the_built_run(tmp_path, cluster):
    c, client = cluster
    options = dict(players=3, games=12_000, seed=21, strategies=["greedy", "leader", "random"], rotate_seats=True,
                   chunk_size=1000)
    local = api.simulate("forks", **options).seats()
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["simulate", "forks", "--players", "3", "--games", "12000", "--seed", "21",
                                      "--strategy", "greedy", "--strategy", "leader", "--strategy", "random",
                                      "--rotate-seats", "--chunk-size", "1000", "--out", str(out),
                                      "--backend", "dask", "--scheduler", c.scheduler_address])
    assert result.exit_code == 0, result.output
    assert pl.read_parquet(out / "seats" / "*.parquet").equals(local)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] and manifest["backend"] == "dask" and manifest["dask_workers"] == 2
    # the tasks (12 chunks and the start check) took the run from their process's cache
    spec, _ = api.prepare("forks", **options)
    key = dask_backend.run_key(dask_backend.describe(spec))
    cached = client.run(lambda: list(dask_backend._RUNS))
    assert all(keys == [key] for keys in cached.values()), cached


def test_user_strategy_file_and_a_killed_worker_still_give_the_local_rows(tmp_path, cluster):
    c, client = cluster
    options = dict(players=3, games=24_000, seed=8, chunk_size=1000, strategy_files=[strategy_file(tmp_path, TAKER)],
                   strategies=["taker", "random", "modular"])
    local = api.simulate("nim", **options).seats()
    pids = client.run(os.getpid)
    killed = []

    def kill_one_worker(done, total):
        if not killed:
            killed.append(next(iter(pids.values())))
            os.kill(killed[0], signal.SIGKILL)

    run = api.simulate("nim", backend="dask", scheduler=c.scheduler_address, on_progress=kill_one_worker,
                       **options)
    assert killed and killed[0] not in client.run(os.getpid).values()
    # the scheduler took back the chunk tasks the dead worker was playing and had them played again
    lost = client.run_on_scheduler(lambda dask_scheduler: [
        t for t in dask_scheduler.transition_log if "play_task" in str(t[0]) and t[1:3] == ("processing", "released")])
    assert lost
    assert run.seats().equals(local)


def test_chunk_futures_are_tracked_on_the_backend_client_loop_inside_a_callers_client(cluster, monkeypatch):
    # the fixture's Client is entered (`with`), as in a notebook: as_completed must not take its loop, or a chunk
    # lost with a killed worker is awaited on two event loops ("bound to a different event loop", seen in CI)
    c, client = cluster
    tracked = []

    def spy(futures, **options):
        pending = real(futures, **options)
        tracked.append((pending.loop, futures[0].client.loop))
        return pending

    real = dask.distributed.as_completed
    monkeypatch.setattr(dask.distributed, "as_completed", spy)
    run = api.simulate("forks", games=2000, seed=3, chunk_size=1000, backend="dask", scheduler=c.scheduler_address)
    assert run.seats().height == 8000
    assert tracked and all(loop is own and loop is not client.loop for loop, own in tracked)


def test_strategy_failing_on_a_worker_is_reported_as_locally_and_finished_chunks_are_kept(tmp_path, cluster):
    c, _ = cluster
    options = dict(seed=5, games=60, chunk_size=2, strategy_files=[strategy_file(tmp_path, FAULTY)],
                   strategies=["faulty", "random"])
    with pytest.raises(StrategyFailure) as local:
        api.simulate("nim", **options)
    first = int(re.search(r"in game (\d+) of", str(local.value))[1])
    assert first >= 4, "the seed must give the workers whole chunks to finish before the fault"
    out = tmp_path / "run"
    with pytest.raises(StrategyFailure) as failure:
        api.simulate("nim", out=out, backend="dask", scheduler=c.scheduler_address, **options)
    assert str(failure.value) == str(local.value)
    assert str(failure.value).startswith("strategy 'faulty' raised ValueError: no counter to take in game ")
    parts = sorted(p.name for p in (out / "seats").iterdir())
    finished = [f"part-{k:06d}.parquet" for k in range(first // 2)]
    assert parts[:len(finished)] == finished and f"part-{first // 2:06d}.parquet" not in parts
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["chunks_done"] == len(parts)
    assert all(pl.read_parquet(out / "seats" / p).height == 4 for p in parts)


def test_backend_options_are_checked():
    result = CliRunner().invoke(cli, ["simulate", "forks", "--scheduler", "tcp://127.0.0.1:8786"])
    assert result.exit_code == 2 and result.output == "error: --scheduler and --workers need --backend dask\n"
    result = CliRunner().invoke(cli, ["simulate", "forks", "--backend", "dask"])
    assert result.exit_code == 2
    assert result.output == "error: the dask backend needs either --scheduler tcp://HOST:PORT or --workers N\n"


def test_a_worker_writes_strategy_files_only_when_the_run_has_them(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(dask_backend, "_RUNS", {})
    monkeypatch.setattr(dask_backend, "_FOLDERS", [])
    plain, _ = api.prepare("nim", players=3, games=10, strategies=["random", "modular", "random"])
    dask_backend.prepared(dask_backend.describe(plain))
    assert list(tmp_path.iterdir()) == []   # before: an empty folder per run and process, never removed
    source = tmp_path / "source"
    source.mkdir()
    with_file, _ = api.prepare("nim", players=3, games=10, strategy_files=[strategy_file(source, TAKER)],
                               strategies=["taker", "random", "modular"])
    dask_backend.prepared(dask_backend.describe(with_file))
    folder, = [p for p in tmp_path.iterdir() if p.name.startswith("playtest-strategies-")]
    assert (folder / "0" / "nim_strategy.py").read_text() == TAKER
    dask_backend._FOLDERS[0].cleanup()   # what the folder's finalizer does when the worker exits
    assert not folder.exists()
