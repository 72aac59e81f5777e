"""Helpers for the Fair Enough tests: compiled setups and traced games."""

from simulator.core.batch import traced_game
from simulator.fair_enough import GAME


def config_for(players, variant="standard", override=None):
    return GAME.configure(players, variant, override)


def trace_one(kernels, config, sids, params, seed, game):
    """Play one traced game; return (trace, scores, standing, seat_stats, game_stats)."""
    n, *outputs = traced_game(GAME, config, kernels[1], sids, params, seed, game)
    assert n > 0, f"game {game}: seat {-n - 1} chose an illegal option"
    return tuple(outputs)
