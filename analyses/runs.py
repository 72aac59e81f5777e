"""Reading run directories (seats/*.parquet + manifest.json) into dataframes.

This is the analyses' own view of the output contract, so analyses and
reports depend on the files only, never on the simulator.
"""

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import polars as pl

MANIFEST = "manifest.json"  # a run's manifest, as simulator.core.output writes it


class NotARun(ValueError):
    """A directory that does not hold a run (no manifest.json or no seats/*.parquet)."""


@dataclass(frozen=True)
class RunFiles:
    """One run directory: its manifest (a dict) and its seat rows (a polars frame, read on demand)."""

    dir: Path

    @cached_property
    def manifest(self):
        return json.loads((self.dir / MANIFEST).read_text())

    @cached_property
    def seats(self):
        return pl.read_parquet(sorted((self.dir / "seats").glob("*.parquet")))

    @property
    def name(self):
        return self.dir.name


def check_files(path):
    """Refuse (``NotARun``) a directory tree holding a damaged file that playtest reads.

    Every ``*.json`` under ``path`` must be a JSON object and every
    ``*.parquet`` must have a readable parquet footer; only footers are read,
    so this is cheap next to the analysis it protects.
    """
    import pyarrow.parquet as pq

    path = Path(path)
    for f in sorted(path.rglob("*.json")):
        try:
            value = json.loads(f.read_text())
        except (OSError, ValueError) as exc:
            raise NotARun(f"{f} cannot be read or is damaged ({exc})") from None
        if not isinstance(value, dict):
            raise NotARun(f"{f} is damaged (not a JSON object)")
    for f in sorted(path.rglob("*.parquet")):
        try:
            pq.read_metadata(f)
        except (OSError, ValueError) as exc:
            raise NotARun(f"{f} is damaged ({exc}); play the run again") from None


def is_run(path):
    """True when ``path`` holds a manifest and at least one seats parquet file."""
    path = Path(path)
    return (path / "manifest.json").is_file() and any((path / "seats").glob("*.parquet"))


def open_run(path):
    """Return the ``RunFiles`` of ``path``, refusing a directory that is not a run."""
    path = Path(path)
    if not is_run(path):
        raise NotARun(f"{path} is not a run directory (expected manifest.json and seats/*.parquet)")
    return RunFiles(path)
