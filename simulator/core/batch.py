"""The batch runner: N games in chunks over all cores, streamed to the output contract.

Game ``i`` of a run always uses the random streams of ``(seed, i)``, so the
rows do not depend on the thread count or the chunk size. Chunks are written
as they finish (constant memory), each file atomically; the manifest records
how many chunks are on disk, so an interrupted run can be resumed and ends
row for row identical to an uninterrupted one.

How a chunk's rows are computed is up to a chunk source: ``LocalChunks``
plays them here, in order; ``playtest.dask_backend.DaskChunks`` on Dask
workers, in any order. ``run_batch`` alone owns the directory, the manifest
and resuming.
"""

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import polars as pl

from simulator.core import output


class RunError(RuntimeError):
    """A run that cannot start or cannot go on; the message says why and what to do."""


@dataclass
class RunSpec:
    """Everything that determines a run's rows (and so goes into the manifest)."""

    game: object              # simulator.core.game.Game
    config: object            # simulator.core.game.Config
    strategies: list          # strategy name per seat
    sids: np.ndarray          # strategy id per seat
    params: np.ndarray        # parameter vector per seat
    seed: int
    games: int
    chunk_size: int = 100_000
    rotate_seats: bool = False
    strategy_files: list = field(default_factory=list)

    @property
    def chunks(self):
        return (self.games + self.chunk_size - 1) // self.chunk_size

    def identity(self):
        """The manifest fields that must match for ``--resume`` to continue a run."""
        return {
            "game": self.game.name, "players": self.config.players, "variant": self.config.variant,
            "games": self.games, "seed": self.seed, "strategies": list(self.strategies),
            "strategy_params": self.params.tolist(), "strategy_files": [str(f) for f in self.strategy_files],
            "setup": self.config.setup, "chunk_size": self.chunk_size, "rotate_seats": self.rotate_seats,
            "engine_version": self.game.engine_version,
        }


class StrategyFailure(RunError):
    """A strategy that raised or chose illegally; the message names it, the game and the seed."""

    @classmethod
    def illegal(cls, names, seat, game_index, seed):
        return cls(f"strategy {names[seat]!r} (seat {seat}) made an illegal choice in game {game_index} "
                   f"of the run with seed {seed}")


def rotations(spec):
    """(rotation, strategy names, ids, params) per seat rotation; one entry without ``rotate_seats``.

    In rotation ``r`` seat ``s`` plays the strategy listed for seat ``(s + r) % players``.
    """
    if not spec.rotate_seats:
        return [(None, spec.strategies, spec.sids, spec.params)]
    players = len(spec.strategies)
    out = []
    for r in range(players):
        order = [(s + r) % players for s in range(players)]
        out.append((r, [spec.strategies[i] for i in order], spec.sids[order].copy(), spec.params[order].copy()))
    return out


def play_chunk(spec, run_chunk, start, count):
    """Play games ``start .. start+count-1`` (every rotation) and return their seat frame."""
    players, game = spec.config.players, spec.game
    frames = []
    for rotation, names, sids, params in rotations(spec):
        scores = np.empty((count, players), np.int32)
        standing = np.empty((count, players), np.int64)
        seat_stats = np.zeros((count, players, max(1, len(game.seat_columns))), np.int32)
        game_stats = np.zeros((count, max(1, len(game.game_columns))), np.int32)
        status = np.zeros(count, np.int32)
        run_chunk(spec.config.arrays, sids, params, spec.seed, start, count,
                  scores, standing, seat_stats, game_stats, status)
        bad = np.flatnonzero(status)
        if bad.size:
            k = int(bad[0])
            raise StrategyFailure.illegal(names, int(status[k]) - 1, start + k, spec.seed)
        frames.append(output.seat_frame(game, names, start, scores, standing, seat_stats, game_stats, rotation))
    return frames[0] if len(frames) == 1 else pl.concat(frames).sort(["game", "rotation", "seat"])


