"""Commands timed in a new process: the cold and warm start of ``playtest simulate`` and the first answers of
every game (issue 42's commands), each with its peak resident memory or its play time alone."""

import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from simulator import games as game_registry
from simulator.core import output
from strategies.games import strategy_set

# Runs `python ARGS...` as its own child and writes that child's peak RSS (KB) to the file argv[1]. A process
# forked from the benchmark itself would report the benchmark's memory: Linux carries the high-water mark of the
# forking process over the exec. Forked from this small launcher, the measured process reports its own.
_LAUNCH = ("import os, sys\npid = os.fork()\nif pid == 0:\n    os.execv(sys.executable, [sys.executable] + sys.argv[2:])\n"
           "_, status, usage = os.wait4(pid, 0)\nopen(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
           "sys.exit(os.waitstatus_to_exitcode(status))\n")


def simulate_process(game, games, cache_dir=None):
    """``(wall seconds, peak RSS in MB, manifest)`` of `playtest simulate GAME --games N --out DIR` in a new process."""
    env = dict(os.environ, **({"PLAYTEST_CACHE_DIR": str(cache_dir)} if cache_dir else {}))
    with tempfile.TemporaryDirectory() as tmp:
        rss = Path(tmp) / "rss"
        t = time.perf_counter()
        child = subprocess.run([sys.executable, "-c", _LAUNCH, str(rss), "-m", "playtest", "simulate", game,
                                "--games", str(games), "--out", str(Path(tmp) / "run")], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t
        if child.returncode != 0:
            raise RuntimeError(f"playtest simulate {game} failed: {child.stderr.decode()}")
        manifest = json.loads((Path(tmp) / "run" / output.MANIFEST).read_text())
        peak = int(rss.read_text()) / 1024
    return wall, peak, manifest


def start_time(game, cache_dir):
    """Wall seconds and peak RSS (MB) of `playtest simulate GAME --games 1000` in a new process."""
    wall, rss, _ = simulate_process(game, 1000, cache_dir)
    return wall, rss


ROOT = Path(__file__).parents[2]


def first_answer_commands(name):
    """The first answers of game ``name``, as ``playtest`` arguments: 20,000 games of ``random``, then (in the
    same cache) of its strongest heuristic, 2,000 of ``learned``, 50 of ``mcts@16``, and its example strategy
    file (the descriptor's ``example_strategy``) for 1,000 games, then again with one constant added. An entry
    starting with "then" runs in the cache of the entry above it (cold: the kernels it needs beyond those)."""
    g = game_registry.get(name)
    sset = strategy_set(name)
    commands = [["simulate", name, "--games", "20000"],
                ["then", "simulate", name, "-s", sset.strongest, "--games", "20000"]]
    if sset.learned_sid >= 0:
        commands.append(["simulate", name, "-s", "learned", "--games", "2000"])
    if sset.search_sid >= 0:
        commands.append(["simulate", name, "-s", "mcts@16", "--games", "50"])
    if g.example_strategy:
        own = ["simulate", name, "--strategy-file", Path(g.example_strategy).name, "-s",
               strategy_name(ROOT / g.example_strategy), "--games", "1000"]
        commands += [own, ["then", "edit", *own]]
    return commands


def strategy_name(path):
    """The ``NAME`` a strategy file assigns (read, not run)."""
    for node in ast.parse(Path(path).read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "NAME" for t in node.targets):
            return ast.literal_eval(node.value)
    raise ValueError(f"{path} assigns no NAME")


def timed_command(args, cache_dir, folder):
    """``(wall seconds, play seconds)`` of `playtest ARGS --out DIR` in a new process with ``cache_dir``; the play
    seconds are the run's ``wall_seconds`` (after the kernels are compiled or loaded)."""
    out = Path(folder) / f"run-{time.monotonic_ns()}"
    env = dict(os.environ, PLAYTEST_CACHE_DIR=str(cache_dir))
    t = time.perf_counter()
    child = subprocess.run([sys.executable, "-m", "playtest", *args, "--out", str(out)], env=env, cwd=folder,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t
    if child.returncode != 0:
        raise RuntimeError(f"playtest {' '.join(args)} failed: {child.stderr.decode()}")
    return wall, json.loads((out / output.MANIFEST).read_text())["wall_seconds"]


def first_answer_rows(names=None, echo=print):
    """Cold, warm and play-alone seconds of every game's ``first_answer_commands`` (of the games ``names``)."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        cache = None
        for name in names or game_registry.names():
            example = game_registry.get(name).example_strategy
            for args in first_answer_commands(name):
                if example:
                    text = (ROOT / example).read_text()
                    edited = "\nEDITED = 1  # one constant added: a new file to the caches\n" if "edit" in args else ""
                    (Path(folder) / Path(example).name).write_text(text + edited)
                if args[0] != "then" or cache is None:
                    cache = tempfile.mkdtemp(dir=folder)
                command = [a for a in args if a not in ("then", "edit")]
                cold, play = timed_command(command, cache, folder)
                warm, _ = timed_command(command, cache, folder)
                shown = ("then " if args[0] == "then" else "") + ("edit the file, " if "edit" in args else "")
                rows.append({"command": shown + "playtest " + " ".join(command), "cold_s": cold, "warm_s": warm,
                             "play_s": play})
                echo(f"{rows[-1]['command']}: cold {cold:.1f} s, warm {warm:.1f} s, play alone {play:.2f} s")
    return rows
