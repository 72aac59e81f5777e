"""Helpers for the Fool! tests: the default table and one-game / batch runners."""

import numpy as np

from simulator.core.setup import read_toml
from simulator.fool.engine import GAME_COLUMNS, SEAT_COLUMNS
from simulator.fool.reference import WILD, Card
from simulator.fool.setup import SETUP_PATH, compile_setup


def config(players):
    return compile_setup(read_toml(SETUP_PATH), players, "standard")


def trace_one(trace_game, cfg, sids, params, seed, game):
    """Play one traced game; return (trace, scores, seat_stats, game_stats)."""
    players = cfg.players
    scores = np.empty(players, np.int32)
    standing = np.empty(players, np.int64)
    seat_stats = np.zeros((players, len(SEAT_COLUMNS)), np.int32)
    game_stats = np.zeros(len(GAME_COLUMNS), np.int32)
    trace = np.zeros(cfg.trace_len, np.int64)
    n = trace_game(cfg.arrays, sids, params, seed, game, scores, standing, seat_stats, game_stats, trace)
    assert n > 0, f"illegal choice by seat {-n - 1}"
    return trace[:n], scores, seat_stats, game_stats


def run_games(run_chunk, cfg, sids, params, seed, start, count):
    """Play games start..start+count-1 in a batch; return (scores, seat_stats, game_stats, status)."""
    players = cfg.players
    scores = np.empty((count, players), np.int32)
    standing = np.empty((count, players), np.int64)
    seat_stats = np.zeros((count, players, len(SEAT_COLUMNS)), np.int32)
    game_stats = np.zeros((count, len(GAME_COLUMNS)), np.int32)
    status = np.zeros(count, np.int32)
    run_chunk(cfg.arrays, sids, params, seed, start, count, scores, standing, seat_stats, game_stats, status)
    return scores, seat_stats, game_stats, status


def card(text):
    """The reference Card written as "green 7", or "1" for a wild."""
    if text == "1":
        return Card(WILD, 1)
    colour, value = text.split()
    return Card(colour, int(value))