def play_chunk_checked(spec, kernels, start, count, suspects=()):
    """``play_chunk``, with an exception raised inside a strategy turned into a ``StrategyFailure``.

    ``kernels`` is ``(run_chunk, trace_game)``. The batch kernel cannot say
    which game raised, so the chunk's games are replayed one by one with the
    traced kernel (cheap next to the batch) up to the first one that raises;
    when none does, the original exception goes on unchanged.
    A kernel reports no seat with an exception, so the message names the
    strategies that can raise: the seated ones among ``suspects`` (the user
    strategies), or every seated strategy when none of them is a suspect.
    """
    run_chunk, trace_game = kernels
    try:
        return play_chunk(spec, run_chunk, start, count)
    except StrategyFailure:
        raise
    except Exception:  # raised by strategy code inside the kernel, or not a game's fault at all
        game_index, rotation, error = first_raising_game(spec, trace_game, start, count)
        if error is None:
            raise
        seated = list(dict.fromkeys(rotations(spec)[rotation or 0][1]))
        blamed = [n for n in seated if n in suspects] or seated
        who = (f"strategy {blamed[0]!r}" if len(blamed) == 1 else
               "one of the strategies " + ", ".join(map(repr, blamed)))
        where = f"game {game_index}" + (f" (rotation {rotation})" if rotation is not None else "")
        raise StrategyFailure(f"{who} raised {type(error).__name__}: {error} in {where} of the run with seed "
                              f"{spec.seed}") from None


def first_raising_game(spec, trace_game, start, count):
    """``(game index, rotation, exception)`` of the first game of a chunk whose replay raises.

    ``(None, None, None)`` when every game replays without an exception.
    """
    for game_index in range(start, start + count):
        for rotation, *_ in rotations(spec):
            try:
                trace_one(spec, trace_game, game_index, rotation)
            except StrategyFailure:
                continue
            except Exception as exc:
                return game_index, rotation, exc
    return None, None, None


def chunk_bounds(spec, chunk):
    """``(start, count)`` of chunk number ``chunk``."""
    start = chunk * spec.chunk_size
    return start, min(spec.chunk_size, spec.games - start)


class LocalChunks:
    """Chunks played in this process, in order, by the compiled kernels on all threads.

    The batch runner asks a chunk source for two things: ``check(spec)``
    (compile or load the kernels and play game 0, before anything is
    written; returns the manifest fields describing where the run is played)
    and ``frames(spec, chunks)`` (yield ``(chunk, frame)`` for the given chunk
    numbers, in any order). ``playtest.dask_backend.DaskChunks`` is the other
    source.
    """

    def __init__(self, kernels, threads=None, suspects=()):
        self.kernels, self.threads, self.suspects = kernels, threads, tuple(suspects)

    def check(self, spec):
        numba.set_num_threads(self.threads or numba.config.NUMBA_NUM_THREADS)
        play_chunk_checked(spec, self.kernels, 0, 1, self.suspects)
        return {"backend": "local", "threads": numba.get_num_threads()}

    def frames(self, spec, chunks):
        for chunk in chunks:
            yield chunk, play_chunk_checked(spec, self.kernels, *chunk_bounds(spec, chunk), self.suspects)


def prepare_directory(out, spec, force, resume):
    """Create (or reopen for ``resume``) a run directory; return the chunks already on disk."""
    out = Path(out)
    manifest_path = out / output.MANIFEST
    if resume:
        if not manifest_path.exists():
            raise RunError(f"cannot resume: {out} holds no playtest run (no {output.MANIFEST})")
        old = output.read_manifest(out)
        mismatched = [k for k, v in spec.identity().items() if old.get(k) != v]
        if mismatched:
            raise RunError(f"cannot resume {out}: the run there differs in {', '.join(mismatched)}")
        remove_temporaries(out)
        return {c for c in range(spec.chunks) if output.chunk_path(out, c).exists()}
    if out.exists() and not out.is_dir():
        raise RunError(f"output directory {out} is a file, not a directory")
    if out.exists() and any(out.iterdir()):
        if not force:
            raise RunError(f"output directory {out} already exists; use --force to replace it "
                           f"or --resume to continue the run in it")
        if not manifest_path.exists() and not (out / output.SEATS_DIR).exists():
            raise RunError(f"refusing to replace {out}: it is not a playtest run directory")
        shutil.rmtree(out)
    try:
        (out / output.SEATS_DIR).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot create output directory {out}: {exc.strerror or exc}") from None
    return set()


def remove_temporaries(out):
    """Delete half-written files (``*.tmp``) of a run directory."""
    out = Path(out)
    for stale in [*out.glob("*.tmp"), *(out / output.SEATS_DIR).glob("*.tmp")]:
        stale.unlink(missing_ok=True)


