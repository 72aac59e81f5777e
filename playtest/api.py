"""The Python API: every command of the command line as one call, for notebooks and scripts.

Each command is one function of the same name (``search-gain`` is
``search_gain``) returning a result object: ``simulate`` a ``Run``;
``tournament``, ``sweep``, ``ladder``, ``restrict``, ``tune``, ``skill``,
the designer's studies (``survey``, ``compensate``, ``cards``), ``train``,
``search_gain`` and ``bench`` a ``Result``; ``setup`` the setup table's
text; ``compare`` an ``analyses.compare.Comparison``; ``report`` the path
written. A result has ``.to_polars()`` and ``.to_pandas()`` (its main
table) and ``.verdict`` where the command has one. The click command line
(``playtest.cli``) parses options, calls these functions and prints.

Adding a command: write ``def NAME(game, *, ...)`` here that refuses bad input
(one ``RunError``/``SetupError``/``StrategyError`` naming what is wrong)
before anything is played or written, plays through ``simulate``, and returns
a ``Result`` (or a result class of its own with ``to_polars``/``to_pandas``);
give it a numpydoc docstring whose Example runs in a second (it is a doctest
of ``make test``); then make the click command a thin call to it.

Examples
--------
>>> from playtest import api
>>> run = api.simulate("forks", players=4, games=50, seed=7, strategies=["greedy", "random"] * 2)
>>> run.to_polars().height       # one row per (game, seat)
200
>>> run.verdict.kind in ("balanced", "unbalanced", "inconclusive")
True
"""

import contextlib
import dataclasses
import subprocess
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

import numba
import numpy as np

import playtest
from simulator import games as game_registry
from simulator.core import output, worker
from simulator.core.batch import (MAX_SEED, LocalChunks, RunError, RunSpec, StrategyFailure, blame, check_size,
                                  chunk_bounds, run_batch, trace_one)
from simulator.core.setup import SetupError, read_toml
from strategies.games import strategy_set

GAMES = 100_000  # the default number of games of ``simulate``, on the command line and here


@dataclass
class Run:
    """A finished (or interrupted) run: its directory, manifest and rows."""

    dir: Path | None
    manifest: dict
    frame: pl.DataFrame | None = None

    def seats(self):
        """The per-(game, seat) rows as a polars DataFrame."""
        return self.frame if self.frame is not None else output.read_seats(self.dir)

    def scan(self):
        """The rows as a polars LazyFrame: aggregate a run of any size without loading it."""
        return self.frame.lazy() if self.frame is not None else output.scan_seats(self.dir)

    def to_polars(self):
        """The per-(game, seat) rows as a polars DataFrame (``seats``)."""
        return self.seats()

    def to_pandas(self):
        """The per-(game, seat) rows as a pandas DataFrame."""
        return self.seats().to_pandas()

    @property
    def verdict(self):
        """The balance verdict at the default margin of 1 point (``verdict(run, margin)`` for another)."""
        return verdict(self)


@dataclass
class Result:
    """What a command other than ``simulate`` returns.

    Attributes
    ----------
    frame : polars.DataFrame
        The command's main table (a tournament's standings, a sweep's summary, a ladder's levels, ...).
    verdict : object or None
        The command's verdict (an ``analyses.verdict.Verdict``, or the reading of ``restrict``), if it has one.
    dir : pathlib.Path or None
        Where the command wrote its runs, if it wrote any.
    info : dict
        Everything else the command reports (its manifest, the tuned vector, ...).
    """

    frame: pl.DataFrame
    verdict: object = None
    dir: Path | None = None
    info: dict = field(default_factory=dict)

    def to_polars(self):
        """The main table as a polars DataFrame."""
        return self.frame

    def to_pandas(self):
        """The main table as a pandas DataFrame."""
        return self.frame.to_pandas()


def load_run(path):
    """Open a run directory written by ``simulate``."""
    path = Path(path)
    if not (path / output.MANIFEST).exists():
        raise RunError(f"{path} is not a playtest run directory (no {output.MANIFEST})")
    return Run(path, output.read_manifest(path))


def prepare(game, *, players=None, seed=0, games=1, strategies=("random",), variant="standard", setup=None,
            params=None, strategy_files=(), chunk_size=100_000, rotate_seats=False):
    """Validate everything about a run and return ``(spec, strategy_set)``; nothing is played or written.

    The size of the run (games, chunk size, memory, disk) is checked by
    ``simulator.core.batch.check_size``, which needs the output directory.
    """
    if playtest.ENVIRONMENT_PROBLEM:
        raise RunError(playtest.ENVIRONMENT_PROBLEM)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise RunError(f"the seed must be a whole number from 0 to 2**63-1 ({MAX_SEED}), got {seed!r}")
    g = game_registry.get(game)
    players = g.default_players if players is None else players
    override = read_toml(setup) if isinstance(setup, (str, Path)) else setup
    config = g.configure(players, variant, override)
    sset = strategy_set(game)
    for f in strategy_files:
        sset.add_file(f)
    sids, matrix, names = sset.seats(list(strategies), players, params)
    files = [Path(f).resolve() for f in strategy_files]
    spec = RunSpec(g, config, names, sids, matrix, int(seed), games, chunk_size, rotate_seats,
                   [str(f) for f in files], [output.checksum(f.read_bytes()) for f in files])
    return spec, sset


def check(game, *, out=None, **options):
    """Refuse a run exactly as ``simulate`` would before playing (``prepare``, then ``check_size`` for ``out``).

    Commands that play several runs (tournament, ladder, tune, restrict) call
    it for every run first, so bad input is refused before anything is played,
    written or replaced. Returns the run's ``RunSpec``.
    """
    spec, _ = prepare(game, **options)
    check_size(spec, out)
    return spec


def provenance():
    """Package version and git revision (when the package runs from a git checkout)."""
    info = {"version": playtest.__version__}
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True,
                             text=True, timeout=5)
        if rev.returncode == 0:
            info["git_revision"] = rev.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return info


def model_caveats(spec, sset):
    """``{"models": ..., "model_caveats": ...}`` for the manifest: what each seated learned model was trained for
    (``strategies.model_files``) and one sentence per model trained for another table or player count."""
    from strategies import model_files
    from strategies.learned import weights_path

    models = model_files.provenance(spec.strategies, spec.sids, spec.params, sset.learned_sid,
                                    weights_path(spec.game.name))
    if not models:
        return {}
    return {"models": models, "model_caveats": model_files.mismatches(models, spec.game.name, spec.config.players,
                                                                       spec.config.variant, spec.config.setup)}


