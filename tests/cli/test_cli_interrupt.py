"""A real `playtest simulate` process interrupted by SIGINT or SIGTERM, then resumed.

The interrupted run keeps whole, readable chunks and an incomplete manifest
that lists each chunk it wrote with its checksum (also one renamed into place
just as the signal came: `--resume` refuses a chunk file the manifest does not
list); `--resume` finishes it and every chunk equals the same chunk played
without interruption.
"""

import json
import signal
import time

import polars as pl

from playtest import api
from simulator.core import output
from simulator.core.batch import play_chunk

GAMES, CHUNK = 3_000_000, 100_000
ARGS = ["simulate", "forks", "--games", str(GAMES), "--chunk-size", str(CHUNK), "--seed", "11"]




def wait_for_first_chunk(run, out):
    deadline = time.monotonic() + 60
    while not list((out / "seats").glob("*.parquet")):
        assert run.poll() is None, run.communicate()[1]
        assert time.monotonic() < deadline, "no chunk was written within a minute"
        time.sleep(0.02)


def interrupt(out, signum, playtest_process):
    """Start a run, send ``signum`` once its first chunk is on disk and check what it leaves behind."""
    run = playtest_process(*ARGS, "--out", out)
    wait_for_first_chunk(run, out)
    run.send_signal(signum)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    manifest = json.loads((out / "manifest.json").read_text())
    parts = sorted((out / "seats").iterdir())
    assert manifest["complete"] is False
    assert 1 <= len(parts) < GAMES // CHUNK and manifest["chunks_done"] == len(parts)
    assert all(p.suffix == ".parquet" for p in parts) and not list(out.glob("*.tmp"))
    for part in parts:
        assert pl.read_parquet(part).height == CHUNK * 4
    for chunk, (first, games, digest) in manifest["chunk_files"].items():
        assert [first, games] == [int(chunk) * CHUNK, CHUNK]
        assert output.file_checksum(output.chunk_path(out, int(chunk))) == digest


def test_sigterm_leaves_whole_chunks_and_an_incomplete_manifest(tmp_path, playtest_process):
    interrupt(tmp_path / "run", signal.SIGTERM, playtest_process)


def test_sigint_then_resume_equals_an_uninterrupted_run(tmp_path, playtest_process):
    out = tmp_path / "run"
    interrupt(out, signal.SIGINT, playtest_process)
    resumed = playtest_process(*ARGS, "--out", out, "--resume")
    _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert json.loads((out / "manifest.json").read_text())["complete"] is True
    parts = sorted((out / "seats").iterdir())
    assert [p.name for p in parts] == [f"part-{c:06d}.parquet" for c in range(GAMES // CHUNK)]
    # the uninterrupted run, chunk by chunk, in this process
    spec, sset = api.prepare("forks", seed=11, games=GAMES, chunk_size=CHUNK)
    run_chunk, _ = sset.kernels()
    for chunk, part in enumerate(parts):
        assert pl.read_parquet(part).equals(play_chunk(spec, run_chunk, chunk * CHUNK, CHUNK)), part.name
