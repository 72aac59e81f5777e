"""Seat (first-player) advantage: win shares with Wilson intervals, mean scores, chi-square test."""

import numpy as np
import polars as pl
from scipy.special import chdtrc

from analyses.intervals import mean_interval, wilson


def as_polars(frame):
    """Accept a polars or pandas frame and return a polars one."""
    return frame if isinstance(frame, pl.DataFrame) else pl.from_pandas(frame)


def as_lazy(frame):
    """Accept a polars LazyFrame, DataFrame or pandas frame and return a LazyFrame.

    The seat statistics aggregate lazily and collect with the streaming
    engine, so a run of any size (``pl.scan_parquet``) is summarised in
    constant memory.
    """
    return frame if isinstance(frame, pl.LazyFrame) else as_polars(frame).lazy()


def seat_advantage(seats, confidence=0.95):
    """One row per seat: strategy ("(rotated)" when several played the seat), games, wins
    (shared wins count 1/k), win share with its Wilson interval, the share expected if
    seats were equal, and mean score with its interval.

    The intervals treat every game as an independent deal; for a run with
    rotated seats ``analyses.paired.effects`` gives intervals over deals."""
    seats = as_lazy(seats)
    # which strategies sat where: grouped on (seat, strategy) because a per-seat n_unique
    # does not stream and would load the whole run
    lineup = (seats.group_by("seat", pl.col("strategy").cast(pl.String)).agg(pl.len())
              .group_by("seat").agg(pl.when(pl.len() > 1).then(pl.lit("(rotated)"))
                                    .otherwise(pl.col("strategy").first()).alias("strategy"))
              .collect(engine="streaming"))
    table = (seats.group_by("seat").agg(
        pl.len().alias("games"),
        pl.col("win").sum().alias("wins"),
        pl.col("score").mean().alias("mean_score"),
        pl.col("score").std().fill_null(0.0).alias("score_std"),
        pl.col("players").first(),
    ).collect(engine="streaming").join(lineup, on="seat").sort("seat")
        .select("seat", "strategy", "games", "wins", "mean_score", "score_std", "players"))
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
    wins = (as_lazy(seats).group_by("seat").agg(pl.col("win").sum()).sort("seat")
            .collect(engine="streaming")["win"].to_numpy())
    if wins.sum() == 0:
        return 0.0, len(wins) - 1, 1.0
    expected = wins.sum() / len(wins)
    chi2 = float(((wins - expected) ** 2 / expected).sum())
    return chi2, len(wins) - 1, float(chdtrc(len(wins) - 1, chi2))


def describe(row):
    """The effect for one seat in plain words, e.g. "seat 0 wins 27.1% ± 0.3% against 25.0% expected"."""
    half = (row["win_hi"] - row["win_lo"]) / 2
    return (f"seat {row['seat']} wins {100 * row['win_share']:.1f}% ± {100 * half:.1f}% "
            f"against {100 * row['expected_share']:.1f}% expected")


def max_half_width_of_counts(counts, confidence=0.95):
    """The widest Wilson half-width over ``(wins, games)`` pairs, one pair per seat.

    No pairs, or a seat with no games, give an infinite half-width.
    """
    counts = np.asarray(list(counts), dtype=float).reshape(-1, 2)
    if len(counts) == 0 or (counts[:, 1] <= 0).any():
        return float("inf")
    lo, hi = wilson(counts[:, 0], counts[:, 1], confidence)
    return float(((hi - lo) / 2).max())


def max_half_width(seats, confidence=0.95):
    """The widest Wilson half-width of any seat's win share (0.01 = ± 1 percentage point).

    ``playtest simulate --until-ci TARGET`` keeps simulating until this is
    below ``TARGET``. A frame without rows has an infinite half-width.
    """
    counts = as_lazy(seats).group_by("seat").agg(pl.col("win").sum(), pl.len()).collect(engine="streaming")
    return max_half_width_of_counts(counts.select("win", "len").rows(), confidence)


def largest_edge(table):
    """The largest absolute gap between a seat's win share and its equal share, from ``seat_advantage``."""
    return float((table["win_share"] - table["expected_share"]).abs().max())
