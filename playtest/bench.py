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

``playtest.api.bench`` is the entry point (``playtest bench`` and ``make
bench`` call it): it passes in ``prepare`` and ``simulate``, so this module
does not import the API that calls it; ``names`` and ``parts`` measure less
(``PARTS``: the kernel rates are always measured).
"""

import ast
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
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import polars as pl

from playtest.bench_baseline import BASELINE, state_api_rows
from simulator import games as game_registry
from simulator.core import batch, output
from simulator.core.kernels import bind
from simulator.core.rng import seed_stream
from simulator.core.state import is_terminal, to_move
from strategies.games import strategy_set

PARTS = ("reference", "start", "first-answer", "end-to-end", "encodings", "search", "state-api")
ENCODING_GAMES = 100_000  # one chunk of the default size
MIN_SECONDS = 1.0  # time each measurement for at least this long
END_TO_END_ROUNDS = 3  # end-to-end runs per game, each between two kernel-alone measurements
# games of the all-mcts table: 8 left one of 2 threads idle at the end and read Fool!'s rate 1.4x too low
SEARCH_TABLE_GAMES = 64
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


ROOT = Path(__file__).parents[1]


def first_answer_commands(name):
    """The first answers of game ``name``, as ``playtest`` arguments: 20,000 games of ``random``, then (in the
    same cache) of its strongest heuristic, 2,000 of ``learned``, 50 of ``mcts@16``, and its example strategy
    file (the descriptor's ``example_strategy``) for 1,000 games, then again with one constant edited. An entry
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
               _strategy_name(ROOT / g.example_strategy), "--games", "1000"]
        commands += [own, ["then", "edit", *own]]
    return commands


def _strategy_name(path):
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
                    edited = "\n# one line edited: a new file to the caches\n" if "edit" in args else ""
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


