"""The skill ladder report's wording, on synthetic ladder tables of known truth (no engine runs): which
change of the first-seat edge it claims, from which intervals, and how often it claims one that is not
there (simulated with numpy, fixed seeds)."""

import numpy as np
import polars as pl
import pytest

from reports.ladder_report import NO_CHANGE, strength_sentence, trend, verdict_sentence


def synthetic(first, verdicts=None, below=None, field=None):
    """A table shaped like ``analyses.ladder.table``'s: budgets 16, 32, ...; ``first`` lists the first
    seat's (edge, lo, hi) in points per level; ``below`` and ``field`` the (share, lo, hi) win shares."""
    n = len(first)
    verdicts = verdicts or ["inconclusive"] * n
    below = below or [(0.40, 0.35, 0.45)] * n
    field = field or [(0.30, 0.26, 0.34)] * n
    rows = []
    for i, ((e, lo, hi), v, b, f) in enumerate(zip(first, verdicts, below, field)):
        rows.append({"budget": 16 * 2 ** i, "below_share": b[0], "below_lo": b[1], "below_hi": b[2],
                     "field_share": f[0], "field_lo": f[1], "field_hi": f[2], "first_edge": e, "first_lo": lo,
                     "first_hi": hi, "largest_seat": 0, "largest_edge": e, "largest_lo": lo, "largest_hi": hi,
                     "verdict": v})
    return pl.DataFrame(rows)


@pytest.mark.parametrize("start, end, kind", [
    ((2.0, 4.2), (-0.8, 1.6), "shrinks"),       # an advantage that fades into the noise
    ((-0.8, 1.6), (2.0, 4.2), "grows"),
    ((-4.0, -2.0), (-1.5, -0.5), "shrinks"),    # a disadvantage that becomes smaller
    ((-1.5, -0.5), (-4.0, -2.0), "grows"),      # ... or larger: the size grows though the edge falls
    ((2.0, 4.0), (-4.0, -2.0), "reverses"),
    ((-3.0, -1.0), (0.5, 2.0), "reverses"),
    ((0.5, 1.5), (-0.6, 0.2), "falls"),         # lower for sure, smaller in size not for sure
    ((-0.2, 0.6), (1.0, 2.0), "grows"),
    ((-1.5, -0.5), (-0.2, 0.6), "rises"),
    ((1.0, 3.0), (2.0, 4.0), NO_CHANGE),
    ((1.0, 2.0), (2.0, 3.0), NO_CHANGE),        # touching intervals overlap
    ((-1.0, 1.0), (-3.0, 3.0), NO_CHANGE),
])
def test_trend_claims_a_change_only_when_the_intervals_do_not_overlap(start, end, kind):
    assert str(trend(*start, *end)) == kind


def test_the_verdict_reads_the_two_ends_with_their_intervals_and_the_margin():
    table = synthetic([(3.1, 2.0, 4.2), (9.0, 8.0, 10.0), (-9.0, -10.0, -8.0), (0.4, -0.8, 1.6)],
                      verdicts=["unbalanced", "unbalanced", "unbalanced", "inconclusive"])
    sentence = verdict_sentence(table, 1.0)
    assert sentence.startswith("The first-seat edge shrinks with skill: +3.10 points (+2.00 to +4.20) at 16 "
                               "iterations, +0.40 (-0.80 to +1.60) at 128 (simultaneous 95% intervals, which do "
                               "not overlap)")  # the middle levels play no part
    assert sentence.endswith("the seat verdict at ±1.0 points is unbalanced at 16 iterations and inconclusive at 128.")


def test_overlapping_ends_say_no_clear_change():
    table = synthetic([(1.2, 0.1, 2.3), (0.8, -0.3, 1.9)], verdicts=["inconclusive"] * 2)
    sentence = verdict_sentence(table, 2.5)
    assert sentence.startswith("No clear change in the first-seat edge with skill: +1.20 points")
    assert "which overlap" in sentence and "at 32 (" in sentence
    assert sentence.endswith("the seat verdict at ±2.5 points is inconclusive at both ends.")


