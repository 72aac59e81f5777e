"""Comparing two designs, checked by simulation on two identical designs (vectorised numpy, fixed seeds)."""

import numpy as np
import polars as pl
import pytest
from synthetic_runs import rotated_frame

from analyses import compare

P = 4
SHARES = np.array([0.30, 0.24, 0.23, 0.23])  # a clear first-seat edge, the same in A and B


def one_hot(winners):
    return (winners[..., None] == np.arange(P)).astype(float)


def draw(rng, shape):
    return (rng.random((*shape, 1)) > np.cumsum(SHARES)).sum(axis=-1)


def identical_designs(rng, reps, deals, shared):
    """Per-deal win vectors of A and B, the same design: B repeats A's game with probability ``shared``
    (common random numbers), else plays a fresh one."""
    a = draw(rng, (reps, deals))
    b = np.where(rng.random((reps, deals)) < shared, a, draw(rng, (reps, deals)))
    return one_hot(a), one_hot(b)


@pytest.mark.parametrize("paired, shared", [(False, 0.0), (True, 0.7)], ids=["unpaired", "paired"])
def test_identical_designs_keep_coverage_and_false_positive_rate(paired, shared):
    rng = np.random.default_rng(21)
    a, b = identical_designs(rng, 1000, 2500, shared)
    seat_hits, edge_hits, claims = [], [], []
    for x, y in zip(a, b):
        _, lo, hi = compare.mean_change(x, y, paired, family=P)
        seat_hits.append(((lo <= 0) & (0 <= hi)).all())
        *_, dlo, dhi = compare.largest_edge_change(x, y, paired, replicates=1000)
        edge_hits.append(dlo <= 0 <= dhi)
        claims.append(compare.verdict_of(100 * dlo, 100 * dhi, 1.0) != "indistinguishable")
    assert np.mean(seat_hits) == pytest.approx(0.95, abs=0.02)
    assert np.mean(edge_hits) == pytest.approx(0.95, abs=0.02)
    assert np.mean(claims) <= 0.05


def test_pairing_narrows_the_interval():
    rng = np.random.default_rng(22)
    a, b = identical_designs(rng, 1, 5000, 0.7)
    _, plo, phi = compare.mean_change(a[0], b[0], True)
    _, ulo, uhi = compare.mean_change(a[0], b[0], False)
    assert ((phi - plo) < 0.7 * (uhi - ulo)).all()


def test_verdict_of_against_the_margin():
    assert compare.verdict_of(-2.5, -1.2, 1.0) == "fairer"
    assert compare.verdict_of(1.1, 3.0, 1.0) == "worse"
    assert compare.verdict_of(-1.5, -0.2, 1.0) == "indistinguishable"


def test_compare_frames_pairs_runs_of_one_seed():
    seats = rotated_frame(deals=400, strategies=("A", "B", "C"))
    manifest = {"game": "g", "players": 3, "seed": 1, "rotate_seats": True}
    same = compare.compare(seats, seats, manifest, manifest)
    assert same.paired and same.kind == "indistinguishable"
    assert same.sentence().startswith("A and B are equally fair within ±1.0 points with `A`, `B` and `C` rotated "
                                      "through the seats:")
    assert same.largest.change == 0 and (same.largest.lo, same.largest.hi) == pytest.approx((0, 0), abs=1e-5)
    other = compare.compare(seats, rotated_frame(deals=400, strategies=("A", "B", "C"), seed=4), manifest,
                            {**manifest, "seed": 2})
    assert not other.paired and "unpaired (different seeds)" in other.pairing
    assert {c.name for c in other.feel} >= {"mean score spread", "tie rate"}
    with pytest.raises(compare.CompareError, match="differ in players"):
        compare.compare(seats, seats, manifest, {**manifest, "players": 4})
    with pytest.raises(compare.CompareError, match="different g engines \\(version 1 against 2\\)"):
        compare.compare(seats, seats, {**manifest, "engine_version": "1"}, {**manifest, "engine_version": "2"})
    assert pl.DataFrame(same.to_dict()["seats"]).height == 3


def comparison(lo, hi, margin=1.0):
    """A ``Comparison`` whose largest-edge change has the interval ``(lo, hi)`` points."""
    largest = compare.Change("largest seat edge", 3.0, 3.0 + (lo + hi) / 2, (lo + hi) / 2, lo, hi)
    return compare.Comparison(compare.verdict_of(lo, hi, margin), margin, True, "paired", (100, 100), (), largest, ())


@pytest.mark.parametrize("lo, hi, opening", [
    (-0.8, -0.2, "B changed the largest seat edge, but within the margin of ±1.0 points"),
    (-1.6, -0.2, "B changed the largest seat edge by -0.90 points (-1.60 to -0.20), but cannot yet be said"),
    (-0.5, 0.4, "A and B are equally fair within ±1.0 points"),
    (-1.5, 0.4, "A and B cannot be told apart at ±1.0 points"),
    (-2.5, -1.2, "B is fairer than A beyond ±1.0 points"),
    (1.1, 3.0, "B is less fair than A beyond ±1.0 points"),
])
def test_the_sentence_says_whether_b_changed_and_whether_within_the_margin(lo, hi, opening):
    assert comparison(lo, hi).sentence().startswith(opening)


def test_game_feel_lines_use_two_decimals_and_their_units():
    rounds = compare.Change("mean rounds", 6.1234, 5.2122, -0.9112, -1.214, -0.6082)
    assert compare.feel_line(rounds) == "    mean rounds: 6.12 -> 5.21, -0.91 (-1.21 to -0.61)"
    ties = compare.Change("tie rate", 12.5, 11.0, -1.5, -2.25, -0.75)
    assert compare.feel_line(ties) == "    tie rate: 12.50% -> 11.00%, -1.50 points (-2.25 to -0.75)"
    same = compare.Change("mean rounds", 4.0, 4.0, 0.0, 0.0, 0.0)
    assert compare.feel_line(same) == "    mean rounds: 4.00 -> 4.00, +0.00 (the same difference in every deal)"
    # a seat bonus that breaks ties moves the margin of victory by thousandths: before, "-0.00 (-0.00 to -0.00)"
    tiny = compare.Change("mean margin of victory", 16.3817, 16.3787, -0.003, -0.00446, -0.00154)
    assert compare.feel_line(tiny) == "    mean margin of victory: 16.38 -> 16.38, -0.0030 (-0.0045 to -0.0015)"
