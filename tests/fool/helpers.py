"""Helpers for the Fool! tests: the default table and one-game / batch runners."""

import numpy as np

from simulator.core.batch import traced_game
from simulator.fool import GAME
from simulator.fool.engine import GAME_COLUMNS, SEAT_COLUMNS
from simulator.fool.reference import WILD, Card


def config(players):
    return GAME.configure(players)


def trace_one(trace_game, cfg, sids, params, seed, game):
    """Play one traced game; return (trace, scores, seat_stats, game_stats)."""
    n, trace, scores, _, seat_stats, game_stats = traced_game(GAME, cfg, trace_game, sids, params, seed, game)
    assert n > 0, f"illegal choice by seat {-n - 1}"
    return trace, scores, seat_stats, game_stats


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
