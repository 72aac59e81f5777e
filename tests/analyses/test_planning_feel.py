"""Sample-size planning and game-feel metrics on hand-made frames."""

import math

import polars as pl
import pytest
from scipy import optimize, stats

from analyses import feel, planning
from analyses.moments import seat_moments


def test_games_for_seat_test_matches_the_pearson_textbook_noncentrality():
    # at 2 players the Wald noncentrality per game is edge^2 / (p q) at the true shares: n = lambda / that
    lam = optimize.brentq(lambda x: stats.ncx2.sf(stats.chi2.isf(0.05, 1), 1, x) - 0.8, 1e-3, 100)
    assert lam == pytest.approx((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) ** 2, rel=1e-5)  # one tail
    assert planning.games_for_seat_test(10, 2) == math.ceil(lam * 0.6 * 0.4 / 0.1 ** 2)


def test_plans_refuse_impossible_edges():
    with pytest.raises(ValueError):
        planning.games_for_seat_test(0.0, 4)
    with pytest.raises(ValueError):
        planning.games_for_seat_test(80, 4)
    with pytest.raises(ValueError, match="no number of games"):
        planning.games_for_verdict(1.0, 4, edges=[1.5, -0.5, -0.5, -0.5])


def two_seat_run(games, seat0_wins):
    rows = []
    for g in range(games):
        w = g < seat0_wins
        rows += [(g, 0, "x", 1.0 if w else 0.0, 1 if w else 2, float(w), 2, 5),
                 (g, 1, "x", 0.0 if w else 1.0, 2 if w else 1, float(not w), 2, 5)]
    return pl.DataFrame(rows, schema=["game", "seat", "strategy", "score", "rank", "win", "players", "rounds"],
                        orient="row")


def test_games_for_half_width_scales_with_inverse_square():
    moments = seat_moments(two_seat_run(1000, 500))
    ci = stats.binomtest(500, 1000).proportion_ci(method="exact")
    width = (ci.high - ci.low) / 2
    assert planning.max_half_width(moments) == pytest.approx(width)
    assert planning.games_for_half_width(moments, width / 2) == math.ceil(1000 * 4)
    # a run that already overshoots the target says how few games would have done
    assert planning.games_for_half_width(moments, width * 2) == 250


SEATS = pl.DataFrame(
    # game 0: clear win 10 over 7 over 3; game 1: shared top 5 = 5 over 1; game 2: low score wins (rank says so)
    [(0, 0, 10, 1, 1.0, 4), (0, 1, 7, 2, 0.0, 4), (0, 2, 3, 3, 0.0, 4),
     (1, 0, 5, 1, 0.5, 6), (1, 1, 5, 1, 0.5, 6), (1, 2, 1, 3, 0.0, 6),
     (2, 0, 2, 1, 1.0, 5), (2, 1, 6, 2, 0.0, 5), (2, 2, 9, 3, 0.0, 5)],
    schema=["game", "seat", "score", "rank", "win", "rounds"], orient="row",
).with_columns(pl.lit("x").alias("strategy"), pl.lit(3).alias("players"))


def test_per_game_metrics():
    games = feel.per_game(SEATS).sort("game")
    assert games["spread"].to_list() == [7, 4, 7]
    assert games["tied"].to_list() == [False, True, False]
    assert games["margin"].to_list() == [3, 0, 4]
    assert games["rounds"].to_list() == [4, 6, 5]


def test_length_distribution_and_summary():
    dist = feel.length_distribution(SEATS)
    assert dist["rounds"].to_list() == [4, 5, 6]
    assert dist["share"].to_list() == pytest.approx([1 / 3] * 3)
    table = feel.summary(SEATS)
    summary = dict(zip(*table.select("metric", "value").to_dict(as_series=False).values()))
    assert summary["tie rate"] == pytest.approx(1 / 3)
    tie = table.filter(pl.col("metric") == "tie rate").row(0, named=True)
    assert (tie["low"], tie["high"]) == pytest.approx(tuple(stats.binomtest(1, 3).proportion_ci(method="wilson")))
    rounds = table.filter(pl.col("metric") == "mean rounds").row(0, named=True)
    assert (rounds["low"], rounds["high"]) == pytest.approx(stats.t.interval(0.95, 2, loc=5.0, scale=1 / 3 ** 0.5))
    assert summary["mean margin of victory"] == pytest.approx(7 / 3)
    assert summary["mean rounds"] == pytest.approx(5.0)
    assert "mean lead changes" not in summary
    with_leads = feel.summary(SEATS.with_columns((pl.col("game") * 2).alias("lead_changes")))
    assert with_leads.filter(pl.col("metric") == "mean lead changes")["value"][0] == pytest.approx(2.0)
