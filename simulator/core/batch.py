"""The batch runner: N games in chunks over all cores, streamed to the output contract.

Game ``i`` of a run always uses the random streams of ``(seed, i)``, so the
rows do not depend on the thread count or the chunk size. Chunks are written
as they finish (constant memory: at most three chunks in flight), each file
atomically; the manifest records each chunk on disk with its game range and
checksum, so an interrupted run can be resumed, re-playing whatever is
missing or damaged, and ends row for row identical to an uninterrupted one.

How a chunk's rows are computed is up to a chunk source: ``LocalChunks``
plays them here, in order; ``studies.dask_backend.DaskChunks`` on Dask
workers, in any order. ``run_batch`` alone owns the directory, the manifest
and resuming.
"""

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import polars as pl

from simulator import games as game_registry
from simulator.core import output, rundir, worker
from simulator.core.kernels import RAISED
from simulator.core.leaders import ROUNDS
from simulator.core.run_options import RunOptions
from simulator.core.rundir import RunError

MAX_CHUNKS = 100_000      # chunks per run: the manifest lists each one with its checksum
SLICE = 32_768            # games per kernel call: an interrupted worker stops within one slice
MANIFEST_EVERY = 1.0      # seconds between manifest rewrites while a run goes on
DISK_BYTES_PER_ROW = 2    # a lower bound: measured 3-4 bytes per (game, seat) row (bench/results.md)
RAM_SHARE = 0.5           # of the machine's memory that the chunks in flight may use


@dataclass
class RunSpec:
    """A run seated: its ``RunOptions`` and the strategies they resolve to, everything that determines its rows
    (and so goes into the manifest).

    ``strategies``, ``sids`` and ``params`` are the strategy name, id and parameter vector of each seat;
    ``strategy_checksums`` the checksum of each strategy file's source, in the order of
    ``options.strategy_files``.
    """

    options: RunOptions
    strategies: list
    sids: np.ndarray
    params: np.ndarray
    strategy_checksums: list = field(default_factory=list)

    @property
    def game(self):
        """The ``simulator.core.game.Game`` played."""
        return game_registry.get(self.options.game)

    @property
    def config(self):
        return self.options.config

    @property
    def seed(self):
        return self.options.seed

    @property
    def games(self):
        return self.options.games

    @property
    def chunk_size(self):
        return self.options.chunk_size

    @property
    def rotate_seats(self):
        return self.options.rotate_seats

    @property
    def strategy_files(self):
        return list(self.options.strategy_files)

    @property
    def chunks(self):
        return (self.games + self.chunk_size - 1) // self.chunk_size

    @property
    def rows_per_game(self):
        return self.config.players * (self.config.players if self.rotate_seats else 1)

    def identity(self):
        """The manifest fields that must match for ``--resume`` to continue a run."""
        return {
            "game": self.game.name, "players": self.config.players, "variant": self.config.variant,
            "games": self.games, "seed": self.seed, "strategies": list(self.strategies),
            "strategy_params": self.params.tolist(), "strategy_files": [str(f) for f in self.strategy_files],
            "strategy_checksums": list(self.strategy_checksums),
            "setup": self.config.setup, "chunk_size": self.chunk_size, "rotate_seats": self.rotate_seats,
            "leader_record": self.options.leader_record, "engine_version": self.game.engine_version,
        }


class StrategyFailure(RunError):
    """A strategy that raised or chose illegally; the message names it, the game and the seed."""

    @classmethod
    def illegal(cls, names, seat, value, game_index, seed):
        """The illegal choice of ``seat`` in a game; ``value`` is what its strategy returned (the kernel's
        ``standing[0]`` of that game, see ``simulator.core.kernels.play_game``)."""
        return cls(f"strategy {names[seat]!r} (seat {seat}) made an illegal choice (it returned {value}, not one "
                   f"of its options) in game {game_index} of the run with seed {seed}")


