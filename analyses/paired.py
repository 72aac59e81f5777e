"""Duplicate deals: seat and strategy effects with each deal's luck cancelled.

A run made with ``rotate_seats`` plays every deal (column ``game``) once per
rotation of the strategies over the seats (column ``rotation``), with the
same cards each time. Every strategy therefore meets the same luck in every
seat, and estimates are averaged within a deal before they are compared
across deals: the deal, not the single game, is the independent unit.

Each estimate comes with two 95% half-widths: the paired one (from the spread
of per-deal averages) and the one the same number of games would give if
every game had been an independent deal (from the spread of single games).
Their ratio says how much the duplicate design narrowed the interval;
``equivalent_games`` is how many independent games that precision would cost.
"""

import itertools

import numpy as np
import polars as pl
from scipy import stats

from analyses.frames import as_polars


def _paired_p(d):
    """Two-sided t-test p-value of "mean difference 0"; constant differences give 1 (all 0) or 0."""
    if len(d) < 2:
        return float("nan")
    if d.std() == 0:
        return 1.0 if d[0] == 0 else 0.0
    return float(stats.ttest_1samp(d, 0.0).pvalue)


def require_rotated(seats):
    """Return ``seats`` as polars, refusing a run that was not played with rotated seats."""
    seats = as_polars(seats)
    if "rotation" not in seats.columns:
        raise ValueError("this analysis needs a run played with rotated seats (simulate --rotate-seats); "
                         "the seat rows have no 'rotation' column")
    return seats


DEAL = ["game"]  # one deal, played once per rotation (and, in a tournament, once per lineup)


def played(seats):
    """Columns that identify one played game: (game, rotation), plus ``lineup`` in a tournament."""
    return (["lineup"] if "lineup" in seats.columns else []) + ["game", "rotation"]


def _z(confidence):
    return float(stats.norm.ppf(0.5 + confidence / 2))


def _cluster_means(seats, by, keys, value):
    """Mean ``value`` per ``by`` within each cluster (a deal or a played game)."""
    return seats.group_by([by] + keys).agg(pl.col(value).mean().alias("cluster_mean"))


def _half_widths(means, by, z, name):
    """Per ``by``: number of clusters and the half-width of the mean of the cluster means."""
    return means.group_by(by).agg(
        pl.len().alias(f"n_{name}"),
        (z * pl.col("cluster_mean").std().fill_null(0.0) / pl.len().sqrt()).alias(f"half_{name}"))


def _narrowing(table):
    """Add ``narrower`` (1 - paired/independent) and ``equivalent_games``."""
    return table.with_columns(
        (1 - pl.col("half_paired") / pl.col("half_independent")).fill_nan(0.0).alias("narrower"),
        (pl.col("games") * (pl.col("half_independent") / pl.col("half_paired")) ** 2)
        .fill_nan(None).round(0).alias("equivalent_games"))


def effects(seats, by="strategy", value="win", confidence=0.95):
    """Mean ``value`` (win share or score) per ``by`` (``"seat"`` or ``"strategy"``) on duplicate deals.

    Columns: ``by``, games (played games it took part in), deals, mean,
    half_paired (from per-deal averages), half_independent (from per-game
    averages: what as many independent deals would give), narrower
    (1 - paired/independent: 0.4 means 40% narrower, negative means wider)
    and equivalent_games (independent games needed for the paired precision).
    """
    seats = require_rotated(seats)
    z = _z(confidence)
    games = _cluster_means(seats, by, played(seats), value)
    table = (games.group_by(by).agg(pl.col("cluster_mean").mean().alias("mean"))
             .join(_half_widths(games, by, z, "independent").rename({"n_independent": "games"}), on=by)
             .join(_half_widths(_cluster_means(seats, by, DEAL, value), by, z, "paired")
                   .rename({"n_paired": "deals"}), on=by)
             .sort(by))
    return _narrowing(table).select(by, "games", "deals", "mean", "half_paired", "half_independent",
                                    "narrower", "equivalent_games")


def _difference_half(seats, keys, value, a, b, z):
    """Mean and half-width of (a minus b) over the clusters where both strategies played."""
    wide = (_cluster_means(seats, "strategy", keys, value)
            .pivot(on="strategy", index=keys, values="cluster_mean").select(a, b).drop_nulls())
    d = (wide[a] - wide[b]).to_numpy()
    half = z * float(d.std(ddof=1)) / np.sqrt(len(d)) if len(d) > 1 else float("inf")
    return d, half


def strategy_differences(seats, value="win", confidence=0.95):
    """Paired comparison of every two strategies on the deals both played.

    Columns: a, b, games, deals, difference (mean ``value`` of a minus that
    of b), its paired interval (low, high), the paired p-value of "no
    difference" (t-test over deals), half_paired, half_independent (per-game
    differences, as if every game were a fresh deal), narrower and
    equivalent_games.
    """
    seats = require_rotated(seats).with_columns(pl.col("strategy").cast(pl.String))
    z = _z(confidence)
    names = sorted(seats["strategy"].unique().to_list())
    rows = []
    for a, b in itertools.combinations(names, 2):
        d, half = _difference_half(seats, DEAL, value, a, b, z)
        d_games, half_games = _difference_half(seats, played(seats), value, a, b, z)
        diff = float(d.mean())
        rows.append((a, b, len(d_games), len(d), diff, diff - half, diff + half, _paired_p(d), half,
                     half_games))
    table = pl.DataFrame(rows, schema=["a", "b", "games", "deals", "difference", "low", "high", "p_value",
                                       "half_paired", "half_independent"], orient="row")
    return _narrowing(table)
