"""Compare two designs: is run B fairer than run A?

Two runs of the same game and player count (two setup tables, two parameter
sets) are compared seat by seat, on the largest seat edge and on the
game-feel figures. When both runs used the same seed and the same game
indices, game ``i`` dealt from the same random stream in both (common random
numbers), so the runs are *paired*: every interval comes from the per-deal
differences, which cancels the luck the two designs share. Otherwise the
intervals are *unpaired* (the two runs' variances add) and the output says so.

The verdict compares the change in the largest seat edge (B minus A, points)
with the margin ``M``: "fairer" when its whole 95% interval lies below
``-M``, "worse" when it lies above ``+M``, else "indistinguishable", which the
sentence splits four ways: changed (the interval excludes zero) or not, and
within the margin (the interval inside ``±M``) or not yet known to be. The interval of
the largest edge is a parametric bootstrap of the seat shares (normal, with
the paired or unpaired covariance; fixed seed), because a maximum has no
simple standard error.
"""

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import special

from analyses import feel
from analyses.frames import as_lazy
from analyses.moments import family, finished_filter
from analyses.verdict import DEFAULT_MARGIN, player_model, points

BOOTSTRAP = 4000
FEEL_COLUMNS = {"rounds": "mean rounds", "spread": "mean score spread", "margin": "mean margin of victory",
                "close": "close games", "tied": "tie rate", "turns": "mean turns", "lead_changes": "mean lead changes"}


class CompareError(ValueError):
    """Two runs that cannot be compared (different games or player counts); the message says why."""


@dataclass(frozen=True)
class Change:
    """One figure in A and in B and the change B minus A with its interval (points for shares)."""

    name: str
    a: float
    b: float
    change: float
    lo: float
    hi: float

    def to_dict(self):
        return {"name": self.name, "a": self.a, "b": self.b, "change": self.change, "lo": self.lo, "hi": self.hi}


@dataclass(frozen=True)
class Comparison:
    """The comparison of two runs: ``kind`` "fairer" | "worse" | "indistinguishable" (B against A),
    ``paired`` and why, per-seat changes (simultaneous 95%), the change in the largest edge and in the
    game-feel figures (95% each); ``model`` names the players both rest on (``player_model``)."""

    kind: str
    margin: float
    paired: bool
    pairing: str
    deals: tuple
    seats: tuple
    largest: Change
    feel: tuple
    model: str = ""

    def sentence(self):
        big, m = self.largest, f"{points(self.margin)} points{self.model}"
        change = f"{big.change:+.2f} points ({big.lo:+.2f} to {big.hi:+.2f})"
        where = f"largest seat edge {big.a:.2f} in A, {big.b:.2f} in B"
        if self.kind == "fairer":
            return f"B is fairer than A beyond ±{m}: the largest seat edge changes by {change} ({where})."
        if self.kind == "worse":
            return f"B is less fair than A beyond ±{m}: the largest seat edge changes by {change} ({where})."
        within = -self.margin < big.lo and big.hi < self.margin
        if big.lo > 0 or big.hi < 0:
            if within:
                return (f"B changed the largest seat edge, but within the margin of ±{m}: it changes by "
                        f"{change} ({where}).")
            return (f"B changed the largest seat edge by {change}, but cannot yet be said to change it by more than "
                    f"±{m}; more games could tell ({where}).")
        if within:
            return f"A and B are equally fair within ±{m}: the largest seat edge changes by {change} ({where})."
        return (f"A and B cannot be told apart at ±{m}: the largest seat edge changes by {change}; more games "
                f"could still tell them apart ({where}).")

    def lines(self):
        out = [self.sentence(), f"  {self.pairing}"]
        out.append("  change in each seat's win share, B minus A (points; "
                   f"{'95%' if len(self.seats) == 2 else 'simultaneous 95%'}):")
        out += [f"    seat {c.name}: {c.a:.2f}% -> {c.b:.2f}%, {c.change:+.2f} ({c.lo:+.2f} to {c.hi:+.2f})"
                for c in self.seats]
        out.append("  change in game feel, B minus A (95%):")
        out += [feel_line(c) for c in self.feel]
        return out

    def to_dict(self):
        return {"verdict": self.kind, "sentence": self.sentence(), "margin": self.margin,
                "units": "percentage points of win share", "paired": self.paired, "pairing": self.pairing,
                "deals": list(self.deals), "seats": [c.to_dict() for c in self.seats],
                "largest_edge": self.largest.to_dict(), "feel": [c.to_dict() for c in self.feel]}


