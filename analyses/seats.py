"""Seat (first-player) advantage: win shares with Wilson intervals, mean scores, chi-square test."""

import numpy as np
import polars as pl
from scipy import stats

from analyses.intervals import mean_interval, wilson


def as_polars(frame):
    """Accept a polars or pandas frame and return a polars one."""
    return frame if isinstance(frame, pl.DataFrame) else pl.from_pandas(frame)


def seat_advantage(seats, confidence=0.95):
    """One row per seat: games, wins (shared wins count 1/k), win share with its Wilson
    interval, the share expected if seats were equal, and mean score with its interval."""
    seats = as_polars(seats)
    table = (seats.group_by("seat").agg(
        pl.col("strategy").first(),
        pl.len().alias("games"),
        pl.col("win").sum().alias("wins"),
        pl.col("score").mean().alias("mean_score"),
        pl.col("score").std().fill_null(0.0).alias("score_std"),
        pl.col("players").first(),
    ).sort("seat"))
    lo, hi = wilson(table["wins"].to_numpy(), table["games"].to_numpy(), confidence)
    mlo, mhi = mean_interval(table["mean_score"].to_numpy(), table["score_std"].to_numpy(),
                             table["games"].to_numpy(), confidence)
    return table.with_columns(
        (pl.col("wins") / pl.col("games")).alias("win_share"),
        pl.Series("win_lo", lo), pl.Series("win_hi", hi),
        (1.0 / pl.col("players")).alias("expected_share"),
        pl.Series("score_lo", mlo), pl.Series("score_hi", mhi),
    ).drop("score_std")


def equal_share_test(seats):
    """Chi-square goodness-of-fit test of equal win shares over seats: ``(chi2, dof, p)``.

    Wins are summed per seat (shared wins count 1/k, so the total equals the
    number of games) and compared with an equal split.
    """
    wins = as_polars(seats).group_by("seat").agg(pl.col("win").sum()).sort("seat")["win"].to_numpy()
    if wins.sum() == 0:
        return 0.0, len(wins) - 1, 1.0
    result = stats.chisquare(wins)
    return float(result.statistic), len(wins) - 1, float(result.pvalue)


def describe(row):
    """The effect for one seat in plain words, e.g. "seat 0 wins 27.1% ± 0.3% against 25.0% expected"."""
    half = (row["win_hi"] - row["win_lo"]) / 2
    return (f"seat {row['seat']} wins {100 * row['win_share']:.1f}% ± {100 * half:.1f}% "
            f"against {100 * row['expected_share']:.1f}% expected")