def load_average():
    """The machine's 1-, 5- and 15-minute load averages, as text."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


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


def end_to_end_rounds(prepare, name, run_chunk, games, threads):
    """``END_TO_END_ROUNDS`` rounds of `end_to_end`, each between two `run_play_rate` measurements of
    ``run_chunk`` (the game's kernel for its built-in strategies).

    Returns ``(median end-to-end games/s, median ratio, lowest ratio, highest ratio, highest peak RSS)``,
    the ratio of a round being its end-to-end rate over the mean of the kernel-alone rates of the same
    games (the run's default seed, its chunks) measured just before and just after it: on a shared machine
    the load changes within minutes, so each ratio compares single measurements of the same games under the
    same load (a best of several short kernel runs against one long run would count the machine's noise as
    the writer's cost). ``prepare`` is ``playtest.api.prepare``.
    """
    spec, _ = prepare(name, games=games)
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
SEARCH_TARGET_THREADS = 2


def search_target(name):
    """Iterations per second over ``SEARCH_TARGET_THREADS`` threads that the search of game ``name`` should reach."""
    return game_registry.get(name).bench_search_target


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


def mcts_table_rate(simulate, name, games):
    """``(games/s, budget)`` of ``mcts`` at the game's default budget in every seat, all threads (kernel and output);
    ``simulate`` is ``playtest.api.simulate``."""
    g = game_registry.get(name)
    _, params, _ = strategy_set(name).seats(["mcts"], g.default_players)
    simulate(name, games=2, strategies=["mcts@2"], seed=2)  # compile
    return table_rate(simulate, name, "mcts", games), int(params[0, 0])


def table_rate(simulate, name, strategy, games):
    """Games/s of ``strategy`` (with its defaults) in every seat, all threads (kernel and output), compiled
    beforehand (``simulate``: ``playtest.api.simulate``)."""
    simulate(name, games=2, strategies=[strategy], seed=2)
    t = time.perf_counter()
    simulate(name, games=games, strategies=[strategy], seed=3)
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


MAIN = ("game", "players", "numba_1_thread", "numba_all_threads", "parallel_efficiency", "reference",
        "numba_over_reference", "cold_start_s", "warm_start_s", "peak_rss_mb")
END_TO_END = ("game", "games_written", "games_per_second", "over_kernel", "lowest", "highest", "peak_rss_mb")
ENCODING = ("game", "encoding", "cpu_seconds", "bytes_per_game")
SEARCH = ("game", "iterations_1_thread", "iterations_all_threads", "iterations_2_threads", "target", "copy_ns",
          "determinize_ns", "iteration_over_random_game", "mcts_table", "mcts_budget", "learned_table")
STATE_API = ("game", "threads", "before", "state_api")
FIRST = ("command", "cold_s", "warm_s", "play_s")


@dataclass
class Bench:
    """What ``run_benchmarks`` measured: one list of row dicts per table (the columns of ``MAIN``,
    ``END_TO_END``, ...; a value None where not measured) and the markdown text."""

    main: list = field(default_factory=list)
    end_to_end: list = field(default_factory=list)
    encodings: list = field(default_factory=list)
    search: list = field(default_factory=list)
    state_api: list = field(default_factory=list)
    first_answer: list = field(default_factory=list)
    load: list = field(default_factory=list)
    markdown: str = ""

    def frame(self):
        """The main table as a polars frame, one row per game."""
        return _frame(self.main, MAIN)

    def tables(self):
        """``{end_to_end, encodings, search, state_api}``: the other tables as polars frames."""
        return {"end_to_end": _frame(self.end_to_end, END_TO_END), "encodings": _frame(self.encodings, ENCODING),
                "first_answer": _frame(self.first_answer, FIRST),
                "search": _frame(self.search, SEARCH), "state_api": _frame(self.state_api, STATE_API)}


def _frame(rows, columns):
    if not rows:
        return pl.DataFrame({c: [] for c in columns})
    return pl.DataFrame(rows, schema=list(columns), orient="row", infer_schema_length=None)


def run_benchmarks(prepare, simulate, *, names=None, games=None, parts=PARTS, out="bench/results.md", echo=print):
    """Measure the games ``names`` (None: every game) and return a ``Bench``; write its markdown to ``out``
    (None: not written).

    ``prepare`` and ``simulate`` are ``playtest.api``'s. ``games`` replaces
    the games per kernel measurement (and, times ten, the games of the
    end-to-end runs); ``parts`` (of ``PARTS``) says what to measure besides
    the kernel's games/s.
    """
    found = Bench(load=[load_average()])
    threads = numba.config.NUMBA_NUM_THREADS
    with tempfile.TemporaryDirectory() as cold_cache:
        for name in game_registry.names() if names is None else names:
            g = game_registry.get(name)
            spec, sset = prepare(name, players=g.default_players, seed=1)
            run_chunk, _ = sset.kernels()
            n = games or g.bench_games
            one = kernel_rate(spec, run_chunk, n, 1)
            many = kernel_rate(spec, run_chunk, n, threads)
            ref = reference_rate(spec) if g.play_reference and "reference" in parts else None
            cold = warm = rss = None
            if "start" in parts:
                cold, _ = start_time(name, cold_cache)
                warm, rss = start_time(name, cold_cache)
            found.main.append(dict(zip(MAIN, (name, g.default_players, one, many, many / one / threads, ref,
                                              None if ref is None else one / ref, cold, warm, rss))))
            echo(f"{name}: {one:,.0f} games/s on 1 thread, {many:,.0f} on {threads}"
                 + ("" if ref is None else f", reference {ref:,.0f}, ratio {one / ref:,.0f}x")
                 + ("" if cold is None else f", start cold {cold:.1f}s warm {warm:.1f}s"))
            if "end-to-end" in parts:
                e2e_games = 10 * games if games else g.bench_end_to_end_games
                e2e, ratio, low, high, e2e_rss = end_to_end_rounds(prepare, name, run_chunk, e2e_games, threads)
                found.end_to_end.append(dict(zip(END_TO_END, (name, e2e_games, e2e, ratio, low, high, e2e_rss))))
                echo(f"{name}: end to end {e2e:,.0f} games/s ({ratio:.2f}x the kernel, {low:.2f}-{high:.2f} over "
                     f"{END_TO_END_ROUNDS} rounds)")
            if "encodings" in parts:
                found.encodings += [dict(zip(ENCODING, (name, *row)))
                                    for row in encoding_rates(spec, run_chunk, ENCODING_GAMES)]
            if "search" in parts:
                one_it, many_it, two_it, copy_ns, det_ns = search_rates(name, threads)
                mcts_rate, budget = mcts_table_rate(simulate, name, SEARCH_TABLE_GAMES)
                learned_rate = table_rate(simulate, name, "learned", g.bench_learned_games)
                found.search.append(dict(zip(SEARCH, (name, one_it, many_it, two_it, search_target(name), copy_ns,
                                                      det_ns, one / one_it, mcts_rate, budget, learned_rate))))
                echo(f"{name}: search {one_it:,.0f} iterations/s on 1 thread, {many_it:,.0f} on {threads}, "
                     f"{two_it:,.0f} on {SEARCH_TARGET_THREADS} (target {search_target(name):,}), one iteration "
                     f"costs {one / one_it:.2f} random games (1 thread); copy_state {copy_ns:,.0f} ns, determinize "
                     f"{det_ns:,.0f} ns; {mcts_rate:.2f} games/s with mcts ({budget:,} iterations) in every seat, "
                     f"{learned_rate:,.0f} with learned ({learned_rate / mcts_rate:,.0f}x)")
    if "first-answer" in parts:
        found.first_answer = first_answer_rows(names, echo)
    if "state-api" in parts:
        found.state_api = [dict(zip(STATE_API, row))
                           for row in state_api_rows(prepare, kernel_rate, names, games, echo)]
    found.load.append(load_average())
    found.markdown = markdown(found, parts)
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(found.markdown)
        echo(f"\nwritten to {out}")
    return found


def _number(value, fmt, unit=""):
    return "-" if value is None or value != value else f"{value:{fmt}}{unit}"


def markdown(found, parts=PARTS):
    """The markdown text of a ``Bench``: the main table and a section for each part measured."""
    header = ("| game | players | numba 1 thread | numba all threads | parallel efficiency | reference | "
              "numba/reference (1 core) | cold start | warm start | peak RSS |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(f"| {r['game']} | {r['players']} | {r['numba_1_thread']:,.0f}/s | {r['numba_all_threads']:,.0f}/s | "
                   f"{100 * r['parallel_efficiency']:.0f}% | {_number(r['reference'], ',.0f', '/s')} | "
                   f"{_number(r['numba_over_reference'], ',.0f', 'x')} | {_number(r['cold_start_s'], '.1f', ' s')} | "
                   f"{_number(r['warm_start_s'], '.1f', ' s')} | {_number(r['peak_rss_mb'], '.0f', ' MB')} |\n"
                   for r in found.main)
    load = f" (load average {found.load[0]} at the start, {found.load[-1]} at the end)" if found.load else ""
    text = (f"# playtest benchmark\n\nMeasured {time.strftime('%Y-%m-%d %H:%M')} on {machine()}{load}; "
            f"`random` in every seat; start times are `playtest simulate GAME --games 1000` in a new process "
            f"(cold: empty cache, `PLAYTEST_CACHE_DIR`).\n\n{header}{body}\n")
    if "first-answer" in parts:
        first_body = "".join(f"| `{r['command']}` | {r['cold_s']:.1f} s | {r['warm_s']:.1f} s | {r['play_s']:.2f} s |\n"
                             for r in found.first_answer)
        text += ("## First answer: cold, warm and play alone\n\nEach command in a new process with `--out DIR`: "
                 "cold with an empty cache (`PLAYTEST_CACHE_DIR`; a command starting with \"then\" uses the cache "
                 "the command above it filled), warm right after it in the same cache; play alone is the run's "
                 "`wall_seconds` (after the kernels are compiled or loaded). The edit changes one constant of "
                 "`docs/examples/contrarian.py`.\n\n| command | cold | warm | play alone |\n|---|---|---|---|\n"
                 f"{first_body}\n")
    if "end-to-end" in parts:
        e2e_body = "".join(f"| {r['game']} | {r['games_written']:,} | {r['games_per_second']:,.0f}/s | "
                           f"{r['over_kernel']:.2f}x | {r['lowest']:.2f}x - {r['highest']:.2f}x | "
                           f"{r['peak_rss_mb']:.0f} MB |\n" for r in found.end_to_end)
        text += (f"## End to end\n\nGames/s of the chunk loop of `playtest simulate GAME --games N --out DIR` "
                 f"(play and write, after start-up), {END_TO_END_ROUNDS} rounds per game; each round's ratio divides "
                 f"its rate by the mean of two single measurements, just before and just after it, of the kernel "
                 f"alone (all threads) playing the same games: the run's seed, chunks and kernel calls, without rows "
                 f"or files.\n\n| game | games written | end to end (median) | end to end / kernel (median) | "
                 f"lowest - highest | peak RSS |\n|---|---|---|---|---|---|\n{e2e_body}\n")
    if "state-api" in parts:
        api_body = "".join(f"| {r['game']} | {r['threads']} | {r['before']:,.0f}/s | {r['state_api']:,.0f}/s | "
                           f"{r['state_api'] / r['before']:.2f}x |\n" for r in found.state_api) \
            or "| not measured (no git history) | | | | |\n"
        text += (f"## State API against the kernels it replaced\n\nRandom play, the batch kernel alone: commit "
                 f"{BASELINE} (one hand-written game loop per engine, exported from git and run in a process of its "
                 f"own) against today's kernel, which plays through the state verbs; measurements alternate, best "
                 f"of two. Issue 13 asks for at least 0.8x.\n\n| game | threads | before | state API | ratio |\n"
                 f"|---|---|---|---|---|\n{api_body}\n")
    if "encodings" in parts:
        enc_body = "".join(f"| {r['game']} | {r['encoding']} | {1000 * r['cpu_seconds']:.0f} ms | "
                           f"{r['bytes_per_game']:.1f} B |\n" for r in found.encodings)
        text += (f"## Chunk encodings\n\nOne chunk of {ENCODING_GAMES:,} games: CPU time to encode it (every "
                 f"thread's), and bytes per game.\n\n| game | encoding | encode CPU time | bytes per game |\n"
                 f"|---|---|---|---|\n{enc_body}\n")
    if "search" in parts:
        search_body = "".join(
            f"| {r['game']} | {r['iterations_1_thread']:,.0f}/s | {r['iterations_all_threads']:,.0f}/s | "
            f"{r['iterations_2_threads']:,.0f}/s | {r['target']:,}/s | "
            f"{'met' if r['iterations_2_threads'] >= r['target'] else 'not met'} | {r['copy_ns']:,.0f} ns | "
            f"{r['determinize_ns']:,.0f} ns | {r['iteration_over_random_game']:.2f} | "
            f"{r['mcts_table']:.2f}/s ({r['mcts_budget']:,} iterations) | "
            f"{r['learned_table']:,.0f}/s ({r['learned_table'] / r['mcts_table']:,.0f}x) |\n" for r in found.search)
        text += (f"## Search player\n\nIterations per second of `mcts` at the game's default parameters (one "
                 f"iteration: copy, determinize, descend, expand, roll out to the end of the game or, at horizon 1, "
                 f"to its evaluation point, back up; {SEARCH_ITERATIONS} iterations per decision, from "
                 f"32 mid-game states of random games), the cost of one `copy_state` and one `determinize` call, and "
                 f"games/s of a table with `mcts` at the game's default budget (random rollouts) in every seat, and "
                 f"of a table with `learned` in every seat (its ratio to the all-`mcts` table: issue 31 asks for at "
                 f"least 100x). The target is issue 14's, over {SEARCH_TARGET_THREADS} threads; the cost of "
                 f"an iteration in random games (the kernel's 1-thread games/s over the search's 1-thread "
                 f"iterations/s, measured in the same run) does not depend on the machine's load as much.\n\n"
                 f"| game | iterations, 1 thread | iterations, all threads | iterations, {SEARCH_TARGET_THREADS} "
                 f"threads | target | met | copy_state | determinize | iteration / random game (1 thread) | "
                 f"all-mcts table | all-learned table (x all-mcts) |\n"
                 f"|---|---|---|---|---|---|---|---|---|---|---|\n{search_body}")
    return text
