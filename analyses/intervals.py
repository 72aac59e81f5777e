"""Confidence intervals used throughout the analyses."""

import numpy as np
from scipy import special


def wilson(successes, n, confidence=0.95):
    """Wilson score interval for a binomial proportion; returns ``(low, high)`` arrays.

    ``successes`` may be fractional (shared wins count 1/k), which the
    interval handles as the same point estimate with the same variance.
    """
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = special.ndtri(0.5 + confidence / 2)
    p = np.divide(successes, n, out=np.zeros_like(successes), where=n > 0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def mean_interval(mean, std, n, confidence=0.95):
    """Normal-approximation interval for a mean; returns ``(low, high)``."""
    z = special.ndtri(0.5 + confidence / 2)
    half = z * np.asarray(std, dtype=float) / np.sqrt(np.asarray(n, dtype=float))
    return np.asarray(mean) - half, np.asarray(mean) + half


def exact(successes, n, confidence=0.95):
    """Clopper-Pearson (exact binomial) interval; returns ``(low, high)`` arrays.

    Valid at any ``n``: it covers at least ``confidence`` for every true
    share, and a share of 0 or 1 still gets an interval of positive width.
    ``successes`` and ``n`` may be fractional (shared wins count 1/k, an
    effective number of games): the beta quantiles are continuous in both.
    """
    successes, n = np.broadcast_arrays(np.asarray(successes, dtype=float), np.asarray(n, dtype=float))
    tail = (1 - confidence) / 2
    some, short = successes > 0, successes < n
    lo = special.betaincinv(np.where(some, successes, 1.0), n - successes + 1, tail)
    hi = special.betaincinv(successes + 1, np.where(short, n - successes, 1.0), 1 - tail)
    return np.where(some, lo, 0.0), np.where(short, hi, 1.0)


SPREAD_UNITS = 10  # fewer units than this: their spread is not used, each counts as one game


def effective_units(share, spread, units, games):
    """How many independent games a run's seat shares are worth: ``units / design effect``, between
    ``units`` and ``games``, one value per run (seats on the last axis).

    ``share`` and ``spread`` (variance of one unit's win, ddof 0) are per
    seat; ``units`` are the independent units (deals), each of
    ``games / units`` games. The design effect (Kish) is the seats' summed
    unit variance over their summed binomial variance ``p (1 - p)``, pooled
    over the seats so that a seat whose wins happen not to vary in a few deals
    borrows the spread of the others. Games without rotated seats (one game a
    unit) are worth their number; with rotated seats a deal is worth between
    one game and all its rotations, and exactly one game below
    ``SPREAD_UNITS`` deals, too few to trust their spread (at 8 players and 3
    deals the estimated design effect let coverage fall to 0.89).
    """
    if units < SPREAD_UNITS:
        return np.full(np.shape(share)[:-1], float(units))
    binomial = (share * (1 - share)).sum(axis=-1)
    summed = np.asarray(spread).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        worth = np.where(summed > 0, units * binomial / summed, games)
    return np.clip(np.nan_to_num(worth, nan=games), units, games)

