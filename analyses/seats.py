"""Seat (first-player) advantage: win shares with intervals, mean scores, chi-square test.

In a run with rotated seats the deal is the unit: a seat's share and mean
score are averaged over each deal's rotations first, and the intervals come
from the spread of those deal averages. Unfinished games (a false
``finished`` column) are left out; ``analyses.verdict`` counts and reports them.
"""

import polars as pl
from scipy.special import chdtrc, ndtri

from analyses.frames import as_lazy
from analyses.intervals import effective_units, exact, mean_interval
from analyses.moments import finished_filter, is_rotated


def seat_advantage(seats, confidence=0.95):
    """One row per seat: strategy ("(rotated)" when several played the seat), games, wins
    (shared wins count 1/k), win share with its interval, the share expected if seats were
    equal, and mean score with its interval.

    The shares' intervals are exact (Clopper-Pearson) on the games the shares
    are worth (``analyses.intervals.effective_units``): the games themselves
    without rotated seats; with them, where the deal is the unit (column
    ``deals``), the deals corrected by the spread of their averages. The
    same intervals as the verdict's, at one seat's level.
    """
    seats = as_lazy(seats)
    rotated = is_rotated(seats)
    seats, _ = finished_filter(seats)
    # which strategies sat where: grouped on (seat, strategy) because a per-seat n_unique
    # does not stream and would load the whole run
    lineup = (seats.group_by("seat", pl.col("strategy").cast(pl.String)).agg(pl.len())
              .group_by("seat").agg(pl.when(pl.len() > 1).then(pl.lit("(rotated)"))
                                    .otherwise(pl.col("strategy").first()).alias("strategy"))
              .collect(engine="streaming"))
    totals = seats.group_by("seat").agg(pl.len().alias("games"), pl.col("win").sum().alias("wins"),
                                        pl.col("players").first())
    units = seats.group_by("game", "seat").agg(pl.col("win").mean(), pl.col("score").mean()) if rotated \
        else seats.select("seat", "win", "score")
    spread = units.group_by("seat").agg(
        pl.len().alias("deals"), pl.col("score").mean().alias("mean_score"),
        pl.col("score").std().fill_null(0.0).alias("score_std"),
        pl.col("win").std().fill_null(0.0).alias("win_std"))
    # collected one by one: joined lazily, polars caches their common input (every finished row) in memory
    table = (totals.collect(engine="streaming").join(spread.collect(engine="streaming"), on="seat")
             .join(lineup, on="seat").sort("seat")
             .select("seat", "strategy", "games", "deals", "wins", "mean_score", "score_std", "win_std", "players"))
    share = (table["wins"] / table["games"]).to_numpy()
    n = table["deals"].to_numpy()
    spread = table["win_std"].to_numpy() ** 2 * (n - 1) / n
    worth = effective_units(share, spread, n.min(), table["games"].min()) if len(n) else 0.0
    lo, hi = exact(share * worth, worth, confidence)
    mlo, mhi = mean_interval(table["mean_score"].to_numpy(), table["score_std"].to_numpy(), n, confidence)
    table = table.with_columns(
        pl.Series("win_share", share), pl.Series("win_lo", lo.clip(0, 1)), pl.Series("win_hi", hi.clip(0, 1)),
        (1.0 / pl.col("players")).alias("expected_share"),
        pl.Series("score_lo", mlo), pl.Series("score_hi", mhi),
    ).drop("score_std", "win_std")
    return table if rotated else table.drop("deals")


def equal_share_test(seats):
    """Pearson chi-square test of equal win shares over seats: ``(chi2, dof, p)``.

    Wins are summed per seat (shared wins count 1/k, so the total equals the
    number of games) and compared with an equal split. Every game counts as
    independent; ``analyses.verdict.wald_test`` is the test that clusters
    rotated deals and accounts for ties.
    """
    seats, _ = finished_filter(seats)
    wins = (seats.group_by("seat").agg(pl.col("win").sum()).sort("seat")
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


def z_value(confidence):
    """The two-sided normal quantile of ``confidence`` (1.96 at 0.95)."""
    return float(ndtri(0.5 + confidence / 2))
