"""Kernels compiled ahead in child processes (``playtest.compile_ahead``): the parent waits for a child instead of
compiling the kernel too; a kernel in the cache starts no child; a child that fails is one line and the kernel
compiles in the parent; children compile side by side into the parent's cache folder, from which it then loads
them; Ctrl-C, or the parent's death, ends them.

The example game Nim with its verbs called (the suite's ``PLAYTEST_INLINE=never``) keeps the compiles short; one
test compiles into an empty cache, the others use the suite's."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from numba.core import config

from playtest import api, compile_ahead
from simulator.core import compile_cache


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """An empty ``PLAYTEST_CACHE_DIR`` for the children, with numba's cache of this process in it too."""
    monkeypatch.setenv(compile_cache.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)  # restored after the test
    compile_cache.use.__wrapped__()  # points numba's cache at the versioned folder under tmp_path
    return tmp_path


def test_the_parent_waits_for_its_child_and_a_cached_kernel_starts_no_child(monkeypatch):
    compile_ahead.compile_kernel("nim", "batch")  # in the suite's cache
    monkeypatch.setattr(compile_ahead, "in_cache", lambda game, name: False)
    with compile_ahead.Ahead() as ahead:
        assert ahead.start("nim", "batch")
        child = ahead.children["nim", "batch"]
        assert not ahead.start("nim", "batch")  # one child per kernel
        ahead.ready("nim", "batch")
        assert child.process.returncode == 0 and not ahead.children
        monkeypatch.undo()
        assert not ahead.start("nim", "batch") and not ahead.children  # in the cache: no child
        ahead.ready("nim", "batch")  # nothing to wait for


def test_a_child_that_fails_is_said_in_one_line_and_its_kernel_compiles_here(monkeypatch, capfd):
    compiled, compile_kernel = [], compile_ahead.compile_kernel
    monkeypatch.setattr(compile_ahead, "in_cache", lambda game, name: False)
    monkeypatch.setattr(compile_ahead, "command", lambda game, name: [
        sys.executable, "-c", "import sys; sys.exit('MemoryError: no memory left')"])
    monkeypatch.setattr(compile_ahead, "compile_kernel", lambda *key: compiled.append(key) or compile_kernel(*key))
    with compile_ahead.Ahead() as ahead:
        assert ahead.start("nim", "batch")
        ahead.ready("nim", "batch")
    assert compiled == [("nim", "batch")]
    err = capfd.readouterr().err
    assert err.count("note:") == 1 and "Traceback" not in err
    assert ("note: compiling Nim (example game): the batch kernel in a process of its own failed (MemoryError: no "
            "memory left); compiling it here") in " ".join(err.split())  # one message, wrapped to the width


def test_a_child_that_cannot_start_is_one_line_and_the_kernel_compiles_when_needed(monkeypatch, tmp_path, capfd):
    monkeypatch.setattr(compile_ahead, "in_cache", lambda game, name: False)
    monkeypatch.setattr(compile_ahead, "command", lambda game, name: [str(tmp_path / "no-such-python")])
    with compile_ahead.Ahead() as ahead:
        assert not ahead.start("nim", "search") and not ahead.children
        ahead.ready("nim", "search")  # nothing to wait for
    err = " ".join(capfd.readouterr().err.split())
    assert err.startswith("note: could not start a process to compile Nim (example game): the batch kernel with ")
    assert err.endswith("it compiles here when needed")


def test_a_child_says_what_went_wrong_in_one_line():
    child = subprocess.run([sys.executable, "-m", "playtest.compile_ahead", "nim", "everything",
                            str(os.getpid())],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 1
    assert child.stderr == "ValueError: unknown kernel 'everything' (choose from batch, files, search)\n"


def test_kernels_of_different_games_compile_side_by_side_and_of_one_game_one_after_the_other(monkeypatch):
    monkeypatch.setattr(compile_ahead, "in_cache", lambda game, name: False)  # the children load them
    started, done = [], []
    with compile_ahead.Ahead() as ahead:
        child = compile_ahead.Child

        def counted(game, name):  # the kernel and the kernels compiling as it starts
            started.append(((game, name), sorted(k for k, c in ahead.children.items() if c.process.poll() is None)))
            return child(game, name)

        monkeypatch.setattr(compile_ahead, "Child", counted)
        compiled = ahead.run([("nim", "batch"), ("nim", "files"), ("forks", "batch")], 2,
                             on_done=lambda *key: done.append(key))
    assert compiled == 3 and sorted(done) == [("forks", "batch"), ("nim", "batch"), ("nim", "files")]
    assert started[:2] == [(("nim", "batch"), []), (("forks", "batch"), [("nim", "batch")])]
    assert started[2][0] == ("nim", "files") and ("nim", "batch") not in started[2][1]


def test_a_child_compiles_into_the_cache_folder_the_parent_then_loads_from(empty_cache):
    with compile_ahead.Ahead() as ahead:
        assert ahead.start("nim", "batch")
        ahead.ready("nim", "batch")
    assert compile_ahead.in_cache("nim", "batch")
    stats = compile_ahead.compile_kernel("nim", "batch").stats
    assert sum(stats.cache_hits.values()) == 1 and sum(stats.cache_misses.values()) == 0  # loaded, not compiled


def test_skill_compiles_the_search_kernel_ahead_only_beside_a_heuristic(tmp_path, monkeypatch):
    asked = []
    monkeypatch.setattr(compile_ahead.Ahead, "start", lambda self, game, name: asked.append((game, name)))
    small = {"precision": 40, "max_games": 60, "deals": 10}
    api.skill("nim", tmp_path / "a", models=["random", "modular", "learned"], **small)
    assert asked == [("nim", "search")]
    api.skill("nim", tmp_path / "b", models=["random", "modular"], **small)
    assert asked == [("nim", "search")]  # no search model: nothing ahead


def children_of(pid):
    """Ids of the living (not zombie) processes whose parent is ``pid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "parent-killed"])
def test_no_child_compiles_on_after_warm_is_stopped(tmp_path, signum):
    env = dict(os.environ, PLAYTEST_CACHE_DIR=str(tmp_path))
    warm = subprocess.Popen([sys.executable, "-m", "playtest", "warm", "forks", "fool"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while len(children := children_of(warm.pid)) < 2:
            assert warm.poll() is None, warm.communicate()
            assert time.monotonic() < deadline, "warm started no two children (one per game) within two minutes"
            time.sleep(0.1)
        warm.send_signal(signum)   # to the parent only: a terminal's Ctrl-C would reach the children too
        _, err = warm.communicate(timeout=60)
    finally:
        if warm.poll() is None:
            warm.kill()
            warm.communicate()
    if signum == signal.SIGINT:
        assert warm.returncode == 130 and "interrupted" in err and "Traceback" not in err, err
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in children)