def simulate(game, *, players=None, games=GAMES, seed=0, strategies=("random",), variant="standard",
             setup=None, params=None, strategy_files=(), out=None, chunk_size=100_000, threads=None,
             force=False, resume=False, rotate_seats=False, until_ci=None, on_progress=None, backend="local",
             scheduler=None, workers=None, on_start=None):
    """Play ``games`` games and return the ``Run``.

    ``strategies`` is one name for every seat or one per seat in seat order;
    ``setup`` a dict or TOML path merged over the game's table; ``params``
    maps a strategy name to its parameter vector; ``out`` a run directory
    (None keeps the rows in memory). With ``until_ci`` the run stops after
    the first chunk at which every seat's 95% win-share interval has a
    half-width below ``until_ci`` (``games`` is then the ceiling); the
    intervals are deal-clustered in a rotated run and count the chunks already
    on disk when resuming.
    ``backend="dask"`` plays the chunks on a Dask cluster: the scheduler at
    ``scheduler`` ("tcp://host:port") or a local cluster of ``workers``
    processes (see docs/cluster.md); the rows are the same as locally.
    ``on_progress(games done, games)`` is called after every chunk and
    ``on_start`` (the same arguments) once the kernels are compiled, just
    before the first chunk.
    ``rotate_seats`` with one strategy in every seat plays each deal once
    (every rotation would be the same game); the manifest then says
    ``rotate_seats: false``.

    Returns a ``Run`` (``.to_polars()``, ``.to_pandas()``, ``.verdict``);
    refuses bad input with a ``RunError``, ``SetupError`` or ``StrategyError``
    before anything is played or written.

    Examples
    --------
    >>> run = api.simulate("forks", players=3, games=20, seed=1, strategies=["pusher", "greedy", "random"])
    >>> run.to_pandas().groupby("seat").size().tolist()
    [20, 20, 20]
    """
    if backend not in ("local", "dask"):
        raise RunError(f"unknown backend {backend!r} (choose local or dask)")
    if backend == "local" and (scheduler is not None or workers is not None):
        raise RunError("--scheduler and --workers need --backend dask")
    if backend == "dask" and until_ci is not None:
        raise RunError("--until-ci needs the local backend (it stops at the first chunk, in order)")
    check_threads(threads)
    spec, sset = prepare(game, players=players, seed=seed, games=games, strategies=strategies, variant=variant,
                         setup=setup, params=params, strategy_files=strategy_files, chunk_size=chunk_size,
                         rotate_seats=rotate_seats)
    if spec.rotate_seats and len(set(spec.strategies)) == 1:  # every rotation would replay the same games
        spec = dataclasses.replace(spec, rotate_seats=False)
    check_size(spec, out)  # before the kernels are compiled
    stop = None
    if until_ci is not None:
        stop = _until_ci_stop(until_ci, out if resume and out is not None else None)
    if backend == "dask":
        from playtest.dask_backend import DaskChunks

        source = DaskChunks(scheduler=scheduler, workers=workers, threads=threads)
    else:
        kernels = sset.kernels_for(spec.sids)
        source = contextlib.nullcontext(LocalChunks(kernels, threads, suspects=[s.name for s in sset.extra]))
    with source as chunks:
        manifest, frame = run_batch(spec, chunks, out, force=force, resume=resume,
                                    manifest_extra={"title": spec.game.title, **provenance(), **model_caveats(spec, sset),
                                                    **({"until_ci": until_ci} if until_ci else {})},
                                    on_progress=on_progress, stop=stop, on_start=on_start)
    return Run(Path(out) if out is not None else None, manifest, frame)


def check_threads(threads):
    """Refuse a thread count that is not None (all cores) or a whole number from 1 to the cores numba may use."""
    cores = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or not 1 <= threads <= cores):
        raise RunError(f"the number of threads must be from 1 to {cores} (the cores numba may use), got {threads!r}")


def verdict(run, margin=1.0, confidence=0.95):
    """The balance ``analyses.verdict.Verdict`` of a ``Run`` or run directory at ``margin`` percentage points
    (``.sentence()``, ``.to_dict()``).

    Examples
    --------
    >>> v = api.verdict(api.simulate("forks", players=2, games=40, seed=3), margin=5.0)
    >>> [e.seat for e in v.edges]
    [0, 1]
    """
    from analyses.verdict import seat_verdict

    run = run if isinstance(run, Run) else load_run(run)
    return seat_verdict(run.scan(), margin, confidence, manifest=run.manifest)


def compare(run_a, run_b, margin=1.0, confidence=0.95):
    """``analyses.compare.Comparison`` of design B against design A (``Run``s or run directories):
    per-seat changes, the change in the largest seat edge and in game feel, paired when both used the same
    seed. Refuses runs of different games, player counts or engine versions (``CompareError``).

    Examples
    --------
    >>> a = api.simulate("forks", players=3, games=60, seed=2)
    >>> b = api.simulate("forks", players=3, games=60, seed=2, variant="merge")
    >>> c = api.compare(a, b, margin=5.0)
    >>> c.paired, c.kind in ("fairer", "worse", "indistinguishable")
    (True, True)
    """
    from analyses.compare import compare as compare_runs

    from analyses.runs import open_run
    from playtest import run_checks

    for r in (run_a, run_b):
        if not isinstance(r, Run):
            open_run(r)  # refuses a directory without a manifest or seat rows
            run_checks.check_runs([r])  # a damaged file, or a chunk with a column dropped or retyped
    a, b = (r if isinstance(r, Run) else load_run(r) for r in (run_a, run_b))
    return compare_runs(a.scan(), b.scan(), a.manifest, b.manifest, margin, confidence)


def _until_ci_stop(target, resumed=None):
    """The ``stop`` callback of ``--until-ci``: running seat moments over every chunk (also the chunks of
    the ``resumed`` run directory), True once every seat's 95% half-width is below ``target``; called with
    None, whether the resumed chunks alone already are."""
    from analyses.moments import seat_moments
    from analyses.planning import max_half_width

    parts = sorted((Path(resumed) / output.SEATS_DIR).glob("part-*.parquet")) if resumed is not None else []
    totals = [seat_moments(pl.scan_parquet(parts)) if parts else None]

    def stop(frame):
        if frame is None:
            return totals[0] is not None and max_half_width(totals[0]) < target
        chunk = seat_moments(frame)
        totals[0] = chunk if totals[0] is None else totals[0] + chunk
        return max_half_width(totals[0]) < target

    return stop


def trace(game, *, seed, game_index, rotation=None, **options):
    """Play game ``game_index`` of the run ``(game, seed, options)`` alone.

    Returns ``(spec, trace, scores, seat_stats, game_stats)``; it is the same
    game as that row of the batch.
    """
    if isinstance(game_index, bool) or not isinstance(game_index, int) or not 0 <= game_index <= MAX_SEED - 1:
        raise RunError(f"the game index must be a whole number from 0 to 2**63-2, got {game_index!r}")
    spec, sset = prepare(game, seed=seed, games=game_index + 1, **options)
    return traced(spec, sset, game_index, rotation)


