"""`make bench`: games/s of every engine, numba against its reference engine, and start-up times.

For each game at its benchmark configuration (``random`` in every seat):

* numba games/s on 1 thread and on all threads (the kernel alone, outputs
  preallocated, after a warm-up call), and the parallel efficiency;
* reference-engine games/s (pure Python, one core) and the ratio numba (1
  thread) / reference, both on one core;
* wall time of ``playtest simulate GAME --games 1000`` in a fresh process,
  cold (empty numba cache) and warm (cache filled by the cold run), and that
  process's peak resident memory.

The table is printed and written to ``bench/results.md`` with the machine.
"""

import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

from playtest import api
from simulator import games as game_registry

MIN_SECONDS = 1.0  # time each measurement for at least this long


def kernel_rate(spec, run_chunk, games, threads):
    """Games per second of the batch kernel alone on ``threads`` threads (best of 3)."""
    numba.set_num_threads(threads)
    players = spec.config.players
    g = spec.game
    outputs = (np.empty((games, players), np.int32), np.empty((games, players), np.int64),
               np.zeros((games, players, max(1, len(g.seat_columns))), np.int32),
               np.zeros((games, max(1, len(g.game_columns))), np.int32), np.zeros(games, np.int32))
    run_chunk(spec.config.arrays, spec.sids, spec.params, spec.seed, 0, min(games, 1000), *outputs)
    best = 0.0
    for rep in range(3):
        t = time.perf_counter()
        run_chunk(spec.config.arrays, spec.sids, spec.params, spec.seed, rep * games, games, *outputs)
        best = max(best, games / (time.perf_counter() - t))
    return best


def reference_rate(spec):
    """Games per second of the game's pure-Python reference engine playing ``random``."""
    played, started = 0, time.perf_counter()
    while time.perf_counter() - started < MIN_SECONDS or played < 20:
        spec.game.play_reference(spec.config, played)
        played += 1
    return played / (time.perf_counter() - started)


def start_time(game, cache_dir):
    """Wall seconds and peak RSS (MB) of `playtest simulate GAME --games 1000` in a new process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-m", "playtest", "simulate", game, "--games", "1000",
                                  "--out", str(Path(tmp) / "run")], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"playtest simulate {game} failed: {child.stderr.read().decode()}")
        child.stderr.close()
    return wall, usage.ru_maxrss / 1024


def machine():
    return (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"numba {numba.__version__}")


def run_benchmarks(games=None, out="bench/results.md", echo=print):
    """Measure every game and write the markdown table to ``out``."""
    rows = []
    threads = numba.config.NUMBA_NUM_THREADS
    with tempfile.TemporaryDirectory() as cold_cache:
        for name in game_registry.names():
            g = game_registry.get(name)
            spec, sset = api.prepare(name, players=g.default_players, seed=1)
            run_chunk, _ = sset.kernels()
            n = games or g.bench_games
            one = kernel_rate(spec, run_chunk, n, 1)
            many = kernel_rate(spec, run_chunk, n, threads)
            ref = reference_rate(spec) if g.play_reference else float("nan")
            cold, _ = start_time(name, cold_cache)
            warm, rss = start_time(name, cold_cache)
            rows.append((name, g.default_players, one, many, many / one / threads, ref, one / ref, cold, warm, rss))
            echo(f"{name}: {one:,.0f} games/s on 1 thread, {many:,.0f} on {threads}, reference {ref:,.0f}, "
                 f"ratio {one / ref:,.0f}x, start cold {cold:.1f}s warm {warm:.1f}s")
    header = ("| game | players | numba 1 thread | numba all threads | parallel efficiency | reference | "
              "numba/reference (1 core) | cold start | warm start | peak RSS |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(f"| {r[0]} | {r[1]} | {r[2]:,.0f}/s | {r[3]:,.0f}/s | {100 * r[4]:.0f}% | {r[5]:,.0f}/s | "
                   f"{r[6]:,.0f}x | {r[7]:.1f} s | {r[8]:.1f} s | {r[9]:.0f} MB |\n" for r in rows)
    text = (f"# playtest benchmark\n\nMeasured {time.strftime('%Y-%m-%d %H:%M')} on {machine()}; "
            f"`random` in every seat; start times are `playtest simulate GAME --games 1000` in a new process "
            f"(cold: empty numba cache).\n\n{header}{body}")
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text)
    echo(f"\nwritten to {out}")
    return rows
