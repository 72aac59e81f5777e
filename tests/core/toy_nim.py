"""A toy engine for the search tests: Nim with one pile, take 1 to 3, who takes the last one wins.

It implements the state verbs of ``simulator.core.state`` with perfect
information (``determinize`` changes nothing), so the search's choice can be
checked against the known solution: leave a multiple of four.
Action ``a`` takes ``a + 1`` counters. All verbs are jit-compiled.
"""

import numba as nb
import numpy as np

from simulator.core.rng import randint, seed_game
from simulator.core.state import H_FINISHED, H_KIND, H_TO_MOVE, H_TRACE, HEAD
from simulator.core.state import action_as_key as move_key  # noqa: F401 (the state API)
from simulator.core.state import no_horizon_mark as horizon_mark  # noqa: F401 (the state API)

MAX_ACTIONS = 3
MAX_KEYS = MAX_ACTIONS
ACTION_CLASSES = ("take-three", "take-one")
EVALUATION_POINT = None
OBS_SIZE = 2      # the pile, and whether the observing seat is to move
N_FEATURES = 1    # the pile in units of four (the learned leaf's input; the search tests do not use it)
PILE, WINNER = HEAD, HEAD + 1


@nb.njit(cache=True)
def new_state(arrays, params):
    return (np.zeros(HEAD + 2, np.int64), np.zeros((3, 4), np.uint64))


@nb.njit(cache=True)
def reset(state, arrays, seed, game, trace, record):
    head = state[0]
    seed_game(state[1], seed, game)
    head[H_TO_MOVE], head[H_KIND], head[H_TRACE], head[H_FINISHED] = 0, 0, 0, 0
    head[PILE], head[WINNER] = arrays[0], -1


@nb.njit(cache=True)
def legal_actions(state, arrays, actions):
    n = min(3, state[0][PILE])
    for i in range(n):
        actions[i] = i
    return n


@nb.njit(cache=True)
def apply(state, arrays, action, trace, record):
    head = state[0]
    head[PILE] -= action + 1
    if head[PILE] == 0:
        head[WINNER], head[H_TO_MOVE], head[H_FINISHED] = head[H_TO_MOVE], -1, 1
    else:
        head[H_TO_MOVE] = 1 - head[H_TO_MOVE]


@nb.njit(cache=True)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    for p in range(2):
        scores[p] = standing[p] = 1 if p == state[0][WINNER] else 0


@nb.njit(cache=True)
def copy_state(src, dst):
    dst[0][:] = src[0]
    dst[1][:, :] = src[1]


@nb.njit(cache=True)
def determinize(state, arrays, seat, rng):
    pass


@nb.njit(cache=True)
def action_class(state, arrays, action):
    return 1 if action == 2 else 2 if action == 0 else 0


@nb.njit(cache=True)
def choose(state, arrays, sids, params):
    """Uniform over the legal actions, from the mover's own stream (the toy's only strategy)."""
    seat = state[0][H_TO_MOVE]
    return randint(state[1][1 + seat], min(3, state[0][PILE]))


@nb.njit(cache=True)
def observe(state, arrays, seat, obs):
    obs[0], obs[1] = state[0][PILE], 1 if state[0][H_TO_MOVE] == seat else 0


@nb.njit(cache=True)
def features(obs, out):
    out[0] = obs[0] / 4.0
