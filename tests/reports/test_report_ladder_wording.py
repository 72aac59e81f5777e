"""The skill ladder report's wording, on synthetic ladder tables of known truth (no engine runs): which
change of the first-seat edge it claims, from which intervals, and how often it claims one that is not
there (simulated with numpy, fixed seeds)."""

import numpy as np
import polars as pl
import pytest
from scipy import special

from analyses import ladder
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


@pytest.mark.parametrize("start, end, change, kind", [
    ((2.0, 4.2), (-0.8, 1.6), (-3.5, -0.5), "shrinks"),     # an advantage that fades into the noise
    ((-0.8, 1.6), (2.0, 4.2), (0.5, 3.5), "grows"),
    ((-4.0, -2.0), (-1.5, -0.5), (0.5, 3.5), "shrinks"),     # a disadvantage that becomes smaller
    ((-1.5, -0.5), (-4.0, -2.0), (-3.5, -0.5), "grows"),     # ... or larger: the size grows though the edge falls
    ((2.0, 4.0), (-4.0, -2.0), (-7.0, -5.0), "reverses"),
    ((-3.0, -1.0), (0.5, 2.0), (1.5, 3.0), "reverses"),
    ((0.5, 1.5), (-0.6, 0.2), (-1.5, -0.5), "falls"),        # lower for sure, smaller in size not for sure
    ((-0.2, 0.6), (1.0, 2.0), (0.8, 1.6), "grows"),
    ((-1.5, -0.5), (-0.2, 0.6), (0.3, 1.1), "rises"),
    ((1.0, 3.0), (2.0, 4.0), (0.2, 1.8), "grows"),           # overlapping intervals, but the shared deals tell
    ((-3.0, 1.0), (-2.0, 2.0), (0.2, 1.8), "rises"),
    ((1.0, 3.0), (2.0, 4.0), (-0.2, 2.2), NO_CHANGE),
    ((1.0, 2.0), (2.5, 3.5), (-0.1, 3.1), NO_CHANGE),        # intervals apart, the change's interval holds 0
    ((-1.0, 1.0), (-3.0, 3.0), (-2.0, 2.0), NO_CHANGE),
])
def test_trend_claims_a_change_only_when_the_change_interval_excludes_zero(start, end, change, kind):
    assert str(trend(*start, *end, *change)) == kind


def test_the_verdict_reads_the_change_and_the_two_ends_with_their_intervals_and_the_margin():
    table = synthetic([(3.1, 2.0, 4.2), (9.0, 8.0, 10.0), (-9.0, -10.0, -8.0), (0.4, -0.8, 1.6)],
                      verdicts=["unbalanced", "unbalanced", "unbalanced", "inconclusive"])
    sentence = verdict_sentence(table, 1.0, (-2.7, -4.1, -1.3))
    assert sentence.startswith("The first-seat edge shrinks with skill: it changes by -2.70 points (-4.10 to "
                               "-1.30, 95% over the shared deals) from +3.10 (+2.00 to +4.20) at 16 iterations to "
                               "+0.40 (-0.80 to +1.60) at 128 (simultaneous 95% intervals; the search player at "
                               "that budget in every seat)")  # the middle levels play no part
    assert sentence.endswith("the seat verdict at ±1.0 points is unbalanced at 16 iterations and inconclusive at 128.")


def test_a_change_interval_holding_zero_says_no_clear_change():
    table = synthetic([(1.2, 0.1, 2.3), (0.8, -0.3, 1.9)], verdicts=["inconclusive"] * 2)
    sentence = verdict_sentence(table, 2.5, (-0.4, -1.0, 0.2))
    assert sentence.startswith("No clear change in the first-seat edge with skill: it changes by -0.40 points")
    assert "at 32 (" in sentence
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


def ladder_ends(rng, players, games, edge0, edge1, luck=0.5, reps=10_000):
    """``reps`` simulated ladders' two ends on shared deals (vectorised): in each deal the first seat wins
    with probability ``fair + edge + luck * (u - 1/2)`` at either level, ``u`` one uniform per deal (the
    cards, shared by both levels); the first seat's wins at the two levels are then drawn independently.
    Returns the two levels' simultaneous intervals of the first-seat edge, as the ladder's table has them
    (normal, Bonferroni over the seats) and the change's interval (``analyses.ladder.paired_change``), in
    points, as ``trend``'s six arguments."""
    fair = 1 / players
    u = rng.random((reps, games)) - 0.5
    wins = [rng.random((reps, games)) < fair + e / 100 + luck * u for e in (edge0, edge1)]
    z = special.ndtri(1 - 0.025 / players)
    ends = []
    for w in wins:
        p = w.mean(axis=1)
        half = z * np.sqrt(p * (1 - p) / games)
        ends += [100 * (p - fair - half), 100 * (p - fair + half)]
    _, lo, hi = ladder.paired_change(wins[1].astype(float) - wins[0])
    return (*ends, 100 * lo, 100 * hi)


@pytest.mark.parametrize("edge, luck", [(0.0, 0.0), (2.0, 0.5), (-3.0, 0.9)])
def test_an_unchanged_edge_is_called_changed_five_percent_of_the_time(edge, luck):
    rng = np.random.default_rng(11)
    kinds = trend(*ladder_ends(rng, 4, 400, edge, edge, luck))
    assert np.mean(kinds != NO_CHANGE) == pytest.approx(0.05, abs=0.01)  # the overlap rule: 0.0000-0.0003


def test_an_edge_of_unchanged_size_is_rarely_said_to_grow_or_shrink():
    rng = np.random.default_rng(12)
    kinds = trend(*ladder_ends(rng, 4, 400, 4.0, -4.0))  # the seat edge flips sign, its size stays 4
    assert np.mean(np.isin(kinds, ["grows", "shrinks"])) <= 0.05


@pytest.mark.parametrize("edge0, edge1, kind, direction", [(10.0, 0.0, "shrinks", "falls"), (0.0, 10.0, "grows", "rises"),
                                                           (0.0, -10.0, "grows", "falls"),
                                                           (8.0, -8.0, "reverses", "falls")])
def test_a_real_change_is_named_in_its_direction(edge0, edge1, kind, direction):
    rng = np.random.default_rng(13)
    kinds = trend(*ladder_ends(rng, 4, 800, edge0, edge1, reps=4000))
    # the change is seen; its kind is named when the levels' intervals show it, else only its direction
    assert np.mean(np.isin(kinds, [kind, direction])) >= 0.95 and np.mean(kinds == kind) >= 0.6
    wrong = {"shrinks": ["grows", "rises"], "grows": ["shrinks"], "reverses": ["grows", "shrinks"]}[kind]
    assert np.mean(np.isin(kinds, wrong)) <= 0.001


def test_the_paired_test_has_its_normal_power_where_the_overlap_rule_has_little():
    # 500 deals x 4 players per level, the first seat's edge 3 points higher at the top (bench/journal/)
    rng = np.random.default_rng(14)
    lo0, hi0, lo1, hi1, clo, chi = ladder_ends(rng, 4, 2000, 0.0, 3.0, reps=4000)
    p0, p1, shared = 0.25, 0.28, 0.5 ** 2 / 12  # the deals' luck is shared: covariance luck^2 var(u)
    sd = np.sqrt(p0 * (1 - p0) + p1 * (1 - p1) - 2 * shared)
    power = special.ndtr(0.03 * np.sqrt(2000) / sd - special.ndtri(0.975))
    assert np.mean(clo > 0) == pytest.approx(power, abs=0.025)
    assert np.mean(lo1 > hi0) < 0.1
