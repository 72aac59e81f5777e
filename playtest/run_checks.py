"""Checks of the run directories given to ``report`` and ``compare``, before anything is read whole.

``analyses.runs.check_files`` refuses files that are not JSON or parquet at
all; this module also knows what the simulator writes: every chunk of a run
must have exactly the columns and types of its game's seat rows (a column
dropped or retyped is named with its file), and a run that never finished is
reported so the command can warn.
"""

import json
from pathlib import Path

import polars as pl

from analyses.runs import NotARun, check_files
from simulator import games as game_registry
from simulator.core import output
from simulator.core.batch import allocate


def seat_schema(game, players, rotated):
    """The columns and types of a run's seat rows, as the writer makes them (an empty chunk)."""
    scores, standing, seat_stats, game_stats, _ = allocate(game, players, 0)
    frame = output.seat_frame(game, ["?"] * players, 0, scores, standing, seat_stats, game_stats,
                              0 if rotated else None)
    return dict(frame.schema)


def runs_under(paths):
    """Every run directory (a ``manifest.json`` beside a ``seats`` folder) at or under ``paths``."""
    found = []
    for path in map(Path, paths):
        found += sorted(m.parent for m in path.rglob("manifest.json") if (m.parent / output.SEATS_DIR).is_dir())
    return found


def check_columns(run):
    """Refuse (``NotARun``) a run whose chunk files lack a column of its game, type one differently, or add one.

    The message names the file and the column. Only parquet footers are read.
    """
    manifest = json.loads((run / output.MANIFEST).read_text())
    try:
        game = game_registry.get(manifest.get("game"))
        expected = seat_schema(game, int(manifest["players"]), bool(manifest.get("rotate_seats")))
    except (game_registry.UnknownGame, KeyError, TypeError, ValueError):
        raise NotARun(f"{run / output.MANIFEST} is damaged (no game or player count playtest knows)") from None
    for part in sorted((run / output.SEATS_DIR).glob("*.parquet")):
        found = pl.read_parquet_schema(part)
        problem = next((f"has no column {name!r}" for name in expected if name not in found), None) or next(
            (f"has the column {name!r} as {found[name]}, where a run of {game.name} writes {dtype}"
             for name, dtype in expected.items() if found[name] != dtype), None) or next(
            (f"has a column {name!r} that a run of {game.name} does not write" for name in found
             if name not in expected), None)
        if problem:
            raise NotARun(f"{part} {problem}: it is damaged or was changed; play the run again")


def incomplete(paths):
    """``"DIR did not finish (G of N games played)"`` for every run at or under ``paths`` whose manifest says it
    did not finish; a manifest that cannot be read is passed over here (``check_runs`` refuses it)."""
    lines = []
    for run in runs_under(paths):
        try:
            manifest = json.loads((run / output.MANIFEST).read_text())
        except (OSError, ValueError):
            continue
        if isinstance(manifest, dict) and manifest.get("complete") is False:
            unit = "deals" if manifest.get("rotate_seats") else "games"
            lines.append(f"{run} did not finish ({manifest.get('games_done', 0):,} of {manifest.get('games', 0):,} "
                         f"{unit} played)")
    return lines


def check_runs(paths):
    """Refuse (``NotARun``) a damaged file under ``paths`` (``check_files``), then ``check_columns`` for every
    run at or under them."""
    for path in paths:
        check_files(path)
    for run in runs_under(paths):
        check_columns(run)