def traced(spec, sset, game_index, rotation):
    """``trace``'s result for a prepared run; the rotation must be one the run has."""
    players = spec.config.players
    if spec.rotate_seats and not (isinstance(rotation, int) and 0 <= rotation < players):
        raise RunError(f"this run rotates seats: give --rotation from 0 to {players - 1}")
    if not spec.rotate_seats and rotation is not None:
        raise RunError("--rotation needs a run with rotated seats (--rotate-seats)")
    _, trace_game = sset.kernels_for(spec.sids)
    try:
        return (spec, *worker.call(trace_one, spec, trace_game, game_index, rotation))
    except (StrategyFailure, KeyboardInterrupt):
        raise
    except Exception as error:  # raised by a strategy inside the kernel: one line naming it
        blame(spec, trace_game, game_index, 1, [s.name for s in sset.extra], error)


def replay(game, *, seed, game_index, rotation=None, **options):
    """The lines telling game ``game_index`` of a run move by move (checked by the reference engine).

    Examples
    --------
    >>> api.replay("forks", seed=0, game_index=3, players=2)[0]
    'game 3 of seed 0'
    """
    return narrated(trace(game, seed=seed, game_index=game_index, rotation=rotation, **options), game_index)


def narrated(traced_game, game_index):
    spec, tr, scores, _, _ = traced_game
    lines = spec.game.narrate(spec.config, tr, spec.strategies)
    return [f"game {game_index} of seed {spec.seed}"] + lines + [f"scores: {', '.join(map(str, scores.tolist()))}"]


def replay_run(path, *, game_index, rotation=None):
    """``replay`` of game ``game_index`` of the run in directory ``path``, every option read from its manifest.

    Refuses an index that is not in the run (beyond its games, or in a chunk
    that was never written) and a run whose strategy file is gone or has
    changed since (its checksum differs from the manifest's), or a run
    played by another engine version.

    Examples
    --------
    >>> import tempfile
    >>> run = api.simulate("forks", players=2, games=10, seed=4, out=tempfile.mkdtemp() + "/run")
    >>> api.replay_run(run.dir, game_index=5) == api.replay("forks", seed=4, game_index=5, players=2)
    True
    """
    path = Path(path)
    m = load_run(path).manifest
    try:
        files, checksums = list(m["strategy_files"]), list(m.get("strategy_checksums", []))
        games, chunk_size = int(m["games"]), int(m["chunk_size"])
        options = dict(players=m["players"], seed=m["seed"], strategies=m["strategies"], variant=m["variant"],
                       setup=m["setup"], strategy_files=files, rotate_seats=bool(m["rotate_seats"]))
        params = np.array(m["strategy_params"], dtype=np.float64)
        game = m["game"]
    except (KeyError, TypeError, ValueError) as exc:
        raise RunError(f"the manifest of {path} is damaged or from an older playtest ({exc}); "
                       f"replay with the options of the run instead") from None
    engine_version = game_registry.get(game).engine_version
    if m.get("engine_version") != engine_version:
        raise RunError(f"the run {path} was played by {game} engine version {m.get('engine_version')}, this playtest "
                       f"has version {engine_version}, whose games differ: its games cannot be replayed")
    if not isinstance(options["setup"], dict) or isinstance(chunk_size, bool) or chunk_size < 1 or games < 1:
        raise RunError(f"the manifest of {path} is damaged (its setup, games or chunk_size); replay with the "
                       f"options of the run instead")
    if len(checksums) != len(files):
        raise RunError(f"the manifest of {path} records no checksum of its strategy files, so playtest cannot "
                       f"check they are unchanged; replay with the options of the run instead")
    for f, digest in zip(files, checksums):
        if not Path(f).is_file():
            raise RunError(f"the run's strategy file {f} no longer exists")
        if output.checksum(Path(f).read_bytes()) != digest:
            raise RunError(f"the run's strategy file {f} has changed since the run, so its games cannot be "
                           f"replayed; restore the file or play the run again")
    if isinstance(game_index, bool) or not isinstance(game_index, int) or not 0 <= game_index < games:
        raise RunError(f"game {game_index} is not in the run {path}: it has games 0 to {games - 1}")
    spec, sset = prepare(game, games=games, chunk_size=chunk_size, **options)
    chunk = game_index // chunk_size
    if str(chunk) not in m.get("chunk_files", {}):
        first, count = chunk_bounds(spec, chunk)
        raise RunError(f"game {game_index} is not in the run {path}: its chunk (games {first} to "
                       f"{first + count - 1}) was not written")
    if params.ndim != 2 or params.shape[0] != spec.config.players:
        raise RunError(f"the manifest of {path} is damaged: strategy_params is not one vector per seat")
    spec.params = params  # the vectors the run played, whatever their length
    return narrated(traced(spec, sset, game_index, rotation), game_index)


def scenario(path):
    """Play a scenario file; return ``(lines, result)`` from the game's scenario hook.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "s.toml"
    >>> _ = path.write_text('game = "nothing"')
    >>> api.scenario(path)
    Traceback (most recent call last):
    ...
    simulator.games.UnknownGame: unknown game 'nothing' (choose from forks, fool, fauch-fertig, fair-enough)
    """
    table = read_toml(path)
    name = table.get("game")
    if not isinstance(name, str):
        raise SetupError("game", f"the scenario file {path} must name its game, e.g. game = \"fool\"")
    g = game_registry.get(name)
    if g.scenario is None:
        raise SetupError("game", f"{g.title} does not support scenario files yet")
    return g.scenario(table, strategy_set(name))


def _default_players(game, players):
    g = game_registry.get(game)
    return g, g.default_players if players is None else players


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


def ladder(game, *, out, players=None, first=16, levels=4, deals=500, field=None, horizon=None, seed=0, margin=1.0,
           on_run=None):
    """Climb the search player's budget and measure the seat advantage at each level of skill.

    Parameters
    ----------
    game : str
        A registered game.
    out : str or pathlib.Path
        A new (or empty) directory for the ladder's runs.
    players : int, optional
        Seats (default: the game's usual count).
    first, levels : int
        Search iterations per decision at the first level, and the number of levels (the budget doubles).
    deals : int
        Deals per run (each played from every seat).
    field : str, optional
        The built-in heuristic the search plays against (default: the game's strongest).
    horizon : int, optional
        The search player's horizon (0: rollouts to the end; default: the game's).
    seed : int
        Run seed: every level plays the same deals.
    margin : float
        Balance margin, in points of win share.
    on_run : callable, optional
        ``on_run(done, total)`` after each run.

    Returns
    -------
    Result
        ``frame``: one row per level (win shares against the level below and the field, the first and the
        largest seat edge with intervals, the verdict); ``info``: ``manifest``, ``horizon``, ``field``.

    Raises
    ------
    RunError, StrategyError
        ``out`` not empty, an unknown field, or a run ``simulate`` would refuse.

    Examples
    --------
    >>> import tempfile
    >>> r = api.ladder("forks", players=2, first=2, levels=1, deals=10, out=tempfile.mkdtemp() + "/l")
    >>> r.to_polars()["budget"].to_list()
    [2]
    """
    from analyses import ladder as ladders
    from simulator.core.search import P_HORIZON

    _, players = _default_players(game, players)
    sset = strategy_set(game)
    field = field or sset.strongest
    sset.get(field)
    if Path(out).exists() and (not Path(out).is_dir() or any(Path(out).iterdir())):
        raise RunError(f"output directory {out} already exists; choose another")
    check(game, players=players, strategies=[field])  # the player count first: the lineup is built from it
    budgets = ladders.budgets(first, levels)
    top = f"mcts@{budgets[-1]}"
    top_vector = sset.search_vector(top, horizon)
    check(game, players=players, seed=seed, games=deals * players, out=out,
          strategies=[top] + [field] * (players - 1), params={top: top_vector})
    ladders.play(simulate, game, out, players=players, levels=budgets, deals=deals, seed=seed, field=field,
                 vector=lambda name: sset.search_vector(name, horizon), horizon=top_vector[P_HORIZON], on_run=on_run)
    manifest, table = ladders.table(out, margin)
    return Result(table, None, Path(out), {"manifest": manifest, "horizon": top_vector[P_HORIZON], "field": field})


