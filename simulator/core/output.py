"""The output contract: tidy per-(game, seat) frames, parquet chunks and the manifest.

A run directory holds ``seats/part-NNNNNN.parquet`` (one file per chunk) and
``manifest.json``. Every file is written under a temporary name and renamed
into place, so an interrupted run never leaves a half-written file.
"""

import json
import os
from pathlib import Path

import numpy as np
import polars as pl

SEATS_DIR = "seats"
MANIFEST = "manifest.json"


def ranks_and_wins(standing):
    """Rank (1 = best, ties share the better rank) and win share (1/k for a k-way shared top).

    ``standing`` is an int64 array ``[games, seats]``, higher is better.
    """
    better = (standing[:, None, :] > standing[:, :, None]).sum(axis=2)
    top = standing == standing.max(axis=1, keepdims=True)
    return (1 + better).astype(np.int8), top / top.sum(axis=1, keepdims=True)


def seat_frame(game, strategies, start, scores, standing, seat_stats, game_stats, rotation=None):
    """Build the long per-(game, seat) frame of one chunk.

    ``strategies`` names the strategy of each seat; ``rotation`` (optional)
    labels the seat rotation of a duplicate-deal run.
    """
    count, players = scores.shape
    rank, win = ranks_and_wins(standing)
    columns = {
        "game": np.repeat(np.arange(start, start + count, dtype=np.int64), players),
        "seat": np.tile(np.arange(players, dtype=np.int8), count),
        "strategy": pl.Series(np.tile(np.array(strategies, dtype=object), count), dtype=pl.Categorical),
        "score": scores.reshape(-1),
        "rank": rank.reshape(-1),
        "win": win.reshape(-1),
        "players": np.full(count * players, players, dtype=np.int8),
    }
    for j, name in enumerate(game.game_columns):
        columns[name] = np.repeat(game_stats[:, j], players)
    for j, name in enumerate(game.seat_columns):
        columns[name] = seat_stats[:, :, j].reshape(-1)
    frame = pl.DataFrame(columns)
    if rotation is not None:
        frame = frame.insert_column(1, pl.Series("rotation", np.full(count * players, rotation, np.int8)))
    return frame


def chunk_path(out, chunk):
    return Path(out) / SEATS_DIR / f"part-{chunk:06d}.parquet"


def write_chunk(out, chunk, frame):
    """Write one chunk's frame atomically (temporary name, then rename)."""
    path = chunk_path(out, chunk)
    tmp = path.with_name(path.name + ".tmp")
    frame.write_parquet(tmp, compression="zstd", statistics=True)
    os.replace(tmp, path)


def write_manifest(out, manifest):
    """Write ``manifest.json`` atomically."""
    path = Path(out) / MANIFEST
    tmp = path.with_name(MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=False, default=_jsonable) + "\n")
    os.replace(tmp, path)


def read_manifest(out):
    return json.loads((Path(out) / MANIFEST).read_text())


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
