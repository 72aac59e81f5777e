"""Ctrl-C and SIGTERM stop a real `playtest simulate` inside a long kernel call and inside a strategy that
never returns: exit code 130, no half-written file, the manifest saying the run is incomplete.

The kernels run on a worker thread in slices of ``simulator.core.batch.SLICE`` games, so a signal is seen
at once; a worker stuck in a strategy is left behind and the process ends with ``os._exit``. With an empty
cache, Ctrl-C as soon as the command says it compiles stops it too: the kernels compile on the worker
thread, and a strategy file's ``decide`` compiles alone, in moments, on the main thread.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

LOOPING = Path(__file__).parents[1] / "core" / "looping_strategy.py"


def wait_until_playing(run, out):
    """Wait until the run directory exists (the kernels are compiled and game 0 was played), then a little."""
    deadline = time.monotonic() + 240
    while not (out / "seats").is_dir():
        assert run.poll() is None, run.communicate()[1]
        assert time.monotonic() < deadline, "the run did not start within four minutes"
        time.sleep(0.05)
    time.sleep(0.5)


def stop(run, signum):
    run.send_signal(signum)
    try:
        return run.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        run.kill()
        pytest.fail(f"the run did not stop after signal {signum}")


def assert_stopped_cleanly(out, err, returncode):
    assert returncode == 130, err
    assert "interrupted" in err and "--resume" in err and "Traceback" not in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["complete"] is False and manifest["chunks_done"] == 0 and manifest["chunk_files"] == {}
    assert list((out / "seats").iterdir()) == [] and not list(out.glob("*.tmp"))


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_run_in_the_middle_of_one_long_chunk(tmp_path, playtest_process, signum):
    out = tmp_path / "run"
    # one chunk of two million Fauch & Fertig games: over ten seconds of kernel time on two cores
    run = playtest_process("simulate", "fauch-fertig", "--games", 2_000_000, "--chunk-size", 2_000_000, "--seed", 3,
                           "--out", out)
    wait_until_playing(run, out)
    err = stop(run, signum)
    assert_stopped_cleanly(out, err, run.returncode)


def test_ctrl_c_stops_a_strategy_that_never_returns(tmp_path, playtest_process):
    out = tmp_path / "run"
    # the looping strategy is stuck from game 4 of seed 5 on, inside the first chunk
    run = playtest_process("simulate", "forks", "--strategy-file", LOOPING, "-s", "looping", "-s", "random",
                           "-s", "random", "-s", "random", "--seed", 5, "--games", 100, "--chunk-size", 50,
                           "--out", out)
    wait_until_playing(run, out)
    err = stop(run, signal.SIGINT)
    assert_stopped_cleanly(out, err, run.returncode)


def start_cold(cache, *args):
    """``playtest ARGS`` in a new process with the empty cache folder ``cache`` (everything compiles)."""
    env = dict(os.environ, PLAYTEST_CACHE_DIR=str(cache))
    return subprocess.Popen([sys.executable, "-m", "playtest", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as from a terminal


@pytest.mark.parametrize("args", [["simulate", "fool", "--games", 20_000_000],
                                  ["simulate", "forks", "--strategy-file", LOOPING, "-s", "looping", "--games", 100]],
                         ids=["built-in", "strategy-file"])
def test_ctrl_c_during_a_cold_compile_stops_the_command(tmp_path, args):
    out = tmp_path / "run"
    run = start_cold(tmp_path / "cache", *args, "--out", out)
    try:
        said = run.stderr.readline()  # a log's line saying what is compiled: the compile has begun
        assert said.startswith("compiling "), said + run.communicate()[1]
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not out.exists()  # stopped before anything was played or written
