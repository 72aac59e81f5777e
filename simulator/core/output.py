"""The output contract: tidy per-(game, seat) frames, parquet chunks and the manifest.

A run directory holds ``seats/part-NNNNNN.parquet`` (one file per chunk) and
``manifest.json``. Every file is written under a temporary name and renamed
into place, so an interrupted run never leaves a half-written file; the
checksum of each chunk's bytes goes into the manifest, so ``--resume`` can
tell a whole chunk from a damaged or substituted one.

Encoding, chosen by measurement (bench/results.md, "Chunk encodings"):
polars' writer, zstd at level 1 (as small as the default level 3 on these
columns, and cheaper to write), no column statistics, ``strategy`` as a
categorical (a dictionary-encoded column in the file). Min/max statistics
cost about a third of the encoding's CPU and only let a reader filtering on
``game`` skip row groups; a chunk's games are listed in the manifest.
pyarrow with required columns and delta encodings takes about half the CPU,
but end to end it played no faster on 2 cores and the process peaked about
90 MB higher.
"""

import hashlib
import io
import json
import os
from pathlib import Path

import numba as nb
import numpy as np
import polars as pl

from simulator.core.rundir import RunError

SEATS_DIR = "seats"
MANIFEST = "manifest.json"
PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 1, "statistics": False}


def game_rows(game, players):
    """``(scores, standing, seat_stats, game_stats)``: one game's output rows as the kernels write them, for
    ``game`` (a descriptor) at ``players`` players; the stats at least one column wide."""
    return (np.zeros(players, np.int32), np.zeros(players, np.int64),
            np.zeros((players, max(1, len(game.seat_columns))), np.int32),
            np.zeros(max(1, len(game.game_columns)), np.int32))


@nb.njit(cache=True, nogil=True)
def ranks_and_wins(standing):
    """Rank (1 = best, ties share the better rank) and win share (1/k for a k-way shared top).

    ``standing`` is an int64 array ``[games, seats]``, higher is better.
    Jit-compiled (releases the GIL); returns ``(rank int8, win float64)``
    arrays of the same shape.
    """
    games, seats = standing.shape
    rank = np.empty((games, seats), np.int8)
    win = np.zeros((games, seats), np.float64)
    for g in range(games):
        best, tied = standing[g, 0], 0
        for s in range(seats):
            better = 0
            for o in range(seats):
                if standing[g, o] > standing[g, s]:
                    better += 1
            rank[g, s] = 1 + better
            if standing[g, s] > best:
                best = standing[g, s]
        for s in range(seats):
            if standing[g, s] == best:
                tied += 1
        for s in range(seats):
            if standing[g, s] == best:
                win[g, s] = 1.0 / tied
    return rank, win


@nb.njit(cache=True, nogil=True)
def seat_columns(seat_stats):
    """The seat statistics ``[games, seats, columns]`` as one contiguous row per column, ``[columns, games * seats]``.

    Jit-compiled (releases the GIL). polars copies a strided column element
    by element, and ``seat_stats[:, :, j]`` is strided: one pass here costs
    about half as much (bench/journal/2026-12-06-house2.md).
    """
    games, seats, columns = seat_stats.shape
    out = np.empty((columns, games * seats), seat_stats.dtype)
    for g in range(games):
        for s in range(seats):
            for j in range(columns):
                out[j, g * seats + s] = seat_stats[g, s, j]
    return out


def seat_frame(game, strategies, start, scores, standing, seat_stats, game_stats, rotation=None):
    """Build the long per-(game, seat) frame of one chunk.

    ``strategies`` names the strategy of each seat; ``rotation`` (optional)
    labels the seat rotation of a duplicate-deal run. A column named
    ``finished`` (a game or a seat column of the engine) is written as a
    Boolean: False marks a game stopped by the engine's safety cap.
    """
    count, players = scores.shape
    rank, win = ranks_and_wins(standing)
    columns = {
        "game": np.repeat(np.arange(start, start + count, dtype=np.int64), players),
        "seat": np.tile(np.arange(players, dtype=np.int8), count),
        "strategy": pl.Series(list(strategies), dtype=pl.Categorical).gather(np.tile(np.arange(players), count)),
        "score": scores.reshape(-1),
        "rank": rank.reshape(-1),
        "win": win.reshape(-1),
        "players": np.full(count * players, players, dtype=np.int8),
    }
    for j, name in enumerate(game.game_columns):
        columns[name] = np.repeat(game_stats[:, j], players)
    for name, column in zip(game.seat_columns, seat_columns(seat_stats)):
        columns[name] = column
    if "finished" in columns:
        columns["finished"] = columns["finished"] != 0
    frame = pl.DataFrame(columns)
    if rotation is not None:
        frame = frame.insert_column(1, pl.Series("rotation", np.full(count * players, rotation, np.int8)))
    return frame


def chunk_path(out, chunk):
    return Path(out) / SEATS_DIR / f"part-{chunk:06d}.parquet"


def checksum(data):
    """The checksum recorded for a chunk: blake2b (128 bits, hex) of the file's bytes."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def file_checksum(path):
    """``checksum`` of a file on disk."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, lambda: hashlib.blake2b(digest_size=16)).hexdigest()


def write_chunk(out, chunk, frame):
    """Write one chunk's frame atomically (temporary name, then rename); return its ``checksum``."""
    path = chunk_path(out, chunk)
    tmp = path.with_name(path.name + ".tmp")
    data = encode_chunk(frame)
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return checksum(data)


def encode_chunk(frame, options=PARQUET_OPTIONS):
    """The parquet file of a chunk's frame, as bytes: polars' writer with ``options`` (``write_parquet``'s
    keywords; the default is the encoding of the module docstring, the others are the benchmark's candidates)."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer, **options)
    return buffer.getbuffer()


def write_manifest(out, manifest):
    """Write ``manifest.json`` atomically."""
    path = Path(out) / MANIFEST
    tmp = path.with_name(MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=False, default=_jsonable) + "\n")
    os.replace(tmp, path)


def read_manifest(out):
    """The manifest of run directory ``out`` as a dict; an unreadable or damaged one is a ``RunError``."""
    path = Path(out) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise RunError(f"the manifest {path} cannot be read or is damaged ({exc})") from None
    if not isinstance(manifest, dict):
        raise RunError(f"the manifest {path} is damaged (not a JSON object)")
    return manifest


def scan_seats(out):
    """All finished chunks of a run directory as a polars LazyFrame."""
    return pl.scan_parquet(Path(out) / SEATS_DIR / "*.parquet")


def read_seats(out):
    """All finished chunks of a run directory as one polars frame, in game order."""
    return pl.read_parquet(Path(out) / SEATS_DIR / "*.parquet")


def _jsonable(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} to the manifest")
