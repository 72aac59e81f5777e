"""The benchmark's tables as markdown (``bench/results.md``), with the machine they were measured on."""

import os
import platform
import time
from pathlib import Path

import numba

from studies.bench.baseline import BASELINE
from studies.bench.kernel_rates import END_TO_END_ROUNDS, ENCODING_GAMES
from studies.bench.search_rates import SEARCH_ITERATIONS, SEARCH_TARGET_THREADS
from studies.bench.tables import PARTS


def load_average():
    """The machine's 1-, 5- and 15-minute load averages, as text."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def machine():
    """The machine: architecture, processor, cores, Python and numba versions, as text."""
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
                 "`wall_seconds` (after the kernels are compiled or loaded). The edit adds one constant to the "
                 "game's example strategy file (`docs/examples/`).\n\n| command | cold | warm | play alone |\n|---|---|---|---|\n"
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
                           f"{r['state_api'] / r['before']:.3f}x |\n" for r in found.state_api) \
            or "| not measured (no git history) | | | | |\n"
        text += (f"## Today's kernels against issue 45's reference\n\nRandom play, the batch kernel alone: commit "
                 f"{BASELINE} (the kernels before the engines' named state and the strategy-file slots, exported "
                 f"from git and run in a process of its own) against today's kernel; measurements alternate, best "
                 f"of two. Issue 45 asks for at least 0.97x.\n\n| game | threads | {BASELINE} | today | ratio |\n"
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
