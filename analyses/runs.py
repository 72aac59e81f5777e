"""Reading run directories (seats/*.parquet + manifest.json) into dataframes.

This is the analyses' own view of the output contract, so analyses and
reports depend on the files only, never on the simulator.
"""

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import polars as pl


class NotARun(ValueError):
    """A directory that does not hold a run (no manifest.json or no seats/*.parquet)."""


@dataclass(frozen=True)
class RunFiles:
    """One run directory: its manifest (a dict) and its seat rows (a polars frame, read on demand)."""

    dir: Path

    @cached_property
    def manifest(self):
        return json.loads((self.dir / "manifest.json").read_text())

    @cached_property
    def seats(self):
        return pl.read_parquet(sorted((self.dir / "seats").glob("*.parquet")))

    @property
    def name(self):
        return self.dir.name


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