FEEL_UNITS = {"close games": "%", "tie rate": "%"}  # shares of games; the change is then in points


def feel_line(c):
    """One game-feel change, two decimals (two significant digits for a change below 0.005): "mean rounds:
    6.12 -> 5.21, -0.91 (-1.21 to -0.61)";
    shares as "12.50% -> 11.00%, -1.50 points (...)"; a figure that was the same in every deal of both runs
    says so instead of showing "+0.00 (+0.00 to +0.00)"."""
    unit = FEEL_UNITS.get(c.name, "")
    # a change too small for two decimals keeps two significant digits: "-0.0030 (-0.0045 to -0.0015)", not "-0.00"
    places = 2 if c.change == 0 or abs(c.change) >= 0.005 else min(6, 1 - math.floor(math.log10(abs(c.change))))
    change = f"    {c.name}: {c.a:.2f}{unit} -> {c.b:.2f}{unit}, {c.change:+.{places}f}{' points' if unit else ''}"
    if c.lo == c.hi == c.change:
        return f"{change} (the same difference in every deal)"
    return f"{change} ({c.lo:+.{places}f} to {c.hi:+.{places}f})"


def deal_table(seats, players):
    """One row per deal (column ``game``) of finished games: each seat's mean win ``w0``...``wN``."""
    finished, _ = finished_filter(as_lazy(seats))
    return finished.group_by("game").agg(
        *(pl.col("win").filter(pl.col("seat") == s).mean().fill_null(0.0).alias(f"w{s}")
          for s in range(players))).sort("game").collect(engine="streaming")


def pairing(manifest_a, manifest_b, deals_a, deals_b):
    """``(paired, reason)``: paired when both runs used the same seed, seat rotation and deal indices."""
    same_seed = manifest_a.get("seed") == manifest_b.get("seed")
    same_rotation = bool(manifest_a.get("rotate_seats")) == bool(manifest_b.get("rotate_seats"))
    same_deals = deals_a.height == deals_b.height and deals_a["game"].equals(deals_b["game"])
    if same_seed and same_rotation and same_deals:
        return True, (f"paired: both runs used seed {manifest_a.get('seed')} and the same {deals_a.height:,} deals, "
                      "so game i drew the same random numbers in both (common random numbers)")
    why = "different seeds" if not same_seed else "different seat rotation" if not same_rotation else \
        "different games played"
    return False, f"unpaired ({why}): the two runs' deals are independent, so their variances add"


def _z(confidence, family=1):
    return float(special.ndtri(1 - (1 - confidence) / (2 * family)))


def mean_change(a, b, paired, confidence=0.95, family=1):
    """``(change, lo, hi)`` of mean(b) - mean(a) for per-deal arrays (columns compared one by one)."""
    change = b.mean(axis=0) - a.mean(axis=0)
    if paired:
        se = (b - a).std(axis=0, ddof=1) / np.sqrt(len(a))
    else:
        se = np.sqrt(a.var(axis=0, ddof=1) / len(a) + b.var(axis=0, ddof=1) / len(b))
    half = _z(confidence, family) * se
    return change, change - half, change + half


def largest_edge_change(a, b, paired, confidence=0.95, replicates=BOOTSTRAP, seed=0):
    """``(theta_a, theta_b, change, lo, hi)`` for the largest absolute seat edge (shares), B minus A.

    Parametric bootstrap: the seat shares of A and B are drawn from a normal
    with their estimated covariance (with the cross-covariance when paired).
    """
    players = a.shape[1]
    fair = 1.0 / players
    mean = np.concatenate([a.mean(axis=0), b.mean(axis=0)])
    if paired:
        cov = np.cov(np.hstack([a, b]), rowvar=False) / len(a)
    else:
        cov = np.zeros((2 * players, 2 * players))
        cov[:players, :players] = np.cov(a, rowvar=False) / len(a)
        cov[players:, players:] = np.cov(b, rowvar=False) / len(b)
    rng = np.random.default_rng(seed)
    draws = rng.multivariate_normal(mean, cov, size=replicates, method="eigh")
    theta = np.abs(mean - fair)
    boot = np.abs(draws[:, players:] - fair).max(axis=1) - np.abs(draws[:, :players] - fair).max(axis=1)
    lo, hi = np.quantile(boot, [(1 - confidence) / 2, (1 + confidence) / 2])
    ta, tb = theta[:players].max(), theta[players:].max()
    return ta, tb, tb - ta, float(lo), float(hi)


