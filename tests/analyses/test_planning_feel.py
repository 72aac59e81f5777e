"""Sample-size planning and game-feel metrics on hand-made frames."""

import math

import polars as pl
import pytest
from scipy import stats

from analyses import feel, planning


def test_games_to_detect_textbook_value():
    # One-sample test of 0.5 against 0.6, two-sided alpha 0.05, power 0.8: n = 194 (e.g. Chow, Shao & Wang,
    # Sample Size Calculations in Clinical Research, section 4.1 formula).
    assert planning.games_to_detect(0.1, 2) == 194


def test_games_to_detect_reaches_power_with_exact_binomial():
    n = planning.games_to_detect(0.02, 4)
    p0, p1 = 0.25, 0.27
    lo, hi = stats.binom.ppf(0.025, n, p0), stats.binom.isf(0.025, n, p0)
    power = stats.binom.sf(hi, n, p1) + stats.binom.cdf(lo - 1, n, p1)
    assert power == pytest.approx(0.8, abs=0.01)
    assert planning.games_to_detect(-0.02, 4) > 0


def test_games_to_detect_refuses_impossible_edges():
    with pytest.raises(ValueError):
        planning.games_to_detect(0.0, 4)
    with pytest.raises(ValueError):
        planning.games_to_detect(0.8, 4)


def two_seat_run(games, seat0_wins):
    rows = []
    for g in range(games):
        w = g < seat0_wins
        rows += [(g, 0, "x", 1.0 if w else 0.0, 1 if w else 2, float(w), 2, 5),
                 (g, 1, "x", 0.0 if w else 1.0, 2 if w else 1, float(not w), 2, 5)]
    return pl.DataFrame(rows, schema=["game", "seat", "strategy", "score", "rank", "win", "players", "rounds"],
                        orient="row")


def test_games_for_half_width_scales_with_inverse_square():
    seats = two_seat_run(1000, 500)
    lo, hi = stats.binomtest(500, 1000).proportion_ci(method="wilson")
    width = (hi - lo) / 2
    assert planning.games_for_half_width(seats, width / 2) == math.ceil(1000 * 4)
    assert planning.games_for_half_width(seats, 0.5) == 1000


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
    summary = dict(zip(*feel.summary(SEATS).select("metric", "value").to_dict(as_series=False).values()))
    assert summary["tie rate"] == pytest.approx(1 / 3)
    assert summary["mean margin of victory"] == pytest.approx(7 / 3)
    assert summary["mean rounds"] == pytest.approx(5.0)
    assert "mean lead changes" not in summary
    with_leads = feel.summary(SEATS.with_columns((pl.col("game") * 2).alias("lead_changes")))
    assert with_leads.filter(pl.col("metric") == "mean lead changes")["value"][0] == pytest.approx(2.0)
