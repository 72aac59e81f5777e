"""Game-feel metrics: how long games last, how close they are, how often they tie, each with an interval.

Everything is computed from the contract columns (game, seat, score, rank,
rounds) so it works for every game; optional columns ``turns`` and
``lead_changes`` are summarised when a game records them. "Best" follows
``rank`` (1 = best), so games where a low score wins are handled too.

The deal is the unit of every interval: in a run with rotated seats a deal's
rotations are averaged first. Shares (ties, close games) get Wilson
intervals (with the deal-clustered effective sample size in rotated runs),
means a t interval over deals, and the spread of game length a Poisson
bootstrap over deals. Unfinished games (a false ``finished`` column) are left out.
"""

import numpy as np
import polars as pl

from analyses.comeback import feel_rows
from analyses.frames import as_lazy
from analyses.game_intervals import game_keys, mean_with_interval, share_with_interval
from analyses.moments import finished_filter

OPTIONAL_LENGTHS = ("turns", "lead_changes")
BOOTSTRAP = 2000  # bootstrap replicates for the spread of game length


def per_game(seats):
    """One row per finished game: rounds, score spread (best minus worst), margin of victory
    (winner minus runner-up, 0 when the top is shared), whether the top is shared, and
    ``turns`` / ``lead_changes`` when the game records them."""
    seats = finished_filter(as_lazy(seats))[0]
    keys = game_keys(seats)
    columns = seats.collect_schema().names()
    extra = [pl.col(c).first() for c in OPTIONAL_LENGTHS if c in columns]
    runner_up = pl.col("score").filter(pl.col("rank") > 1).first()
    table = (seats.sort(keys + ["rank", "seat"]).group_by(keys, maintain_order=True).agg(
        pl.col("rounds").first(),
        *extra,
        (pl.col("score").max() - pl.col("score").min()).alias("spread"),
        ((pl.col("rank") == 1).sum() > 1).alias("tied"),
        (pl.col("score").first() - runner_up).abs().fill_null(0).alias("margin"),
    )).collect()
    return table.with_columns(pl.when(pl.col("tied")).then(0).otherwise(pl.col("margin")).alias("margin"),
                              (pl.col("margin") <= 1).alias("close"))


def length_distribution(seats, column="rounds"):
    """How many games lasted each number of ``column`` (rounds by default), with shares."""
    games = per_game(seats)
    return (games.group_by(column).agg(pl.len().alias("games")).sort(column)
            .with_columns((pl.col("games") / games.height).alias("share")))


def sd_with_interval(games, column, confidence=0.95, replicates=BOOTSTRAP, seed=0):
    """``(sd, low, high)`` of a per-game ``column`` over games: percentile Poisson bootstrap over deals.

    Deals with the same (games, sum, sum of squares) are pooled, and a pool of
    ``k`` deals gets a Poisson(k) weight, which is exactly the Poisson
    bootstrap of the deals and fast for any run size. Fixed ``seed``.
    """
    col = pl.col(column).cast(pl.Float64)
    pools = (games.group_by("game").agg(pl.len().alias("n"), col.sum().alias("s"), (col * col).sum().alias("q"))
             .group_by("n", "s", "q").agg(pl.len().alias("k")))
    x = pools.select("n", "s", "q").to_numpy()
    k = pools["k"].to_numpy()
    sd = float(games[column].cast(pl.Float64).std(ddof=0)) if games.height > 1 else float("nan")
    if k.sum() < 2:
        return sd, float("nan"), float("nan")
    w = np.random.default_rng(seed).poisson(k, size=(replicates, len(k)))
    n, s, q = (w @ x).T
    keep = n > 1
    boot = np.sqrt(np.clip(q[keep] / n[keep] - (s[keep] / n[keep]) ** 2, 0, None))
    lo, hi = np.quantile(boot, [(1 - confidence) / 2, (1 + confidence) / 2])
    return sd, float(lo), float(hi)


def summary(seats, confidence=0.95):
    """Game-feel summary of a run as rows ``(metric, value, low, high, note)``.

    Metrics: finished games, mean game length and its spread (standard
    deviation), mean score spread, mean margin of victory, share of games
    decided by a single point or less, tie rate, and mean turns / lead changes
    when recorded; then, when the engine recorded the leader after each round,
    the lead changes per game and the comeback curve (``analyses.comeback``);
    ``low``-``high`` is the ``confidence`` interval.
    """
    games = per_game(seats)
    rotated = "rotation" in games.columns
    unit = "deals" if rotated else "games"
    rows = [("games", games.height, None, None, f"{games['game'].n_unique():,} deals" if rotated else "finished")]
    if games.height:
        rows += [
            ("mean rounds", *mean_with_interval(games, "rounds", confidence),
             f"{games['rounds'].min()} to {games['rounds'].max()}; t interval over {unit}"),
            ("sd of rounds", *sd_with_interval(games, "rounds", confidence),
             f"spread of game length; bootstrap over {unit}"),
            ("mean score spread", *mean_with_interval(games, "spread", confidence),
             "best minus worst score in a game"),
            ("mean margin of victory", *mean_with_interval(games, "margin", confidence),
             "winner minus runner-up; 0 on a shared top"),
            ("close games", *share_with_interval(games, "close", confidence),
             "share of games won by 1 point or less (or tied); Wilson"),
            ("tie rate", *share_with_interval(games, "tied", confidence), "share of games with a shared top; Wilson"),
        ]
        rows += [(f"mean {c.replace('_', ' ')}", *mean_with_interval(games, c, confidence), "recorded by the game")
                 for c in OPTIONAL_LENGTHS if c in games.columns]
        rows += feel_rows(seats, confidence)
    return pl.DataFrame(rows, schema={"metric": pl.String, "value": pl.Float64, "low": pl.Float64,
                                      "high": pl.Float64, "note": pl.String}, orient="row")


SWEEP_METRICS = {"mean rounds": "mean_rounds", "sd of rounds": "sd_rounds", "mean score spread": "mean_spread",
                 "mean margin of victory": "mean_margin", "tie rate": "tie_rate", "close games": "close_games"}


def summary_columns(seats, confidence=0.95):
    """The game-feel figures as flat columns for a sweep's summary: ``mean_rounds``, ``mean_rounds_lo``,
    ``mean_rounds_hi`` and so on."""
    out = {}
    for row in summary(seats, confidence).iter_rows(named=True):
        name = SWEEP_METRICS.get(row["metric"])
        if name:
            out.update({name: row["value"], f"{name}_lo": row["low"], f"{name}_hi": row["high"]})
    return out