class GameRaised(RunError):
    """A strategy raised inside the batch kernel in game ``game_index`` (the kernel marks it ``RAISED``).

    ``blame`` replays the chunk's games one by one to name the strategy and
    its exception; this message is shown only if no replay raises.
    """

    def __init__(self, game_index, rotation, seed):
        where = f"game {game_index}" + (f" (rotation {rotation})" if rotation is not None else "")
        super().__init__(f"a strategy raised in {where} of the run with seed {seed}, but replaying that game "
                         f"alone did not")


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


def check_size(spec, out):
    """Refuse a run that cannot be indexed, held in memory or written to disk, before anything is done.

    Limits: at most ``MAX_CHUNKS`` chunks; the chunks in flight (three: one
    played, one waiting, one written; the whole run when nothing is written)
    within ``RAM_SHARE`` of the machine's memory; and, when writing, at least
    ``DISK_BYTES_PER_ROW`` bytes per seat row free on the target filesystem.
    """
    if spec.chunks > MAX_CHUNKS:
        raise RunError(f"{spec.games:,} games in chunks of {spec.chunk_size:,} make {spec.chunks:,} chunks; a run "
                       f"holds at most {MAX_CHUNKS:,}: use a larger --chunk-size or play fewer games")
    held = 3 * min(spec.chunk_size, spec.games) if out is not None else spec.games
    need, have = held * spec.rows_per_game * row_bytes(spec.game), RAM_SHARE * physical_memory()
    if need > have:
        what = f"chunks of {spec.chunk_size:,} games" if out is not None else f"{spec.games:,} games kept in memory"
        raise RunError(f"{what} need about {need / 1e9:,.1f} GB of memory, more than {RAM_SHARE:.0%} of this "
                       f"machine's {physical_memory() / 1e9:,.1f} GB: "
                       + ("use a smaller --chunk-size" if out is not None else "write the run to a directory"))
    if out is not None:
        disk = spec.games * spec.rows_per_game * DISK_BYTES_PER_ROW
        free = rundir.free_bytes(out)
        if disk > free:
            raise RunError(f"{spec.games:,} games need at least {disk / 1e9:,.1f} GB on disk (about "
                           f"{DISK_BYTES_PER_ROW} bytes per seat row), but the filesystem of {out} has "
                           f"{free / 1e9:,.1f} GB free: play fewer games or write elsewhere")


def row_bytes(game):
    """Memory of one (game, seat) row while a chunk is in flight: kernel outputs, the frame and its encoding."""
    columns = len(game.seat_columns) + len(game.game_columns)
    return 2 * (28 + 4 * columns) + 16 + 4 * columns


