"""The game-state record every engine shares, and the verbs read from it.

Every engine represents a game in progress as a *state*: a tuple of numpy
arrays allocated once per thread by the engine's ``new_state(arrays,
params)`` and reused game after game. Two entries are common to all games:

* ``state[ST_HEAD]``, the int64 *head*: the common fields ``H_*`` below, then
  the game's own fields ``HD_*`` (from ``HEAD`` on);
* ``state[ST_RNGS]``, the random streams ``uint64[players + 1, 4]``: lane 0 is
  chance, lane ``1 + seat`` that seat's strategy (see ``simulator.core.rng``).

The rest of the tuple is the game's own (deck, hands, markets...), followed by
per-thread buffers that are not part of the game (the observation and option
arrays handed to strategies); an engine's ``copy_state`` copies the game, not
the buffers. Each game declares its slots once (``simulator.core.slots``),
which gives the constants ``ST_*`` every read goes through, and the
allocation and the copy its ``new_state`` and ``copy_state`` call.

An engine module implements, jit-compiled, with these exact names (see
``docs/architecture.md``, "Engines as states")::

    new_state(arrays, params) -> state        allocate (the only allocation)
    reset(state, arrays, seed, game, trace, record)
        deal game ``game`` of run ``seed`` and run chance up to the first decision
    legal_actions(state, arrays, actions) -> n
        the seat to move's legal actions, as small integers, into actions[:n]
    move_key(state, arrays, action) -> int64
        the legal ``action`` of the seat to move as every watching seat
        identifies it, in ``[0, MAX_KEYS)``: the card's face, a public
        position or slot, never a position in a hidden hand (identical
        cards may share a key: they are the same move); a game whose action
        ids already are such names imports ``action_as_key`` below
    apply(state, arrays, action, trace, record)
        the seat to move takes ``action``; chance and forced steps run up to the
        next decision or the end
    result(state, arrays, scores, standing, seat_stats, game_stats)
        the final outputs (the game columns include ``finished``)
    observe(state, arrays, seat, obs)
        what ``seat`` sees, in the layout its strategies read
    copy_state(src, dst)
    determinize(state, arrays, seat, rng)
        resample in place everything ``seat`` cannot see, consistently with
        everything it has seen, drawing from the stream ``rng``
    horizon_mark(state) -> int64
        a number that grows by one exactly when play passes one of the game's
        evaluation points (the search's ``horizon`` h stops a rollout at the
        h-th); a game without them imports ``no_horizon_mark`` below as its
        ``horizon_mark``

and the game's descriptor (``simulator.core.game.Game``) declares its
constants: ``max_actions`` and ``max_keys`` (every action id, every move key
is below them) and ``evaluation_point``: ``None`` for a game without an
evaluation point, else one line saying where it is and what ``result``
writes there (``playtest strategies GAME`` prints it). The search scores a
rollout stopped at the evaluation point by the ``standing`` that ``result``
writes there, so it must be meaningful mid-game.

Also the template ``choose(state, arrays, sids, params) -> action`` (plain
Python calling the bound global ``decide``: the seat to move's strategy picks
one of its options; for any other value it returns ``illegal(state, value)``). An action id means the same move
in every determinization of the deciding seat's information; a move key
means the same move in every determinization of any watching seat's, so the
search player (``simulator.core.search``) shares statistics across them by
key.
"""

import numba as nb
import numpy as np

ST_HEAD = 0     # the state slot of the int64 head (``H_*`` below, then the game's ``HD_*``)
ST_RNGS = 1     # the state slot of the random streams: lane 0 chance, lane 1 + seat that seat's strategy

H_TO_MOVE = 0   # the seat whose decision it is; -1 once the game is over
H_KIND = 1      # the kind of that decision (the game's layout names them)
H_TRACE = 2     # entries of the trace written so far (with ``record``)
H_FINISHED = 3  # 1 when the game ended by its rules, 0 when a safety cap stopped it
H_CHOICE = 4    # the value a strategy returned when it was not one of its options (``illegal``)
HEAD = 5        # the game's own head slots start here


@nb.njit(cache=True, inline="always")
def to_move(state):
    """The seat whose decision it is (-1 when the game is over). Jit-compiled."""
    return state[ST_HEAD][H_TO_MOVE]


@nb.njit(cache=True, inline="always")
def is_terminal(state):
    """True once the game is over (ended or capped). Jit-compiled."""
    return state[ST_HEAD][H_TO_MOVE] < 0


@nb.njit(cache=True, inline="always")
def decision_kind(state):
    """The kind of the pending decision (game-defined). Jit-compiled."""
    return state[ST_HEAD][H_KIND]


@nb.njit(cache=True, inline="always")
def trace_length(state):
    """Entries of the trace written so far. Jit-compiled."""
    return state[ST_HEAD][H_TRACE]


@nb.njit(cache=True, inline="always")
def finished(state):
    """True when the game ended by its rules (not by a safety cap). Jit-compiled."""
    return state[ST_HEAD][H_FINISHED] == 1


@nb.njit(cache=True, inline="always")
def copy_1d(dst, src):
    """``dst[:] = src`` for 1-d arrays, written as a loop so that it needs no temporary. Jit-compiled.

    The game loop is compiled without numba's reference counting (see
    ``simulator.core.kernels.bind``), where an array-to-array slice
    assignment does not compile; ``copy_state`` and ``determinize`` use these.
    """
    for i in range(src.shape[0]):
        dst[i] = src[i]


@nb.njit(cache=True, inline="always")
def copy_2d(dst, src):
    """``dst[:, :] = src`` for 2-d arrays, as a loop (see ``copy_1d``). Jit-compiled."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@nb.njit(cache=True, _nrt=False, inline="always")
def illegal(state, value):
    """What ``choose`` returns when the strategy's ``value`` is not one of its options: -1, with the value kept
    in the head (``H_CHOICE``) for the game loop to report. Jit-compiled."""
    state[ST_HEAD][H_CHOICE] = value
    return -1


@nb.njit(cache=True, _nrt=False, inline="always")
def no_horizon_mark(state):
    """The ``horizon_mark`` of a game without an evaluation point (``evaluation_point=None``): always 0.

    Jit-compiled.
    """
    return np.int64(0)


@nb.njit(cache=True, _nrt=False, inline="always")
def action_as_key(state, arrays, action):
    """The ``move_key`` of a game whose action ids already name moves as every seat sees them (market slots,
    card ids): the action itself (its ``MAX_KEYS`` is its ``MAX_ACTIONS``). Jit-compiled."""
    return np.int64(action)