def restrict(game, classes, *, agent="mcts", players=None, deals=1000, horizon=None, seed=0, margin=1.0):
    """How much is an option worth? A player forbidden the action ``classes`` against unrestricted copies.

    Parameters
    ----------
    game : str
        A registered game.
    classes : list of str
        Action classes the restricted player may never take (``strategies(game)`` lists them).
    agent : str
        The player, restricted in one seat and unrestricted in the others (``mcts`` or ``mcts@N``).
    players : int, optional
        Seats (default: the game's usual count).
    deals : int
        Deals, each played from every seat.
    horizon : int, optional
        The search player's horizon (default: the game's).
    seed : int
        Run seed.
    margin : float
        Points of win share below which an option counts as worth nothing measurable.

    Returns
    -------
    Result
        ``frame``: one row (the restricted player's win share and the option's cost in points, with 95%
        intervals); ``verdict``: the reading, one sentence; ``info``: the same figures, ``lineup`` and ``horizon``.

    Raises
    ------
    RunError, StrategyError
        An unknown class or agent, or a run ``simulate`` would refuse.

    Examples
    --------
    >>> r = api.restrict("forks", ["market-held"], agent="mcts@2", players=2, deals=10)
    >>> r.to_polars()["deals"].to_list()
    [10]
    """
    from analyses import restrict as restricted
    from simulator.core.search import P_HORIZON

    _, players = _default_players(game, players)
    sset = strategy_set(game)
    agent_vector = sset.search_vector(agent, horizon)
    check(game, players=players, seed=seed, games=deals, strategies=[agent], params={agent: agent_vector})
    lineup = restricted.lineup(agent, classes, players)
    params = {n: sset.search_vector(n, horizon) for n in set(lineup)}
    run = simulate(game, players=players, games=deals, seed=seed, strategies=lineup, rotate_seats=True,
                   params=params)
    r = restricted.cost(run.seats(), lineup[0], players, margin)
    return Result(pl.DataFrame([{k: v for k, v in r.items() if k != "reading"}]), r["reading"], None,
                  {**r, "lineup": lineup, "horizon": agent_vector[P_HORIZON]})


def tune(game, strategy, *, field, out=None, players=None, budget=60, deals=500, confirm_deals=5_000, sigma=1.0,
         seed=0, on_evaluation=None):
    """Tune ``strategy``'s parameter vector against ``field`` with seats rotated, then confirm it on fresh deals.

    Parameters
    ----------
    game : str
        A registered game.
    strategy : str
        A strategy with parameters.
    field : str
        The strategy in every other seat.
    out : str or pathlib.Path, optional
        A new TOML file for the tuned vector (use it with ``params={strategy: ...}`` or ``--param S=@FILE``).
    players : int, optional
        Seats (default: the game's usual count).
    budget : int
        Evaluations the optimiser may make.
    deals, confirm_deals : int
        Deals per evaluation; fresh deals on which the tuned and the default vector are compared at the end.
    sigma : float
        The optimiser's first step, in parameter units.
    seed : int
        Confirmation seed; evaluation i uses seed + 1 + i.
    on_evaluation : callable, optional
        ``on_evaluation(done, total, win_share)`` after each evaluation.

    Returns
    -------
    Result
        ``frame``: the default and the tuned vector's win shares and the paired gain with 95% intervals;
        ``verdict``: "better", "worse" or "no difference"; ``info["tune"]``: the ``analyses.tune.TuneResult``.

    Raises
    ------
    RunError
        A strategy without parameters, the field equal to it, ``out`` existing, or a run ``simulate`` refuses.

    Examples
    --------
    >>> r = api.tune("forks", "hedger", field="greedy", players=2, budget=2, deals=10, confirm_deals=10)
    >>> r.to_polars()["vector"].to_list()
    ['default', 'tuned', 'gain']
    """
    import tomli_w

    from analyses.tune import tune as run_tune

    _, players = _default_players(game, players)
    sset = strategy_set(game)
    _, s = sset.get(strategy)
    sset.get(field)
    if not s.params:
        raise RunError(f"strategy {strategy!r} has no parameters to tune")
    if field == strategy:
        raise RunError(f"the field must be another strategy than the one tuned ({strategy!r})")
    if out is not None and Path(out).exists():
        raise RunError(f"{out} already exists; choose another file for the tuned vector")
    if out is not None and not Path(out).absolute().parent.is_dir():
        raise RunError(f"cannot write {out}: the folder {Path(out).absolute().parent} does not exist")
    check(game, players=players, strategies=[field])  # the player count first: the lineup is built from it
    check(game, players=players, games=max(deals, confirm_deals), seed=seed,
          strategies=[strategy] + [field] * (players - 1), rotate_seats=True)
    r = run_tune(simulate, game, strategy, list(s.params), field=field, players=players, budget=budget,
                 deals=deals, confirm_deals=confirm_deals, seed=seed, sigma=sigma, on_evaluation=on_evaluation)
    if out is not None:
        Path(out).write_text(f"# playtest tune {game} {strategy} --field {field} --players {players} --seed {seed}\n"
                             + tomli_w.dumps({"game": game, "strategy": strategy, "params": r.tuned,
                                              "field": field, "players": players,
                                              "confirmed_gain_points": round(100 * r.gain.mean, 3),
                                              "confirmed_gain_interval_points": [round(100 * r.gain.lo, 3),
                                                                                 round(100 * r.gain.hi, 3)]}))
    frame = pl.DataFrame([{"vector": name, "share": x.mean, "lo": x.lo, "hi": x.hi}
                          for name, x in (("default", r.before), ("tuned", r.after), ("gain", r.gain))])
    kind = "better" if r.gain.lo > 0 else "worse" if r.gain.hi < 0 else "no difference"
    return Result(frame, kind, None, {"tune": r})


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


