"""Nim, the example game: the layout of its compiled setup, state, actions, trace and observation.

The rules: a pile of counters (its size drawn by chance between the setup
table's ``pile_min`` and ``pile_max``); the seats take turns in seat order,
each taking 1 to ``take`` counters (at most what is left); whoever takes the
last counter wins (score 1, the others 0). Everything is public, so
``determinize`` has nothing to resample.

Actions (``simulator.example.engine``): action ``a`` takes ``a + 1``
counters, ``0 <= a < MAX_ACTIONS``; they name the same move for every seat, so
the move keys are the action ids (``MAX_KEYS = MAX_ACTIONS``).

Decision signature (``strategies.example``): a strategy is a jit-compiled

    decide(pile, n_options, obs, params, rng) -> int

returning an index below ``n_options`` (index ``k`` takes ``k + 1``
counters); anything else is an illegal choice. ``obs`` is the observation
below, ``params`` the seat's parameters, ``rng`` its own random stream.

Trace (int64): ``[starting pile, then the action of every move]``.
"""

import numpy as np

from simulator.core.slots import Slots
from simulator.core.state import HEAD

MAX_TAKE = 9                 # a setup's ``take`` is at most this
MAX_PILE = 1000              # and its ``pile_max``
MAX_ACTIONS = MAX_TAKE       # every action id is below this
MAX_KEYS = MAX_ACTIONS       # move keys are the action ids

# rules vector (Config.arrays[0]; simulator.core.seat_bonus appends the seat bonus)
R_PLAYERS, R_TAKE, R_PILE_MIN, R_PILE_MAX = range(4)

# head fields after the common ones (simulator.core.state)
HD_PILE = HEAD        # counters left
HD_WINNER = HEAD + 1  # the seat that took the last counter; -1 before
HD_MOVES = HEAD + 2   # moves made
N_HEAD = HEAD + 3

# observation (what a seat sees: everything)
OBS_PILE, OBS_TAKE, OBS_PLAYERS, OBS_SEAT, OBS_TO_MOVE = range(5)
OBS_SIZE = 5

# the state (simulator.core.slots): the head and streams (simulator.core.state), then the game
STATE = Slots(N_HEAD, "players", "params")
ST_TAKEN = STATE.slot(np.int64, "players")  # counters each seat has taken
GAME_SLOTS = STATE.end_of_game()            # the rest are per-thread buffers, not part of the game
ST_OBS = STATE.slot(np.int64, OBS_SIZE)     # the observation handed to a strategy
ST_RNG = STATE.slot(np.uint64, 4)           # the deciding seat's stream
ST_PAR = STATE.slot(np.float64, "params")   # the deciding seat's parameters
