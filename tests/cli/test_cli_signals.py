"""Ctrl-C and SIGTERM stop a real `playtest simulate` inside a long kernel call and inside a strategy that
never returns: exit code 130, no half-written file, the manifest saying the run is incomplete.

The kernels run on a worker thread in slices of ``simulator.core.batch.SLICE`` games, so a signal is seen
at once; a worker stuck in a strategy is left behind and the process ends with ``os._exit``.
"""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

LOOPING = Path(__file__).parents[1] / "core" / "looping_strategy.py"


def default_sigint():
    """In the child: Ctrl-C handled as by a terminal, even when the tests run with SIGINT ignored (as in a
    background job), since Python installs its Ctrl-C handler only when SIGINT is not ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(out, *args):
    return subprocess.Popen([sys.executable, "-m", "playtest", "simulate", *map(str, args), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)


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
def test_a_signal_stops_a_run_in_the_middle_of_one_long_chunk(tmp_path, signum):
    out = tmp_path / "run"
    # one chunk of two million Fauch & Fertig games: over ten seconds of kernel time on two cores
    run = start(out, "fauch-fertig", "--games", 2_000_000, "--chunk-size", 2_000_000, "--seed", 3)
    wait_until_playing(run, out)
    err = stop(run, signum)
    assert_stopped_cleanly(out, err, run.returncode)


def test_ctrl_c_stops_a_strategy_that_never_returns(tmp_path):
    out = tmp_path / "run"
    # the looping strategy is stuck from game 4 of seed 5 on, inside the first chunk
    run = start(out, "forks", "--strategy-file", LOOPING, "-s", "looping", "-s", "random", "-s", "random",
                "-s", "random", "--seed", 5, "--games", 100, "--chunk-size", 50)
    wait_until_playing(run, out)
    err = stop(run, signal.SIGINT)
    assert_stopped_cleanly(out, err, run.returncode)
