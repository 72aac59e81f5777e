"""``run_benchmarks``: every part of ``make bench`` for the games asked, into one ``Bench`` and its markdown."""

import tempfile
from pathlib import Path

import numba

from simulator import games as game_registry
from simulator.core.run_options import RunOptions
from studies import runs
from studies.bench.baseline import state_api_rows
from studies.bench.processes import first_answer_rows, start_time
from studies.bench.kernel_rates import (END_TO_END_ROUNDS, ENCODING_GAMES, encoding_rates, end_to_end_rounds, kernel_rate,
                                        reference_rate)
from studies.bench.markdown import load_average, markdown
from studies.bench.search_rates import (SEARCH_TABLE_GAMES, SEARCH_TARGET_THREADS, mcts_table_rate, search_rates,
                                        search_target, table_rate)
from studies.bench.tables import ENCODING, END_TO_END, MAIN, PARTS, SEARCH, STATE_API, Bench


def run_benchmarks(simulate, *, names=None, games=None, parts=PARTS, out="bench/results.md", echo=print):
    """Measure the games ``names`` (None: every game) and return a ``Bench``; write its markdown to ``out``
    (None: not written).

    ``simulate`` is ``playtest.api``'s. ``games`` replaces the games per
    kernel measurement (and, times ten, the games of the end-to-end runs);
    ``parts`` (of ``PARTS``) says what to measure besides the kernel's games/s.
    """
    found = Bench(load=[load_average()])
    threads = numba.config.NUMBA_NUM_THREADS
    with tempfile.TemporaryDirectory() as cold_cache:
        for name in game_registry.names() if names is None else names:
            g = game_registry.get(name)
            spec, sset = runs.prepare(RunOptions(name, seed=1, games=1))
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
                e2e, ratio, low, high, e2e_rss = end_to_end_rounds(name, run_chunk, e2e_games, threads)
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
                           for row in state_api_rows(names, games, echo)]
    found.load.append(load_average())
    found.markdown = markdown(found, parts)
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(found.markdown)
        echo(f"\nwritten to {out}")
    return found
