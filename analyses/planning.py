"""Sample-size planning: how many games a question needs.

``games_to_detect`` answers "how many games to detect a seat edge of d with
power 0.8 at alpha 0.05"; ``games_for_half_width`` how many games a run
needs for seat intervals of a given width.
"""

import math

from scipy import stats

from analyses.seats import as_polars, max_half_width


def games_to_detect(edge, players, power=0.8, alpha=0.05):
    """Games needed to detect that one seat wins ``1/players + edge`` instead of ``1/players``.

    Two-sided one-sample test of a proportion at level ``alpha`` with the
    normal approximation::

        n = ((z_{1-alpha/2} sqrt(p0 q0) + z_{power} sqrt(p1 q1)) / edge)^2

    with ``p0 = 1/players`` and ``p1 = p0 + edge``. ``edge`` may be negative
    (a seat that wins less). Returns a whole number of games (rounded up).
    """
    p0 = 1.0 / players
    p1 = p0 + edge
    if edge == 0 or not 0 < p1 < 1:
        raise ValueError(f"edge must be non-zero and keep the win share inside (0, 1); got {edge} with "
                         f"{players} players")
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("alpha and power must lie strictly between 0 and 1")
    za = stats.norm.ppf(1 - alpha / 2)
    zb = stats.norm.ppf(power)
    n = ((za * math.sqrt(p0 * (1 - p0)) + zb * math.sqrt(p1 * (1 - p1))) / edge) ** 2
    return math.ceil(n - 1e-9)


def games_for_half_width(seats, target, confidence=0.95):
    """Games a run needs in total for every seat's win-share half-width to fall below ``target``.

    The widest half-width shrinks as ``1/sqrt(games)``, so the run's own
    shares give the estimate ``games * (width / target)^2``; ``playtest
    simulate --until-ci TARGET`` gets there by playing chunks until it holds.
    Returns the run's game count when the target is already met.
    """
    if target <= 0:
        raise ValueError(f"target half-width must be positive, got {target}")
    seats = as_polars(seats)
    if seats.height == 0:
        raise ValueError("the run has no games")
    games = seats.height // seats["seat"].n_unique()  # games played (deals x rotations)
    width = max_half_width(seats, confidence)
    return games if width < target else math.ceil(games * (width / target) ** 2)
