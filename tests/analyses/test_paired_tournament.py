"""Duplicate-deal effects and Bradley-Terry ratings on constructed data with known answers."""

import numpy as np
import polars as pl
import pytest
from scipy import stats
from synthetic_runs import COLUMNS, rotated_frame

from analyses import paired, tournament


def test_paired_effects_cancel_deal_luck():
    seats = rotated_frame()
    by_strategy = paired.effects(seats, by="strategy")
    assert by_strategy["deals"].to_list() == [2000] * 3
    assert by_strategy["games"].to_list() == [6000] * 3
    # Every strategy meets every seat's luck in each deal, so the per-deal averages vary far less.
    assert (by_strategy["narrower"] > 0.2).all()
    a = by_strategy.filter(pl.col("strategy") == "A").row(0, named=True)
    assert a["mean"] == pytest.approx(seats.filter(pl.col("strategy") == "A")["win"].mean())
    per_deal = seats.filter(pl.col("strategy") == "A").group_by("game").agg(pl.col("win").mean())["win"]
    assert a["half_paired"] == pytest.approx(stats.norm.ppf(0.975) * per_deal.std() / np.sqrt(2000))


def test_strategy_differences_find_the_bonus():
    diffs = paired.strategy_differences(seats := rotated_frame()).sort("a", "b")
    ab = diffs.row(0, named=True)
    assert (ab["a"], ab["b"]) == ("A", "B")
    assert ab["low"] > 0 and ab["p_value"] < 1e-6
    bc = diffs.row(2, named=True)
    assert bc["low"] < 0 < bc["high"]  # B and C are the same strategy under two names
    assert (diffs["half_paired"] < diffs["half_independent"]).all()
    a = seats.filter(pl.col("strategy") == "A").group_by("game").agg(pl.col("win").mean()).sort("game")
    b = seats.filter(pl.col("strategy") == "B").group_by("game").agg(pl.col("win").mean()).sort("game")
    assert ab["p_value"] == pytest.approx(stats.ttest_rel(a["win"], b["win"]).pvalue)


def test_paired_needs_rotated_seats():
    with pytest.raises(ValueError, match="rotate-seats"):
        paired.effects(rotated_frame(deals=5).drop("rotation"))


def pair_results(table):
    """Two-player results ``(a, b, games, wins of a)`` as one row per independent game."""
    rows, game = [], 0
    for a, b, n, wins in table:
        for i in range(n):
            rows.append((game, a, b, 1, 1.0 if i < wins else 0.0))
            game += 1
    return pl.DataFrame(rows, schema=["game", "a", "b", "n", "wins"], orient="row")


def test_bradley_terry_recovers_known_strengths_exactly():
    # Strengths 1 : 2 : 4 and results exactly as expected: P(a beats b) = s_a / (s_a + s_b).
    results = pair_results([("A", "B", 300, 100), ("A", "C", 500, 100), ("B", "C", 300, 100)])
    table = tournament.bradley_terry(results).sort("strategy")
    truth = np.log([1, 2, 4]) - np.log([1, 2, 4]).mean()
    assert table["theta"].to_numpy() == pytest.approx(truth, abs=1e-9)
    assert table["rating"].to_numpy() == pytest.approx(400 * np.log10([1, 2, 4]) - 400 * np.log10(8) / 3, abs=1e-6)


def test_bradley_terry_two_strategies_analytic_interval():
    # Two strategies, 600 of 1000 games: theta_A - theta_B = logit(0.6), se = 1 / sqrt(n p q).
    table = tournament.bradley_terry(pair_results([("A", "B", 1000, 600)])).sort("strategy")
    diff = table["theta"][0] - table["theta"][1]
    assert diff == pytest.approx(np.log(0.6 / 0.4))
    se_diff = 1 / np.sqrt(1000 * 0.6 * 0.4)
    half_a = (table["rating_high"][0] - table["rating_low"][0]) / 2
    assert half_a == pytest.approx(stats.norm.ppf(0.975) * tournament.ELO * se_diff / 2, rel=1e-6)


def plackett_luce_tournament(strengths, players, deals, seed):
    """Rotated multi-player games ranked by Plackett-Luce (pairwise marginals are Bradley-Terry)."""
    rng = np.random.default_rng(seed)
    names = list(strengths)
    w = np.array(list(strengths.values()))
    rows = []
    for lineup_no, lineup in enumerate(tournament.lineups(names, players)):
        idx = [names.index(s) for s in lineup]
        for g in range(deals):
            for r in range(players):
                plays = [idx[(s + r) % players] for s in range(players)]
                # Plackett-Luce: sort by Gumbel-perturbed log strengths.
                key = np.log(w[plays]) + rng.gumbel(size=players)
                rank = 1 + np.argsort(np.argsort(-key))
                rows += [(g, r, s, names[plays[s]], float(-rank[s]), int(rank[s]), float(rank[s] == 1),
                          players, 1) for s in range(players)]
        yield pl.DataFrame(rows, schema=COLUMNS, orient="row").with_columns(pl.lit(lineup_no).alias("lineup"))
        rows = []


def test_bradley_terry_intervals_cover_known_strengths_in_multiplayer_games():
    strengths = {"a": 1.0, "b": 1.5, "c": 2.0, "d": 3.0}
    seats = pl.concat(plackett_luce_tournament(strengths, 3, 400, seed=11))
    table = tournament.bradley_terry(tournament.pairwise(seats)).sort("strategy")
    truth = tournament.ELO * (np.log(list(strengths.values())) - np.log(list(strengths.values())).mean())
    assert (table["rating_low"].to_numpy() < truth).all() and (truth < table["rating_high"].to_numpy()).all()
    assert table["strategy"].to_list() == ["a", "b", "c", "d"]
    standings = tournament.standings(seats)
    assert standings["strategy"].to_list() == ["d", "c", "b", "a"]
    assert (standings["win_low"] < standings["win_share"]).all()


def test_bradley_terry_refuses_a_clean_sweep():
    with pytest.raises(ValueError, match="won every comparison"):
        tournament.bradley_terry(pair_results([("A", "B", 10, 10)]))


def test_lineups():
    assert tournament.lineups(["x", "y", "z"], 2) == [["x", "y"], ["x", "z"], ["y", "z"]]
    assert tournament.lineups(["x", "y"], 3) == [["x", "x", "y"], ["x", "y", "y"]]
    with pytest.raises(ValueError):
        tournament.lineups(["x", "x"], 2)


def test_the_terminal_standings_print_percent_and_elo_with_even_decimals():
    standings = pl.DataFrame([("greedy", 4000, 0.44231, 0.43876, 0.44587, 120.4, 100.2, 140.9)],
                             schema=["strategy", "games", "win_share", "win_low", "win_high", "rating", "rating_low",
                                     "rating_high"], orient="row")
    header, rows = tournament.table_cells(standings)
    assert "finishing order" in header[3]  # a higher rating need not mean more wins
    assert rows[0][1:] == ["4,000", "44.23% (43.88 to 44.59)", "+120 (+100 to +141)"]


def test_a_tournament_counts_deals_lineups_and_rotations():
    from analyses.moments import SeatMoments
    from analyses.verdict import decide

    units = np.random.default_rng(5).dirichlet(np.ones(5), size=1000)
    verdict = decide(SeatMoments.of_units(units, rotations=260), 1.0, lineups=52)
    assert verdict.counts() == "1,000 deals × 52 lineups × 5 rotations = 260,000 games"
