"""Seat compensation: ``seat_bonus`` points added to each seat's final score before ranking, for every game.

A setup table's ``[players.N]`` row may give ``seat_bonus``, one real number
per seat (default all zeros): a half point breaks ties the way a go komi
does. It is generic: ``attach`` appends the bonus, in ``1/SCALE`` points,
to the end of the compiled rules vector (the last of ``Config.arrays`` in
every engine), and ``result`` (a template bound around each engine's own
``result`` by ``simulator.core.kernels``) rewrites the standing the engine
wrote, so the rows' ranks and wins and the search player's evaluation both
see it. The ``score`` column stays the game's own score.

An engine's standing is ``score * STANDING_POINT + tiebreak`` with
``0 <= tiebreak < STANDING_POINT`` (the game descriptor's ``standing_point``;
1 when the score alone orders the seats); the bonus is added to the score part, so a seat's
bonus outranks any tiebreak, as a point of score does.
"""

import math
from dataclasses import replace

import numba as nb
import numpy as np

from simulator.core.bound import unbound
from simulator.core.setup import SetupError

# the names the templates here are bound with (simulator.core.bound)
STANDING_POINT, engine_result, engine_standing = unbound("STANDING_POINT", "engine_result", "engine_standing")

SCALE = 1000        # the bonus is kept in thousandths of a point
MAX_BONUS = 1000.0  # points; a larger bonus is surely a typing error
KEY = "seat_bonus"


def read(row, players, path):
    """The ``seat_bonus`` of a ``[players.N]`` row as a list of floats (zeros when absent), validated: one
    finite real number per seat, each within ``±MAX_BONUS``; anything else is a ``SetupError`` naming it."""
    values = row.get(KEY, [0.0] * players)
    where = f"{path}.{KEY}"
    if not isinstance(values, list) or len(values) != players:
        raise SetupError(where, f"must list {players} numbers (points added to each seat's final score), "
                                f"got {values!r}")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or abs(v) > MAX_BONUS:
            raise SetupError(f"{where}[{i}]", f"must be a finite number of points within ±{MAX_BONUS:g}, got {v!r}")
    return [float(v) for v in values]


def quantised(bonus):
    """The bonus in ``1/SCALE`` points, as the int64 slots ``attach`` appends."""
    return np.array([round(SCALE * b) for b in bonus], dtype=np.int64)


def attach(config):
    """``config`` with its row's ``seat_bonus`` (validated by ``read``) appended to its rules vector (the last
    array) and recorded in ``info["seat_bonus"]``."""
    players = config.players
    row = config.setup.get("players", {}).get(str(players), {})
    bonus = read(row, players, f"players.{players}")
    rules = np.concatenate([config.arrays[-1], quantised(bonus)])
    return replace(config, arrays=(*config.arrays[:-1], rules), info={**config.info, KEY: bonus})


def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Kernel template: the engine's ``result`` (bound as ``engine_result``), then each seat's bonus added to
    the score part of its standing (``STANDING_POINT`` bound). Jit-compiled when bound."""
    engine_result(state, arrays, scores, standing, seat_stats, game_stats)
    add_bonus(arrays[-1], standing, STANDING_POINT)


def round_standing(state, arrays, scores, standing, seat_stats, game_stats):
    """Kernel template: the standing of ``result`` alone, by the engine's optional verb ``standing(state,
    arrays, standing)`` (bound as ``engine_standing``), with the bonus added as ``result`` adds it; the other
    outputs are left alone. What the game loop records a round's leader from (``simulator.core.leaders``):
    the engine's ``result`` would also write every seat and game column, only to have them written again at
    the end. Jit-compiled when bound."""
    engine_standing(state, arrays, standing)
    add_bonus(arrays[-1], standing, STANDING_POINT)


@nb.njit(cache=True, nogil=True, _nrt=False, inline="always")
def add_bonus(rules, standing, point):
    """Add each seat's bonus (the last ``standing.size`` slots of ``rules``, in ``1/SCALE`` points) to the
    score part of its standing (``point`` standing units per point of score). Jit-compiled."""
    players = standing.size
    base = rules.size - players
    for p in range(players):
        score = standing[p] // point
        tiebreak = standing[p] - score * point
        standing[p] = (score * SCALE + rules[base + p]) * point + tiebreak
