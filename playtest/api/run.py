"""One run: ``prepare`` and ``check`` refuse bad input before anything is played, ``simulate`` plays,
``compare`` sets two runs side by side.
"""

import contextlib
import dataclasses
import inspect
import subprocess
from pathlib import Path

import polars as pl

import playtest
from playtest.api.results import Run, load_run
from simulator.core import output
from simulator.core.batch import LocalChunks, RunError, check_size, run_batch
from simulator.core.run_options import CHUNK_SIZE, GAMES, RunOptions
from studies import runs


def prepare(game, *, players=None, seed=0, games=1, strategies=("random",), variant="standard", setup=None,
            params=None, strategy_files=(), chunk_size=CHUNK_SIZE, rotate_seats=False):
    """Validate everything about a run and return ``(spec, strategy_set)``; nothing is played or written.

    ``game`` is a game's name (the keywords then build its ``RunOptions``)
    or a ``RunOptions`` (then no keyword may be given). The size of the run
    (games, chunk size, memory, disk) is checked by
    ``simulator.core.batch.check_size``, which needs the output directory.
    """
    return runs.prepare(options_of(prepare, game, players=players, seed=seed, games=games, strategies=strategies,
                                   variant=variant, setup=setup, params=params, strategy_files=strategy_files,
                                   chunk_size=chunk_size, rotate_seats=rotate_seats))


def options_of(function, game, **keywords):
    """The ``RunOptions`` that ``function`` (an API function with the run keywords) was called with: ``game``
    when it is one (then every keyword must be left at ``function``'s default), else those of ``game`` and
    ``keywords``. Refuses any run while the environment is unusable."""
    if playtest.ENVIRONMENT_PROBLEM:
        raise RunError(playtest.ENVIRONMENT_PROBLEM)
    if not isinstance(game, RunOptions):
        return RunOptions(game, **keywords)
    defaults = inspect.signature(function).parameters
    given = [k for k, v in keywords.items() if k not in defaults or v is not defaults[k].default]
    if given:
        raise RunError(f"a RunOptions carries the run's options: give {', '.join(given)} in it, not beside it")
    return game


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
             setup=None, params=None, strategy_files=(), out=None, chunk_size=CHUNK_SIZE, threads=None,
             force=False, resume=False, rotate_seats=False, until_ci=None, on_progress=None, backend="local",
             scheduler=None, workers=None, on_start=None, leader_record=True):
    """Play ``games`` games and return the ``Run``.

    ``game`` is a game's name, whose run the keywords ``players``,
    ``games``, ``seed``, ``strategies``, ``variant``, ``setup``, ``params``,
    ``strategy_files``, ``chunk_size``, ``threads``, ``rotate_seats`` and
    ``leader_record`` describe (they build its ``RunOptions``), or a ``RunOptions`` (then
    those keywords stay at their defaults).
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
    ``rotate_seats: false``. ``leader_record=False`` leaves the two leader
    columns 0 (no comeback curve) and plays faster in games whose standing
    at a round's end costs much (``simulator.core.run_options``).

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
    options = options_of(simulate, game, players=players, seed=seed, games=games, strategies=strategies, variant=variant,
                         setup=setup, params=params, strategy_files=strategy_files, chunk_size=chunk_size,
                         rotate_seats=rotate_seats, threads=threads, leader_record=leader_record)
    spec, sset = runs.prepare(options)
    if spec.rotate_seats and len(set(spec.strategies)) == 1:  # every rotation would replay the same games
        spec.options = dataclasses.replace(options, rotate_seats=False)
    check_size(spec, out)  # before the kernels are compiled
    stop = None
    if until_ci is not None:
        stop = _until_ci_stop(until_ci, out if resume and out is not None else None)
    if backend == "dask":
        from studies.dask_backend import DaskChunks

        source = DaskChunks(scheduler=scheduler, workers=workers, threads=options.threads)
    else:
        kernels = sset.kernels_for(spec.sids)
        source = contextlib.nullcontext(LocalChunks(kernels, options.threads, suspects=[s.name for s in sset.extra]))
    with source as chunks:
        manifest, frame = run_batch(spec, chunks, out, force=force, resume=resume,
                                    manifest_extra={"title": spec.game.title, **provenance(), **model_caveats(spec, sset),
                                                    **({"until_ci": until_ci} if until_ci else {})},
                                    on_progress=on_progress, stop=stop, on_start=on_start)
    return Run(Path(out) if out is not None else None, manifest, frame)


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
    """The ``stop`` callback of ``--until-ci``: running seat moments over every chunk (also the chunks kept in
    the ``resumed`` run directory), True once every seat's 95% half-width is below ``target``. Called with
    None (``run_batch`` does, once, before any new chunk is written), it reads the chunks kept and says
    whether they alone already are."""
    from analyses.moments import seat_moments
    from analyses.planning import max_half_width

    totals = [None]

    def stop(frame):
        if frame is None:
            parts = sorted((Path(resumed) / output.SEATS_DIR).glob("part-*.parquet")) if resumed is not None else []
            totals[0] = seat_moments(pl.scan_parquet(parts)) if parts else None
            return totals[0] is not None and max_half_width(totals[0]) < target
        chunk = seat_moments(frame)
        totals[0] = chunk if totals[0] is None else totals[0] + chunk
        return max_half_width(totals[0]) < target

    return stop
