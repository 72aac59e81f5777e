"""Shared fixtures for the Fauch & Fertig tests: configurations and a game tracer (the strategies and kernels:
tests/conftest.py)."""

import pytest

from simulator.core.batch import traced_game
from simulator.fauch_fertig import GAME


@pytest.fixture(scope="module")
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