def physical_memory():
    """Bytes of memory in this machine."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def allocate(game, players, count):
    """The kernel outputs for ``count`` games: ``(scores, standing, seat_stats, game_stats, status)``."""
    return (np.empty((count, players), np.int32), np.empty((count, players), np.int64),
            np.zeros((count, players, max(1, len(game.seat_columns))), np.int32),
            np.zeros((count, max(1, len(game.game_columns))), np.int32), np.zeros(count, np.int32))


def play_raw(spec, run_chunk, start, count, stop=None):
    """Play games ``start .. start+count-1`` (every rotation); return ``[(rotation, names, outputs)]``.

    The kernel is called on slices of at most ``SLICE`` games; when the
    ``threading.Event`` ``stop`` is set between two slices, the chunk is
    abandoned and None returned. The first broken game of a rotation
    raises: ``StrategyFailure`` for an illegal choice, ``GameRaised`` when a
    strategy raised (``blame`` turns it into a ``StrategyFailure``).
    """
    players = spec.config.players
    played = []
    for rotation, names, sids, params in rotations(spec):
        outputs = allocate(spec.game, players, count)
        for a in range(0, count, SLICE):
            if stop is not None and stop.is_set():
                return None
            b = min(count, a + SLICE)
            run_chunk(spec.config.arrays, sids, params, spec.seed, start + a, b - a, *(x[a:b] for x in outputs),
                      leader_rounds=ROUNDS if spec.options.leader_record else 0)
        status = outputs[-1]
        bad = np.flatnonzero(status)
        if bad.size:
            k = int(bad[0])
            if status[k] == RAISED:
                raise GameRaised(start + k, rotation, spec.seed)
            raise StrategyFailure.illegal(names, int(status[k]) - 1, int(outputs[1][k, 0]), start + k, spec.seed)
        played.append((rotation, names, outputs))
    return played


def frame_of(spec, start, played):
    """The seat frame of a chunk played by ``play_raw`` (rotations in game, rotation, seat order)."""
    frames = [output.seat_frame(spec.game, names, start, *outputs[:4], rotation)
              for rotation, names, outputs in played]
    return frames[0] if len(frames) == 1 else pl.concat(frames).sort(["game", "rotation", "seat"])


def play_chunk(spec, run_chunk, start, count):
    """Play games ``start .. start+count-1`` (every rotation) and return their seat frame."""
    return frame_of(spec, start, play_raw(spec, run_chunk, start, count))


def play_chunk_checked(spec, kernels, start, count, suspects=()):
    """``play_chunk``, with an exception raised inside a strategy turned into a ``StrategyFailure``.

    ``kernels`` is ``(run_chunk, trace_game)``; see ``blame``.
    """
    try:
        return play_chunk(spec, kernels[0], start, count)
    except StrategyFailure:
        raise
    except Exception as exc:  # raised by strategy code inside the kernel, or not a game's fault at all
        blame(spec, kernels[1], start, count, suspects, exc)


def blame(spec, trace_game, start, count, suspects, error):
    """Raise the ``StrategyFailure`` for ``error``, raised by the batch kernel on games ``start..``.

    The batch kernel marks a game in which a strategy raised (``GameRaised``)
    but cannot keep the exception, so the chunk's games are replayed one by
    one with the traced kernel (cheap next to the batch) up to the first one,
    in game and rotation order, that raises; when none does, ``error`` is
    raised unchanged. A kernel reports no seat with an exception, so the message
    names the strategies that can raise: the seated ones among ``suspects``
    (the user strategies), or every seated strategy when none is a suspect.
    """
    game_index, rotation, raised = first_raising_game(spec, trace_game, start, count)
    if raised is None:
        raise error
    seated = list(dict.fromkeys(rotations(spec)[rotation or 0][1]))
    blamed = [n for n in seated if n in suspects] or seated
    who = (f"strategy {blamed[0]!r}" if len(blamed) == 1 else
           "one of the strategies " + ", ".join(map(repr, blamed)))
    where = f"game {game_index}" + (f" (rotation {rotation})" if rotation is not None else "")
    raise StrategyFailure(f"{who} raised {type(raised).__name__}: {raised} in {where} of the run with seed "
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
    numbers, in any order). ``studies.dask_backend.DaskChunks`` is the other
    source.

    The kernels run on a worker thread (``simulator.core.worker``): chunk
    ``k + 1`` is played while the caller writes chunk ``k``, and the main
    thread stays free to see Ctrl-C.
    """

    def __init__(self, kernels, threads=None, suspects=()):
        self.kernels, self.suspects = kernels, tuple(suspects)
        self.threads = threads or numba.config.NUMBA_NUM_THREADS

    def check(self, spec):
        def first_game():
            numba.set_num_threads(self.threads)  # numba's thread count is per calling thread
            return play_chunk_checked(spec, self.kernels, 0, 1, self.suspects)

        worker.call(first_game)
        return {"backend": "local", "threads": self.threads}

    def frames(self, spec, chunks):
        run_chunk, trace_game = self.kernels

        def produce(chunk, stop):
            numba.set_num_threads(self.threads)
            try:
                return play_raw(spec, run_chunk, *chunk_bounds(spec, chunk), stop)
            except StrategyFailure:
                raise
            except Exception as exc:  # explained on the consumer's side (see blame)
                return exc

        for chunk, played in worker.pipeline(produce, chunks):
            start, count = chunk_bounds(spec, chunk)
            if isinstance(played, Exception):
                blame(spec, trace_game, start, count, self.suspects, played)
            yield chunk, frame_of(spec, start, played)


