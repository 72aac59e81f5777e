"""Game-feel metrics: how long games last, how close they are, how often they tie.

Everything is computed from the contract columns (game, seat, score, rank,
rounds) so it works for every game; optional columns ``turns`` and
``lead_changes`` are summarised when a game records them. "Best" follows
``rank`` (1 = best), so games where a low score wins are handled too.
"""

import polars as pl

from analyses.intervals import wilson
from analyses.seats import as_polars

OPTIONAL_LENGTHS = ("turns", "lead_changes")


def game_keys(seats):
    """Columns that identify one played game: ``game``, plus ``rotation`` in a rotated run."""
    return ["game", "rotation"] if "rotation" in seats.columns else ["game"]


def per_game(seats):
    """One row per played game: rounds, score spread (best minus worst), margin of victory
    (winner minus runner-up, 0 when the top is shared), whether the top is shared, and
    ``turns`` / ``lead_changes`` when the game records them."""
    seats = as_polars(seats)
    keys = game_keys(seats)
    extra = [pl.col(c).first() for c in OPTIONAL_LENGTHS if c in seats.columns]
    runner_up = pl.col("score").filter(pl.col("rank") > 1).first()
    table = (seats.sort(keys + ["rank", "seat"]).group_by(keys, maintain_order=True).agg(
        pl.col("rounds").first(),
        *extra,
        (pl.col("score").max() - pl.col("score").min()).alias("spread"),
        ((pl.col("rank") == 1).sum() > 1).alias("tied"),
        (pl.col("score").first() - runner_up).abs().fill_null(0).alias("margin"),
    ))
    return table.with_columns(pl.when(pl.col("tied")).then(0).otherwise(pl.col("margin")).alias("margin"))


def length_distribution(seats, column="rounds"):
    """How many games lasted each number of ``column`` (rounds by default), with shares."""
    games = per_game(seats)
    return (games.group_by(column).agg(pl.len().alias("games")).sort(column)
            .with_columns((pl.col("games") / games.height).alias("share")))


def summary(seats, confidence=0.95):
    """Game-feel summary of a run as a list of ``(metric, value, note)`` rows.

    Metrics: mean and range of game length, mean score spread, mean margin of
    victory, share of games decided by a single point or less, tie rate with
    its Wilson interval, and mean turns / lead changes when recorded.
    """
    games = per_game(seats)
    n = games.height
    ties = int(games["tied"].sum())
    lo, hi = wilson(ties, n, confidence)
    rows = [
        ("games", n, ""),
        ("mean rounds", float(games["rounds"].mean()), f"{games['rounds'].min()} to {games['rounds'].max()}"),
        ("mean score spread", float(games["spread"].mean()), "best minus worst score in a game"),
        ("mean margin of victory", float(games["margin"].mean()), "winner minus runner-up; 0 on a shared top"),
        ("close games", float((games["margin"] <= 1).mean()), "share of games won by 1 point or less (or tied)"),
        ("tie rate", ties / n if n else 0.0, f"{100 * float(lo):.1f}% to {100 * float(hi):.1f}% "
                                             f"({round(100 * confidence)}% interval)"),
    ]
    for column in OPTIONAL_LENGTHS:
        if column in games.columns:
            rows.append((f"mean {column.replace('_', ' ')}", float(games[column].mean()), "recorded by the game"))
    return pl.DataFrame(rows, schema=["metric", "value", "note"], orient="row")
