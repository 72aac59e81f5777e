"""Studies over several runs or run directories: ``tournament``, ``sweep``, ``report``; and ``unfair``."""

from pathlib import Path

from playtest.api.results import Result
from playtest.api.run import check, simulate
from simulator.core.batch import RunError
from simulator.core.run_options import MAX_SEED
from simulator.core.setup import SetupError, read_toml


def tournament(game, strategies, *, players, games=10_000, seed=0, out, force=False, margin=1.0):
    """Play every lineup of ``strategies`` with seats rotated and rate them.

    Parameters
    ----------
    game : str
        A registered game (``simulator.games.names()``).
    strategies : list of str
        At least two different strategies.
    players : int
        Seats at the table.
    games : int
        Deals per lineup (the same deals for every lineup).
    seed : int
        Run seed.
    out : str or pathlib.Path
        Directory for the tournament (``tournament.json`` and one run per lineup).
    force : bool
        Replace an earlier tournament in ``out``.
    margin : float
        Balance margin of the seat verdict, in points of win share.

    Returns
    -------
    Result
        ``frame``: win share and Bradley-Terry rating of each strategy with 95% intervals; ``verdict``: the seat
        verdict over every lineup (seats rotated, so it measures seat advantage under mixed strategies);
        ``info``: ``manifest`` and ``seats`` (every lineup's rows).

    Raises
    ------
    RunError
        Fewer than two strategies, or a lineup that ``simulate`` would refuse (checked before anything is played).

    Examples
    --------
    >>> import tempfile
    >>> r = api.tournament("forks", ["greedy", "random"], players=2, games=20, out=tempfile.mkdtemp() + "/t")
    >>> sorted(r.to_polars()["strategy"].to_list())
    ['greedy', 'random']
    """
    from analyses import tournament as tournaments
    from analyses.verdict import seat_verdict
    from simulator.core import rundir

    if len(set(strategies)) < 2:
        raise RunError("a tournament needs at least two different strategies")
    check(game, players=players, seed=seed, games=games, strategies=list(strategies)[:1], out=out)
    for lineup in tournaments.lineups(strategies, players):  # every run refused now, before force replaces
        check(game, players=players, seed=seed, games=games, strategies=lineup, rotate_seats=True, out=out)
    with rundir.claim(out, rundir.TOURNAMENT, force=force):  # refuses a folder that is not a tournament's
        tournaments.play(simulate, game, strategies, out, players=players, games=games, seed=seed, force=force)
    manifest, seats = tournaments.load(out)
    return Result(tournaments.standings(seats), seat_verdict(seats, margin), Path(out),
                  {"manifest": manifest, "seats": seats})


def sweep(game, grid, *, out, force=False, search=False, margin=1.0):
    """Play every configuration of a setup-table / strategy-parameter grid and compare their balance.

    Parameters
    ----------
    game : str
        A registered game.
    grid : str, pathlib.Path or dict
        The grid: a TOML file or its table (run settings, ``[setup]`` candidate lists, ``[params]`` vectors).
    out : str or pathlib.Path
        Directory for the sweep (``summary.csv``, ``sweep.json``, ``runs/``).
    force : bool
        Replace an earlier sweep in ``out``.
    search : bool
        Race the configurations for the smallest largest seat edge, then confirm the survivors on fresh deals.
    margin : float
        Balance margin, in points of win share.

    Returns
    -------
    Result
        ``frame``: one row per configuration played (verdict, largest edge with its interval, game feel);
        ``info``: ``manifest``, ``axes`` and ``best_lines`` (what to read from the sweep).

    Raises
    ------
    GridError, RunError, SetupError
        A bad grid or a configuration ``simulate`` refuses, before anything is played or replaced.

    Examples
    --------
    >>> import tempfile
    >>> grid = {"games": 40, "players": 3, "setup": {"tiebreak.order": [["grey", "blue", "yellow", "green", "red"],
    ...                                                               ["red", "green", "yellow", "blue", "grey"]]}}
    >>> r = api.sweep("forks", grid, out=tempfile.mkdtemp() + "/s")
    >>> r.to_polars().height
    2
    """
    from analyses import sweep as sweeps
    from simulator.core import rundir

    if not isinstance(grid, dict):
        try:  # read like a setup table: a regular file, small, not nested deep
            grid = read_toml(grid)
        except SetupError as exc:
            raise sweeps.GridError(f"grid: {str(exc).removeprefix('setup table: ')}") from None
    options, _ = sweeps.read_grid(grid)  # a bad grid, seed or lineup is refused before force replaces anything
    check(game, **{**options, "games": options.get("games", sweeps.DEFAULT_GAMES)}, out=out)
    if search and options.get("seed", 0) > MAX_SEED - sweeps.CONFIRM_SEED_OFFSET:
        raise sweeps.GridError(f"grid: with --search the seed must be at most {MAX_SEED - sweeps.CONFIRM_SEED_OFFSET} "
                               f"(the confirmation games use seed + {sweeps.CONFIRM_SEED_OFFSET:,})")
    with rundir.claim(out, rundir.SWEEP, force=force):  # refuses a folder that is not a sweep's
        summary = sweeps.sweep(simulate, game, grid, out, search=search, force=force, unplayable=(SetupError,),
                               margin=margin)
        sweeps.best(summary)  # refuses a grid of which nothing could be played, and so removes what it wrote
    manifest, _ = sweeps.load(out)
    axes = [a["label"] for a in manifest["axes"]]
    return Result(summary, None, Path(out), {"manifest": manifest, "axes": axes,
                                             "best_lines": sweeps.best_lines(summary, axes, margin)})