def test_one_level_says_there_is_no_trend():
    sentence = verdict_sentence(synthetic([(0.5, -0.5, 1.5)], verdicts=["balanced"]), 2.0)
    assert sentence.startswith("One level only, so no trend: with 16 iterations")
    assert "+0.50 points (-0.50 to +1.50)" in sentence and "seat verdict at ±2.0 points is balanced" in sentence


def test_strength_says_where_the_ladder_stops_climbing():
    fair = 0.25
    climbing = synthetic([(0, -1, 1)] * 3, below=[(0.6, 0.55, 0.65)] * 3, field=[(0.3, 0.27, 0.33)] * 3)
    words = strength_sentence(climbing, fair, "pusher")
    assert "3 of 3 levels (16, 32, 64 iterations) beat the level below" in words
    assert "30.0% of its games against pusher (27.0% to 33.0%), above the fair share of 25.0%" in words
    assert "not clearly more skill" not in words
    stalled = synthetic([(0, -1, 1)] * 3, below=[(0.6, 0.55, 0.65), (0.26, 0.2, 0.32), (0.2, 0.15, 0.24)],
                        field=[(0.3, 0.27, 0.33)] * 2 + [(0.24, 0.2, 0.28)])
    words = strength_sentence(stalled, fair, "pusher")
    assert "1 of 3 levels (16 iterations) beat" in words
    assert "1 of 3 levels (32 iterations) cannot be told apart" in words
    assert "1 of 3 levels (64 iterations) lose to the level below" in words
    assert "not distinguishable from the fair share" in words and "not clearly more skill" in words


def _ends(rng, mean0, mean1, se, rho, reps=40_000, z=1.96):
    """``reps`` simulated pairs of normal interval estimates with standard error ``se`` and correlation
    ``rho`` (the levels play the same deals), as (lo0, hi0, lo1, hi1)."""
    a = rng.standard_normal(reps)
    b = rho * a + np.sqrt(1 - rho ** 2) * rng.standard_normal(reps)
    x0, x1 = mean0 + se * a, mean1 + se * b
    return x0 - z * se, x0 + z * se, x1 - z * se, x1 + z * se


@pytest.mark.parametrize("mean, rho", [(0.0, 0.0), (2.0, 0.0), (2.0, 0.8), (2.0, -0.9), (0.5, -0.9)])
def test_an_unchanged_edge_is_called_changed_at_most_five_percent_of_the_time(mean, rho):
    rng = np.random.default_rng(11)
    kinds = trend(*_ends(rng, mean, mean, 1.0, rho))
    assert np.mean(kinds != NO_CHANGE) <= 0.05


def test_an_edge_of_unchanged_size_is_rarely_said_to_grow_or_shrink():
    rng = np.random.default_rng(12)
    kinds = trend(*_ends(rng, 1.5, -1.5, 1.0, 0.0))  # the seat edge flips sign, its size stays 1.5
    assert np.mean(np.isin(kinds, ["grows", "shrinks"])) <= 0.05


@pytest.mark.parametrize("mean0, mean1, kind", [(4.0, 0.0, "shrinks"), (0.0, 4.0, "grows"), (0.0, -4.0, "grows"),
                                                (3.0, -3.0, "reverses")])
def test_a_real_change_is_named_in_its_direction(mean0, mean1, kind):
    rng = np.random.default_rng(13)
    kinds = trend(*_ends(rng, mean0, mean1, 0.5, 0.3))
    assert np.mean(kinds == kind) >= 0.9
    wrong = {"shrinks": ["grows", "rises"], "grows": ["shrinks"], "reverses": ["grows", "shrinks"]}[kind]
    assert np.mean(np.isin(kinds, wrong)) <= 0.001
