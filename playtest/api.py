"""The Python API: everything the command line does, callable from notebooks and scripts.

>>> from playtest import api
>>> run = api.simulate("forks", players=4, games=10_000, seed=7, strategies=["greedy", "random"])
>>> run.seats()            # polars DataFrame, one row per (game, seat)
"""

import contextlib
import subprocess
from dataclasses import dataclass
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


def simulate(game, *, players=None, games=10_000, seed=0, strategies=("random",), variant="standard",
             setup=None, params=None, strategy_files=(), out=None, chunk_size=100_000, threads=None,
             force=False, resume=False, rotate_seats=False, until_ci=None, on_progress=None, backend="local",
             scheduler=None, workers=None):
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
    """
    if backend not in ("local", "dask"):
        raise RunError(f"unknown backend {backend!r} (choose local or dask)")
    if backend == "local" and (scheduler is not None or workers is not None):
        raise RunError("--scheduler and --workers need --backend dask")
    if backend == "dask" and until_ci is not None:
        raise RunError("--until-ci needs the local backend (it stops at the first chunk, in order)")
    cores = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or not 1 <= threads <= cores):
        raise RunError(f"the number of threads must be from 1 to {cores} (the cores numba may use), got {threads!r}")
    spec, sset = prepare(game, players=players, seed=seed, games=games, strategies=strategies, variant=variant,
                         setup=setup, params=params, strategy_files=strategy_files, chunk_size=chunk_size,
                         rotate_seats=rotate_seats)
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
                                    manifest_extra={"title": spec.game.title, **provenance(),
                                                    **({"until_ci": until_ci} if until_ci else {})},
                                    on_progress=on_progress, stop=stop)
    return Run(Path(out) if out is not None else None, manifest, frame)


def verdict(run, margin=1.0, confidence=0.95):
    """The balance ``analyses.verdict.Verdict`` of a ``Run`` or run directory at ``margin`` percentage points
    (``.sentence()``, ``.to_dict()``)."""
    from analyses.verdict import seat_verdict

    run = run if isinstance(run, Run) else load_run(run)
    return seat_verdict(run.scan(), margin, confidence, manifest=run.manifest)


def compare(run_a, run_b, margin=1.0, confidence=0.95):
    """``analyses.compare.Comparison`` of design B against design A (``Run``s or run directories):
    per-seat changes, the change in the largest seat edge and in game feel, paired when both used the same
    seed."""
    from analyses.compare import compare as compare_runs

    from analyses.runs import check_files, open_run

    for r in (run_a, run_b):
        if not isinstance(r, Run):
            open_run(r)  # refuses a directory without a manifest or seat rows
            check_files(r)
    a, b = (r if isinstance(r, Run) else load_run(r) for r in (run_a, run_b))
    return compare_runs(a.scan(), b.scan(), a.manifest, b.manifest, margin, confidence)


def _until_ci_stop(target, resumed=None):
    """The ``stop`` callback of ``--until-ci``: running seat moments over every chunk (also the chunks of
    the ``resumed`` run directory), True once every seat's 95% half-width is below ``target``."""
    from analyses.moments import seat_moments
    from analyses.planning import max_half_width

    parts = sorted((Path(resumed) / output.SEATS_DIR).glob("part-*.parquet")) if resumed is not None else []
    totals = [seat_moments(pl.scan_parquet(parts)) if parts else None]

    def stop(frame):
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
    """The lines telling game ``game_index`` of a run move by move (checked by the reference engine)."""
    return narrated(trace(game, seed=seed, game_index=game_index, rotation=rotation, **options), game_index)


def narrated(traced_game, game_index):
    spec, tr, scores, _, _ = traced_game
    lines = spec.game.narrate(spec.config, tr, spec.strategies)
    return [f"game {game_index} of seed {spec.seed}"] + lines + [f"scores: {', '.join(map(str, scores.tolist()))}"]


def replay_run(path, *, game_index, rotation=None):
    """``replay`` of game ``game_index`` of the run in directory ``path``, every option read from its manifest.

    Refuses an index that is not in the run (beyond its games, or in a chunk
    that was never written) and a run whose strategy file is gone or has
    changed since (its checksum differs from the manifest's).
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
    """Play a scenario file; return ``(lines, result)`` from the game's scenario hook."""
    table = read_toml(path)
    name = table.get("game")
    if not isinstance(name, str):
        raise SetupError("game", f"the scenario file {path} must name its game, e.g. game = \"fool\"")
    g = game_registry.get(name)
    if g.scenario is None:
        raise SetupError("game", f"{g.title} does not support scenario files yet")
    return g.scenario(table, strategy_set(name))