def train(game, *, seed=0, rounds=3, games=200, budget=None, design="linear", hidden=16, deals=200, players=None,
          variant="standard", setup=None, threads=None, out=None, command=None, on_round=None):
    """Train the learned model of ``game`` by expert iteration (``playtest train``; ``playtest.train``).

    Parameters
    ----------
    game : str
        A registered game.
    seed, rounds, games, budget : int
        The seed; the rounds of expert iteration, each recording ``games``
        games of the expert at ``budget`` iterations per decision (None:
        ``playtest.train.expert_budget``, 4 times the game's ``expert``).
    design, hidden
        The model: ``linear``, or a network (``tanh``, ``relu``) of ``hidden`` units.
    deals, threads : int
        Each round's model is validated on ``deals`` deals against the
        strongest heuristic, on ``threads`` threads (None: every core; the
        same model on any count), and kept when it beats the kept one there.
    players, variant, setup
        The table trained for: the player count (None: the game's usual
        count), the rules variant and a setup table (a dict, or a TOML file)
        merged over the game's.
    out : str or pathlib.Path, optional
        A ``.npy`` file in an existing folder to write the kept model to,
        with its provenance (game, players, variant, setup digest,
        ``command``) in a JSON sidecar beside it (``strategies.model_files``).
    command : str, optional
        The command line recorded in the sidecar (default: this call).
    on_round : callable, optional
        Called with each ``playtest.train.Round`` as it finishes.

    Returns
    -------
    Result
        ``frame``: one row per round (``round``, ``rows`` recorded, the
        validation ``share`` of the learned player with its 95% interval
        ``low``-``high``, the paired ``gain_points`` over the generation
        kept before with ``gain_low``-``gain_high``, ``kept``, ``seconds``);
        ``info["model"]`` the kept model (pass it as ``params={"learned":
        model}``), ``info["best"]`` its round and ``info["provenance"]``.
        No verdict.

    Raises
    ------
    RunError
        A player count outside the game's range, or an ``out`` that is not a
        ``.npy`` file in an existing folder.

    Examples
    --------
    >>> r = api.train("nim", rounds=1, games=20, budget=8, deals=20)
    >>> r.to_polars()["round"].to_list(), r.info["model"].shape   # a linear model of Nim's 2 features
    ([0], (6,))
    """
    from playtest.train import provenance, train as run_train
    from strategies import model_files

    check_threads(threads)
    threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
    if out is not None:
        out = Path(out)
        if out.suffix != ".npy":
            raise RunError(f"--out {out} must be a .npy file")
        if not out.absolute().parent.is_dir():
            raise RunError(f"the folder of {out} does not exist")
    g = game_registry.get(game)
    players = g.default_players if players is None else players
    if not g.min_players <= players <= g.max_players:
        raise RunError(f"{g.title} takes {g.min_players} to {g.max_players} players, got {players}")
    override = read_toml(setup) if isinstance(setup, (str, Path)) else setup
    config = g.configure(players, variant, override)   # a bad table or variant stops here, before any game
    result = run_train(game, simulate=simulate, seed=seed, rounds=rounds, games=games, budget=budget, design=design,
                       hidden=hidden, deals=deals, players=players, variant=variant, setup=override,
                       threads=threads, on_round=on_round)
    command = command or (f"api.train({game!r}, seed={seed}, rounds={rounds}, games={games}, budget={budget}, "
                          f"design={design!r}, hidden={hidden}, deals={deals}, players={players}, "
                          f"variant={variant!r}, setup={setup!r})")
    info = provenance(game, players, variant, config.setup, command)
    if out is not None:
        model_files.save(out, result.model, info)
    frame = pl.DataFrame([{"round": r.round, "rows": r.rows, "share": r.share, "low": r.lo, "high": r.hi,
                           "gain_points": r.gain[0] if r.gain else None, "gain_low": r.gain[1] if r.gain else None,
                           "gain_high": r.gain[2] if r.gain else None, "kept": r.kept, "seconds": r.seconds}
                          for r in result.rounds],
                         schema_overrides={"gain_points": pl.Float64, "gain_low": pl.Float64, "gain_high": pl.Float64})
    return Result(frame, info={"model": result.model, "best": result.best, "training": result, "provenance": info})


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


def games():
    """The registered games (``playtest games``), in the order they were added: one row each (name, title,
    min_players, max_players, variants).

    Examples
    --------
    >>> api.games().row(0, named=True)
    {'name': 'forks', 'title': 'Forks: 2nd Edition', 'min_players': 2, 'max_players': 6, 'variants': ['standard', 'merge']}
    """
    rows = []
    for name in game_registry.names():
        g = game_registry.get(name)
        rows.append({"name": name, "title": g.title, "min_players": g.min_players, "max_players": g.max_players,
                     "variants": list(g.variants)})
    return pl.DataFrame(rows)


def strategies(game, strategy_files=()):
    """The strategies of ``game`` (with those of ``strategy_files``): one row each (id, name, summary, params).

    Examples
    --------
    >>> api.strategies("forks").filter(pl.col("name") == "hedger")["params"].to_list()
    [[0.5]]
    """
    sset = strategy_set(game)
    for f in strategy_files:
        sset.add_file(f)
    return pl.DataFrame([{"id": sid, "name": s.name, "summary": s.summary, "params": [float(x) for x in s.params]}
                         for sid, s in sset.listed()], schema_overrides={"params": pl.List(pl.Float64)})


def setup(game):
    """The text of ``game``'s default setup table (``playtest setup``; TOML: copy it, edit it, pass it as
    ``setup``).

    Examples
    --------
    >>> "[players" in api.setup("forks")
    True
    """
    return game_registry.get(game).setup_path.read_text()


def table_counts(game, setup=None):
    """The player counts the game's setup table (merged with ``setup``, a dict) has a row for, within the
    game's range, in order."""
    from simulator.core.setup import merge

    g = game_registry.get(game)
    table = merge(g.default_setup(), setup or {}, g.open_tables)
    counts = sorted(int(k) for k in table.get("players", {}) if str(k).isdigit())
    return [n for n in counts if g.min_players <= n <= g.max_players]


def survey(game, *, out, counts=None, games=None, seed=0, strategies=("random",), rotate_seats=False,
           variant="standard", setup=None, params=None, strategy_files=(), threads=None, margin=1.0, resume=False,
           on_count=None, backend="local", scheduler=None, workers=None):
    """Play the same lineup at every player count of the setup table (or ``counts``) into the directory ``out``
    (``analyses.survey``). ``strategies``: one for every seat, or several rotated (``rotate_seats``), repeated
    to fill the seats. ``backend``, ``scheduler`` and ``workers`` are ``simulate``'s (Dask).

    Returns
    -------
    Result
        ``frame``: the summary, one row per count (verdict, edges and game feel with their intervals);
        ``info["recommendation"]``: the sentence that follows from the intervals (also in ``survey.json``);
        ``dir``: ``out``.

    Examples
    --------
    >>> import tempfile
    >>> survey = api.survey("forks", out=tempfile.mkdtemp() + "/survey", counts=[2, 3], games=40)
    >>> survey.frame["players"].to_list(), survey.frame["run"].to_list()
    ([2, 3], ['runs/p2', 'runs/p3'])
    >>> isinstance(survey.info["recommendation"], str)
    True
    """
    from analyses import survey as surveys

    override = read_toml(setup) if isinstance(setup, (str, Path)) else setup
    counts = list(counts) if counts is not None else table_counts(game, override)

    def play(game_name, *, players, **options):
        names = list(strategies) if len(strategies) == 1 else [strategies[s % len(strategies)] for s in range(players)]
        return simulate(game_name, players=players, threads=threads, backend=backend, scheduler=scheduler,
                        workers=workers, **{**options, "strategies": names})

    summary = surveys.survey(play, game, counts, out, games=games or surveys.DEFAULT_GAMES, margin=margin,
                             resume=resume, on_count=on_count, seed=seed, rotate_seats=rotate_seats, variant=variant,
                             setup=override, params=params, strategy_files=list(strategy_files))
    return Result(summary, dir=Path(out), info={"recommendation": surveys.recommendation(summary.to_dicts(), margin)})