def report(dirs, out, *, fmt="html", margin=1.0):
    """Write a report on run, sweep, tournament or ladder directories; return its path.

    Parameters
    ----------
    dirs : list of str or pathlib.Path
        Directories written by ``simulate``, ``sweep``, ``tournament`` or ``ladder``.
    out : str or pathlib.Path
        The report file (``.html`` or ``.md``); the data behind each figure goes to ``<name>-data/`` beside it.
    fmt : str
        ``"html"`` (one self-contained file) or ``"md"`` (Markdown with PNG files).
    margin : float
        Balance margin of the verdicts, in points of win share.

    Returns
    -------
    pathlib.Path
        The report written.

    Raises
    ------
    NotARun
        A directory that is not a run (or whose files are damaged).

    Examples
    --------
    >>> import tempfile
    >>> run = api.simulate("forks", players=3, games=30, out=tempfile.mkdtemp() + "/run")
    >>> api.report([run.dir], run.dir / "report.html").name
    'report.html'
    """
    from playtest import run_checks
    from reports.build import write_report

    run_checks.check_runs(dirs)  # a damaged file, or a chunk with a column dropped or retyped
    return write_report(dirs, out, fmt=fmt, margin=margin)


UNFAIR_STUDIES = ("dice", "wishing-well", "fame", "gems", "panoramas")


def unfair(study, *, setup=None, trials=20_000, seed=1, first_date=False, goal="double", target=None,
           beans=range(6), players=None):
    """One study of an Unfair (FLSU expansion) mechanic (``playtest unfair STUDY``): its tables.

    Parameters
    ----------
    study : str
        One of ``UNFAIR_STUDIES``: ``dice`` (the chance to reach ``goal`` with
        each count of magic ``beans``, exact beside simulated), ``wishing-well``,
        ``fame``, ``gems`` (drawn by ``players``; None: the table's count) or
        ``panoramas``.
    setup : str or pathlib.Path, optional
        A TOML file merged over the Unfair setup table.
    trials, seed : int
        Simulated trials, and the seed (trial i of a seed never changes).
    first_date : bool
        Play the 6 rounds of the First Date Game Changer (every study but dice).
    goal, target, beans
        The dice study's goal (``simulator.unfair.dice.GOALS``), the result
        aimed at (``at-least`` and ``exactly``) and the bean counts.

    Returns
    -------
    Result
        ``frame`` is the study's first table; ``info["tables"]`` maps each
        table's name to its polars DataFrame (``playtest unfair`` prints
        them all). No verdict: a study describes odds, it does not judge.

    Raises
    ------
    RunError
        An unknown study.
    SetupError
        A setup table that cannot be used, or options out of range, naming the key.

    Examples
    --------
    >>> r = api.unfair("dice", beans=[0, 2], trials=2000)
    >>> r.to_polars()["beans"].to_list()
    [0, 2]
    >>> list(api.unfair("fame", trials=200).info["tables"])
    ['fame by round', 'mythic markers at game end']
    """
    from simulator.unfair import dice, fame, gems, panoramas, wishing_well
    from simulator.unfair.setup import dice_faces, load_setup

    if study not in UNFAIR_STUDIES:
        raise RunError(f"unknown Unfair study {study!r} (choose from {', '.join(UNFAIR_STUDIES)})")
    table = load_setup(setup)
    common = dict(first_date=first_date, trials=trials, seed=seed)
    if study == "dice":
        tables = {"dice": dice.dice_study(goal, list(beans), target=target, faces=dice_faces(table), trials=trials,
                                          seed=seed)}
    elif study == "wishing-well":
        tables = {"wishing well": wishing_well.wishing_well_study(table, **common)}
    elif study == "fame":
        tables = fame.fame_tables(table, **common)
    elif study == "gems":
        tables = gems.gems_tables(table, players=players, **common)
    else:
        tables = {"panoramas": panoramas.panoramas_study(table, **common)}
    return Result(next(iter(tables.values())), info={"tables": tables})