RESUME_HINT = "use --force to replace it or --resume to continue the run in it"


def prepare_directory(out, spec, force, resume):
    """Create (or reopen for ``resume``) a run directory.

    Returns ``(done, replayed)``: ``{chunk: [first game, games, checksum]}``
    of the chunks on disk that match the manifest, and the numbers of the
    recorded chunk files found damaged or substituted (they are deleted and
    played again).
    """
    out = Path(out)
    if resume:
        return reopen(out, spec)
    rundir.clear(out, rundir.RUN, force=force, hint=RESUME_HINT)
    rundir.make(out)
    rundir.make(out / output.SEATS_DIR)
    return {}, []


def reopen(out, spec):
    """``prepare_directory`` for ``--resume``: check the manifest and every chunk on disk.

    A run resumed with more games than it was started with plays on: its
    whole chunks are kept (game i of a seed is the same game in either
    plan) and a last chunk cut short by the old count is played again in
    full. Fewer games than the run there is refused.
    """
    if not (out / output.MANIFEST).is_file():
        raise RunError(f"cannot resume: {out} holds no playtest run (no {output.MANIFEST})")
    rundir.refuse_foreign(out, rundir.RUN, "resume the run in")
    damaged = f"cannot resume {out}: its {output.MANIFEST} is damaged"
    try:
        old = output.read_manifest(out)
    except RunError as exc:
        raise RunError(f"{damaged} ({exc}); start the run again with --force") from None
    if old.get("engine_version") != spec.game.engine_version:
        raise RunError(f"cannot resume {out}: it was played by {spec.game.name} engine version "
                       f"{old.get('engine_version')}, this playtest has version {spec.game.engine_version}, whose "
                       f"games differ; start the run again with --force")
    old = {"leader_record": True} | old  # a run written before the option recorded its leaders
    mismatched = [k for k, v in spec.identity().items() if old.get(k) != v and k != "games"]
    if mismatched:
        raise RunError(f"cannot resume {out}: the run there differs in "
                       + "; ".join(differs(k, old.get(k), spec.identity()[k]) for k in mismatched))
    was = old.get("games")
    if not isinstance(was, int):
        raise RunError(f"{damaged} (games is not a whole number); start the run again with --force")
    if was > spec.games:
        raise RunError(f"cannot resume {out}: the run there has {was:,} games and this command {spec.games:,}; give "
                       f"at least as many (more play on)")
    records = old.get("chunk_files", {})
    if not isinstance(records, dict):
        raise RunError(f"{damaged} (chunk_files is not a table); start the run again with --force")
    cut = str(was // spec.chunk_size) if was < spec.games and was % spec.chunk_size else None
    remove_temporaries(out)
    done = {}
    for key, record in records.items():
        if key == cut:  # the old count's last, short chunk: played again in full below
            continue
        chunk = int(key) if isinstance(key, str) and key.isdigit() else -1
        if not (0 <= chunk < spec.chunks and isinstance(record, list) and len(record) == 3
                and record[:2] == list(chunk_bounds(spec, chunk))):
            raise RunError(f"{damaged} (chunk_files entry {key!r} does not describe a chunk of this run); "
                           f"start the run again with --force")
        path = output.chunk_path(out, chunk)
        if path.is_file() and output.file_checksum(path) == record[2]:
            done[chunk] = record
    parts = sorted((out / output.SEATS_DIR).glob("part-*.parquet"))
    unknown = [p for p in parts if p.name not in {output.chunk_path(out, int(k)).name for k in records}]
    if unknown:
        shown = ", ".join(str(p.relative_to(out)) for p in unknown[:3])
        more = f" and {len(unknown) - 3} more" if len(unknown) > 3 else ""
        raise RunError(f"cannot resume {out}: {shown}{more} {'is' if len(unknown) == 1 else 'are'} not in its "
                       f"{output.MANIFEST} (playtest records every chunk it finishes, unless the process was "
                       f"killed); move {'it' if len(unknown) == 1 else 'them'} away to have --resume play "
                       f"{'that chunk' if len(unknown) == 1 else 'those chunks'} again")
    replayed = []
    for part in parts:
        chunk = int(part.name[len("part-"):-len(".parquet")])
        if chunk not in done:  # recorded, but damaged or replaced since (or the short chunk of a run played on)
            part.unlink()
            if str(chunk) != cut:
                replayed.append(chunk)
    return done, replayed


def differs(key, was, now):
    """``"seed (the run there: 1, this command: 2)"``: one field where a resumed run and the command differ.

    Long values (the setup table, parameter vectors) are named by their
    first differing key or position instead of printed whole.
    """
    if isinstance(was, dict) and isinstance(now, dict):
        keys = sorted({*was, *now}, key=str)
        first = next(k for k in keys if was.get(k) != now.get(k))
        return differs(f"{key}.{first}", was.get(first), now.get(first))
    shown = f"{key} (the run there: {was!r}, this command: {now!r})"
    if len(shown) > 160 and isinstance(was, list) and isinstance(now, list) and len(was) == len(now):
        first = next(i for i, (a, b) in enumerate(zip(was, now)) if a != b)
        return differs(f"{key}[{first}]", was[first], now[first])
    return shown


def remove_temporaries(out):
    """Delete half-written files (``*.tmp``) of a run directory."""
    out = Path(out)
    for stale in [*out.glob("*.tmp"), *(out / output.SEATS_DIR).glob("*.tmp")]:
        stale.unlink(missing_ok=True)


def run_batch(spec, source, out=None, *, force=False, resume=False, manifest_extra=None, on_progress=None,
              stop=None, on_start=None):
    """Play ``spec.games`` games chunk by chunk.

    Parameters
    ----------
    spec : RunSpec
    source : LocalChunks or another chunk source (e.g. ``studies.dask_backend.DaskChunks``)
        Computes the chunks' frames; this function owns the directory, the
        manifest and resuming.
    out : path or None
        Run directory to write; None keeps the rows in memory.
    force, resume : bool
        Replace an existing run directory (only one holding nothing but a
        run) / continue the run in it, re-playing every chunk that is
        missing or does not match the checksum the manifest recorded.
    manifest_extra : dict
        Provenance fields added to the manifest (package version, git revision...).
    on_progress : callable(games_done, games_total), optional
    on_start : callable(games_done, games_total), optional
        Called once the kernels are compiled (or loaded) and the directory
        ready, just before the first chunk is played.
    stop : callable(frame) -> bool, optional
        Called after each chunk with its rows; True ends the run early
        (e.g. when every seat interval is narrow enough). Needs a source that
        yields chunks in order. ``stop(None)`` is asked once first, when the
        run directory is ready (a resumed run's damaged or short chunks
        already removed, no new chunk written): True means the chunks kept
        meet the rule, and a resumed run whose chunks run from the first
        without a gap then plays nothing more.

    Returns
    -------
    (manifest, frame) where frame is the rows kept in memory (None when written to ``out``).

    The manifest lists every chunk written (``chunk_files``: chunk number ->
    ``[first game, games, checksum]``) and, after a resume, the chunks found
    damaged and played again (``replayed_chunks``) and the games already on
    disk when it resumed (``resumed_with_games``; ``wall_seconds`` and
    ``games_per_second`` count this session's games only). It is rewritten at most
    every ``MANIFEST_EVERY`` seconds and at the end (then with the chunk an
    interruption caught just after its file was renamed into place), so only
    a killed process leaves a chunk file the manifest does not list, which
    ``--resume`` refuses by name. Any failure (or an interruption) removes the
    half-written file, keeps the finished chunks and leaves the manifest
    saying ``complete: false``.
    """
    if resume and force:
        raise RunError("--resume continues the run in the output directory and --force replaces it; give one")
    if resume and out is None:
        raise RunError("--resume continues a run directory; give it with --out")
    check_size(spec, out)
    where = source.check(spec)  # compile (or load) the kernels and try the first game before anything is written
    done, replayed = prepare_directory(out, spec, force, resume) if out is not None else ({}, [])
    manifest = {**spec.identity(), **(manifest_extra or {}), **where,
                "chunks_total": spec.chunks, "chunks_done": len(done), "games_done": 0, "complete": False,
                **({"replayed_chunks": replayed} if replayed else {}),
                **({"resumed_with_games": sum(record[1] for record in done.values())} if resume else {}),
                "chunk_files": {}}
    frames = {}
    started = last_written = time.perf_counter()
    played = 0
    games_done = sum(record[1] for record in done.values())
    writing = None  # the chunk being written: an interruption can come after its file is renamed into place
    if on_start:
        on_start(games_done, spec.games)

    def record():
        manifest.update(chunks_done=len(done), games_done=games_done,
                        chunk_files={str(c): done[c] for c in sorted(done)})

    todo = [c for c in range(spec.chunks) if c not in done]
    kept_meet = stop is not None and stop(None)   # asked before any new chunk: it may read the chunks kept
    if kept_meet and done and sorted(done) == list(range(len(done))):
        todo = []   # a finished run resumed: the chunks on disk already meet the stop rule
        manifest["stopped_early"] = True
    try:
        for chunk, frame in source.frames(spec, todo):
            start, count = chunk_bounds(spec, chunk)
            if out is None:
                frames[chunk] = frame
            else:
                writing = chunk
                done[chunk] = [start, count, write_chunk(out, chunk, frame)]
                writing = None
            played += count
            games_done += count
            if out is not None and time.perf_counter() - last_written >= MANIFEST_EVERY:
                record()
                output.write_manifest(out, manifest)
                last_written = time.perf_counter()
            if on_progress:
                on_progress(games_done, spec.games)
            if stop is not None and stop(frame):
                manifest["stopped_early"] = True
                break
        manifest["complete"] = True
    finally:
        wall = time.perf_counter() - started
        if writing is not None and writing not in done and output.chunk_path(out, writing).is_file():
            done[writing] = [*chunk_bounds(spec, writing), output.file_checksum(output.chunk_path(out, writing))]
        games_done = sum(r[1] for r in done.values()) if out is not None else games_done  # whatever was caught
        record()
        manifest.update(games_done=games_done, wall_seconds=round(wall, 3),
                        games_per_second=round(played / wall, 1) if wall > 0 else None)
        if out is not None and Path(out).exists():
            finish_manifest(out, manifest)
    return manifest, (pl.concat([frames[c] for c in sorted(frames)]) if frames else None)


def write_chunk(out, chunk, frame):
    """Write one chunk atomically and return its checksum; on failure remove the half-written file."""
    try:
        return output.write_chunk(out, chunk, frame)
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
    n, trace, scores, standing, seat_stats, game_stats = traced_game(spec.game, spec.config, trace_game, sids,
                                                                     params, spec.seed, game_index)
    if n < 0:
        raise StrategyFailure.illegal(names, -n - 1, int(standing[0]), game_index, spec.seed)
    return trace, scores, seat_stats, game_stats


def traced_game(game, config, trace_game, sids, params, seed, game_index):
    """Allocate the outputs the game's columns call for and play one traced game.

    Returns ``(n, trace, scores, standing, seat_stats, game_stats)`` where
    ``n`` is the kernel's return value (negative: -(1+seat) of an illegal
    choice) and ``trace`` is cut to its length.
    """
    scores, standing, seat_stats, game_stats = output.game_rows(game, config.players)
    trace = np.zeros(config.trace_len, np.int64)
    n = trace_game(config.arrays, sids, params, seed, game_index, scores, standing, seat_stats, game_stats, trace)
    return n, trace[:max(n, 0)], scores, standing, seat_stats, game_stats
