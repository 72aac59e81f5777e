"""Shared fixtures for the Fauch & Fertig tests: configurations, compiled kernels, a game tracer."""

import numpy as np
import pytest

from simulator.fauch_fertig import GAME
from simulator.fauch_fertig.engine import GAME_COLUMNS, SEAT_COLUMNS
from strategies.fauch_fertig import strategy_set


@pytest.fixture(scope="session")
def strategies():
    return strategy_set()


@pytest.fixture(scope="session")
def kernels(strategies):
    return strategies.kernels()


@pytest.fixture(scope="session")
def trace_one(strategies, kernels):
    """``trace_one(config, names, seed, game) -> (trace, scores, standing, seat_stats, game_stats, length)``."""
    _, trace_game = kernels

    def run(config, names, seed, game):
        players = config.players
        sids, params, _ = strategies.seats(names, players)
        scores = np.zeros(players, np.int32)
        standing = np.zeros(players, np.int64)
        seat_stats = np.zeros((players, len(SEAT_COLUMNS)), np.int32)
        game_stats = np.zeros(len(GAME_COLUMNS), np.int32)
        trace = np.zeros(config.trace_len, np.int64)
        n = trace_game(config.arrays, sids, params, seed, game, scores, standing, seat_stats, game_stats, trace)
        return trace[:max(n, 0)], scores, standing, seat_stats, game_stats, n

    return run


@pytest.fixture(scope="session")
def configs():
    return {n: GAME.configure(n) for n in (2, 3, 4)}
