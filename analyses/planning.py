"""Sample-size planning from the tests playtest actually runs.

``games_for_verdict`` answers "how many games until the verdict says
*balanced within ±M* with probability 0.8, if the true edges are these";
``games_for_seat_test`` "how many games until the chi-square test of equal
shares detects this edge with power 0.8"; ``games_for_half_width`` "how many
games until every seat's interval is this narrow", from a run's own spread
(deal-clustered in rotated runs). The tests check each answer by simulation.

``scipy.optimize`` and ``scipy.stats`` (about 45 MB of memory and half a
second between them) are imported by the two planners that solve for a root,
not with the module: every ``simulate`` imports this module for its verdict,
and without them (``analyses.seat_summary`` imports ``analyses.paired``, the
other user of ``scipy.stats``, only for a rotated run of several strategies)
a ``simulate`` peaks about 40 MB higher (bench/journal/2026-12-06-house2.md).
"""

import math

import numpy as np
from scipy import special

from analyses.moments import SeatMoments, family


def _edges(players, edges):
    edges = np.zeros(players) if edges is None else np.asarray(edges, dtype=float) / 100
    if len(edges) != players:
        raise ValueError(f"give one edge per seat ({players}), got {len(edges)}")
    shares = 1.0 / players + edges
    if not np.isclose(shares.sum(), 1.0) or ((shares <= 0) | (shares >= 1)).any():
        raise ValueError("the edges must sum to zero and keep every share inside (0, 1)")
    return edges, shares


def games_for_verdict(margin, players, edges=None, power=0.8, confidence=0.95, sd=None):
    """Games after which the verdict says "balanced within ±``margin`` points" with probability ``power``.

    ``edges`` are the true seat edges in points (default: all seats equal);
    ``sd`` the standard deviation of one unit's win for each seat (default
    ``sqrt(p (1 - p))``, a game without ties; ties and rotated deals make it
    smaller, so the default errs on the safe side). The verdict needs every
    seat's simultaneous interval ``edge ± c sd / sqrt(n)`` (``c`` the
    Bonferroni normal quantile) inside the margin; each seat is given a failure
    chance of ``(1 - power) / players``, so the whole verdict succeeds with at
    least ``power``. Returns units (games, or deals in a rotated run).
    """
    if margin <= 0 or not 0 < power < 1:
        raise ValueError("the margin must be positive and the power strictly between 0 and 1")
    edges, shares = _edges(players, edges)
    m = margin / 100
    if (np.abs(edges) >= m).any():
        raise ValueError(f"a seat's true edge is at or beyond ±{margin:g} points: no number of games makes "
                         "the game read as balanced")
    sd = np.sqrt(shares * (1 - shares)) if sd is None else np.asarray(sd, dtype=float)
    tested = family(players)
    c = special.ndtri(1 - (1 - confidence) / (2 * tested))
    allowed = (1 - power) / tested

    def failure(n, e, s):
        root = math.sqrt(n) / s
        return 1 - (special.ndtr((m - e) * root - c) - special.ndtr((-m - e) * root + c)) - allowed

    from scipy import optimize
    needed = []
    for e, s in zip(edges, sd):
        hi = 16.0
        while failure(hi, e, s) > 0:
            hi *= 2
        needed.append(optimize.brentq(failure, 1.0, hi, args=(e, s)) if failure(1.0, e, s) > 0 else 1.0)
    return math.ceil(max(needed))


def units_to_show_beyond(edge, sd, margin, players, power=0.8, confidence=0.95):
    """Units after which a seat with true edge ``edge`` (points, beyond ``margin``) and unit spread ``sd``
    reads "unbalanced" with probability ``power``: its simultaneous interval clears the margin."""
    gap = (abs(edge) - margin) / 100
    if gap <= 0:
        raise ValueError(f"the edge {edge} points is not beyond the margin ±{margin:g}")
    c = special.ndtri(1 - (1 - confidence) / (2 * family(players)))
    return math.ceil(((c + special.ndtri(power)) * sd / gap) ** 2)


def seat_test_noncentrality(edge, players):
    """Per-game noncentrality of the chi-square test when seat 0 wins ``edge`` points more than its share
    and the other seats share the loss equally (Wald form, covariance at the true shares)."""
    edges = np.full(players, -edge / 100 / (players - 1))
    edges[0] = edge / 100
    shares = 1.0 / players + edges
    cov = (np.diag(shares) - np.outer(shares, shares))[:-1, :-1]
    return float(edges[:-1] @ np.linalg.solve(cov, edges[:-1]))


def games_for_seat_test(edge, players, power=0.8, alpha=0.05):
    """Games for the chi-square test of equal seat shares to detect a first-seat edge of ``edge`` points
    with probability ``power`` at level ``alpha`` (noncentral chi-square, ``players - 1`` df)."""
    if edge == 0 or not 0 < 1 / players + edge / 100 < 1:
        raise ValueError(f"edge must be non-zero and keep the win share inside (0, 1); got {edge} points "
                         f"with {players} players")
    if not 0 < alpha < 1 or not 0 < power < 1:
        raise ValueError("alpha and power must lie strictly between 0 and 1")
    from scipy import optimize, stats
    df = players - 1
    crit = stats.chi2.isf(alpha, df)
    lam = optimize.brentq(lambda x: stats.ncx2.sf(crit, df, x) - power, 1e-6, 1e4)
    return math.ceil(lam / seat_test_noncentrality(edge, players))


def half_widths(moments, confidence=0.95):
    """Each seat's 95% (``confidence``) half-width of its win share, as the seat table shows it
    (``SeatMoments.intervals``: exact, on the games the shares are worth)."""
    lo, hi = moments.intervals(confidence)
    return (hi - lo) / 2


MIN_UNITS = 30  # units (games; deals in a rotated run) before --until-ci stops or a verdict plans more games


def max_half_width(moments, confidence=0.95):
    """The widest seat half-width; infinite below ``MIN_UNITS`` units, so ``--until-ci`` (which stops
    below it) never stops on a handful of games, whatever their intervals say."""
    if moments.n < MIN_UNITS:
        return float("inf")
    return float(half_widths(moments, confidence).max())


def games_for_half_width(moments: SeatMoments, target, confidence=0.95):
    """Games a run needs in total for every seat's half-width to fall below ``target`` (a share, 0.005 =
    ± 0.5 points): the widest half-width shrinks as ``1/sqrt(units)``, so ``units (width/target)^2``
    units, times the rotations per deal. Smaller than the run when the run already overshoots."""
    if target <= 0:
        raise ValueError(f"target half-width must be positive, got {target}")
    if moments.n < 2:
        raise ValueError("the run has fewer than two games")
    width = float(half_widths(moments, confidence).max())
    return math.ceil(moments.n * (width / target) ** 2) * moments.rotations