def survey(game, *, out, counts=None, games=None, seed=0, strategies=("random",), rotate_seats=False,
           variant="standard", setup=None, params=None, strategy_files=(), threads=None, margin=1.0, resume=False,
           on_count=None, backend="local", scheduler=None, workers=None):
    """Play the same lineup at every player count of the setup table (or ``counts``) into the directory ``out``
    and return its summary frame, one row per count (``analyses.survey``); ``survey.json`` in ``out`` holds
    the recommendation. ``strategies``: one for every seat, or several rotated (``rotate_seats``), repeated
    to fill the seats. ``backend``, ``scheduler`` and ``workers`` are ``simulate``'s (Dask)."""
    from analyses import survey as surveys

    g = game_registry.get(game)
    override = read_toml(setup) if isinstance(setup, (str, Path)) else setup
    counts = list(counts) if counts is not None else surveys.table_counts(g, override, variant)

    def play(game_name, *, players, **options):
        names = list(strategies) if len(strategies) == 1 else [strategies[s % len(strategies)] for s in range(players)]
        return simulate(game_name, players=players, threads=threads, backend=backend, scheduler=scheduler,
                        workers=workers, **{**options, "strategies": names})

    return surveys.survey(play, game, counts, out, games=games or surveys.DEFAULT_GAMES, margin=margin,
                          resume=resume, on_count=on_count, seed=seed, rotate_seats=rotate_seats, variant=variant,
                          setup=override, params=params, strategy_files=list(strategy_files))


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


def compensate(game, *, players, knob="seat_bonus", games=4000, seed=0, strategies=("random",), rotate_seats=False,
               variant="standard", setup=None, params=None, strategy_files=(), threads=None, margin=1.0, low=None,
               high=None, step=None, on_evaluation=None):
    """The per-seat ``knob`` values that bring every seat's edge inside ``margin`` (``analyses.compensate``):
    each evaluation plays ``games`` games (deals, rotated) on ``seed``; the result is confirmed on a fresh seed.
    Returns ``(Compensation, override)``, the override being the setup table to pass to ``simulate``."""
    from analyses.compensate import compensate as solve
    from analyses.moments import seat_moments

    override, start = knob_row(game, players, knob, variant, setup)
    check(game, players=players, seed=seed, games=games, strategies=strategies, variant=variant, setup=override,
          params=params, strategy_files=strategy_files, rotate_seats=rotate_seats)

    def evaluate(values, run_seed):
        run = simulate(game, players=players, games=games, seed=run_seed, strategies=strategies, variant=variant,
                       setup=with_knob(override, players, knob, values), params=params,
                       strategy_files=strategy_files, rotate_seats=rotate_seats, threads=threads)
        if on_evaluation is not None:
            on_evaluation(values, run_seed)
        return seat_moments(run.scan())

    found = solve(evaluate, players, knob=knob, start=start, low=low, high=high, step=step, seed=seed,
                  margin=margin)
    return found, with_knob(override, players, knob, found.values)


def cards(game, *, players, games=4000, seed=0, strategies=("random",), rotate_seats=False, variant="standard",
          setup=None, params=None, strategy_files=(), threads=None, names=None, on_card=None, backend="local",
          scheduler=None, workers=None):
    """The causal effect of removing each card (or the ``names`` given) of the setup table
    (``analyses.cards``): the default and each table without a card are played on the same seed and deals.

    Returns ``(effects, meanings, unplayable)``: ``{card: [CardEffect]}``, ``{card: what removing it means}``
    and ``{card: why that table cannot be played}``; a name the table does not have is a ``CardError``.
    ``backend``, ``scheduler`` and ``workers`` are ``simulate``'s (Dask). The observational rows (``analyses.cards.held_effects``, "<card> (played)") come from the default table's games.
    """
    from analyses import cards as card_effects

    override = read_toml(setup) if isinstance(setup, (str, Path)) else dict(setup or {})
    table = game_registry.get(game).configure(players, variant, override).setup
    known = card_effects.candidates(game, table, players)
    for name in names or ():
        if name not in known:
            raise card_effects.CardError(f"no card {name!r} in the {game} table at {players} players (its cards: "
                                         f"{', '.join(known)})")
    chosen = {k: v for k, v in known.items() if not names or k in names}
    options = dict(players=players, games=games, seed=seed, strategies=strategies, rotate_seats=rotate_seats,
                   variant=variant, params=params, strategy_files=strategy_files, threads=threads, backend=backend,
                   scheduler=scheduler, workers=workers)
    check(game, **{k: v for k, v in options.items() if k not in ("threads", "backend", "scheduler", "workers")},
          setup=override)
    base = simulate(game, setup=override, **options)
    runs, unplayable = {}, {}
    for card, (_, change) in chosen.items():
        if on_card is not None:
            on_card(card)
        try:
            runs[card] = simulate(game, setup=card_effects.merge(override, change), **options)
        except SetupError as exc:
            unplayable[card] = str(exc)
    family = max(1, len(runs) * len(card_effects.MEASURES))
    effects = {card: card_effects.effects((base.frame, base.manifest), (run.frame, run.manifest), card, family)
               for card, run in runs.items()}
    meanings = {k: v[0] for k, v in chosen.items()}
    for row in card_effects.held_effects(game, base.frame):
        if not names or row.card.removesuffix(" (played)") in names:
            effects[row.card] = [row]
            meanings[row.card] = "observational: the seats that played one against those that did not"
    return effects, meanings, unplayable