def verdict_of(lo, hi, margin):
    """"fairer" when the change in the largest edge (points) lies wholly below ``-margin``, "worse" when
    wholly above ``+margin``, else "indistinguishable"."""
    return "fairer" if hi < -margin else "worse" if lo > margin else "indistinguishable"


def _feel_changes(seats_a, seats_b, paired, confidence):
    games_a, games_b = feel.per_game(seats_a), feel.per_game(seats_b)
    columns = [c for c in FEEL_COLUMNS if c in games_a.columns and c in games_b.columns]
    cast = [pl.col(c).cast(pl.Float64).mean() for c in columns]
    deals_a = games_a.group_by("game").agg(cast).sort("game")
    deals_b = games_b.group_by("game").agg(cast).sort("game")
    if paired:
        both = deals_a.join(deals_b, on="game", suffix="_b")
        a, b = both.select(columns).to_numpy(), both.select([f"{c}_b" for c in columns]).to_numpy()
    else:
        a, b = deals_a.select(columns).to_numpy(), deals_b.select(columns).to_numpy()
    change, lo, hi = mean_change(a, b, paired, confidence)
    scale = [100 if c in ("close", "tied") else 1 for c in columns]
    return tuple(Change(FEEL_COLUMNS[c], s * float(x), s * float(y), s * float(d), s * float(l), s * float(h))
                 for c, s, x, y, d, l, h in zip(columns, scale, a.mean(axis=0), b.mean(axis=0), change, lo, hi))


def compare(seats_a, seats_b, manifest_a, manifest_b, margin=DEFAULT_MARGIN, confidence=0.95):
    """The ``Comparison`` of run B (``seats_b``, ``manifest_b``) against run A at ``margin`` points."""
    if margin <= 0:
        raise CompareError(f"the margin must be positive (percentage points), got {margin}")
    for key in ("game", "players"):
        if manifest_a.get(key) != manifest_b.get(key):
            raise CompareError(f"the runs differ in {key} ({manifest_a.get(key)} against {manifest_b.get(key)}); "
                               "compare two runs of the same game and player count")
    version_a, version_b = manifest_a.get("engine_version"), manifest_b.get("engine_version")
    if version_a != version_b:
        raise CompareError(f"the runs were played by different {manifest_a['game']} engines (version {version_a} "
                           f"against {version_b}), whose games may differ; play both with the same playtest")
    players = int(manifest_a["players"])
    deals_a, deals_b = deal_table(seats_a, players), deal_table(seats_b, players)
    if deals_a.height < 2 or deals_b.height < 2:
        raise CompareError("each run needs at least two finished games to be compared")
    paired, reason = pairing(manifest_a, manifest_b, deals_a, deals_b)
    w = [f"w{s}" for s in range(players)]
    a, b = deals_a.select(w).to_numpy(), deals_b.select(w).to_numpy()
    change, lo, hi = mean_change(a, b, paired, confidence, family=family(players))
    seats = tuple(Change(str(s), 100 * a[:, s].mean(), 100 * b[:, s].mean(), 100 * change[s], 100 * lo[s],
                         100 * hi[s]) for s in range(players))
    ta, tb, d, dlo, dhi = largest_edge_change(a, b, paired, confidence)
    largest = Change("largest seat edge", 100 * ta, 100 * tb, 100 * d, 100 * dlo, 100 * dhi)
    model_a, model_b = player_model(seats_a), player_model(seats_b)
    model = f" {model_a}" if model_a == model_b else f" (A {model_a}; B {model_b})"
    feel_changes = _feel_changes(seats_a, seats_b, paired, confidence)
    return Comparison(verdict_of(largest.lo, largest.hi, margin), float(margin), paired, reason,
                      (deals_a.height, deals_b.height), seats, largest, feel_changes, model)
