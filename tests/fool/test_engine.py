"""The numba engine against the reference engine: every traced card replayed and checked."""

import numpy as np
import pytest

from simulator.core.leaders import pack
from simulator.fool.reference import RefereeError, replay
from .helpers import config, run_games, trace_one

GAMES = 2000


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_reference_replays_kernel_games_without_disagreement(players, strategies, kernels):
    run_chunk, trace_game = kernels
    cfg = config(players)
    names = strategies.heuristics()  # mcts and learned: tests/skill and the contract
    # every heuristic in every seat over the games: game g puts names[(g + s) % len] in seat s
    checked = 0
    for rotation in range(len(names)):
        sids, params, _ = strategies.seats([names[(rotation + s) % len(names)] for s in range(players)], players)
        batch_scores, batch_seats, batch_games, status = run_games(run_chunk, cfg, sids, params, 11, 0,
                                                                   GAMES // len(names))
        assert not status.any()
        for g in range(GAMES // len(names)):
            trace, scores, seat_stats, game_stats = trace_one(trace_game, cfg, sids, params, 11, g)
            result = replay(cfg, trace)
            assert list(scores) == result.totals
            assert list(seat_stats[:, 0]) == result.tricks
            assert list(seat_stats[:, 1]) == result.tallies
            assert list(seat_stats[:, 2]) == result.fooled
            assert list(seat_stats[:, 3]) == result.wilds_dealt
            assert list(seat_stats[:, 4]) == result.tops_dealt
            assert list(seat_stats[:, 5]) == result.wilds_played
            # every wild and every colour's top card is dealt to someone in the opening deal
            assert sum(result.wilds_dealt) == cfg.setup["players"][str(players)]["wilds"]
            assert sum(result.tops_dealt) == len(cfg.setup["deck"]["colours"])
            assert list(game_stats[:4]) == [result.deals, result.trick_count, result.lead_changes,
                                            int(result.finished)]
            assert list(game_stats[4:]) == pack(result.leaders(cfg.info["seat_bonus"]))
            # the traced game is the same game as the batch row
            assert list(batch_scores[g]) == list(scores)
            assert (batch_seats[g] == seat_stats).all() and list(batch_games[g]) == list(game_stats)
            checked += 1
    assert checked >= GAMES - len(names)


def test_game_end_and_deal_bookkeeping(strategies, kernels):
    _, trace_game = kernels
    cfg = config(5)
    sids, params, _ = strategies.seats(["random"], 5)
    for g in range(200):
        trace, scores, _, game_stats = trace_one(trace_game, cfg, sids, params, 3, g)
        result = replay(cfg, trace)
        totals, tallies = np.zeros(5, int), 0
        leader, changes = None, 0
        for d, points in enumerate(result.deal_scores):
            # the game goes on until a total reaches -80 or the sixth tally, and stops right there
            ended = min(totals) <= -80 or tallies >= 6
            assert not ended
            totals += points
            tallies += sum(p == 10 for p in points)
            top = np.flatnonzero(totals == totals.max())
            if len(top) == 1:   # a lead change: another seat now leads alone (shared leads change nothing)
                changes += leader is not None and top[0] != leader
                leader = top[0]
            assert sum(p > 0 for p in points) + sum(p == 0 for p in points) >= 1   # somebody emptied the hand
        assert min(totals) <= -80 or tallies >= 6
        assert list(totals) == list(scores) and game_stats[0] == len(result.deal_scores)
        assert game_stats[2] == changes
        assert result.starts[0] == 0


def _tamper(trace, cfg, index, value):
    bad = trace.copy()
    bad[index] = value
    return bad


def test_replay_refuses_a_trace_that_breaks_the_rules(strategies, kernels):
    _, trace_game = kernels
    cfg = config(4)
    sids, params, _ = strategies.seats(["random"], 4)
    trace, *_ = trace_one(trace_game, cfg, sids, params, 1, 0)
    hand = cfg.info["hand"]
    first_play = 1 + 1 + 4 * hand + 1
    replay(cfg, trace)
    # the first card led is replaced by a card that sits in the next player's hand
    other = trace[1 + 1 + hand]
    with pytest.raises(RefereeError, match="not in their hand"):
        replay(cfg, _tamper(trace, cfg, first_play, other))
    with pytest.raises(RefereeError, match="starts with seat 2"):
        replay(cfg, _tamper(trace, cfg, 1, 2))
    with pytest.raises(RefereeError, match="not the cards the setup table puts in play"):
        replay(cfg, _tamper(trace, cfg, 2, other))
    with pytest.raises(RefereeError):
        replay(cfg, _tamper(trace, cfg, 0, trace[0] + 1))
