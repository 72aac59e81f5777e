"""Strength on the ladder (``analyses.strength``): the matches' seats, the step read from a match's rows, and the
strength intervals checked by simulation with known truth (fixed seeds, vectorised numpy)."""

import numpy as np
import polars as pl
import pytest

from analyses import strength

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
    ladder = strength.Ladder.of_steps(["random", "heuristic", "learned", "expert"], steps)
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
    ladder = strength.Ladder.of_steps(["a", "b", "c"], steps)
    _, lo, hi = ladder.strength()
    independent = 1.97 * np.sqrt((steps.var(axis=-1, ddof=1) / 300).sum(axis=-1))
    assert not np.allclose((hi - lo)[:, 2] / 2, independent, rtol=0.02)


def test_the_ranking_follows_the_measured_strength_not_the_list():
    steps = np.array([[10.0, 12.0, 8.0], [-4.0, -6.0, -5.0]])   # the third model is weaker than the second
    ladder = strength.Ladder.of_steps(["random", "learned", "heuristic"], steps)
    assert ladder.ranked() == ["learned", "heuristic", "random"]
    value, lo, hi = ladder.strength()
    assert value.tolist() == pytest.approx([0.0, 10.0, 5.0])
    assert lo[1] < 10.0 < hi[1]
