"""Strength on the ladder (``analyses.strength``): the matches' seats, the step read from a match's rows, and the
strength intervals checked by simulation with known truth (fixed seeds, vectorised numpy)."""

import numpy as np
import polars as pl
import pytest

from analyses import strength
from analyses.ladder import paired_change

RNG_SEED = 20261206


@pytest.mark.parametrize("players, lineup", [
    (2, ["b", "a"]), (3, ["b", "a", "a"]), (4, ["b", "b", "a", "a"]), (5, ["b", "a", "a", "a", "a"]),
    (6, ["b", "b", "b", "a", "a", "a"])])
def test_a_match_gives_the_upper_model_half_the_seats_or_one_against_the_rest(players, lineup):
    assert strength.match_lineup("a", "b", players) == lineup


def test_the_step_of_a_deal_is_the_upper_models_win_share_per_seat_minus_the_fair_share():
    """Two deals of a 4-player match, 4 rotations each: `b` holds seats {0, 1}, {0, 3}, {2, 3} and {1, 2} in
    rotations 0 to 3. In deal 0 it wins 3.5 of 4 games (a win shared by seats 0 and 1 in rotation 1 counts half
    to each), in deal 1 none; a deal whose only game did not finish is left out."""
    rows = []
    winners = {0: [0, (0, 1), 3, 1], 1: [2, 1, 0, 0]}   # winning seat(s) per rotation
    for game, rotations in winners.items():
        for rotation, won in enumerate(rotations):
            won = won if isinstance(won, tuple) else (won,)
            for seat in range(4):
                rows.append({"game": game, "rotation": rotation, "seat": seat,
                             "strategy": ["b", "b", "a", "a"][(seat + rotation) % 4],
                             "win": 1 / len(won) if seat in won else 0.0, "finished": True})
    for seat in range(4):   # deal 2: one unfinished game, dropped with its deal
        rows.append({"game": 2, "rotation": 0, "seat": seat, "strategy": ["b", "b", "a", "a"][seat],
                     "win": 0.0, "finished": False})
    deals, step = strength.steps_per_deal(pl.DataFrame(rows), "b", 4)
    assert deals.tolist() == [0, 1]
    assert step.tolist() == pytest.approx([100 * (3.5 / 8 - 0.25), 100 * (0 - 0.25)])


def simulate_matches(rng, truth, studies, deals, players=4, luck=0.06):
    """Per-deal steps of every neighbour match of a ladder with true steps ``truth`` (points per seat), played
    game by game: in rotation r seat s holds ``match_lineup``'s strategy ``(s + r) % players``, the upper model's
    seats win with probability fair + step each, the lower's share the rest, plus a per-deal seat luck (the same
    deal in every match, summing to 0 over the seats) that seats rotated cancel. One winner per game."""
    truth = np.asarray(truth) / 100
    matches = len(truth)
    held = strength.upper_seats(players)
    upper = np.array([[(s + r) % players < held for s in range(players)] for r in range(players)])
    seat_luck = rng.normal(0, luck, (studies, 1, deals, 1, players))
    seat_luck -= seat_luck.mean(axis=-1, keepdims=True)
    q = 1 / players + truth[None, :, None, None, None]
    rest = (1 - held * q) / (players - held)
    p = np.where(upper[None, None, None], q, rest) + seat_luck   # (studies, matches, deals, rotations, seats)
    p = np.clip(p, 0, None)
    p /= p.sum(axis=-1, keepdims=True)
    u = rng.random((studies, matches, deals, players, 1))
    winner = (u > np.cumsum(p, axis=-1)).sum(axis=-1)            # (studies, matches, deals, rotations)
    upper_won = upper[np.arange(players), winner]
    return 100 * (upper_won.mean(axis=-1) / held - 1 / players)


def test_strength_intervals_cover_the_true_strengths_95_percent_of_the_time():
    truth_steps = [12.0, 3.0, 0.5]
    truth = np.concatenate([[0.0], np.cumsum(truth_steps)])
    rng = np.random.default_rng(RNG_SEED)
    steps = simulate_matches(rng, truth_steps, studies=2000, deals=300)
    ladder = strength.Ladder.of_steps(["random", "heuristic", "learned", "expert"], steps, 4)
    value, lo, hi = ladder.strength()
    covered = (lo <= truth) & (truth <= hi)
    assert covered[:, 0].all() and (value[:, 0] == 0).all()      # the reference is 0 by definition
    assert np.abs(covered[:, 1:].mean(axis=0) - 0.95).max() < 0.015
    assert np.abs(value.mean(axis=0) - truth).max() < 0.05
    d, dlo, dhi = ladder.difference("expert", "heuristic")
    assert abs(((dlo <= 3.5) & (3.5 <= dhi)).mean() - 0.95) < 0.015


