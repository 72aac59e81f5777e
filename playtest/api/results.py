"""What the API's commands return: ``Run`` (a run of ``simulate``) and ``Result`` (every other study);
``load_run`` opens a run directory and ``verdict`` reads a run's balance verdict.
"""

from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from simulator.core import output
from simulator.core.batch import RunError


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

    def to_polars(self):
        """The per-(game, seat) rows as a polars DataFrame (``seats``)."""
        return self.seats()

    def to_pandas(self):
        """The per-(game, seat) rows as a pandas DataFrame."""
        return self.seats().to_pandas()

    @property
    def verdict(self):
        """The balance verdict at the default margin of 1 point (``verdict(run, margin)`` for another)."""
        return verdict(self)


@dataclass
class Result:
    """What a command other than ``simulate`` returns.

    Attributes
    ----------
    frame : polars.DataFrame
        The command's main table (a tournament's standings, a sweep's summary, a ladder's levels, ...).
    verdict : object or None
        The command's verdict (an ``analyses.verdict.Verdict``, or the reading of ``restrict``), if it has one.
    dir : pathlib.Path or None
        Where the command wrote its runs, if it wrote any.
    info : dict
        Everything else the command reports (its manifest, the tuned vector, ...).
    """

    frame: pl.DataFrame
    verdict: object = None
    dir: Path | None = None
    info: dict = field(default_factory=dict)

    def to_polars(self):
        """The main table as a polars DataFrame."""
        return self.frame

    def to_pandas(self):
        """The main table as a pandas DataFrame."""
        return self.frame.to_pandas()


def load_run(path):
    """Open a run directory written by ``simulate``."""
    path = Path(path)
    if not (path / output.MANIFEST).exists():
        raise RunError(f"{path} is not a playtest run directory (no {output.MANIFEST})")
    return Run(path, output.read_manifest(path))


def verdict(run, margin=1.0, confidence=0.95):
    """The balance ``analyses.verdict.Verdict`` of a ``Run`` or run directory at ``margin`` percentage points
    (``.sentence()``, ``.to_dict()``).

    Examples
    --------
    >>> v = api.verdict(api.simulate("forks", players=2, games=40, seed=3), margin=5.0)
    >>> [e.seat for e in v.edges]
    [0, 1]
    """
    from analyses.verdict import seat_verdict

    run = run if isinstance(run, Run) else load_run(run)
    return seat_verdict(run.scan(), margin, confidence, manifest=run.manifest)
