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
from simulator.core.bound import unbound
from simulator.core.inlining import VERBS
from simulator.core.rng import randint, seed_game
from simulator.core.state import H_FINISHED, H_KIND, H_TO_MOVE, H_TRACE, ST_HEAD, ST_RNGS, illegal
from simulator.core.state import action_as_key as move_key  # noqa: F401 (the state API)
from simulator.core.state import no_horizon_mark as horizon_mark  # noqa: F401 (the state API)
from simulator.example.layout import OBS_SIZE  # noqa: F401 (the state API: the observation's length)
from simulator.example.layout import (HD_MOVES, HD_PILE, HD_WINNER, OBS_PILE, OBS_PLAYERS, OBS_SEAT, OBS_TAKE,
                                      OBS_TO_MOVE, R_PILE_MAX, R_PILE_MIN, R_PLAYERS, R_TAKE, STATE, ST_OBS, ST_PAR,
                                      ST_RNG, ST_TAKEN)

# the names the templates here are bound with (simulator.core.bound)
decide = unbound("decide")

SEAT_COLUMNS = ("taken",)
SC_TAKEN = 0
GAME_COLUMNS = ("rounds", "finished", *leaders.COLUMNS)  # leaders: written by the game loop
GC_ROUNDS, GC_FINISHED = range(2)
N_FEATURES = 2  # features: the pile in units of (take + 1), and whether it is a multiple of take + 1
SEAT_FEATURE = -1  # no feature says which seat observes


_allocate = STATE.allocator()
_copy_game = STATE.copier()


@nb.njit(cache=True)
def new_state(arrays, params):
    """Allocate one state (the slots ``ST_*`` of ``simulator.example.layout``: the game and its per-thread
    buffers); the only allocation. Jit-compiled."""
    return _allocate(arrays[0][R_PLAYERS], params.shape[1])


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def reset(state, arrays, seed, game, trace, record):
    """Draw game ``game`` of run ``seed``'s pile; seat 0 is to move. Jit-compiled.

    With ``record`` the trace header (the starting pile) goes to ``trace``.
    """
    rules, head = arrays[0], state[ST_HEAD]
    seed_game(state[ST_RNGS], seed, game)
    pile = rules[R_PILE_MIN] + randint(state[ST_RNGS][0], rules[R_PILE_MAX] - rules[R_PILE_MIN] + 1)
    head[H_TO_MOVE], head[H_KIND], head[H_FINISHED] = 0, 0, 0
    head[HD_PILE], head[HD_WINNER], head[HD_MOVES] = pile, -1, 0
    state[ST_TAKEN][:] = 0
    head[H_TRACE] = 0
    if record:
        trace[0] = pile
        head[H_TRACE] = 1


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def legal_actions(state, arrays, actions):
    """Write the legal actions (take 1 .. min(take, pile) counters) into ``actions``; return their number.
    Jit-compiled."""
    n = min(arrays[0][R_TAKE], state[ST_HEAD][HD_PILE])
    for a in range(n):
        actions[a] = a
    return n


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def apply(state, arrays, action, trace, record):
    """The seat to move takes ``action + 1`` counters; the next seat moves, or the game ends. Jit-compiled."""
    head, players = state[ST_HEAD], arrays[0][R_PLAYERS]
    seat = head[H_TO_MOVE]
    head[HD_PILE] -= action + 1
    head[HD_MOVES] += 1
    state[ST_TAKEN][seat] += action + 1
    if record:
        trace[head[H_TRACE]] = action
        head[H_TRACE] += 1
    if head[HD_PILE] == 0:
        head[HD_WINNER], head[H_TO_MOVE], head[H_FINISHED] = seat, -1, 1
    else:
        head[H_TO_MOVE] = (seat + 1) % players


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Scores (1 for the seat that took the last counter), standing, counters taken, rounds and finished.
    Jit-compiled."""
    head, players = state[ST_HEAD], arrays[0][R_PLAYERS]
    for p in range(players):
        scores[p] = standing[p] = 1 if p == head[HD_WINNER] else 0
        seat_stats[p, SC_TAKEN] = state[ST_TAKEN][p]
    game_stats[GC_ROUNDS] = (head[HD_MOVES] + players - 1) // players
    game_stats[GC_FINISHED] = head[H_FINISHED]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def observe(state, arrays, seat, obs):
    """Write what ``seat`` sees into ``obs`` (``layout.OBS_SIZE``): everything. Jit-compiled."""
    rules = arrays[0]
    obs[OBS_PILE], obs[OBS_TAKE], obs[OBS_PLAYERS] = state[ST_HEAD][HD_PILE], rules[R_TAKE], rules[R_PLAYERS]
    obs[OBS_SEAT], obs[OBS_TO_MOVE] = seat, 1 if state[ST_HEAD][H_TO_MOVE] == seat else 0


@nb.njit(cache=True, _nrt=False, inline="always")
def features(obs, out):
    """The learned player's ``N_FEATURES`` features of an observation. Jit-compiled."""
    period = obs[OBS_TAKE] + 1
    out[0] = obs[OBS_PILE] / period
    out[1] = 1.0 if obs[OBS_PILE] % period == 0 else 0.0


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def copy_state(src, dst):
    """Copy the game in ``src`` (head, streams, counters taken) into ``dst``. Jit-compiled."""
    _copy_game(src, dst)


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
    p, obs = state[ST_HEAD][H_TO_MOVE], state[ST_OBS]
    observe(state, arrays, p, obs)
    n = min(arrays[0][R_TAKE], state[ST_HEAD][HD_PILE])
    k = decide(sids[p], p, state[ST_RNGS], params, state[ST_RNG], state[ST_PAR], state[ST_HEAD][HD_PILE], n, obs)
    return k if 0 <= k < n else illegal(state, k)
