"""The numba engine against the reference engine: traced games replayed move by move, at 2, 3 and 4 players."""

import numba
import numpy as np
import pytest

from simulator.core.leaders import pack
from simulator.fauch_fertig import GAME
from simulator.fauch_fertig.engine import GAME_COLUMNS, SEAT_COLUMNS
from simulator.fauch_fertig.reference import ReplayError, replay

MIXES = {2: [["random"], ["chaser", "farmer"], ["specialist", "random"]],
         3: [["random"], ["farmer", "specialist", "chaser"], ["random", "chaser", "random"]],
         4: [["random"], ["chaser", "farmer", "specialist", "random"]]}
GAMES = 1000


def ranks(standing):
    return [1 + sum(o > s for o in standing) for s in standing]


def column(seat_stats, name):
    return [int(x) for x in seat_stats[:, SEAT_COLUMNS.index(name)]]


def replay_agrees(config, names, seed, game, trace_one):
    """Trace one kernel game, replay it with the reference engine, check every output; return the result."""
    trace, scores, standing, seat_stats, game_stats, n = trace_one(config, names, seed, game)
    assert n > 0, f"game {game}: a built-in strategy chose illegally"
    ref = replay(config, trace)                     # raises on any illegal move or wrong shuffle
    assert list(scores) == ref.placed
    assert column(seat_stats, "golden") == ref.golden
    assert column(seat_stats, "coins") == ref.coins
    assert column(seat_stats, "market_buys") == ref.market_buys
    assert column(seat_stats, "blind_buys") == ref.blind_buys
    assert column(seat_stats, "coin_takes") == ref.coin_takes
    assert column(seat_stats, "turns") == ref.turns
    assert column(seat_stats, "dealt_kinds") == ref.dealt_kinds
    assert column(seat_stats, "bought_kinds") == ref.bought_kinds
    assert all(k > 0 for k in ref.dealt_kinds)  # every seat is dealt two cards, so at least one kind
    assert game_stats[GAME_COLUMNS.index("finished")] == int(ref.finished)
    assert game_stats[GAME_COLUMNS.index("rounds")] == ref.rounds
    assert ranks(list(standing)) == ref.ranks
    assert list(game_stats[-2:]) == pack(ref.leaders)
    return ref


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_replays_traced_games_without_disagreement(players, configs, trace_one):
    mixes = MIXES[players]
    results = [replay_agrees(configs[players], mixes[g % len(mixes)], 11, g, trace_one) for g in range(GAMES)]
    assert all(ref.finished for ref in results)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_agrees_with_a_limited_coin_supply(players, trace_one):
    # the start coins (10/9/8/8) and the first market coins come out of the box
    config = GAME.configure(players, override={"game": {"coin_supply": 50}})
    mixes = MIXES[players]
    for game in range(300):
        replay_agrees(config, mixes[game % len(mixes)], 12, game, trace_one)


def test_safety_cap_records_the_game_as_unfinished(trace_one):
    config = GAME.configure(4, override={"game": {"max_rounds": 3}})
    trace, scores, standing, seat_stats, game_stats, n = trace_one(config, ["random"], 5, 0)
    assert game_stats[GAME_COLUMNS.index("finished")] == 0 and game_stats[GAME_COLUMNS.index("rounds")] == 3
    assert column(seat_stats, "turns") == [3, 3, 3, 3]
    ref = replay(config, trace)
    assert not ref.finished and ref.rounds == 3
    assert "unfinished" in "\n".join(GAME.narrate(config, trace, ["random"] * 4))


def test_tampered_traces_are_caught(configs, trace_one):
    config = configs[2]
    trace, *_ = trace_one(config, ["random"], 3, 1)
    m = trace[73]
    first_action = 1 + 72 + 1 + m + 1
    bad = trace.copy()
    bad[first_action] = 7                           # no such action
    with pytest.raises(ReplayError, match="legal are"):
        replay(config, bad)
    bad = trace.copy()
    bad[2] = bad[1]                                 # a card twice in the deck
    with pytest.raises(ReplayError, match="reordering"):
        replay(config, bad)
    with pytest.raises(ReplayError, match="ends early"):
        replay(config, trace[:-1])


def test_batches_match_single_traced_games_whatever_the_threads(strategies, kernels, configs, trace_one):
    run_chunk, _ = kernels
    config = configs[4]
    names = ["chaser", "random", "farmer", "specialist"]
    sids, params, _ = strategies.seats(names, 4)
    count, start = 600, 1000
    outs = []
    for threads in (1, 2):
        numba.set_num_threads(threads)
        scores = np.empty((count, 4), np.int32)
        standing = np.empty((count, 4), np.int64)
        seat_stats = np.zeros((count, 4, len(SEAT_COLUMNS)), np.int32)
        game_stats = np.zeros((count, len(GAME_COLUMNS)), np.int32)
        status = np.ones(count, np.int32)
        run_chunk(config.arrays, sids, params, 9, start, count, scores, standing, seat_stats, game_stats, status)
        outs.append((scores, standing, seat_stats, game_stats, status))
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)
    scores, standing, seat_stats, game_stats, status = outs[0]
    assert not status.any()
    for k in (0, 17, 599):
        _, s1, st1, ss1, gs1, _ = trace_one(config, names, 9, start + k)
        np.testing.assert_array_equal(scores[k], s1)
        np.testing.assert_array_equal(standing[k], st1)
        np.testing.assert_array_equal(seat_stats[k], ss1)
    # a finished game always has a seat with all 12 eggs placed, and the winner is among them
    assert (scores.max(axis=1) >= 12).all()
    winner = standing.argmax(axis=1)
    assert (scores[np.arange(count), winner] >= 12).all()
