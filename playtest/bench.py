"""`make bench`: games/s of every engine, numba against its reference engine, and start-up times.

For each game at its benchmark configuration (``random`` in every seat):

* numba games/s on 1 thread and on all threads (the kernel alone, outputs
  preallocated, after a warm-up call), and the parallel efficiency;
* reference-engine games/s (pure Python, one core) and the ratio numba (1
  thread) / reference, both on one core;
* wall time of ``playtest simulate GAME --games 1000`` in a fresh process,
  cold (empty numba cache) and warm (cache filled by the cold run), and that
  process's peak resident memory;
* end to end: games/s of the chunk loop of ``playtest simulate GAME --games
  N --out DIR`` (play and write, after start-up; ``N`` = 10M for Forks, 2M
  otherwise) in three rounds, each round's ratio to the kernel alone playing
  the same games (``run_play_rate``: the run's seed, chunks and kernel calls,
  without rows or files) measured just before and just after it (a shared
  machine's load changes within minutes), the median and the range, and the
  peak resident memory;
* the parquet encodings considered for chunk files: CPU seconds (every
  thread's) to encode one chunk and bytes per game (the writer's CPU is
  what it takes from the kernel on a small machine);
* the search player, compiled as the game kernels compile it: iterations
  per second at the game's default ``mcts`` parameters (one iteration: copy
  the state, determinize it, reseed its streams, descend the tree, expand,
  roll out to the end of the game or, at horizon 1, to its evaluation point,
  back up) on 1 thread, on all and on 2 beside issue 14's target for 2 threads
  (``search_target``), from mid-game states of random games; the cost of
  one ``copy_state`` and one ``determinize`` call (in a compiled loop); and
  games per second of a table of ``mcts`` (default budget) in every seat,
  and of a table of ``learned`` in every seat, with its ratio to the
  ``mcts`` table (issue 31 asks for at least 100x).

The table is printed and written to ``bench/results.md`` with the machine.
"""

import io
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path

import numba
import numpy as np

from playtest import api
from playtest.bench_baseline import BASELINE, state_api_rows
from simulator import games as game_registry
from simulator.core import batch, output
from simulator.core.kernels import bind
from simulator.core.rng import seed_stream
from simulator.core.state import is_terminal, to_move
from strategies.games import strategy_set

ENCODING_GAMES = 100_000  # one chunk of the default size
MIN_SECONDS = 1.0  # time each measurement for at least this long
END_TO_END_GAMES = {"forks": 10_000_000}  # other games: 2,000,000
END_TO_END_ROUNDS = 3  # end-to-end runs per game, each between two kernel-alone measurements
SEARCH_TABLE_GAMES = {"forks": 64, "fair-enough": 16}  # games of the all-mcts table; other games: 8
LEARNED_TABLE_GAMES = {"forks": 20_000}  # games of the all-learned table (enough for a second); other games: 2,000
ENCODINGS = {  # candidates for the chunk files, each frame -> bytes; output.encode_chunk is the one chosen
    "polars, zstd 1, no statistics (chosen)": output.encode_chunk,
    "polars, zstd 1, min/max statistics": lambda frame: output.encode_chunk(
        frame, {**output.PARQUET_OPTIONS, "statistics": {"min": True, "max": True, "distinct_count": False,
                                                         "null_count": False}}),
    "polars, lz4, no statistics": lambda frame: output.encode_chunk(
        frame, {"compression": "lz4", "statistics": False}),
    "polars, uncompressed, no statistics": lambda frame: output.encode_chunk(
        frame, {"compression": "uncompressed", "statistics": False}),
    "pyarrow, delta + dictionary, lz4": lambda frame: _pyarrow_bytes(frame, "lz4"),
    "pyarrow, delta + dictionary, uncompressed": lambda frame: _pyarrow_bytes(frame, "none"),
    "pyarrow, delta + dictionary, zstd 1": lambda frame: _pyarrow_bytes(frame, "zstd"),
}


