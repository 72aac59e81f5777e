"""Nim, the example game's engine: the state verbs of ``simulator.core.state``, jit-compiled.

The template for a new game (docs/CONTRIBUTING-GAMES.md walks through it).
The layout of the state, actions, trace and observation is in
``simulator.example.layout``. Every verb but ``new_state`` allocates nothing,
so the game is compiled without reference counting (``allocation_free`` in
the descriptor).
"""

import numba as nb
import numpy as np

from simulator.core import leaders
from simulator.core.inlining import VERBS
from simulator.core.rng import randint, seed_game
from simulator.core.state import H_FINISHED, H_KIND, H_TO_MOVE, H_TRACE, copy_1d, copy_2d, illegal
from simulator.core.state import action_as_key as move_key  # noqa: F401 (the state API)
from simulator.core.state import no_horizon_mark as horizon_mark  # noqa: F401 (the state API)
from simulator.example.layout import (H_MOVES, H_PILE, H_WINNER, HEAD_SIZE, OBS_PILE, OBS_PLAYERS, OBS_SEAT,
                                      OBS_SIZE, OBS_TAKE, OBS_TO_MOVE, R_PILE_MAX, R_PILE_MIN, R_PLAYERS, R_TAKE,
                                      S_OBS, S_PAR, S_RNG, S_TAKEN)

SEAT_COLUMNS = ("taken",)
GAME_COLUMNS = ("rounds", "finished", *leaders.COLUMNS)  # leaders: written by the game loop
N_FEATURES = 2  # features: the pile in units of (take + 1), and whether it is a multiple of take + 1
SEAT_FEATURE = -1  # no feature says which seat observes


@nb.njit(cache=True)
def new_state(arrays, params):
    """Allocate one state (the game and its per-thread buffers); the only allocation. Jit-compiled."""
    players = arrays[0][R_PLAYERS]
    return (np.zeros(HEAD_SIZE, np.int64),          # head
            np.zeros((players + 1, 4), np.uint64),  # random streams: chance, then one per seat
            np.zeros(players, np.int64),            # S_TAKEN
            np.zeros(OBS_SIZE, np.int64),           # S_OBS
            np.zeros(4, np.uint64),                 # S_RNG
            np.zeros(params.shape[1], np.float64))  # S_PAR


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def reset(state, arrays, seed, game, trace, record):
    """Draw game ``game`` of run ``seed``'s pile; seat 0 is to move. Jit-compiled.

    With ``record`` the trace header (the starting pile) goes to ``trace``.
    """
    rules, head = arrays[0], state[0]
    seed_game(state[1], seed, game)
    pile = rules[R_PILE_MIN] + randint(state[1][0], rules[R_PILE_MAX] - rules[R_PILE_MIN] + 1)
    head[H_TO_MOVE], head[H_KIND], head[H_FINISHED] = 0, 0, 0
    head[H_PILE], head[H_WINNER], head[H_MOVES] = pile, -1, 0
    state[S_TAKEN][:] = 0
    head[H_TRACE] = 0
    if record:
        trace[0] = pile
        head[H_TRACE] = 1


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def legal_actions(state, arrays, actions):
    """Write the legal actions (take 1 .. min(take, pile) counters) into ``actions``; return their number.
    Jit-compiled."""
    n = min(arrays[0][R_TAKE], state[0][H_PILE])
    for a in range(n):
        actions[a] = a
    return n


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def apply(state, arrays, action, trace, record):
    """The seat to move takes ``action + 1`` counters; the next seat moves, or the game ends. Jit-compiled."""
    head, players = state[0], arrays[0][R_PLAYERS]
    seat = head[H_TO_MOVE]
    head[H_PILE] -= action + 1
    head[H_MOVES] += 1
    state[S_TAKEN][seat] += action + 1
    if record:
        trace[head[H_TRACE]] = action
        head[H_TRACE] += 1
    if head[H_PILE] == 0:
        head[H_WINNER], head[H_TO_MOVE], head[H_FINISHED] = seat, -1, 1
    else:
        head[H_TO_MOVE] = (seat + 1) % players


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Scores (1 for the seat that took the last counter), standing, counters taken, rounds and finished.
    Jit-compiled."""
    head, players = state[0], arrays[0][R_PLAYERS]
    for p in range(players):
        scores[p] = standing[p] = 1 if p == head[H_WINNER] else 0
        seat_stats[p, 0] = state[S_TAKEN][p]
    game_stats[0] = (head[H_MOVES] + players - 1) // players
    game_stats[1] = head[H_FINISHED]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def observe(state, arrays, seat, obs):
    """Write what ``seat`` sees into ``obs`` (``layout.OBS_SIZE``): everything. Jit-compiled."""
    rules = arrays[0]
    obs[OBS_PILE], obs[OBS_TAKE], obs[OBS_PLAYERS] = state[0][H_PILE], rules[R_TAKE], rules[R_PLAYERS]
    obs[OBS_SEAT], obs[OBS_TO_MOVE] = seat, 1 if state[0][H_TO_MOVE] == seat else 0


@nb.njit(cache=True, _nrt=False, inline="always")
def features(obs, out):
    """The learned player's ``N_FEATURES`` features of an observation. Jit-compiled."""
    period = obs[OBS_TAKE] + 1
    out[0] = obs[OBS_PILE] / period
    out[1] = 1.0 if obs[OBS_PILE] % period == 0 else 0.0


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def copy_state(src, dst):
    """Copy the game in ``src`` (head, streams, counters taken) into ``dst``. Jit-compiled."""
    copy_1d(dst[0], src[0])
    copy_2d(dst[1], src[1])
    copy_1d(dst[S_TAKEN], src[S_TAKEN])


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def determinize(state, arrays, seat, rng):
    """Nothing is hidden in Nim: the state is left as it is. Jit-compiled."""
    pass


@nb.njit(cache=True, _nrt=False, inline="always")
def action_class(state, arrays, action):
    """Bit mask of the descriptor's ``action_classes`` that ``action`` belongs to: bit 0 "take-most" (the table's
    ``take``), bit 1 "take-one" (``mcts:no-take-one`` forbids the second). Jit-compiled."""
    return (np.int64(1) if action == arrays[0][R_TAKE] - 1 else np.int64(0)) | (np.int64(2) if action == 0
                                                                               else np.int64(0))


def choose(state, arrays, sids, params):
    """Kernel template: the seat to move's strategy picks how many counters to take; return its action id
    (``illegal`` for an index that is not an option). Calls the bound global ``decide``."""
    p, obs = state[0][H_TO_MOVE], state[S_OBS]
    observe(state, arrays, p, obs)
    n = min(arrays[0][R_TAKE], state[0][H_PILE])
    k = decide(sids[p], p, state[1], params, state[S_RNG], state[S_PAR], state[0][H_PILE], n, obs)  # noqa: F821
    return k if 0 <= k < n else illegal(state, k)
