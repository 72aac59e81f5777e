"""Built-in strategies: random is uniform over legal options; the heuristics play like their names say."""

import numpy as np
import pytest

from simulator.fauch_fertig import layout as L
from simulator.fauch_fertig.engine import GAME_COLUMNS, SEAT_COLUMNS


def play(strategies, kernels, config, names, count, seed=2):
    run_chunk, _ = kernels
    players = config.players
    sids, params, _ = strategies.seats(names, players)
    scores = np.empty((count, players), np.int32)
    standing = np.empty((count, players), np.int64)
    seat_stats = np.zeros((count, players, len(SEAT_COLUMNS)), np.int32)
    game_stats = np.zeros((count, len(GAME_COLUMNS)), np.int32)
    status = np.zeros(count, np.int32)
    run_chunk(config.arrays, sids, params, seed, 0, count, scores, standing, seat_stats, game_stats, status)
    assert not status.any()
    top = standing == standing.max(axis=1, keepdims=True)
    wins = (top / top.sum(axis=1, keepdims=True)).mean(axis=0)
    return wins, seat_stats


@pytest.mark.parametrize("name", ["chaser", "farmer", "specialist"])
def test_each_heuristic_beats_three_random_players(name, strategies, kernels, configs):
    wins, _ = play(strategies, kernels, configs[4], [name, "random", "random", "random"], 1000)
    assert wins[0] > 0.6                # random alone would win a quarter


def test_condition_chaser_beats_the_coin_farmer(strategies, kernels, configs):
    wins, stats = play(strategies, kernels, configs[4], ["chaser", "farmer", "specialist", "random"], 1000)
    assert wins[0] > wins[1]
    takes = stats[:, :, SEAT_COLUMNS.index("coin_takes")].mean(axis=0)
    assert takes[1] > takes[0]          # the farmer waits for coins to pile up
    assert stats[:, 1, SEAT_COLUMNS.index("blind_buys")].sum() == 0   # and never buys blind


def test_a_table_of_farmers_finishes_its_games(strategies, kernels, configs):
    # coins pile up on the market only when someone buys: farmers that all waited took coins until the cap
    _, stats = play(strategies, kernels, configs[4], ["farmer"] * 4, 300)
    column = {name: stats[:, :, SEAT_COLUMNS.index(name)] for name in ("market_buys", "coin_takes", "turns")}
    assert column["turns"].max() < 30           # a turn a round; the cap is 200 rounds, chaser's games last 8 to 14
    assert (column["market_buys"].sum(axis=1) > 12).all()   # every game is played by buying, not by waiting
    assert column["coin_takes"].mean() < 10


def test_random_is_uniform_over_the_legal_first_actions(configs, trace_one):
    config = configs[4]
    firsts = []
    for game in range(1000):
        trace, *_ = trace_one(config, ["random"], 4, game)
        m = trace[1 + L.N_CARDS]
        firsts.append(trace[1 + L.N_CARDS + 1 + m + config.info["community_needed"]])
    freq = np.bincount(firsts, minlength=5) / len(firsts)
    # seat 0 starts with 10 coins: all three market cards, blind, and coins are legal
    assert np.all(np.abs(freq - 0.2) < 0.05), freq
