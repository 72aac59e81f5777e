"""Strength on a skill ladder: how much more each player model wins than the rung below it.

The models of a ladder are listed weakest first. Each model plays the one
listed just below it (its neighbour on the ladder) in a *match*: half the
seats each at an even player count, the upper model in one seat against the
lower one in all the others at an odd count, seats rotated (every deal is
played once per rotation, so both models meet the same cards in every seat),
all matches on one seed (game ``i`` is the same deal in every match).

A match's *step* is the upper model's edge per seat: its win share per seat
minus the fair share ``1/players``, in points (shared wins count ``1/k``).
A model's *strength* is the sum of the steps from the first model (the
reference, strength 0) up to it: points of win share per seat gained rung by
rung. Steps are measured between neighbours only because win shares saturate
(no model wins more than every game), so points add up along near rungs but
not between far ones; a step of a stronger model down the list is negative
and its strength then lies below its neighbour's.

Every strength, and every difference of two strengths, is a mean over deals
of per-deal sums of steps, and each sum is bounded: a step lies between
``-100/players`` (the upper model never wins) and ``100/upper_seats -
100/players`` (it wins every game). The 95% interval is the one the seat
shares get (``analyses.intervals``), on the sum rescaled to a share of the
games the deal played across those matches: Clopper-Pearson at the effective
number of games (Kish's design effect, the deal as the cluster, so that its
rotations and the matches that share it are not counted as independent). It
keeps its width at the bounds: a model that wins every game of every deal
gets an interval reaching below the ceiling, where a t interval over
identical deals would have none.

``match_lineup`` builds a match's seats, ``steps_per_deal`` reads a match's
rows, ``Ladder`` holds the per-deal strengths with ``table`` and
``difference``.
"""

from dataclasses import dataclass

import numpy as np
import polars as pl

from analyses.frames import as_lazy
from analyses.intervals import effective_units, exact
from analyses.moments import finished_filter


def upper_seats(players):
    """Seats the upper model of a match holds: half of them at an even count, one at an odd count."""
    return players // 2 if players % 2 == 0 else 1


def match_lineup(lower, upper, players):
    """A match's strategies by seat (then rotated): the upper model in ``upper_seats`` seats, the lower in
    the others."""
    held = upper_seats(players)
    return [upper] * held + [lower] * (players - held)


def step_bounds(players):
    """``(low, high)``: the least and the most a match's step can be, in points (the upper model wins no game,
    or every game)."""
    return -100 / players, 100 / upper_seats(players) - 100 / players


def bounded_interval(per_deal, low, high, games, confidence=0.95):
    """``(mean, lo, hi)`` of per-deal values each within ``[low, high]`` (deals on the last axis; works on
    batches), each deal made of ``games`` games: the values rescaled to a share of those games, Clopper-Pearson
    at their effective number (``analyses.intervals.effective_units``, the deal as the cluster), scaled back.
    The interval stays within the bounds and keeps a positive width when every deal agrees, even at a bound;
    nan with fewer than two deals."""
    values = np.asarray(per_deal, dtype=float)
    deals = values.shape[-1]
    if deals < 2:
        nan = np.full(values.shape[:-1], np.nan)
        return nan, nan, nan
    share = np.clip((values - low) / (high - low), 0.0, 1.0)
    mean = share.mean(axis=-1)
    worth = effective_units(mean[..., None], share.var(axis=-1)[..., None], deals, deals * games)
    lo, hi = exact(mean * worth, worth, confidence)
    return tuple(low + (high - low) * a for a in (mean, lo, hi))


def steps_per_deal(seats, upper, players):
    """``(deals, step)``: the deal numbers of a match's rows and the upper model's edge per seat in each
    (points: its wins averaged over its seats and the deal's rotations, minus ``100/players``), numpy
    arrays in deal order. Unfinished games are left out, and with them a deal none of whose games finished."""
    rows, _ = finished_filter(as_lazy(seats))
    frame = (rows.filter(pl.col("strategy").cast(pl.String) == upper)
             .group_by("game").agg(pl.col("win").cast(pl.Float64).mean()).sort("game")
             .collect())
    return frame["game"].to_numpy(), 100 * (frame["win"].to_numpy() - 1 / players)


@dataclass(frozen=True)
class Ladder:
    """The models, weakest first as listed, each model's strength in every deal (``models x deals``, points;
    the first model's row is 0), and the player count of the matches (which bounds their steps); batches of
    ladders put leading axes before the last two."""

    models: tuple
    per_deal: np.ndarray
    players: int

    @classmethod
    def of_steps(cls, models, steps, players):
        """The ladder of neighbour steps (``(..., models - 1, deals)``, points, matches of ``players``
        players): strengths are their running sums, the first model's 0."""
        steps = np.asarray(steps, dtype=float)
        zero = np.zeros(steps.shape[:-2] + (1, steps.shape[-1]))
        return cls(tuple(models), np.concatenate([zero, np.cumsum(steps, axis=-2)], axis=-2), players)

    def _between(self, i, j, confidence):
        """``(value, lo, hi)`` of model ``i``'s strength minus model ``j``'s (indices): the sum of the
        ``|i - j|`` steps between them, with its interval (``bounded_interval``); exactly 0 when ``i == j``."""
        if i == j:
            zero = np.zeros(self.per_deal.shape[:-2])
            return zero, zero.copy(), zero.copy()
        steps = abs(i - j)
        low, high = (steps * b for b in step_bounds(self.players))
        sign = 1 if i > j else -1
        value, lo, hi = bounded_interval(sign * (self.per_deal[..., i, :] - self.per_deal[..., j, :]), low, high,
                                         steps * self.players, confidence)
        return (value, lo, hi) if sign > 0 else (-value, -hi, -lo)

    def strength(self, confidence=0.95):
        """``(value, lo, hi)`` arrays over the models: each strength in points per seat with its interval
        (the reference's is exactly 0)."""
        parts = [self._between(k, 0, confidence) for k in range(len(self.models))]
        return tuple(np.stack([p[n] for p in parts], axis=-1) for n in range(3))

    def difference(self, a, b, confidence=0.95):
        """``(difference, lo, hi)``: model ``a``'s strength minus model ``b``'s (names), points per seat, with
        its interval over deals."""
        return self._between(self.models.index(a), self.models.index(b), confidence)

    def ranked(self):
        """The models strongest first (by their point strength)."""
        value = self.strength()[0]
        return [self.models[k] for k in np.argsort(-value, kind="stable")]

    def table(self, confidence=0.95):
        """One row per model: model, strength, strength_low, strength_high (points per seat)."""
        value, lo, hi = self.strength(confidence)
        return pl.DataFrame({"model": list(self.models), "strength": value, "strength_low": lo,
                             "strength_high": hi})


def ladder_of_matches(models, matches, players):
    """The ``Ladder`` of ``models`` from their neighbour matches' seat rows (``matches[k]``: model ``k``
    against model ``k + 1``, as ``match_lineup`` seats them), on the deals every match played."""
    read = [steps_per_deal(seats, models[k + 1], players) for k, seats in enumerate(matches)]
    if not read:
        return Ladder(tuple(models), np.zeros((1, 0)), players)
    common = read[0][0]
    for deals, _ in read[1:]:
        common = np.intersect1d(common, deals, assume_unique=True)
    steps = [step[np.isin(deals, common)] for deals, step in read]
    return Ladder.of_steps(models, np.stack(steps), players)