def knob_row(game, players, knob, variant="standard", setup=None):
    """``(override, start)``: the ``setup`` override (a dict) and the current values of the per-seat ``knob`` of
    the ``[players.N]`` row; a knob that is not a per-seat list of numbers there is a ``RunError``."""
    g = game_registry.get(game)
    override = read_toml(setup) if isinstance(setup, (str, Path)) else dict(setup or {})
    config = g.configure(players, variant, override)  # refuses a player count the table lacks, a bad seat_bonus
    row = config.setup["players"][str(players)]
    value = row.get(knob)
    per_seat = sorted(k for k, v in row.items() if isinstance(v, list) and len(v) == players
                      and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v))
    if not (isinstance(value, list) and knob in per_seat):
        raise RunError(f"--knob {knob}: not a per-seat key of the [players.{players}] row of {g.title} "
                       f"(its per-seat keys: {', '.join(per_seat) or 'none'})")
    return override, [float(v) for v in value]


def with_knob(override, players, knob, values):
    """``override`` with ``[players.N] knob = values`` (whole numbers for any knob but ``seat_bonus``)."""
    import copy

    table = copy.deepcopy(override)
    row = table.setdefault("players", {}).setdefault(str(players), {})
    row[knob] = [float(v) for v in values] if knob == "seat_bonus" else [int(round(v)) for v in values]
    return table


