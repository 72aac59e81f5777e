"""``bench``: the speed of every game's engine."""

from playtest.api.results import Result
from playtest.api.run import simulate
from simulator import games as game_registry
from simulator.core.batch import RunError


def bench(*, names=None, games=None, parts=None, out=None, on_line=None):
    """Measure games/s of the engines, numba against the reference engines, start-up, output and search
    (``playtest bench``, ``make bench``; ``studies.bench``).

    Parameters
    ----------
    names : list of str, optional
        The games to measure (None: every registered game).
    games : int, optional
        Games per kernel measurement (None: each game's ``bench_games``); the end-to-end runs play ten
        times as many (None: each game's ``bench_end_to_end_games``).
    parts : list of str, optional
        What to measure besides the kernel's games/s on 1 thread and on all (always measured): any of
        ``studies.bench.PARTS`` (None: all of them): ``reference`` (the pure-Python engine, one core),
        ``start`` (cold and warm start of ``playtest simulate`` in a new process, cold with an empty numba
        cache: it compiles everything), ``first-answer`` (issue 42's commands, each cold in an empty cache,
        then warm, with its play time alone; ``studies.bench.processes.first_answer_commands``), ``end-to-end`` (play and
        write), ``encodings`` (chunk files),
        ``search`` (the search player's iterations/s and the all-``mcts`` and all-``learned`` tables) and
        ``state-api`` (the kernels of issue 45's reference commit, exported from git and compiled in a
        process of its own).
    out : str or pathlib.Path, optional
        A markdown file to write the tables to (``bench/results.md`` for ``make bench``; None: not written).
    on_line : callable, optional
        Called with each line of progress text.

    Returns
    -------
    Result
        ``frame``: one row per game (``game``, ``players``, ``numba_1_thread``, ``numba_all_threads``,
        ``parallel_efficiency``, ``reference``, ``numba_over_reference``, ``cold_start_s``,
        ``warm_start_s``, ``peak_rss_mb`` and the end-to-end figures; None where not measured). ``info``:
        ``end_to_end``, ``encodings``, ``first_answer``, ``search``, ``state_api`` (frames, empty where not
        measured), the ``markdown`` text and ``out``. No verdict.

    Raises
    ------
    RunError
        An unknown game or part, or a number of games below 1.

    Examples
    --------
    The kernel alone and the reference engine of one game, a thousand games a measurement (about two
    seconds: the reference engine is timed for at least one):

    >>> r = api.bench(names=["forks"], games=1000, parts=["reference"])
    >>> row = r.to_polars().row(0, named=True)
    >>> row["game"], row["numba_1_thread"] > row["reference"] > 0, row["cold_start_s"]
    ('forks', True, None)
    >>> r.info["markdown"].startswith("# playtest benchmark")
    True
    """
    from studies import bench as benchmarks

    names = list(game_registry.names() if names is None else names)
    for name in names:
        game_registry.get(name)
    parts = list(benchmarks.PARTS if parts is None else parts)
    unknown = [p for p in parts if p not in benchmarks.PARTS]
    if unknown:
        raise RunError(f"unknown bench part(s) {', '.join(map(repr, unknown))} (choose from "
                       f"{', '.join(benchmarks.PARTS)})")
    if games is not None and (isinstance(games, bool) or not isinstance(games, int) or games < 1):
        raise RunError(f"games must be a whole number of at least 1, got {games!r}")
    found = benchmarks.run_benchmarks(simulate, names=names, games=games, parts=parts, out=out,
                                      echo=on_line or (lambda line: None))
    return Result(found.frame(), info={**found.tables(), "markdown": found.markdown, "out": out})
