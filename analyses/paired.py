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

from analyses.seats import as_polars


def require_rotated(seats):
    """Return ``seats`` as polars, refusing a run that was not played with rotated seats."""
    seats = as_polars(seats)
    if "rotation" not in seats.columns:
        raise ValueError("this analysis needs a run played with rotated seats (simulate --rotate-seats); "
                         "the seat rows have no 'rotation' column")
    return seats


def _z(confidence):
    return float(stats.norm.ppf(0.5 + confidence / 2))


def _paired_p(d):
    """Two-sided t-test p-value of "mean difference 0"; constant differences give 1 (all 0) or 0."""
    if len(d) < 2:
        return float("nan")
    if d.std() == 0:
        return 1.0 if d[0] == 0 else 0.0
    return float(stats.ttest_1samp(d, 0.0).pvalue)


def effects(seats, by="strategy", value="win", confidence=0.95):
    """Mean ``value`` (win share or score) per ``by`` (``"seat"`` or ``"strategy"``) on duplicate deals.

    Columns: ``by``, games, deals, mean, half_paired, half_independent,
    narrower (1 - paired/independent: 0.4 means 40% narrower) and
    equivalent_games.
    """
    seats = require_rotated(seats)
    z = _z(confidence)
    per_deal = seats.group_by([by, "game"]).agg(pl.col(value).mean().alias("deal_mean"))
    paired = per_deal.group_by(by).agg(
        pl.len().alias("deals"),
        pl.col("deal_mean").std().fill_null(0.0).alias("deal_sd"))
    single = seats.group_by(by).agg(
        pl.len().alias("games"),
        pl.col(value).mean().alias("mean"),
        pl.col(value).std().fill_null(0.0).alias("game_sd"))
    table = single.join(paired, on=by).sort(by).with_columns(
        (z * pl.col("deal_sd") / pl.col("deals").sqrt()).alias("half_paired"),
        (z * pl.col("game_sd") / pl.col("games").sqrt()).alias("half_independent"))
    return table.with_columns(
        (1 - pl.col("half_paired") / pl.col("half_independent")).fill_nan(0.0).alias("narrower"),
        (pl.col("games") * (pl.col("half_independent") / pl.col("half_paired")) ** 2)
        .fill_nan(None).round(0).alias("equivalent_games"),
    ).select(by, "games", "deals", "mean", "half_paired", "half_independent", "narrower", "equivalent_games")


def strategy_differences(seats, value="win", confidence=0.95):
    """Paired comparison of every two strategies on the deals both played.

    Columns: a, b, deals, difference (mean ``value`` of a minus that of b),
    its paired interval (low, high), the paired p-value of "no difference"
    (t-test over deals), and the half-width independent games would give.
    """
    seats = require_rotated(seats)
    z = _z(confidence)
    wide = (seats.group_by(["game", "strategy"]).agg(pl.col(value).mean())
            .pivot(on="strategy", index="game", values=value))
    names = sorted(seats["strategy"].unique().to_list())
    rows = []
    for a, b in itertools.combinations(names, 2):
        pair = wide.select(a, b).drop_nulls()
        d = (pair[a] - pair[b]).to_numpy()
        diff = float(d.mean())
        half = z * float(d.std(ddof=1)) / np.sqrt(len(d)) if len(d) > 1 else float("inf")
        p = _paired_p(d)
        va = seats.filter(pl.col("strategy") == a)[value]
        vb = seats.filter(pl.col("strategy") == b)[value]
        indep = z * np.sqrt(va.var() / len(va) + vb.var() / len(vb))
        rows.append((a, b, len(d), diff, diff - half, diff + half, p, float(indep)))
    return pl.DataFrame(rows, schema=["a", "b", "deals", "difference", "low", "high", "p_value",
                                      "half_independent"], orient="row")
