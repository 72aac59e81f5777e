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
  N --out DIR`` (play and write, after start-up; ``N`` the game's
  ``bench_end_to_end_games``) in three rounds, each round's ratio to the kernel alone playing
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
bench`` call it): it passes in ``simulate``, so this layer does not import
the API that calls it; ``names`` and ``parts`` measure less
(``PARTS``: the kernel rates are always measured).

The modules: ``tables`` (what is measured, ``Bench``), ``kernel_rates``
(kernel, reference engine, end to end, encodings), ``processes`` (commands
timed in a new process: start and first answers), ``search_rates``,
``baseline`` (the kernels of issue 45's reference commit, from git), ``markdown`` and
``run`` (``run_benchmarks``).
"""

from studies.bench.run import run_benchmarks
from studies.bench.tables import PARTS, Bench

__all__ = ["PARTS", "Bench", "run_benchmarks"]

