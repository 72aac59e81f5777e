"""The batch runner: N games in chunks over all cores, streamed to the output contract.

Game ``i`` of a run always uses the random streams of ``(seed, i)``, so the
rows do not depend on the thread count or the chunk size. Chunks are written
as they finish (constant memory), each file atomically; the manifest records
how many chunks are on disk, so an interrupted run can be resumed and ends
row for row identical to an uninterrupted one.
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
    pass


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
            seat = int(status[k]) - 1
            raise StrategyFailure(f"strategy {names[seat]!r} (seat {seat}) made an illegal choice in game "
                                  f"{start + k} of the run with seed {spec.seed}")
        frames.append(output.seat_frame(game, names, start, scores, standing, seat_stats, game_stats, rotation))
    return frames[0] if len(frames) == 1 else pl.concat(frames).sort(["game", "rotation", "seat"])


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
        done = {c for c in range(spec.chunks) if output.chunk_path(out, c).exists()}
        for stale in (out / output.SEATS_DIR).glob("*.tmp"):
            stale.unlink()
        return done
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


def run_batch(spec, run_chunk, out=None, *, threads=None, force=False, resume=False, manifest_extra=None,
              on_progress=None, stop=None):
    """Play ``spec.games`` games chunk by chunk.

    Parameters
    ----------
    spec : RunSpec
    run_chunk : the compiled batch kernel (from the game's StrategySet).
    out : path or None
        Run directory to write; None keeps the rows in memory.
    threads : int, optional
        Numba threads (default: all cores).
    force, resume : bool
        Replace an existing run directory / continue the run in it.
    manifest_extra : dict
        Provenance fields added to the manifest (package version, git revision...).
    on_progress : callable(games_done, games_total), optional
    stop : callable(frame) -> bool, optional
        Called after each chunk with its rows; True ends the run early
        (e.g. when every seat interval is narrow enough).

    Returns
    -------
    (manifest, frame) where frame is the rows kept in memory (None when written to ``out``).
    """
    numba.set_num_threads(threads or numba.config.NUMBA_NUM_THREADS)
    # compile (or load) the kernel and try the first game before anything is written
    play_chunk(spec, run_chunk, 0, 1)
    done = prepare_directory(out, spec, force, resume) if out is not None else set()
    manifest = {**spec.identity(), **(manifest_extra or {}), "threads": numba.get_num_threads(),
                "chunks_total": spec.chunks, "chunks_done": len(done), "games_done": 0, "complete": False}
    frames = []
    started = time.perf_counter()
    played = 0
    games_done = sum(min(spec.chunk_size, spec.games - c * spec.chunk_size) for c in done)
    try:
        for chunk in range(spec.chunks):
            start = chunk * spec.chunk_size
            count = min(spec.chunk_size, spec.games - start)
            if chunk in done:
                continue
            frame = play_chunk(spec, run_chunk, start, count)
            played += count
            games_done += count
            if out is None:
                frames.append(frame)
            else:
                output.write_chunk(out, chunk, frame)
                done.add(chunk)
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
            output.write_manifest(out, manifest)
    return manifest, (pl.concat(frames) if frames else None)


def trace_one(spec, trace_game, game_index, rotation=None):
    """Play game ``game_index`` of the run alone and return ``(trace, scores, seat_stats, game_stats)``.

    It is the same game as row ``game_index`` of the batch (with ``rotation``
    when the run rotates seats).
    """
    players = spec.config.players
    _, names, sids, params = rotations(spec)[rotation or 0]
    scores = np.empty(players, np.int32)
    standing = np.empty(players, np.int64)
    seat_stats = np.zeros((players, max(1, len(spec.game.seat_columns))), np.int32)
    game_stats = np.zeros(max(1, len(spec.game.game_columns)), np.int32)
    trace = np.zeros(spec.config.trace_len, np.int64)
    n = trace_game(spec.config.arrays, sids, params, spec.seed, game_index, scores, standing, seat_stats,
                   game_stats, trace)
    if n < 0:
        seat = -n - 1
        raise StrategyFailure(f"strategy {names[seat]!r} (seat {seat}) made an illegal choice in game "
                              f"{game_index} of the run with seed {spec.seed}")
    return trace[:n], scores, seat_stats, game_stats