def run_batch(spec, source, out=None, *, force=False, resume=False, manifest_extra=None, on_progress=None,
              stop=None):
    """Play ``spec.games`` games chunk by chunk.

    Parameters
    ----------
    spec : RunSpec
    source : LocalChunks or another chunk source (e.g. ``playtest.dask_backend.DaskChunks``)
        Computes the chunks' frames; this function owns the directory, the
        manifest and resuming.
    out : path or None
        Run directory to write; None keeps the rows in memory.
    force, resume : bool
        Replace an existing run directory / continue the run in it.
    manifest_extra : dict
        Provenance fields added to the manifest (package version, git revision...).
    on_progress : callable(games_done, games_total), optional
    stop : callable(frame) -> bool, optional
        Called after each chunk with its rows; True ends the run early
        (e.g. when every seat interval is narrow enough). Needs a source that
        yields chunks in order.

    Returns
    -------
    (manifest, frame) where frame is the rows kept in memory (None when written to ``out``).

    Any failure (or an interruption) removes the half-written file, keeps the
    finished chunks and leaves the manifest saying ``complete: false``.
    """
    where = source.check(spec)  # compile (or load) the kernels and try the first game before anything is written
    done = prepare_directory(out, spec, force, resume) if out is not None else set()
    manifest = {**spec.identity(), **(manifest_extra or {}), **where,
                "chunks_total": spec.chunks, "chunks_done": len(done), "games_done": 0, "complete": False}
    frames = {}
    started = time.perf_counter()
    played = 0
    games_done = sum(chunk_bounds(spec, c)[1] for c in done)
    try:
        for chunk, frame in source.frames(spec, [c for c in range(spec.chunks) if c not in done]):
            count = chunk_bounds(spec, chunk)[1]
            if out is None:
                frames[chunk] = frame
            else:
                write_chunk(out, chunk, frame)
                done.add(chunk)
            played += count
            games_done += count
            if out is not None:
                manifest.update(chunks_done=len(done), games_done=games_done)
                output.write_manifest(out, manifest)
            if on_progress:
                on_progress(games_done, spec.games)
            if stop is not None and stop(frame):
                manifest["stopped_early"] = True
                break
        manifest["complete"] = True
    finally:
        wall = time.perf_counter() - started
        manifest.update(games_done=games_done, chunks_done=len(done), wall_seconds=round(wall, 3),
                        games_per_second=round(played / wall, 1) if wall > 0 else None)
        if out is not None and Path(out).exists():
            finish_manifest(out, manifest)
    return manifest, (pl.concat([frames[c] for c in sorted(frames)]) if frames else None)


def write_chunk(out, chunk, frame):
    """Write one chunk atomically; on failure remove the half-written file and say which directory failed."""
    try:
        output.write_chunk(out, chunk, frame)
    except BaseException as exc:
        remove_temporaries(out)
        if isinstance(exc, OSError):
            raise RunError(f"cannot write chunk {chunk} to {Path(out) / output.SEATS_DIR}: "
                           f"{exc.strerror or exc}; the finished chunks are kept, free space and rerun with "
                           f"--resume") from None
        raise


def finish_manifest(out, manifest):
    """Write the final manifest; when even that fails (disk full) the previous one, incomplete, stays."""
    try:
        output.write_manifest(out, manifest)
    except OSError:
        remove_temporaries(out)
        if manifest["complete"]:
            raise RunError(f"cannot write the manifest of {out}: the run finished but is not marked complete")


def trace_one(spec, trace_game, game_index, rotation=None):
    """Play game ``game_index`` of the run alone and return ``(trace, scores, seat_stats, game_stats)``.

    It is the same game as row ``game_index`` of the batch (with ``rotation``
    when the run rotates seats).
    """
    _, names, sids, params = rotations(spec)[rotation or 0]
    n, trace, scores, _, seat_stats, game_stats = traced_game(spec.game, spec.config, trace_game, sids, params,
                                                              spec.seed, game_index)
    if n < 0:
        raise StrategyFailure.illegal(names, -n - 1, game_index, spec.seed)
    return trace, scores, seat_stats, game_stats


def traced_game(game, config, trace_game, sids, params, seed, game_index):
    """Allocate the outputs the game's columns call for and play one traced game.

    Returns ``(n, trace, scores, standing, seat_stats, game_stats)`` where
    ``n`` is the kernel's return value (negative: -(1+seat) of an illegal
    choice) and ``trace`` is cut to its length.
    """
    players = config.players
    scores = np.empty(players, np.int32)
    standing = np.empty(players, np.int64)
    seat_stats = np.zeros((players, max(1, len(game.seat_columns))), np.int32)
    game_stats = np.zeros(max(1, len(game.game_columns)), np.int32)
    trace = np.zeros(config.trace_len, np.int64)
    n = trace_game(config.arrays, sids, params, seed, game_index, scores, standing, seat_stats, game_stats, trace)
    return n, trace[:max(n, 0)], scores, standing, seat_stats, game_stats
