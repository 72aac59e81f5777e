"""Headlines of the tournament and sweep reports on small synthetic tables (no engine runs): a top-rated
strategy that wins less often says why in the same sentence; a sweep of only unbalanced configurations says
so before it names the least unfair, and one with none shown balanced never calls its pick the fairest."""

import polars as pl

from analyses.sweep import pick_lead
from reports.tournament_report import headline


def standings(rows):
    return pl.DataFrame(rows, schema=["strategy", "games", "win_share", "win_low", "win_high", "rating",
                                      "rating_low", "rating_high"], orient="row")


MATRIX = pl.DataFrame([("a", "b", 1000, 0.58, 0.55, 0.61), ("b", "a", 1000, 0.42, 0.39, 0.45)],
                      schema=["a", "b", "meetings", "ahead", "low", "high"], orient="row")


def test_a_top_rated_strategy_that_wins_less_often_says_why():
    table = standings([("a", 4000, 0.30, 0.28, 0.32, 60.0, 40.0, 80.0), ("b", 4000, 0.33, 0.31, 0.35, -60.0, -80.0, -40.0)])
    sentence = headline(table, MATRIX)
    assert sentence.startswith("a is the strongest strategy: it finishes ahead of b in 58.0% of their meetings")
    assert sentence.endswith("wins 30.0% of its games (28.0% to 32.0%), less often than b (33.0%): the rating counts "
                             "finishing order (who finishes ahead of whom), win share first places only.")


def test_a_top_rated_strategy_that_also_wins_most_needs_no_reason():
    table = standings([("a", 4000, 0.36, 0.34, 0.38, 60.0, 40.0, 80.0), ("b", 4000, 0.30, 0.28, 0.32, -60.0, -80.0, -40.0)])
    assert headline(table, MATRIX).endswith("wins 36.0% of its games (34.0% to 38.0%).")


def test_the_sweep_headline_says_when_every_configuration_is_unbalanced():
    def lead(verdicts):
        return pick_lead(verdicts, "±1 points", "with `greedy` in every seat")
    assert lead(["unbalanced"] * 6) == \
        "All 6 configurations are unbalanced at ±1 points with `greedy` in every seat; the least unfair"
    assert lead(["unbalanced", "balanced", "unbalanced"]) == \
        "Fairest configuration with `greedy` in every seat (2 of 3 are unbalanced at ±1 points)"
    assert lead(["balanced", "inconclusive"]) == "Fairest configuration with `greedy` in every seat"


def test_no_configuration_is_called_fairest_when_none_is_shown_balanced():
    assert pick_lead(["inconclusive"] * 3, "±1.0 points") == \
        "No configuration is shown balanced at ±1.0 points (3 of 3 inconclusive); the smallest largest edge"
    assert pick_lead(["unbalanced", "inconclusive", "unbalanced"], "±1 points", "with `greedy` in every seat") == (
        "No configuration is shown balanced at ±1 points with `greedy` in every seat (1 of 3 inconclusive, "
        "2 unbalanced); the smallest largest edge")
