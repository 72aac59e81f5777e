"""Per-unit seat win vectors and their sufficient statistics, the input of every seat verdict.

The unit of inference is the deal: a run without rotated seats plays every
deal once, so a unit is one game; a run with ``--rotate-seats`` plays every
deal once per rotation, and the unit is the deal, its value for a seat the
seat's mean win over the deal's rotations. Everything the verdict, planning
and ``--until-ci`` need is the number of units, the sum of the unit vectors
and the sum of their outer products, so chunks of a run add up exactly
(``SeatMoments.__add__``) and a run of any size is summarised in one
streaming pass (``seat_moments``).

Unfinished games (a ``finished`` column that is false or 0) are left out and
counted; a frame without that column counts every game as finished.
"""

from dataclasses import dataclass

import numpy as np
import polars as pl

from analyses.frames import as_lazy


@dataclass(frozen=True)
class SeatMoments:
    """Sums over units of the per-seat win vector ``w`` (shared wins count 1/k).

    ``n`` units, ``total`` = sum of ``w`` (one entry per seat), ``cross`` =
    sum of ``w w^T``; ``rotations`` games per unit (1 without rotated seats);
    ``unfinished`` games left out.

    The arrays may carry leading batch axes (``total`` of shape ``(..., seats)``,
    ``cross`` of shape ``(..., seats, seats)``): every property and the
    verdict's interval functions then work on many runs at once, which is how
    the tests check them by simulation.
    """

    n: int
    total: np.ndarray
    cross: np.ndarray
    rotations: int = 1
    unfinished: int = 0

    @classmethod
    def of_units(cls, units, rotations=1, unfinished=0):
        """Moments of a ``(..., units, seats)`` array of per-unit win vectors."""
        units = np.asarray(units, dtype=float)
        return cls(units.shape[-2], units.sum(axis=-2), np.einsum("...np,...nq->...pq", units, units), rotations,
                   unfinished)

    @classmethod
    def empty(cls, players, rotations=1):
        return cls(0, np.zeros(players), np.zeros((players, players)), rotations)

    def __add__(self, other):
        return SeatMoments(self.n + other.n, self.total + other.total, self.cross + other.cross,
                           max(self.rotations, other.rotations), self.unfinished + other.unfinished)

    @property
    def players(self):
        return self.total.shape[-1]

    @property
    def games(self):
        """Finished games the moments describe (units times rotations)."""
        return self.n * self.rotations

    @property
    def mean(self):
        """Each seat's win share (mean over units)."""
        return self.total / self.n if self.n else np.full(self.total.shape, np.nan)

    @property
    def cov(self):
        """Covariance of the unit vectors (ddof 1): the tie-aware, deal-clustered spread of one unit."""
        if self.n < 2:
            return np.full(self.cross.shape, np.nan)
        outer = self.total[..., :, None] * self.total[..., None, :]
        return (self.cross - outer / self.n) / (self.n - 1)

    @property
    def se(self):
        """Standard error of each seat's win share."""
        return np.sqrt(np.clip(np.diagonal(self.cov, axis1=-2, axis2=-1), 0, None) / max(self.n, 1))


def is_rotated(seats):
    """True when the frame (lazy or not) comes from a run with rotated seats."""
    return "rotation" in as_lazy(seats).collect_schema().names()


def finished_filter(seats):
    """``(finished rows, unfinished games)``: the lazy frame without unfinished games and their count."""
    seats = as_lazy(seats)
    if "finished" not in seats.collect_schema().names():
        return seats, 0
    done = pl.col("finished").cast(pl.Boolean)
    unfinished = seats.filter(pl.col("seat") == 0, ~done).select(pl.len()).collect(engine="streaming").item()
    return seats.filter(done), int(unfinished)


UNIT_SLICE = 200_000  # deals aggregated per pass: bounds the memory of seat_moments for a run of any size


def seat_moments(seats):
    """The ``SeatMoments`` of a seat frame (polars, lazy or pandas), one unit per deal.

    Aggregated lazily with polars' streaming engine, ``UNIT_SLICE`` deals
    (game numbers) at a time, so memory stays flat however many games a run
    holds: moments of disjoint deals add up exactly. Unfinished games are
    left out (and counted in ``unfinished``).
    """
    seats = as_lazy(seats)
    finished, unfinished = finished_filter(seats)
    players, lo, hi = seats.select(pl.col("players").first(), pl.col("game").min().alias("lo"),
                                   pl.col("game").max().alias("hi")).collect(engine="streaming").row(0)
    n, rows = 0, 0
    total, cross = np.zeros(players), np.zeros((players, players))
    for start in range(lo, hi + 1, UNIT_SLICE):
        part = finished.filter(pl.col("game").is_between(start, start + UNIT_SLICE - 1))
        k, r, t, c = _unit_sums(part, players)
        n, rows, total, cross = n + k, rows + r, total + t, cross + c
    # games per unit: the rotations of a deal (or, in a tournament, every lineup's rotations of it)
    rotations = round(rows / (players * n)) if n else 1
    return SeatMoments(n, total, cross, int(rotations), unfinished)


def _unit_sums(seats, players):
    """``(units, rows, sum of w, sum of w w^T)`` over the deals of a lazy seat frame, in one streaming pass."""
    w = [f"w{s}" for s in range(players)]
    units = seats.group_by("game").agg(
        pl.len().alias("rows"),
        *(pl.col("win").filter(pl.col("seat") == s).mean().fill_null(0.0).alias(w[s]) for s in range(players)))
    sums = units.select(pl.len().alias("n"), pl.col("rows").sum(), *(pl.col(c).sum().alias(f"t{c}") for c in w),
                        *(pl.col(a).mul(pl.col(b)).sum().alias(f"c{a}_{b}")
                          for i, a in enumerate(w) for b in w[i:])).collect(engine="streaming").row(0, named=True)
    cross = np.zeros((players, players))
    for i, a in enumerate(w):
        for j in range(i, players):
            cross[i, j] = cross[j, i] = sums[f"c{a}_{w[j]}"] or 0.0
    total = np.array([sums[f"t{c}"] or 0.0 for c in w], dtype=float)
    return int(sums["n"]), int(sums["rows"] or 0), total, cross
