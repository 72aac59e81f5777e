"""The numba kernel against the independent reference engine, move by move and score by score."""

import numpy as np
import pytest

from simulator.core.leaders import pack
from simulator.fair_enough.layout import GAME_COLUMNS, SEAT_COLUMNS
from simulator.fair_enough.reference import replay

from .helpers import config_for, trace_one

GAMES = 500  # per (players, variant): 4000 random games in all, 1000 per player count


def check_against_reference(config, trace, scores, standing, seat_stats, game_stats):
    ref = replay(config, trace)  # raises IllegalMove at the first illegal move
    assert list(scores) == ref.scores
    assert list(standing) == ref.standing
    expected = np.array([[getattr(s, c) for c in SEAT_COLUMNS] for s in ref.seats])
    assert (seat_stats == expected).all()
    assert list(game_stats) == [ref.rounds, ref.zero_endings, ref.reshuffles, 1,  # finished: by the rules
                                *pack(ref.leaders)]
    return ref


@pytest.mark.parametrize("variant", ["standard", "variante"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_replay_without_disagreement(kernels, strategies, players, variant):
    config = config_for(players, variant)
    sids, params, _ = strategies.seats(["random"], players)
    seen = {"zero": 0, "all secured": 0, "specials": np.zeros(3, int)}
    for game in range(GAMES):
        traced = trace_one(kernels, config, sids, params, 11, game)
        ref = check_against_reference(config, *traced)
        seen["zero"] += ref.zero_endings
        seen["all secured"] += ref.rounds - ref.zero_endings
        seen["specials"] += [sum(getattr(s, c) for s in ref.seats)
                             for c in ("queue_played", "preorder_played", "sold_out_played")]
    # the comparison covered both endings and every special card
    assert seen["zero"] > 0 and seen["all secured"] > 0 and seen["specials"].min() > 0


def test_the_variante_deck_uses_six_of_seven_time_cards(kernels, strategies):
    config = config_for(4, "variante")
    sids, params, _ = strategies.seats(["random"], 4)
    unused = set()
    for game in range(40):
        trace = trace_one(kernels, config, sids, params, 5, game)[0]
        n = int(trace[0])
        times = list(trace[2 + n: 2 + n + int(trace[1 + n])])
        assert sorted(times) == [16, 19, 21, 22, 25, 28, 31]
        unused.add(times[-1])
    assert len(unused) > 3  # the card left out changes from game to game


def test_heuristics_replay_without_disagreement(kernels, strategies):
    for players in (2, 3, 4, 5):
        config = config_for(players)
        names = ["banker", "builder", "aggressor", "random", "banker"][:players]
        sids, params, _ = strategies.seats(names, players)
        for game in range(60):
            check_against_reference(config, *trace_one(kernels, config, sids, params, 3, game))


def test_reshuffles_replay_without_disagreement(kernels, strategies):
    # a small deck (2 kinds x 1-6, one of each special) runs out every round
    small = {"deck": {"kinds": 2, "values": [1, 2, 3, 4, 5, 6], "queue": 1, "preorder": 1, "sold_out": 1}}
    reshuffles = 0
    for players in (2, 3):
        config = config_for(players, override=small)
        sids, params, _ = strategies.seats(["random"], players)
        for game in range(150):
            reshuffles += check_against_reference(config, *trace_one(kernels, config, sids, params, 9, game)).reshuffles
    assert reshuffles > 50


def test_batch_kernel_plays_the_same_games_as_the_tracer(kernels, strategies):
    config = config_for(4)
    sids, params, _ = strategies.seats(["random", "banker", "builder", "aggressor"], 4)
    count, first = 40, 1000
    scores = np.zeros((count, 4), np.int32)
    standing = np.zeros((count, 4), np.int64)
    seat_stats = np.zeros((count, 4, len(SEAT_COLUMNS)), np.int32)
    game_stats = np.zeros((count, len(GAME_COLUMNS)), np.int32)
    status = np.ones(count, np.int32)
    kernels[0](config.arrays, sids, params, 21, first, count, scores, standing, seat_stats, game_stats, status)
    assert not status.any()
    for k in (0, 17, 39):
        _, s, st, ss, gs = trace_one(kernels, config, sids, params, 21, first + k)
        assert (scores[k] == s).all() and (standing[k] == st).all()
        assert (seat_stats[k] == ss).all() and (game_stats[k] == gs).all()
