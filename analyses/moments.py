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
from analyses.intervals import effective_units, exact


def family(players):
    """How many seat intervals the verdict corrects for (Bonferroni): every seat, except with two players,
    whose edges are mirror images (seat 1's is minus seat 0's), so one interval says everything."""
    return 1 if players == 2 else players


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
    def spread(self):
        """Variance of one unit's win for each seat (ddof 0; 0 with fewer than two units)."""
        if self.n < 2:
            return np.zeros(self.total.shape)
        return np.clip(np.diagonal(self.cov, axis1=-2, axis2=-1), 0, None) * (self.n - 1) / self.n

    @property
    def effective_games(self):
        """Independent games the shares are worth (``analyses.intervals.effective_units``): the games
        themselves without rotated seats, between the deals and the games with them."""
        return effective_units(self.mean, self.spread, self.n, self.games)

    def intervals(self, confidence=0.95, family=1):
        """``(low, high)`` of every seat's win share: exact (Clopper-Pearson) intervals on the effective
        games, each at ``1 - (1 - confidence) / family`` (``family`` seats tested together: Bonferroni).
        Valid from a handful of games on, and never of zero width."""
        worth = np.asarray(self.effective_games)[..., None]
        return exact(self.mean * worth, worth, 1 - (1 - confidence) / family)


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


BATCH_ROWS = 100_000  # rows per streamed batch when a frame comes in game order
UNIT_SLICE = 200_000  # deals per pass otherwise: bounds the memory of seat_moments for a frame of any size


def seat_moments(seats):
    """The ``SeatMoments`` of a seat frame (polars, lazy or pandas), one unit per deal.

    Memory stays flat however many games the frame holds: moments of
    disjoint deals add up exactly. A frame whose rows come in game order (a
    run directory, a run in memory) is read in one streaming pass of
    ``BATCH_ROWS`` rows at a time, each batch's last deal carried into the
    next; any other frame (e.g. a tournament's runs stacked, where every
    lineup plays the same deals) is aggregated ``UNIT_SLICE`` deals (game
    numbers) per pass. Unfinished games are left out (and counted in
    ``unfinished``).
    """
    seats = as_lazy(seats)
    players = seats.select(pl.col("players").first()).collect(engine="streaming").item()
    columns = ["game", "seat", "win"] + (["finished"] if "finished" in seats.collect_schema().names() else [])
    seats = seats.select(columns)
    sums = _ordered_sums(seats, players)
    if sums is None:
        sums = _sliced_sums(seats, players)
    n, rows, total, cross, unfinished = sums
    # games per unit: the rotations of a deal (or, in a tournament, every lineup's rotations of it)
    rotations = round(rows / (players * n)) if n else 1
    return SeatMoments(n, total, cross, int(rotations), unfinished)


def _ordered_sums(seats, players):
    """``(units, rows, sum of w, sum of w w^T, unfinished games)`` in one streaming pass over a frame in game
    order (columns game, seat, win and finished if any); None as soon as a game number goes back (the frame
    is not in game order)."""
    acc = _Sums(players)
    carry = None
    for batch in seats.collect_batches(chunk_size=BATCH_ROWS):
        if carry is not None:
            batch = pl.concat([carry, batch])
        game = batch["game"].to_numpy()
        if game.size == 0:
            continue
        if (game[1:] < game[:-1]).any():
            return None
        cut = int(np.searchsorted(game, game[-1]))  # the last deal's rows may go on in the next batch
        acc.add(batch[:cut])
        carry = batch[cut:]
    if carry is not None:
        acc.add(carry)
    return acc.result()


def _sliced_sums(seats, players):
    """``_ordered_sums`` for a frame in any order: ``UNIT_SLICE`` game numbers per pass."""
    lo, hi = seats.select(pl.col("game").min().alias("lo"), pl.col("game").max().alias("hi")) \
        .collect(engine="streaming").row(0)
    acc = _Sums(players)
    if lo is not None:
        for start in range(lo, hi + 1, UNIT_SLICE):
            acc.add(seats.filter(pl.col("game").is_between(start, start + UNIT_SLICE - 1)).sort("game")
                    .collect(engine="streaming"))
    return acc.result()


class _Sums:
    """Running sums of the unit vectors of frames that each hold every row of their deals."""

    def __init__(self, players):
        self.players = players
        self.n = self.rows = self.unfinished = 0
        self.total, self.cross = np.zeros(players), np.zeros((players, players))

    def add(self, frame):
        """Add the deals of an eager frame in game order with columns game, seat, win (and finished)."""
        game, seat, win = (frame[c].to_numpy() for c in ("game", "seat", "win"))
        if "finished" in frame.columns:
            done = frame["finished"].cast(pl.Boolean).to_numpy()
            self.unfinished += int(np.count_nonzero((seat == 0) & ~done))
            game, seat, win = game[done], seat[done], win[done]
        if game.size == 0:
            return
        unit = np.cumsum(np.r_[True, game[1:] != game[:-1]]) - 1  # the deal of each row, numbered from 0
        deals = int(unit[-1]) + 1
        key = unit * self.players + seat.astype(np.int64)
        size = deals * self.players
        summed = np.bincount(key, weights=win, minlength=size).reshape(-1, self.players)
        rows = np.bincount(key, minlength=size).reshape(-1, self.players)
        w = np.divide(summed, rows, out=np.zeros_like(summed), where=rows > 0)  # a seat's mean over rotations
        self.n, self.rows = self.n + deals, self.rows + game.size
        self.total, self.cross = self.total + w.sum(axis=0), self.cross + w.T @ w

    def result(self):
        return self.n, self.rows, self.total, self.cross, self.unfinished
