"""Shared fixtures for the Fauch & Fertig tests: configurations, compiled kernels, a game tracer."""

import pytest

from simulator.core.batch import traced_game
from simulator.fauch_fertig import GAME
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
        sids, params, _ = strategies.seats(names, config.players)
        n, *outputs = traced_game(GAME, config, trace_game, sids, params, seed, game)
        return (*outputs, n)

    return run


@pytest.fixture(scope="session")
def configs():
    return {n: GAME.configure(n) for n in (2, 3, 4)}
