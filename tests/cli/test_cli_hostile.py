"""The wider hostile trial of issue 12: one test per class of bad input it found refused badly.

Each bad input gets one line starting with ``error:``, exit code 2, and leaves
the disk as it was. Almost everything here is refused before any play, so no
kernel is compiled; the few runs played use built-in random strategies.
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from playtest import api
from cli_support import assert_refused, invoke, tree


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A tiny finished Forks run (random in every seat, two chunks)."""
    out = tmp_path_factory.mktemp("runs") / "run"
    api.simulate("forks", players=4, games=20, chunk_size=10, seed=1, out=out)
    return out


@pytest.mark.parametrize("args", [
    ["simulate", "forks", "--margin", "nan"], ["simulate", "forks", "--margin", "inf"],
    ["simulate", "forks", "--margin", "1e30"], ["simulate", "forks", "--until-ci", "nan"],
    ["simulate", "forks", "--until-ci", "101"], ["compare", "a", "b", "--margin", "nan"],
    ["report", ".", "--margin", "inf"], ["tune", "forks", "hedger", "-f", "random", "-o", "t.toml", "--sigma", "nan"],
    ["ladder", "forks", "-o", "l", "--margin", "nan"],
    ["simulate", "forks", "--backend", "dask", "--workers", str(2 ** 63)],
])
def test_non_finite_or_out_of_range_numbers_are_refused_by_the_option(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    assert_refused(invoke(*args), "Invalid value")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("players", ["-1", "0", str(2 ** 63)])
@pytest.mark.parametrize("args", [
    ["tournament", "forks", "-s", "random", "-s", "greedy", "-n", "5", "-o", "t"],
    ["ladder", "forks", "-o", "l"], ["restrict", "forks", "--forbid", "market-held"],
    ["tune", "forks", "hedger", "-f", "random", "-o", "t.toml"],
])
def test_player_counts_are_checked_before_a_lineup_is_built_or_a_folder_made(tmp_path, monkeypatch, args, players):
    monkeypatch.chdir(tmp_path)
    assert_refused(invoke(*args, "-p", players), "players")
    assert list(tmp_path.iterdir()) == []


def test_tournament_and_sweep_refuse_bad_input_before_force_replaces_anything(tmp_path):
    tournament = tmp_path / "t"
    tournament.mkdir()
    (tournament / "tournament.json").write_text("{}")
    before = tree(tmp_path)
    assert_refused(invoke("tournament", "forks", "-s", "random", "-s", "nosuch", "-p", "2", "-o", tournament,
                          "--force"), "nosuch")
    sweep = tmp_path / "s"
    sweep.mkdir()
    (sweep / "sweep.json").write_text("{}")
    grid = tmp_path / "grid.toml"
    grid.write_text('players = 99\n[setup]\n"deck.top" = [2, 3]\n')
    before = tree(tmp_path)
    assert_refused(invoke("sweep", "forks", "--grid", grid, "-o", sweep, "--force"), "99 players")
    assert tree(tmp_path) == before


def test_sweep_grids_too_large_or_unplayable_leave_nothing_behind(tmp_path):
    huge = tmp_path / "huge.toml"
    huge.write_text("[setup]\n" + "\n".join(f'"players.{p}.remove" = [{", ".join(map(str, range(40)))}]'
                                           for p in (2, 3, 4)) + "\n")
    assert_refused(invoke("sweep", "forks", "--grid", huge, "-o", tmp_path / "a"), "64,000 configurations")
    unplayable = tmp_path / "unplayable.toml"
    unplayable.write_text('games = 10\n[setup]\n"deck.nope" = [1, 2]\n')
    assert_refused(invoke("sweep", "forks", "--grid", unplayable, "-o", tmp_path / "b", "--no-report"),
                   "no configuration")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.toml", "unplayable.toml"]


@pytest.mark.parametrize("damage", ["manifest-syntax", "manifest-list", "parquet"])
@pytest.mark.parametrize("command", ["report", "compare", "replay"])
def test_damaged_run_files_are_refused_in_one_line(tmp_path, run_dir, damage, command):
    bad = tmp_path / "bad"
    bad.mkdir()
    for f in [run_dir / "manifest.json", *sorted((run_dir / "seats").glob("*.parquet"))]:
        (bad / f.relative_to(run_dir)).parent.mkdir(exist_ok=True)
        (bad / f.relative_to(run_dir)).write_bytes(f.read_bytes())
    if damage == "parquet":
        part = next((bad / "seats").glob("*.parquet"))
        part.write_bytes(part.read_bytes()[:10])
    else:
        (bad / "manifest.json").write_text("{" if damage == "manifest-syntax" else "[1, 2]")
    if command == "replay" and damage == "parquet":  # replay reads the manifest only
        manifest = json.loads((bad / "manifest.json").read_text())
        (bad / "manifest.json").write_text(json.dumps({**manifest, "chunk_size": 0}))
    before = tree(tmp_path)
    args = {"report": ["report", bad, "-o", tmp_path / "r.html"], "compare": ["compare", run_dir, bad],
            "replay": ["replay", bad, "--game", "0"]}[command]
    assert_refused(invoke(*args), "damaged")
    assert tree(tmp_path) == before


@pytest.mark.parametrize("out, words", [("r.toml", ".html"), ("", "not a name"), ("nodir/r.html", "does not exist"),
                                        ("RUN/seats/r.html", "inside the input"), ("x.html", "is a file")])
def test_report_paths_that_cannot_be_written_cleanly_are_refused_first(tmp_path, monkeypatch, run_dir, out, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x-data").write_text("mine")
    inside_run, out = "RUN" in out, out.replace("RUN", str(run_dir))
    before, before_run = tree(tmp_path), tree(run_dir)
    assert_refused(invoke("report", run_dir, "-o", out), words)
    if not inside_run:  # the Unfair report has no input directory
        assert_refused(invoke("unfair", "report", "-o", out, "-n", "10"), words)
    assert tree(tmp_path) == before and tree(run_dir) == before_run


@pytest.mark.parametrize("study, table, words", [
    ("wishing-well", "[wishing_well]\nstart_beans = 4611686018427387904\n", "within"),
    ("fame", "[fame]\npark_stars_by_round = [" + ", ".join(["1"] * 1001) + "]\n", "1,000 entries"),
    ("gems", "[gems.drill]\nvalues = [1000]\nweights = [1]\n", "gems.drill.values"),
    ("wishing-well", "[wishing_well.cards_to_trade]\nvalues = [1000]\nweights = [1]\n", "cards_to_trade"),
    ("panoramas", "[panoramas]\nspaces = 1000\n", "panoramas.spaces"),
    ("panoramas", "[panoramas]\nlengths = [2, 1000]\n", "panoramas.lengths[1]"),
    ("gems", "[gems]\ntokens = 100000\n", "gems.tokens"),
])
def test_unfair_tables_that_would_overflow_or_never_finish_are_refused(tmp_path, study, table, words):
    setup = tmp_path / "setup.toml"
    setup.write_text(table)
    assert_refused(invoke("unfair", study, "--setup", setup, "-n", "10"), words)


def test_a_fame_study_too_large_for_memory_is_refused_before_it_runs(tmp_path):
    plans = "".join(f'[[fame.plans]]\nname = "p{i}"\ngain_rounds = [1]\ngain = {{ values = [1], weights = [1] }}\n'
                    for i in range(1000))
    setup = tmp_path / "setup.toml"
    setup.write_text("[game]\nrounds = 100\n[fame]\n" + "\n".join(
        f"{k} = [{', '.join(['1'] * 100)}]" for k in ("park_stars_by_round", "capacity_by_round",
                                                      "attractions_by_round")) + "\n" + plans)
    assert_refused(invoke("unfair", "fame", "--setup", setup, "-n", "1000000"), "GB")


def other_threads_cpu(pid):
    """CPU time (clock ticks) used by the threads of process ``pid`` other than its main thread."""
    ticks = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        if tid != str(pid):
            try:
                fields = open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()
            except OSError:  # the thread has just ended
                continue
            ticks += int(fields[11]) + int(fields[12])
    return ticks


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads thread CPU times from /proc (Linux)")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_an_unfair_study_inside_its_kernel(tmp_path, signum):
    setup = tmp_path / "setup.toml"  # hours of kernel time: it is surely inside the kernel when signalled
    setup.write_text("[game]\nrounds = 100\n[gems]\nplayers = 100\n[gems.facilities_per_round]\nvalues = [100]\n"
                     "weights = [1]\n[gems.drill]\nvalues = [100]\nweights = [1]\n")
    run = subprocess.Popen([sys.executable, "-m", "playtest", "unfair", "gems", "--setup", str(setup), "-n",
                            "1000000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 240
        while other_threads_cpu(run.pid) < 30:  # in clock ticks: only the kernel's threads work off the main one
            assert run.poll() is None, run.communicate()[1]
            assert time.monotonic() < deadline, "the study did not start within four minutes"
            time.sleep(0.05)
        time.sleep(1.0)
        run.send_signal(signum)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert run.returncode == 130 and "interrupted" in err and "Traceback" not in err, err


def test_an_interrupted_call_knows_its_worker_is_still_running():
    """Ctrl-C during ``worker.call`` leaves the worker counted as running until it really ends (Python 3.11
    marks a thread whose interrupted ``join`` it was as stopped, which let the process hang in its exit)."""
    import threading

    from simulator.core import worker

    release = threading.Event()
    # Python's own Ctrl-C handler, also where SIGINT was ignored when the tests started (a background job)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.2, signal.raise_signal, [signal.SIGINT]).start()
        with pytest.raises(KeyboardInterrupt):
            worker.call(release.wait, 60)  # bounded: a signal that never arrives fails the test, not the run
    finally:
        signal.signal(signal.SIGINT, previous)
    assert worker.still_running()
    release.set()
    deadline = time.monotonic() + 30
    while worker.still_running() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not worker.still_running()


def test_a_bean_range_too_long_to_count_is_refused_in_one_line():
    assert_refused(invoke("unfair", "dice", "--beans", f"0..{10 ** 30}", "-n", "10"), "at most 200 counts")
