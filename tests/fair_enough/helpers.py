"""Helpers for the Fair Enough tests: compiled setups and traced games."""

import numpy as np
from simulator.core.setup import merge, read_toml
from simulator.fair_enough import GAME
from simulator.fair_enough.layout import GAME_COLUMNS, SEAT_COLUMNS
from simulator.fair_enough.setup import compile_setup


def config_for(players, variant="standard", override=None):
    setup = read_toml(GAME.setup_path)
    if override:
        setup = merge(setup, override)
    return compile_setup(setup, players, variant)


def trace_one(kernels, config, sids, params, seed, game):
    """Play one traced game; return (trace, scores, standing, seat_stats, game_stats)."""
    p = config.players
    scores, standing = np.zeros(p, np.int32), np.zeros(p, np.int64)
    seat_stats = np.zeros((p, len(SEAT_COLUMNS)), np.int32)
    game_stats = np.zeros(len(GAME_COLUMNS), np.int32)
    trace = np.zeros(config.trace_len, np.int64)
    n = kernels[1](config.arrays, sids, params, seed, game, scores, standing, seat_stats, game_stats, trace)
    assert n > 0, f"game {game}: seat {-n - 1} chose an illegal option"
    return trace[:n], scores, standing, seat_stats, game_stats
