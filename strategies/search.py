"""The search player ``mcts``: one strategy in every game, played by ``simulator.core.search``.

Unlike the heuristics, ``mcts`` does not read an observation vector: the game
loop hands the seat's decision to the search, which works on the game state
through the engine's verbs and sees only what its seat sees (it determinizes
every iteration). Its entry in a game's dispatcher is that game's ``random``
decision function, a placeholder the kernels never call for it.

Parameter vector (``--param mcts=...``)::

    [iterations, exploration, rollout, forbid, horizon, rollout params...]

* ``iterations``: search iterations per decision (1 to 2**20); 256 by
  default, or the game's own default (its strategy package passes it to
  ``search_strategy``); ``expert`` (``strategies.expert``) is this search
  guided by the learned model, with defaults of its own;
* ``exploration``: the UCB1 constant c (0 = greedy);
* ``rollout``: -1 for uniform random rollouts, or the number of a built-in
  heuristic in ``playtest strategies GAME`` (0 is the first line) played by
  every seat in the rollouts; its parameter vector follows ``horizon`` (its
  defaults when not given); the number of ``learned``: no rollout, the leaf
  is scored by its model (``simulator.core.learned.leaf_shares``);
* ``forbid``: a bit mask of the game's action classes the seat never takes
  while it has another option (bit i = class i of ``playtest strategies
  GAME``); ``playtest restrict`` sets it;
* ``horizon``: 0 plays every rollout to the end of the game; h >= 1 stops
  it at the h-th evaluation point ahead and scores the standing there (only
  in a game that has them: ``evaluation_point`` of its descriptor, printed by
  ``playtest strategies GAME``, e.g. the end of a deal). Left out, the
  game's default (its strategy package passes it to ``search_strategy``; 0
  unless it says otherwise).

A name ``mcts@N`` is ``mcts`` with ``N`` iterations (several budgets can sit
at one table, e.g. ``-s mcts@1024 -s mcts@64``).
"""

import math

from strategies.learned import NAME as LEARNED
from simulator.core.search import (MAX_ITERATIONS, P_EXPLORATION, P_FORBID, P_HORIZON, P_ITERATIONS, P_ROLLOUT,
                                   P_ROLLOUT_PARAMS)
from strategies.strategy import Strategy

NAME = "mcts"
DEFAULT_PARAMS = (256.0, 0.7, -1.0, 0.0, 0.0)
SUMMARY = ("information-set Monte Carlo tree search (SO-ISMCTS, Cowling et al. 2012): "
           "params=[iterations, exploration, rollout (-1 random or a strategy number), forbidden classes (bit "
           "mask), horizon (0 to the end of the game, h to the h-th evaluation point ahead), rollout strategy's "
           "params...]; mcts@N = N iterations")


def split_name(name, players=(NAME,)):
    """``(player, N)`` for ``"player@N"`` with ``player`` one of the search players ``players`` (``mcts``, and
    ``expert`` for the registry); ``(name, None)`` for any other name.

    Raises ``ValueError`` with a plain message when the budget is not a whole
    number in range.
    """
    base, at, budget = name.partition("@")
    if not at or base not in players:
        return name, None
    if not budget.isdigit() or not 1 <= int(budget) <= MAX_ITERATIONS:
        raise ValueError(f"{name!r}: the budget after '@' must be a whole number of iterations from 1 to "
                         f"{MAX_ITERATIONS}")
    return base, int(budget)


def check_vector(vector, heuristics, defaults=DEFAULT_PARAMS, evaluation_point=None, check_learned=None):
    """Validate an ``mcts`` parameter vector and complete it: the values left out before the rollout
    heuristic's parameters from ``defaults`` (the seat's default vector), the heuristic's from its defaults.

    ``heuristics`` lists the game's built-in strategies in id order (as
    ``(name, default params)``); ``evaluation_point`` is the game descriptor's
    ``evaluation_point`` (None: every horizon but 0 is refused);
    ``check_learned`` validates a learned model (rollout = ``learned``: the
    learned leaf evaluation, whose model may have any valid length). Returns the full
    vector; raises ``ValueError`` saying what is wrong.
    """
    v = [float(x) for x in vector]
    if len(v) < P_ROLLOUT_PARAMS:
        v += [float(x) for x in defaults[len(v):P_ROLLOUT_PARAMS]]
    iterations, exploration, rollout, forbid, horizon = (v[P_ITERATIONS], v[P_EXPLORATION], v[P_ROLLOUT],
                                                         v[P_FORBID], v[P_HORIZON])
    if not all(math.isfinite(x) for x in v):
        raise ValueError("mcts parameters must be finite numbers")
    if iterations != int(iterations) or not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"mcts iterations must be a whole number from 1 to {MAX_ITERATIONS}, got {iterations:g}")
    if exploration < 0:
        raise ValueError(f"mcts exploration must be 0 or more, got {exploration:g}")
    if forbid != int(forbid) or not 0 <= forbid < 2 ** 31:
        raise ValueError(f"mcts forbid must be a bit mask (a whole number 0 or more), got {forbid:g}")
    if horizon != int(horizon) or not 0 <= horizon < 2 ** 31:
        raise ValueError(f"mcts horizon must be a whole number: 0 (roll out to the end of the game) or h >= 1 (to "
                         f"the h-th evaluation point ahead), got {horizon:g}")
    if horizon >= 1 and evaluation_point is None:
        raise ValueError(f"mcts horizon {horizon:g} stops rollouts at the game's evaluation points, and this game "
                         f"has none: use horizon 0")
    if rollout == -1:
        if len(v) > P_ROLLOUT_PARAMS:
            raise ValueError(f"mcts with random rollouts (rollout -1) takes {P_ROLLOUT_PARAMS} parameters, got "
                             f"{len(v)}")
        return v
    choices = [i for i, (name, _) in enumerate(heuristics) if name != NAME]
    if rollout != int(rollout) or int(rollout) not in choices:
        raise ValueError(f"mcts rollout must be -1 (random) or a strategy number from "
                         f"{', '.join(f'{i} ({heuristics[i][0]})' for i in choices)}; got {rollout:g}")
    name, own = heuristics[int(rollout)]
    extra = v[P_ROLLOUT_PARAMS:] or list(own)
    if name == LEARNED and check_learned is not None:
        return v[:P_ROLLOUT_PARAMS] + [float(x) for x in check_learned(extra)]
    if len(extra) != len(own):
        raise ValueError(f"the rollout strategy {name!r} takes {len(own)} parameters, got {len(extra)}")
    return v[:P_ROLLOUT_PARAMS] + extra


def search_strategy(placeholder, iterations=DEFAULT_PARAMS[P_ITERATIONS], horizon=DEFAULT_PARAMS[P_HORIZON]):
    """The ``mcts`` built-in of a game, with ``iterations`` per decision and ``horizon`` by default (the rest
    of ``DEFAULT_PARAMS`` unchanged); ``placeholder`` (the game's ``random``) fills its dispatcher slot."""
    params = list(DEFAULT_PARAMS)
    params[P_ITERATIONS], params[P_HORIZON] = float(iterations), float(horizon)
    return Strategy(NAME, placeholder, tuple(params), SUMMARY)