def compensate(game, *, players, knob="seat_bonus", games=None, max_games=None, seed=0, strategies=("random",),
               rotate_seats=False, variant="standard", setup=None, params=None, strategy_files=(), threads=None,
               margin=1.0, low=None, high=None, step=None, on_evaluation=None):
    """The per-seat ``knob`` values that bring every seat's edge inside ``margin``, confirmed or refused on a
    fresh seed (``analyses.compensate``). Each evaluation plays ``games`` games (deals, rotated) on ``seed``
    (None: planned from the margin and the seat count, ``analyses.compensate.planned_games``); an
    inconclusive confirmation plays more, up to ``max_games``. ``on_evaluation(stage, values, games)`` is
    called before each evaluation.

    Returns
    -------
    Result
        ``frame``: one row per seat (``seat``, ``value``, ``low``, ``high``: the knob's value and its interval
        on the confirmation deals, None for seat 0, which is held); ``verdict``: the confirmation's seat
        verdict; ``info["compensation"]``: the ``analyses.compensate.Compensation`` (``confirmed``,
        ``sentence()``, ``snippet()``); ``info["setup"]``: the setup table with the values (write it only
        when ``confirmed``).

    Examples
    --------
    >>> found = api.compensate("forks", players=2, games=200, seed=1)
    >>> found.frame["seat"].to_list(), found.frame["value"][0]   # seat 0 is held at its value
    ([0, 1], 0.0)
    >>> found.info["setup"]["players"]["2"]["seat_bonus"] == found.frame["value"].to_list()
    True
    """
    from analyses.compensate import compensate as solve

    override, start = knob_row(game, players, knob, variant, setup)
    check(game, players=players, seed=seed, games=games or 1, strategies=strategies, variant=variant,
          setup=override, params=params, strategy_files=strategy_files, rotate_seats=rotate_seats)
    labels = {}

    def evaluate(values, run_seed, count):
        from analyses.moments import seat_moments
        from analyses.verdict import lineup, player_model

        run = simulate(game, players=players, games=count, seed=run_seed, strategies=strategies, variant=variant,
                       setup=with_knob(override, players, knob, values), params=params,
                       strategy_files=strategy_files, rotate_seats=rotate_seats, threads=threads)
        if not labels:
            names, subject = lineup(run.scan())
            labels.update(strategies=names, subject=subject, model=player_model(run.scan()))
        return seat_moments(run.scan())

    found = solve(evaluate, players, knob=knob, start=start, low=low, high=high, step=step, seed=seed,
                  margin=margin, games=games, max_games=max_games, progress=on_evaluation, labels=labels)
    frame = pl.DataFrame({"seat": list(range(players)), "value": [float(v) for v in found.values],
                          "low": found.low, "high": found.high},
                         schema={"seat": pl.Int64, "value": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    return Result(frame, verdict=found.verdict,
                  info={"compensation": found, "setup": with_knob(override, players, knob, found.values)})


def card_plan(game, *, players, games=4000, seed=0, strategies=("random",), rotate_seats=False, variant="standard",
              setup=None, params=None, strategy_files=(), names=None):
    """What ``cards`` will play, checked before anything is played or written: ``(chosen, holding, options)``,
    the removals ``{card: (meaning, setup override)}``, the "who holds it" rows (``analyses.cards.Holding``) and
    the run options. A name the table does not have is a ``CardError``; a bad run a ``RunError`` or
    ``SetupError``."""
    from analyses import cards as card_effects
    from playtest import card_tables

    override = read_toml(setup) if isinstance(setup, (str, Path)) else dict(setup or {})
    table = game_registry.get(game).configure(players, variant, override).setup
    known = card_tables.candidates(game, table, players)
    holding = card_tables.holdings(game, table, players)
    held_names = {card_effects.card_of(h.card) for h in holding}
    for name in names or ():
        if name not in known and name not in held_names:
            raise card_effects.CardError(f"no card {name!r} in the {game} table at {players} players (its cards: "
                                         f"{', '.join(dict.fromkeys([*known, *held_names]))})")
    chosen = {k: v for k, v in known.items() if not names or k in names}
    holding = [h for h in holding if not names or card_effects.card_of(h.card) in names]
    options = dict(players=players, games=games, seed=seed, strategies=list(strategies), rotate_seats=rotate_seats,
                   variant=variant, params=params, strategy_files=[str(f) for f in strategy_files], setup=override)
    check(game, **options)
    return chosen, holding, options


def cards(game, *, players, out=None, games=4000, seed=0, strategies=("random",), rotate_seats=False,
          variant="standard", setup=None, params=None, strategy_files=(), threads=None, names=None, resume=False,
          on_table=None, backend="local", scheduler=None, workers=None, measure="win share"):
    """Which card matters (``analyses.cards``): the default table and each table without a card (or the
    ``names`` given; see ``card_plan``) are played on the same seed and deals into the directory ``out`` (None:
    a scratch directory, deleted after; ``resume`` continues an interrupted one); the "who holds it" rows come
    from the default table's games.

    ``on_table(card, index, count)`` is called before each table; ``backend``, ``scheduler`` and ``workers``
    are ``simulate``'s (Dask).

    Returns
    -------
    Result
        ``frame``: one row per card and measure, clearest card first (``card``, ``measure``, ``effect``,
        ``low``, ``high``, ``kind``: causal or observational); ``info``: ``effects`` (``{card:
        [CardEffect]}``), ``meanings`` (``{card: what the row means}``), ``unplayable`` (``{card: why that
        table cannot be played}``) and ``ranking`` (the cards ranked by the size of their effect on ``measure``,
        ``analyses.cards.ranking``: ``[CardEffect]``); ``dir``: ``out`` (None: nothing kept).

    Examples
    --------
    >>> found = api.cards("fair-enough", players=4, games=100, names=["queue"])
    >>> found.info["meanings"]["queue"], found.info["unplayable"]
    ('one queue card fewer (4 -> 3)', {})
    >>> found.frame.filter(pl.col("card") == "queue")["measure"].to_list()[:2]
    ['first seat edge', 'largest seat edge']
    """
    import tempfile

    from analyses import cards as card_effects
    from analyses.compare import CompareError

    card_effects.check_measure(measure)
    chosen, holding, options = card_plan(game, players=players, games=games, seed=seed, strategies=strategies,
                                         rotate_seats=rotate_seats, variant=variant, setup=setup, params=params,
                                         strategy_files=strategy_files, names=names)
    with tempfile.TemporaryDirectory(prefix="playtest-cards-") as scratch:
        base, runs, unplayable = card_effects.play(simulate, game, out or scratch, chosen, options, resume=resume,
                                                   unplayable=(SetupError,), on_table=on_table, threads=threads,
                                                   backend=backend, scheduler=scheduler, workers=workers)
        family = max(1, len(runs) * len(card_effects.MEASURES))
        seats = base.seats()
        effects = {}
        for card, run in runs.items():
            try:
                effects[card] = card_effects.effects((seats, base.manifest), (run.seats(), run.manifest), card,
                                                     family)
            except CompareError as exc:  # e.g. no game without the card ends by the rules (all stopped by the cap)
                unplayable[card] = str(exc)
        held = card_effects.held_effects(seats, holding)
    meanings = {k: v[0] for k, v in chosen.items()}
    kinds = {h.card: h.meaning for h in holding}
    for row in held:
        effects[row.card] = [row]
        meanings[row.card] = kinds[row.card]
    return Result(card_effects.frame(effects), dir=None if out is None else Path(out),
                  info={"effects": effects, "meanings": meanings, "unplayable": unplayable,
                        "ranking": card_effects.ranking(effects, measure)})


def search_gain(games, *, deals=100, seed=0, threads=None, budget=None, param=None, baseline=None,
                baseline_param=None, on_line=None):
    """The paired win-share gain of ``mcts`` over a baseline search on the same deals (``playtest search-gain``;
    ``playtest.search_gain``).

    In each game, two arms of ``simulate --rotate-seats`` on the same seed
    and deals, each in a fresh process: ``mcts`` in one seat and the game's
    strongest heuristic in the others; the baseline arm runs the code of a
    git commit (exported once for all the games) or, with ``baseline="here"``,
    this tree with ``baseline_param``.

    Parameters
    ----------
    games : list of str
        Registered games, measured in turn.
    deals, seed : int
        Deals per arm (at least 2) and their seed.
    threads : int, optional
        Threads of each arm's run (None: all cores).
    budget : int, optional
        Iterations of both arms (``mcts@budget``; None: the game's default).
    param, baseline_param : str, optional
        The new and the baseline arm's ``mcts`` parameter vectors, comma-separated (None: the defaults).
    baseline : str, optional
        A git commit of this checkout (None: ``playtest.search_gain.SEARCH_BASELINE``, the search before move
        keys), or ``"here"`` for this tree.
    on_line : callable, optional
        Called with one line of text per arm played and per gain measured.

    Returns
    -------
    Result
        ``frame``: one row per game (``game``, paired ``deals``, ``gain`` of the new arm in win share with its
        95% interval ``low``-``high`` (deal as the unit), each arm's ``baseline_share``/``new_share`` and
        ``baseline_seconds``/``new_seconds``, compiling included, and ``verdict``); ``verdict``: ``{game:
        "better", "worse" or "no difference"}``; ``info["baseline"]``: the commit or "here".

    Raises
    ------
    RunError
        An unknown game, fewer than 2 deals, no thread, a commit that cannot be exported (no git history), or
        an arm whose run fails (its error).

    Examples
    --------
    The same search against itself, both arms from this tree (no commit to export, nothing compiled but
    what the rest of the suite compiles), two deals of Forks at two iterations a move: the arms play the
    same games, so the gain is exactly nothing. Each arm starts a process of its own (a few seconds each;
    ``baseline_param="2,0.5"`` would make the baseline arm explore less):

    >>> r = api.search_gain(["forks"], deals=2, budget=2, baseline="here")
    >>> r.to_polars().select("game", "deals", "gain", "low", "high").rows(), r.verdict
    ([('forks', 2, 0.0, 0.0, 0.0)], {'forks': 'no difference'})
    """
    from playtest.bench_baseline import export_commit
    from playtest.search_gain import SEARCH_BASELINE, measure

    games = [games] if isinstance(games, str) else list(games)
    if not games:
        raise RunError("search_gain needs at least one game")
    for game in games:
        game_registry.get(game)   # an unknown game: its error line, before anything runs
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 2:
        raise RunError(f"deals must be a whole number of at least 2 (a paired interval), got {deals!r}")
    check_threads(threads)
    threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
    baseline = SEARCH_BASELINE if baseline is None else baseline
    exported = None
    if baseline != "here":
        exported, reason = export_commit(baseline)
        if exported is None:
            raise RunError(f"no baseline: {reason}")
    rows = []
    try:
        for game in games:
            rows.append(measure(game, deals=deals, seed=seed, threads=threads, budget=budget, param=param,
                                baseline_path=exported and exported.name, baseline_param=baseline_param,
                                echo=on_line))
    except (RuntimeError, ValueError) as error:
        raise RunError(str(error)) from None
    finally:
        if exported is not None:
            exported.cleanup()
    for row in rows:
        row["verdict"] = "better" if row["low"] > 0 else "worse" if row["high"] < 0 else "no difference"
    return Result(pl.DataFrame(rows), {row["game"]: row["verdict"] for row in rows}, info={"baseline": baseline})


def bench(*, names=None, games=None, parts=None, out=None, on_line=None):
    """Measure games/s of the engines, numba against the reference engines, start-up, output and search
    (``playtest bench``, ``make bench``; ``playtest.bench``).

    Parameters
    ----------
    names : list of str, optional
        The games to measure (None: every registered game).
    games : int, optional
        Games per kernel measurement (None: each game's ``bench_games``); the end-to-end runs play ten
        times as many (None: 10M for Forks, 2M otherwise).
    parts : list of str, optional
        What to measure besides the kernel's games/s on 1 thread and on all (always measured): any of
        ``playtest.bench.PARTS`` (None: all of them): ``reference`` (the pure-Python engine, one core),
        ``start`` (cold and warm start of ``playtest simulate`` in a new process, cold with an empty numba
        cache: it compiles everything), ``first-answer`` (issue 42's commands, each cold in an empty cache,
        then warm, with its play time alone; ``playtest.bench.first_answer_commands``), ``end-to-end`` (play and
        write), ``encodings`` (chunk files),
        ``search`` (the search player's iterations/s and the all-``mcts`` and all-``learned`` tables) and
        ``state-api`` (the kernels before the state API, exported from git and compiled in a process of its
        own).
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
    from playtest import bench as benchmarks

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
    found = benchmarks.run_benchmarks(prepare, simulate, names=names, games=games, parts=parts, out=out,
                                      echo=on_line or (lambda line: None))
    return Result(found.frame(), info={**found.tables(), "markdown": found.markdown, "out": out})


def skill(game, out, *, models=None, mcts=None, players=None, precision=2.0, max_games=20_000, deals=500,
          seed=0, margin=1.0, chunk_size=500, params=None, threads=None, resume=False, on_stage=None,
          on_progress=None):
    """The skilled answer (``playtest skill``; ``analyses.by_model``): each player model's first-seat edge and
    seat verdict with it in every seat, its strength on the ladder, and the answer of the strongest.

    ``models`` lists strategy names, read as the ladder weakest first (None:
    ``analyses.by_model.default_models``); ``mcts`` adds ``mcts@<mcts>``
    at the end; ``params`` maps a model's name to its parameter vector. Each
    model plays in ``out`` until every seat's 95% interval is within
    ``±precision`` points or ``max_games`` games; each plays its neighbour
    below on ``deals`` deals, seats rotated (strength); the strongest then
    plays on until its verdict at ``margin`` is conclusive or ``max_games``.
    Everything is checked before anything is played: the models (at least one,
    no repeats, each known and playable), the sizes, and ``out`` (new or
    empty; with ``resume`` a study of the same game, players, seed,
    precision, cap, deals, margin and chunk size whose models begin the list:
    its finished runs are kept, an interrupted one continues, models added at
    the end are played). ``on_stage`` and ``on_progress`` are
    ``analyses.by_model.play``'s.

    Returns a ``Result`` whose ``frame`` is the table by model
    (``analyses.by_model.table``: strength, first-seat edge with its interval
    in the seat verdict, verdict, games), ``verdict`` the answer's sentence,
    ``info["answer"]`` the answer (``analyses.by_model.answer``) and ``dir``
    the study's folder.

    Examples
    --------
    >>> import tempfile
    >>> r = api.skill("forks", tempfile.mkdtemp() + "/models", models=["random", "greedy"], precision=20,
    ...               max_games=200, deals=40)
    >>> r.to_polars()["model"].to_list(), r.info["answer"]["model"]
    (['random', 'greedy'], 'greedy')
    """
    from analyses import by_model as study_of
    from analyses import strength

    g = game_registry.get(game)
    players = g.default_players if players is None else players
    sset = strategy_set(game)
    models = study_of.default_models(sset, mcts) if models is None else list(models)
    if mcts is not None and f"mcts@{mcts}" not in models:
        models.append(f"mcts@{mcts}")
    if not models:
        raise RunError("give at least one player model (for example --models random,greedy)")
    repeated = sorted({m for m in models if models.count(m) > 1})
    if repeated:
        raise RunError(f"each player model may appear once; repeated: {', '.join(repeated)}")
    if not (isinstance(precision, (int, float)) and 0 < precision < 100):
        raise RunError(f"the precision must be more than 0 and less than 100 points, got {precision!r}")
    params = dict(params or {})
    strangers = sorted(set(params) - set(models))
    if strangers:
        raise RunError(f"parameters for {', '.join(strangers)}: not among the models ({', '.join(models)})")
    check_threads(threads)
    study = study_of.settings(game, players, models, seed, precision, max_games, chunk_size, params, deals, margin)
    out = Path(out)
    if resume:
        _check_resumable(out, study, study_of)
    elif out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise RunError(f"output directory {out} already exists; choose another (or --resume a study there)")
    for index, model in enumerate(models):
        check(game, players=players, seed=seed, games=max_games, strategies=[model], chunk_size=chunk_size,
              params={model: params[model]} if model in params else None, out=out / study_of.run_name(index, model))
    for index in range(len(models) - 1):
        lineup = strength.match_lineup(models[index], models[index + 1], players)
        check(game, players=players, seed=seed, games=deals, strategies=lineup, chunk_size=chunk_size,
              rotate_seats=True, params={m: params[m] for m in set(lineup) if m in params} or None,
              out=out / study_of.match_name(index))
    study_of.play(simulate, out, study, resume=resume, on_stage=on_stage, on_progress=on_progress, threads=threads)
    edges = study_of.table(out, margin)[1]
    found = study_of.answer(out, edges, margin)
    return Result(edges, found["sentence"], dir=out, info={"answer": found})


def _deprecated(old, new):
    """``new`` under its former name ``old``, for one release: each call warns (``DeprecationWarning``)."""
    def alias(*args, **kwargs):
        warnings.warn(f"playtest.api.{old} is deprecated and will be removed; use playtest.api.{new.__name__}",
                      DeprecationWarning, stacklevel=2)
        return new(*args, **kwargs)
    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated: the former name of ``{new.__name__}`` (same arguments); it warns when called."
    return alias


by_model = _deprecated("by_model", skill)
setup_table = _deprecated("setup_table", setup)


def _check_resumable(out, study, study_of):
    """Refuse ``--resume`` unless ``out`` holds a study with ``study``'s settings whose models begin its list."""
    if not study_of.is_by_model(out):
        raise RunError(f"cannot resume: {out} holds no study by player model (no {study_of.MANIFEST})")
    try:
        old = study_of.read_manifest(out)
        differs = [k for k in study if k != "models" and old.get(k) != study[k]]
        models = list(old["models"])
    except (ValueError, KeyError, TypeError) as exc:
        raise RunError(f"cannot resume {out}: its {study_of.MANIFEST} is damaged ({exc})") from None
    if differs:
        raise RunError(f"cannot resume {out}: the study there differs in {', '.join(differs)}")
    if study["models"][:len(models)] != models:
        raise RunError(f"cannot resume {out}: its models are {', '.join(models)}; give them first, in that "
                       f"order, and add new ones after them")
