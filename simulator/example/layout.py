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

from simulator.core.state import HEAD

MAX_TAKE = 9                 # a setup's ``take`` is at most this
MAX_PILE = 1000              # and its ``pile_max``
MAX_ACTIONS = MAX_TAKE       # every action id is below this
MAX_KEYS = MAX_ACTIONS       # move keys are the action ids

# rules vector (Config.arrays[0]; simulator.core.seat_bonus appends the seat bonus)
R_PLAYERS, R_TAKE, R_PILE_MIN, R_PILE_MAX = range(4)

# head slots after the common ones (simulator.core.state)
H_PILE = HEAD        # counters left
H_WINNER = HEAD + 1  # the seat that took the last counter; -1 before
H_MOVES = HEAD + 2   # moves made
HEAD_SIZE = HEAD + 3

# state tuple entries: 0 head, 1 random streams (simulator.core.state), then the game
S_TAKEN = 2       # int64[players]: counters each seat has taken
GAME_ENTRIES = 3  # entries from here on are per-thread buffers, not part of the game
S_OBS = 3         # int64[OBS_SIZE]: the observation handed to a strategy
S_RNG = 4         # uint64[4]: the deciding seat's stream
S_PAR = 5         # float64[params]: the deciding seat's parameters

# observation (what a seat sees: everything)
OBS_PILE, OBS_TAKE, OBS_PLAYERS, OBS_SEAT, OBS_TO_MOVE = range(5)
OBS_SIZE = 5
