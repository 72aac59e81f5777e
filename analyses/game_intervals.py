"""Intervals of per-game figures with the deal as the unit (``analyses.feel``, ``analyses.comeback``).

A per-game frame has one row per played game (``analyses.feel.per_game``);
in a run with rotated seats a deal's rotations share its ``game`` number, so
a deal's games are averaged before any spread is taken.
"""

import numpy as np
import polars as pl
from scipy import special

from analyses.intervals import wilson


def game_keys(seats):
    """Columns that identify one played game: ``game``, plus ``rotation`` in a rotated run."""
    return ["game", "rotation"] if "rotation" in seats.collect_schema().names() else ["game"]


def deal_means(games, column):
    """Each deal's mean of a per-game ``column`` (numpy float array, one value a deal)."""
    return games.group_by("game").agg(pl.col(column).cast(pl.Float64).mean())[column].to_numpy()


def mean_with_interval(games, column, confidence=0.95):
    """``(mean, low, high)`` of a per-game ``column``: t interval over deals (deal averages)."""
    deals = deal_means(games, column)
    mean = float(games[column].cast(pl.Float64).mean())
    if len(deals) < 2:
        return mean, float("nan"), float("nan")
    half = special.stdtrit(len(deals) - 1, 0.5 + confidence / 2) * deals.std(ddof=1) / np.sqrt(len(deals))
    return mean, mean - half, mean + half


def share_with_interval(games, column, confidence=0.95):
    """``(share, low, high)`` of a Boolean per-game ``column``: Wilson, with the effective sample size
    ``p(1-p) / se^2`` from the deal averages when deals hold several games."""
    n = games.height
    share = float(games[column].mean()) if n else float("nan")
    deals = deal_means(games, column)
    if len(deals) < n and len(deals) > 1:
        se2 = deals.var(ddof=1) / len(deals)
        n = share * (1 - share) / se2 if se2 > 0 else n
    lo, hi = wilson(share * n, n, confidence)
    return share, float(lo), float(hi)
