"""Intervals and the equal-share test against scipy and published values."""

import numpy as np
import polars as pl
import pytest
from scipy import stats

from analyses.intervals import effective_units, exact, mean_interval, wilson
from analyses.moments import SeatMoments
from analyses.planning import max_half_width
from analyses.seats import describe, equal_share_test, seat_advantage

# Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score interval).
NEWCOMBE = [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)]


@pytest.mark.parametrize("k, n, low, high", NEWCOMBE)
def test_wilson_matches_newcombe(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


@pytest.mark.parametrize("k, n, confidence", [(7, 10, 0.95), (512, 2000, 0.95), (3, 400, 0.99), (50, 50, 0.9)])
def test_wilson_matches_scipy(k, n, confidence):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="wilson")
    lo, hi = wilson(k, n, confidence)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_mean_interval_matches_scipy_normal_interval():
    lo, hi = mean_interval(5.0, 2.0, 400)
    assert (lo, hi) == pytest.approx(stats.norm.interval(0.95, loc=5.0, scale=2.0 / 20))


def frame(wins_per_seat, games):
    """A 4-seat frame where seat s wins ``wins_per_seat[s]`` of ``games`` games outright."""
    rows = []
    winner = np.repeat(np.arange(4), wins_per_seat)
    for g in range(games):
        for s in range(4):
            rows.append((g, s, "x", float(s == winner[g]) * 10, 1 if s == winner[g] else 2, float(s == winner[g]), 4, 3))
    return pl.DataFrame(rows, schema=["game", "seat", "strategy", "score", "rank", "win", "players", "rounds"],
                        orient="row")


def test_equal_share_test_known_value_and_scipy():
    seats = frame([30, 20, 25, 25], 100)
    chi2, dof, p = equal_share_test(seats)
    # sum((o - 25)^2 / 25) = (25 + 25 + 0 + 0) / 25
    assert chi2 == pytest.approx(2.0)
    assert dof == 3
    assert p == pytest.approx(stats.chi2.sf(2.0, 3))
    assert p == pytest.approx(0.5724067, abs=1e-6)


def test_seat_advantage_and_plain_words():
    seats = frame([30, 20, 25, 25], 100)
    table = seat_advantage(seats)
    assert table["win_share"].to_list() == pytest.approx([0.30, 0.20, 0.25, 0.25])
    ci = stats.binomtest(30, 100).proportion_ci(method="exact")
    lo, hi = ci.low, ci.high
    assert describe(table.row(0, named=True)) == f"seat 0 wins 30.0% ± {100 * (hi - lo) / 2:.1f}% against 25.0% expected"


def test_max_half_width_is_the_widest_exact_half_width():
    ci = stats.binomtest(500, 1000).proportion_ci(method="exact")
    counts = np.array([250.0, 500.0, 250.0])
    assert max_half_width(SeatMoments(1000, counts, np.diag(counts))) == pytest.approx((ci.high - ci.low) / 2)
    assert max_half_width(SeatMoments.empty(3)) == float("inf")


@pytest.mark.parametrize("k, n, confidence", [(0, 8, 0.95), (7, 10, 0.95), (512, 2000, 0.95), (3, 400, 0.99),
                                              (50, 50, 0.9), (2, 20, 0.95 / 4)])
def test_exact_matches_scipy_clopper_pearson(k, n, confidence):
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=confidence, method="exact")
    lo, hi = exact(k, n, confidence)
    assert (lo, hi) == pytest.approx((ci.low, ci.high), abs=1e-10)


def test_exact_with_fractional_wins_lies_between_its_whole_neighbours():
    lo, hi = exact([3.0, 3.5, 4.0], 20)
    assert lo[0] < lo[1] < lo[2] and hi[0] < hi[1] < hi[2]


def test_effective_units_range_from_deals_to_games():
    share = np.array([0.5, 0.5])
    # binomial spread per game averaged over 4 rotations: worth every game
    assert effective_units(share, share * (1 - share) / 4, 10, 40) == pytest.approx(40)
    # every rotation the same game: worth the deals only
    assert effective_units(share, share * (1 - share), 10, 40) == pytest.approx(10)
    # in between, and no spread at all reads as all the games (never more)
    assert effective_units(share, share * (1 - share) / 2, 10, 40) == pytest.approx(20)
    assert effective_units(share, np.zeros(2), 10, 40) == pytest.approx(40)
    # below 10 deals their spread is not trusted: a deal is worth one game
    assert effective_units(share, np.zeros(2), 9, 36) == pytest.approx(9)
