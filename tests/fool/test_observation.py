"""The kernel shows a strategy exactly the observation the layout documents.

A probe strategy hashes every documented field of ``obs`` (and the legal
cards) into its choice. The reference engine then plays the same deals with
the same probe, building ``obs`` independently from what a player knows
(``simulator.fool.observe``); any field that differs changes a choice, and
with it the game.
"""

import numba as nb
import numpy as np
import pytest

from simulator.core.kernels import bind_engine
from simulator.fool import GAME, engine
from simulator.fool.layout import (OBS_COLOURS, OBS_COUNT, OBS_MINE, OBS_PASSING, OBS_PLAYED, OBS_PLAYERS,
                                   OBS_TOTAL, OBS_TRICK_COLOUR, OBS_TRICK_SEAT, OBS_TRICK_VALUE, OBS_UNSEEN)
from simulator.fool.observe import numba_player
from simulator.fool.reference import Rules, play_game
from strategies.registry import make_dispatch

from .helpers import config, run_games, trace_one

# one worker runs the whole module: its kernels are compiled uncached, once in every process that needs them
pytestmark = pytest.mark.xdist_group("tests/fool/test_observation.py")


@nb.njit
def mix(h, x):
    return (h ^ np.uint64(x & 0xFFFFFFFF)) * np.uint64(1099511628211)


@nb.njit
def probe(opt_colour, opt_value, n, obs, params, rng):
    h = np.uint64(1469598103934665603)
    for i in range(OBS_TRICK_COLOUR):
        h = mix(h, obs[i])
    for i in range(obs[OBS_PLAYED]):
        h = mix(mix(mix(h, obs[OBS_TRICK_COLOUR + i]), obs[OBS_TRICK_VALUE + i]), obs[OBS_TRICK_SEAT + i])
    for s in range(obs[OBS_PLAYERS]):
        h = mix(mix(mix(h, obs[OBS_COUNT + s]), obs[OBS_PASSING + s]), obs[OBS_TOTAL + s])
    for c in range(obs[OBS_COLOURS] + 1):
        h = mix(mix(h, obs[OBS_MINE + c]), obs[OBS_UNSEEN + c])
    legal = 0     # the legal cards, whatever their order
    for k in range(n):
        code = opt_colour[k] * 100 + opt_value[k]
        legal += code * code * 7919 + code
    h = mix(h, legal)
    # the r-th smallest legal card, so that the order of the options does not matter
    r = np.int64(h % np.uint64(n))
    for k in range(n):
        code = opt_colour[k] * 100 + opt_value[k]
        below, same = 0, 0
        for m in range(n):
            other = opt_colour[m] * 100 + opt_value[m]
            below += other < code
            same += other == code
        if below <= r < below + same:
            return k
    return 0


OUT_OF_RANGE = 70  # above any hand (layout.MAX_HAND is 64)


@nb.njit
def out_of_range(opt_colour, opt_value, n, obs, params, rng):
    return OUT_OF_RANGE


@pytest.fixture(scope="module")
def probe_kernels():
    """Kernels where strategy 0 is the probe and strategy 1 answers with an option that does not exist."""
    return bind_engine(GAME, make_dispatch([probe, out_of_range]), cache=False, search=False)[:2]


def deals_of(trace, players, hand):
    """The hands and the played codes of every deal of a kernel trace."""
    pos, out = 1, []
    for _ in range(trace[0]):
        start = pos + 1
        hands = [list(trace[start + s * hand:start + (s + 1) * hand]) for s in range(players)]
        n = trace[start + players * hand]
        plays = list(trace[start + players * hand + 1:start + players * hand + 1 + n])
        out.append((hands, plays))
        pos = start + players * hand + 1 + n
    return out


@pytest.mark.parametrize("players", [4, 7])
def test_the_reference_sees_what_the_kernel_shows(players, probe_kernels):
    _, probe_trace = probe_kernels
    cfg = config(players)
    rules = Rules.from_setup(cfg.setup, players)
    sids = np.zeros(players, np.int64)
    params = np.zeros((players, 1))
    for game in range(40):
        trace, scores, *_ = trace_one(probe_trace, cfg, sids, params, 21, game)
        deals = deals_of(trace, players, cfg.info["hand"])
        played = []
        seats = [numba_player(probe, (), 21, s) for s in range(players)]

        def choose(view):
            card = seats[view.seat](view)
            played.append(rules.code(card))
            return card

        result = play_game(rules, lambda d, start: [[rules.card(c) for c in h] for h in deals[d][0]], choose)
        assert played == [c for _, plays in deals for c in plays]
        assert result.totals == list(scores)


def test_an_illegal_choice_is_reported_with_its_seat_and_the_value_that_came_back(probe_kernels):
    run_chunk, trace_game = probe_kernels
    cfg = config(4)
    sids = np.array([0, 0, 1, 0], np.int64)
    params = np.zeros((4, 1))
    scores, standing = np.empty(4, np.int32), np.empty(4, np.int64)
    n = trace_game(cfg.arrays, sids, params, 1, 0, scores, standing, np.zeros((4, len(engine.SEAT_COLUMNS)), np.int32),
                   np.zeros(len(engine.GAME_COLUMNS), np.int32), np.zeros(cfg.trace_len, np.int64))
    assert n == -3 and standing[0] == OUT_OF_RANGE
    *_, status = run_games(run_chunk, cfg, sids, params, 1, 0, 50)
    assert (status == 3).all()
