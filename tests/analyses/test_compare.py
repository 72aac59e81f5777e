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