def test_the_shared_deals_make_the_summed_strength_narrower_than_independent_steps_would():
    """The matches play the same deals, so a deal's luck enters every step; the interval must use the per-deal
    sums (it covers, above), and it differs from adding the steps' variances as if independent."""
    rng = np.random.default_rng(RNG_SEED + 1)
    steps = simulate_matches(rng, [5.0, 5.0], studies=400, deals=300, luck=0.15)
    ladder = strength.Ladder.of_steps(["a", "b", "c"], steps, 4)
    _, lo, hi = ladder.strength()
    independent = 1.97 * np.sqrt((steps.var(axis=-1, ddof=1) / 300).sum(axis=-1))
    assert not np.allclose((hi - lo)[:, 2] / 2, independent, rtol=0.02)


def test_the_ranking_follows_the_measured_strength_not_the_list():
    steps = np.array([[10.0, 12.0, 8.0], [-4.0, -6.0, -5.0]])   # the third model is weaker than the second
    ladder = strength.Ladder.of_steps(["random", "learned", "heuristic"], steps, 4)
    assert ladder.ranked() == ["learned", "heuristic", "random"]
    value, lo, hi = ladder.strength()
    assert value.tolist() == pytest.approx([0.0, 10.0, 5.0])
    assert lo[1] < 10.0 < hi[1]


def test_a_saturated_step_keeps_an_interval_below_the_ceiling():
    """200 deals of a 4-player match all won by the upper model (+25 points per seat, every one of 800 games):
    a t interval over identical deals has no width. The interval must reach below the ceiling, at least down to
    the per-game rate whose chance of winning all 800 games is 2.5% (below that the data would be a 2.5% event),
    must not pass the ceiling, and must not be vacuous."""
    ladder = strength.Ladder.of_steps(["random", "builder"], np.full((1, 200), 25.0), 4)
    value, lo, hi = ladder.strength()
    rate = 0.025 ** (1 / 800)                       # per-game win rate at which 800 straight wins have chance 2.5%
    still_plausible = 100 * (rate / 2 - 1 / 4)       # its step: points per seat over the fair 25%
    assert value[1] == 25.0 and hi[1] == 25.0
    assert 24.0 < lo[1] <= still_plausible + 1e-9 < 25.0
    d, dlo, dhi = ladder.difference("random", "builder")  # the same interval, mirrored
    assert (d, dlo, dhi) == pytest.approx((-25.0, -25.0, -lo[1]))


@pytest.mark.parametrize("step", [-25.0, 0.0, 7.5])
def test_deals_that_all_agree_still_give_an_interval_of_positive_width_within_the_bounds(step):
    ladder = strength.Ladder.of_steps(["a", "b", "c"], np.full((2, 300), step), 4)
    value, lo, hi = ladder.strength()
    truth = np.array([0.0, step, 2 * step])
    assert value == pytest.approx(truth)
    assert (lo[1:] < truth[1:]).any() or (truth[1:] < hi[1:]).any()
    assert ((hi - lo)[1:] > 0).all()
    assert (lo[1:] >= np.array([-25.0, -50.0]) - 1e-9).all() and (hi[1:] <= np.array([25.0, 50.0]) + 1e-9).all()


def simulate_near_the_ceiling(rng, rate, studies, deals, players=4, spread=10.0):
    """Steps per deal of one 4-player match whose upper model wins each game (its two seats together) with a
    deal's own rate, drawn around ``rate`` (a beta of concentration ``spread``, so games of one deal are
    correlated), one game per rotation."""
    per_deal = rng.beta(rate * spread, (1 - rate) * spread, (studies, 1, deals))
    won = rng.binomial(players, per_deal) / players          # the upper seats' share of the deal's games
    return 100 * (won / strength.upper_seats(players) - 1 / players)


@pytest.mark.parametrize("rate", [0.995, 0.999])
def test_strength_intervals_cover_the_truth_near_the_ceiling_where_many_deals_are_all_won(rate):
    """Near the ceiling many studies see every deal won (the t interval then has no width and misses the truth
    far more often than 5%); the interval on bounded steps still covers at least 95% of the time."""
    rng = np.random.default_rng(RNG_SEED + 2)
    steps = simulate_near_the_ceiling(rng, rate, studies=2000, deals=100)
    truth = 100 * (rate / 2 - 1 / 4)
    assert (steps.min(axis=-1) == 25.0).mean() > 0.1                # the case this is about does happen
    _, lo, hi = strength.Ladder.of_steps(["random", "builder"], steps, 4).strength()
    assert ((lo[:, 1] <= truth) & (truth <= hi[:, 1])).mean() >= 0.95
    _, tlo, thi = paired_change(steps[:, 0])
    assert ((tlo <= truth) & (truth <= thi)).mean() < 0.93             # the naive interval does not