def _pyarrow_bytes(frame, compression):
    """pyarrow's writer: every column required, ``game`` and the other wide integer columns delta-encoded,
    the rest dictionary-encoded (Booleans bit-packed), statistics for ``game`` only."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = frame.to_arrow()
    table = table.cast(pa.schema([f.with_nullable(False) for f in table.schema]))
    wide = [f.name for f in table.schema if pa.types.is_integer(f.type) and f.type.bit_width >= 32]
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression=compression, write_statistics=["game"],
                   column_encoding={name: "DELTA_BINARY_PACKED" for name in wide},
                   use_dictionary=[name for name in table.column_names if name not in wide])
    return buffer.getbuffer()


def kernel_rate(spec, run_chunk, games, threads):
    """Games per second of the batch kernel alone on ``threads`` threads (best of 3)."""
    numba.set_num_threads(threads)
    outputs = batch.allocate(spec.game, spec.config.players, games)
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


# Runs `python ARGS...` as its own child and writes that child's peak RSS (KB) to the file argv[1]. A process
# forked from the benchmark itself would report the benchmark's memory: Linux carries the high-water mark of the
# forking process over the exec. Forked from this small launcher, the measured process reports its own.
_LAUNCH = ("import os, sys\npid = os.fork()\nif pid == 0:\n    os.execv(sys.executable, [sys.executable] + sys.argv[2:])\n"
           "_, status, usage = os.wait4(pid, 0)\nopen(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
           "sys.exit(os.waitstatus_to_exitcode(status))\n")


def simulate_process(game, games, cache_dir=None):
    """``(wall seconds, peak RSS in MB, manifest)`` of `playtest simulate GAME --games N --out DIR` in a new process."""
    env = dict(os.environ, **({"NUMBA_CACHE_DIR": str(cache_dir)} if cache_dir else {}))
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


def end_to_end(game, games):
    """Games/s of the chunk loop (play and write) of `playtest simulate GAME --games N --out DIR`, and peak RSS."""
    _, rss, manifest = simulate_process(game, games)
    return manifest["games_per_second"], rss


def run_play_rate(spec, run_chunk, threads):
    """Games/s of the kernel alone playing the games of run ``spec`` (one measurement).

    The run's chunks and kernel calls (``batch.play_raw``, on ``threads`` threads), without building rows
    or writing: the end-to-end run less its output, so their ratio compares the same games.
    """
    numba.set_num_threads(threads)
    t = time.perf_counter()
    for chunk in range(spec.chunks):
        batch.play_raw(spec, run_chunk, *batch.chunk_bounds(spec, chunk))
    return spec.games / (time.perf_counter() - t)


def end_to_end_rounds(name, run_chunk, games, threads):
    """``END_TO_END_ROUNDS`` rounds of `end_to_end`, each between two `run_play_rate` measurements of
    ``run_chunk`` (the game's kernel for its built-in strategies).

    Returns ``(median end-to-end games/s, median ratio, lowest ratio, highest ratio, highest peak RSS)``,
    the ratio of a round being its end-to-end rate over the mean of the kernel-alone rates of the same
    games (the run's default seed, its chunks) measured just before and just after it: on a shared machine
    the load changes within minutes, so each ratio compares single measurements of the same games under the
    same load (a best of several short kernel runs against one long run would count the machine's noise as
    the writer's cost).
    """
    spec, _ = api.prepare(name, games=games)
    rates, ratios, peak = [], [], 0.0
    before = run_play_rate(spec, run_chunk, threads)
    for _ in range(END_TO_END_ROUNDS):
        rate, rss = end_to_end(name, games)
        after = run_play_rate(spec, run_chunk, threads)
        rates.append(rate)
        ratios.append(2 * rate / (before + after))
        peak, before = max(peak, rss), after
    return float(np.median(rates)), float(np.median(ratios)), min(ratios), max(ratios), peak


def encoding_rates(spec, run_chunk, games):
    """``[(encoding, CPU seconds to encode one chunk of games, bytes per game)]`` for ``ENCODINGS`` (best of 5).

    CPU time of the whole process, so an encoder's pool threads count.
    """
    frame = batch.play_chunk(spec, run_chunk, 0, games)
    rows = []
    for name, encode in ENCODINGS.items():
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            size = len(encode(frame))
            best = min(best, time.process_time() - t)
        rows.append((name, best, size / games))
    return rows


SEARCH_ITERATIONS = 1000  # per decision, in the iteration-rate measurement
SEARCH_TARGET = {"forks": 1_000_000}  # iterations/s over 2 threads that issue 14 asks for; other games: 200,000
SEARCH_TARGET_THREADS = 2


def search_target(name):
    """Iterations per second over ``SEARCH_TARGET_THREADS`` threads that the search of game ``name`` should reach."""
    return SEARCH_TARGET.get(name, 200_000)


def mid_game_states(g, cfg, params, count=32):
    """``count`` states of random games of ``g``, each after a different number of random actions."""
    engine, arrays, none = g.engine, cfg.arrays, np.empty(0, np.int64)
    rng = np.random.default_rng(0)
    actions = np.empty(g.max_actions, np.int64)
    states = []
    game = 0
    while len(states) < count:
        state = engine.new_state(arrays, params)
        engine.reset(state, arrays, 1, game, none, False)
        for _ in range(game % 12):
            engine.apply(state, arrays, int(actions[rng.integers(engine.legal_actions(state, arrays, actions))]),
                         none, False)
            if is_terminal(state):
                break
        if not is_terminal(state):
            states.append(state)
        game += 1
    return states


def time_verbs(state, other, arrays, seat, rng, n):
    """Template: seconds per call of ``copy_state`` and of ``determinize`` over ``n`` calls each."""
    with numba.objmode(t0="f8"):
        t0 = time.perf_counter()
    for _ in range(n):
        copy_state(state, other)  # noqa: F821 (bound)
    with numba.objmode(t1="f8"):
        t1 = time.perf_counter()
    for _ in range(n):
        determinize(other, arrays, seat, rng)  # noqa: F821 (bound)
    with numba.objmode(t2="f8"):
        t2 = time.perf_counter()
    return (t1 - t0) / n, (t2 - t1) / n


def search_rates(name, threads, horizon=None):
    """``(iterations/s on 1 thread, on ``threads``, on 2, ns per copy_state, ns per determinize)`` for one game.

    The search is the one the game kernels call (``StrategySet.search_player``), with the game's default
    ``mcts`` vector at ``SEARCH_ITERATIONS`` iterations, and ``horizon`` in place of the default
    horizon when given.
    """
    g = game_registry.get(name)
    cfg = g.configure(g.default_players)
    sset = strategy_set(name)
    player = f"mcts@{SEARCH_ITERATIONS}"
    sids, params, _ = sset.seats([player], cfg.players, overrides={player: sset.search_vector(player, horizon)})
    engine = g.engine
    new_search, searcher = sset.search_player()
    states = mid_game_states(g, cfg, params)
    most = max(threads, SEARCH_TARGET_THREADS)
    outs = [(np.zeros(cfg.players, np.int32), np.zeros(cfg.players, np.int64),
             np.zeros((cfg.players, max(1, len(g.seat_columns))), np.int32),
             np.zeros(max(1, len(g.game_columns)), np.int32)) for _ in range(most)]
    bufs = [new_search(cfg.arrays, params, sids) for _ in range(most)]

    def work(k, todo):
        for state in todo:
            searcher(state, cfg.arrays, sids, params, bufs[k], *outs[k])

    work(0, states[:1])  # compile
    rates = {}
    for n in sorted({1, threads, SEARCH_TARGET_THREADS}):
        parts = [[engine.new_state(cfg.arrays, params) for _ in states] for _ in range(n)]
        for part in parts:
            for src, dst in zip(states, part):
                engine.copy_state(src, dst)
        t = time.perf_counter()
        pool = [threading.Thread(target=work, args=(k, parts[k])) for k in range(n)]
        for th in pool:
            th.start()
        for th in pool:
            th.join()
        rates[n] = n * len(states) * SEARCH_ITERATIONS / (time.perf_counter() - t)
    timer = bind(time_verbs, cache=False, parallel=False, nrt=False, copy_state=engine.copy_state,
                 determinize=engine.determinize)
    rng = np.empty(4, np.uint64)
    seed_stream(rng, 1, 0, 0)
    other = engine.new_state(cfg.arrays, params)
    with warnings.catch_warnings():  # numba warns that the timer's clock reads (object mode) cannot run in parallel
        warnings.simplefilter("ignore", numba.NumbaWarning)
        copy_s, det_s = timer(states[0], other, cfg.arrays, int(to_move(states[0])), rng, 20_000)
    return rates[1], rates[threads], rates[SEARCH_TARGET_THREADS], 1e9 * copy_s, 1e9 * det_s


def mcts_table_rate(name, games):
    """``(games/s, budget)`` of ``mcts`` at the game's default budget in every seat, all threads (kernel and output)."""
    g = game_registry.get(name)
    _, params, _ = strategy_set(name).seats(["mcts"], g.default_players)
    api.simulate(name, games=2, strategies=["mcts@2"], seed=2)  # compile
    return table_rate(name, "mcts", games), int(params[0, 0])


def table_rate(name, strategy, games):
    """Games/s of ``strategy`` (with its defaults) in every seat, all threads (kernel and output), compiled
    beforehand."""
    api.simulate(name, games=2, strategies=[strategy], seed=2)
    t = time.perf_counter()
    api.simulate(name, games=games, strategies=[strategy], seed=3)
    return games / (time.perf_counter() - t)


def machine():
    return (f"{platform.machine()} ({cpu_model()}), {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"numba {numba.__version__}")


def cpu_model():
    """The processor's model name (Linux's /proc/cpuinfo), or the platform's word for it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown processor"


def run_benchmarks(games=None, out="bench/results.md", echo=print):
    """Measure every game and write the markdown tables to ``out``.

    ``games`` replaces the games per kernel measurement (and, times ten, the
    games of the end-to-end runs).
    """
    rows, encodings, searches = [], [], []
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
            e2e_games = 10 * games if games else END_TO_END_GAMES.get(name, 2_000_000)
            e2e, ratio, low, high, e2e_rss = end_to_end_rounds(name, run_chunk, e2e_games, threads)
            rows.append((name, g.default_players, one, many, many / one / threads, ref, one / ref, cold, warm, rss,
                         e2e_games, e2e, ratio, e2e_rss, low, high))
            echo(f"{name}: {one:,.0f} games/s on 1 thread, {many:,.0f} on {threads}, reference {ref:,.0f}, "
                 f"ratio {one / ref:,.0f}x, start cold {cold:.1f}s warm {warm:.1f}s, end to end {e2e:,.0f} "
                 f"games/s ({ratio:.2f}x the kernel, {low:.2f}-{high:.2f} over {END_TO_END_ROUNDS} rounds)")
            encodings.append((name, encoding_rates(spec, run_chunk, ENCODING_GAMES)))
            one_it, many_it, two_it, copy_ns, det_ns = search_rates(name, threads)
            mcts_rate, budget = mcts_table_rate(name, SEARCH_TABLE_GAMES.get(name, 8))
            learned_rate = table_rate(name, "learned", LEARNED_TABLE_GAMES.get(name, 2_000))
            searches.append((name, one_it, many_it, two_it, search_target(name), copy_ns, det_ns,
                             f"{mcts_rate:.2f}/s ({budget:,} iterations)", one / one_it,
                             f"{learned_rate:,.0f}/s ({learned_rate / mcts_rate:,.0f}x)"))
            echo(f"{name}: search {one_it:,.0f} iterations/s on 1 thread, {many_it:,.0f} on {threads}, "
                 f"{two_it:,.0f} on {SEARCH_TARGET_THREADS} (target {search_target(name):,}), one iteration costs "
                 f"{one / one_it:.2f} random games (1 thread); copy_state "
                 f"{copy_ns:,.0f} ns, determinize {det_ns:,.0f} ns; {mcts_rate:.2f} games/s with mcts "
                 f"({budget:,} iterations) in every seat, {learned_rate:,.0f} with learned "
                 f"({learned_rate / mcts_rate:,.0f}x)")
    state_api = state_api_rows(kernel_rate, games, echo)
    header = ("| game | players | numba 1 thread | numba all threads | parallel efficiency | reference | "
              "numba/reference (1 core) | cold start | warm start | peak RSS |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(f"| {r[0]} | {r[1]} | {r[2]:,.0f}/s | {r[3]:,.0f}/s | {100 * r[4]:.0f}% | {r[5]:,.0f}/s | "
                   f"{r[6]:,.0f}x | {r[7]:.1f} s | {r[8]:.1f} s | {r[9]:.0f} MB |\n" for r in rows)
    e2e_header = ("| game | games written | end to end (median) | end to end / kernel (median) | lowest - highest | "
                  "peak RSS |\n|---|---|---|---|---|---|\n")
    e2e_body = "".join(f"| {r[0]} | {r[10]:,} | {r[11]:,.0f}/s | {r[12]:.2f}x | {r[14]:.2f}x - {r[15]:.2f}x | "
                       f"{r[13]:.0f} MB |\n" for r in rows)
    search_body = "".join(f"| {r[0]} | {r[1]:,.0f}/s | {r[2]:,.0f}/s | {r[3]:,.0f}/s | {r[4]:,}/s | "
                          f"{'met' if r[3] >= r[4] else 'not met'} | {r[5]:,.0f} ns | {r[6]:,.0f} ns | "
                          f"{r[8]:.2f} | {r[7]} | {r[9]} |\n" for r in searches)
    api_body = "".join(f"| {name} | {n} | {old:,.0f}/s | {new:,.0f}/s | {new / old:.2f}x |\n"
                       for name, n, old, new in state_api) or "| not measured (no git history) | | | | |\n"
    enc_body = "".join(f"| {game} | {name} | {1000 * sec:.0f} ms | {size:.1f} B |\n"
                       for game, rates in encodings for name, sec, size in rates)
    text = (f"# playtest benchmark\n\nMeasured {time.strftime('%Y-%m-%d %H:%M')} on {machine()}; "
            f"`random` in every seat; start times are `playtest simulate GAME --games 1000` in a new process "
            f"(cold: empty numba cache).\n\n{header}{body}\n"
            f"## End to end\n\nGames/s of the chunk loop of `playtest simulate GAME --games N --out DIR` (play "
            f"and write, after start-up), {END_TO_END_ROUNDS} rounds per game; each round's ratio divides its rate by "
            f"the mean of two single measurements, just before and just after it, of the kernel alone (all threads) "
            f"playing the same games: the run's seed, chunks and kernel calls, without rows or files.\n\n"
            f"{e2e_header}{e2e_body}\n"
            f"## State API against the kernels it replaced\n\nRandom play, the batch kernel alone: commit "
            f"{BASELINE} (one hand-written game loop per engine, exported from git and run in a process of its own) "
            f"against today's kernel, which plays through the state verbs; measurements alternate, best of two. "
            f"Issue 13 asks for at least 0.8x.\n\n| game | threads | before | state API | ratio |\n"
            f"|---|---|---|---|---|\n{api_body}\n"
            f"## Chunk encodings\n\nOne chunk of {ENCODING_GAMES:,} games: CPU time to encode it (every thread's), "
            f"and bytes per game.\n\n| game | encoding | encode CPU time | bytes per game |\n|---|---|---|---|\n"
            f"{enc_body}\n"
            f"## Search player\n\nIterations per second of `mcts` at the game's default parameters (one "
            f"iteration: copy, determinize, descend, expand, roll out to the end of the game or, at horizon 1, to "
            f"its evaluation point, back up; {SEARCH_ITERATIONS} iterations per decision, from "
            f"32 mid-game states of random games), the cost of one `copy_state` and one `determinize` call, and "
            f"games/s of a table with `mcts` at the game's default budget (random rollouts) in every seat, and of a table "
            f"with `learned` in every seat (its ratio to the all-`mcts` table: issue 31 asks for at least 100x). The target is issue 14's, over {SEARCH_TARGET_THREADS} threads; the cost of "
            f"an iteration in random games (the kernel's 1-thread games/s over the search's 1-thread iterations/s, "
            f"measured in the same run) does not depend on the machine's load as much.\n\n"
            f"| game | iterations, 1 thread | iterations, all threads | iterations, {SEARCH_TARGET_THREADS} threads | "
            f"target | met | copy_state | determinize | iteration / random game (1 thread) | all-mcts table | "
            f"all-learned table (x all-mcts) |\n"
            f"|---|---|---|---|---|---|---|---|---|---|---|\n"
            f"{search_body}")
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text)
    echo(f"\nwritten to {out}")
    return rows
