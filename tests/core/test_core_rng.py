"""Random streams: reproducible per (seed, game, lane), independent of call order, uniform."""

import numba as nb
import numpy as np
from scipy import stats

from simulator.core.rng import randint, seed_stream, shuffle, uniform


@nb.njit
def draws(seed, game, lane, n, k):
    state = np.zeros(4, np.uint64)
    seed_stream(state, seed, game, lane)
    out = np.empty(k, np.int64)
    for i in range(k):
        out[i] = randint(state, n)
    return out


def test_same_seed_game_lane_same_stream_and_different_otherwise():
    a = draws(7, 3, 0, 1000, 50)
    assert np.array_equal(a, draws(7, 3, 0, 1000, 50))
    for other in [draws(8, 3, 0, 1000, 50), draws(7, 4, 0, 1000, 50), draws(7, 3, 1, 1000, 50)]:
        assert (a != other).mean() > 0.9


def test_randint_is_uniform_and_in_range():
    x = draws(1, 0, 0, 6, 60000)
    assert x.min() == 0 and x.max() == 5
    assert stats.chisquare(np.bincount(x, minlength=6)).pvalue > 0.001


def test_neighbouring_games_are_uncorrelated():
    firsts = np.array([draws(0, g, 0, 2, 1)[0] for g in range(4000)])
    seconds = np.array([draws(0, g + 1, 0, 2, 1)[0] for g in range(4000)])
    assert abs(np.corrcoef(firsts, seconds)[0, 1]) < 0.06


@nb.njit
def shuffled(seed, n):
    state = np.zeros(4, np.uint64)
    seed_stream(state, seed, 0, 0)
    a = np.arange(n)
    shuffle(a, n, state)
    return a


def test_shuffle_is_a_uniform_permutation():
    first = np.array([shuffled(s, 5)[0] for s in range(5000)])
    assert sorted(shuffled(1, 20)) == list(range(20))
    assert stats.chisquare(np.bincount(first, minlength=5)).pvalue > 0.001


@nb.njit
def uniforms(k):
    state = np.zeros(4, np.uint64)
    seed_stream(state, 5, 0, 0)
    return np.array([uniform(state) for _ in range(k)])


def test_uniform_in_unit_interval():
    u = uniforms(20000)
    assert 0 <= u.min() and u.max() < 1
    assert stats.kstest(u, "uniform").pvalue > 0.001
