"""The guided search ``expert``: the information-set search of ``mcts`` steered by the learned model.

``expert`` is the search of ``simulator.core.search`` (the same kernels,
the same strategy id as ``mcts``: a seat named ``expert`` is a search seat
with another parameter vector), guided PUCT-style by the game's learned
model (``simulator.core.learned``, the model ``learned`` plays):

* its leaves are scored by the model (rollout = the id of ``learned``, no
  rollout: every seat's value of the expanded position, ``leaf_shares``);
* its move prior is a softmax, at ``temperature``, of the learned move
  values: each child's first value for the seat that moved into it (the
  model's value of the position right after that move, which the leaf
  evaluation of its expansion gives at no extra cost), normalised over the
  children available in the iteration's determinization;
* a node's children are chosen by PUCT once every legal move there has
  been tried: ``mean + exploration * prior * sqrt(availability) / (1 +
  visits)``.

Parameter vector (``--param expert=...``)::

    [iterations, exploration, rollout, forbid, horizon, model..., temperature]

the ``mcts`` vector (``strategies.search``) with the rollout fixed to the
number of ``learned`` and horizon 0, the model (the game's shipped model
by default, ``strategies/<game>/learned.npy``) and the prior's temperature
(> 0) after it. Left out after ``forbid``, the game's defaults
(iterations, exploration and temperature, which the game's strategy
package gives its ``StrategySet`` as ``expert_defaults``); a vector
that ends before the model takes the shipped model and the default
temperature. A name ``expert@N`` is ``expert`` with ``N`` iterations, and
``expert:no-CLASS`` forbids a class, as for ``mcts``.

The default budget of each game is sized so that an all-``expert`` table
plays at least as many games per second as the all-``mcts`` one (the
journal, bench/journal/, holds the measurements).
"""

import math

from simulator.core.learned import check_model, model_size
from simulator.core.search import MAX_ITERATIONS, P_EXPLORATION, P_ITERATIONS, P_ROLLOUT_PARAMS
from strategies.strategy import Strategy

NAME = "expert"
# (iterations, exploration, temperature) of a game whose strategy package names no defaults of its own
GENERIC = (256, 1.0, 0.1)
SUMMARY = ("the search guided by the learned model (PUCT): learned leaf evaluation and a softmax move prior; "
           "params=[iterations, exploration, rollout (learned), forbidden classes, horizon (0), model..., "
           "temperature]; expert@N = N iterations")


def default_vector(defaults, learned_sid, model):
    """The default ``expert`` vector: ``defaults`` (iterations, exploration, temperature), the rollout
    ``learned_sid`` and ``model``."""
    iterations, exploration, temperature = defaults
    return (float(iterations), float(exploration), float(learned_sid), 0.0, 0.0,
            *(float(x) for x in model), float(temperature))


def expert_strategy(placeholder, defaults, learned_sid, model):
    """The ``expert`` strategy with ``defaults`` (iterations, exploration, temperature); ``placeholder`` is never
    called."""
    return Strategy(NAME, placeholder, default_vector(defaults, learned_sid, model), SUMMARY)


def check_vector(vector, defaults, n_features):
    """Validate an ``expert`` vector and complete it from ``defaults`` (the seat's default vector); return it.

    The rollout must be ``learned`` (the default's) and the horizon 0; the
    model must be a valid model of ``n_features`` features, followed by one
    temperature > 0. Raises ``ValueError`` saying what is wrong.
    """
    v = [float(x) for x in vector]
    shipped = check_model(defaults[P_ROLLOUT_PARAMS:-1], n_features)
    if len(v) <= P_ROLLOUT_PARAMS:
        v = v + [float(x) for x in defaults[len(v):]]
    if not all(math.isfinite(x) for x in v):
        raise ValueError("expert parameters must be finite numbers")
    iterations, exploration = v[P_ITERATIONS], v[P_EXPLORATION]
    if iterations != int(iterations) or not 1 <= iterations <= MAX_ITERATIONS:
        raise ValueError(f"expert iterations must be a whole number from 1 to {MAX_ITERATIONS}, got {iterations:g}")
    if exploration < 0:
        raise ValueError(f"expert exploration must be 0 or more, got {exploration:g}")
    if v[2] != defaults[2]:
        raise ValueError(f"expert's rollout is the learned model (strategy {defaults[2]:g}), got {v[2]:g}")
    if v[3] != int(v[3]) or not 0 <= v[3] < 2 ** 31:
        raise ValueError(f"expert forbid must be a bit mask (a whole number 0 or more), got {v[3]:g}")
    if v[4] != 0:
        raise ValueError(f"expert scores its leaves with the learned model: horizon 0, got {v[4]:g}")
    rest = v[P_ROLLOUT_PARAMS:]
    if len(rest) < 3:
        raise ValueError("expert: the model and the temperature must follow the horizon")
    size = model_size(int(rest[0]), int(rest[1]), int(rest[2])) if rest[0] in (0, 1, 2) else len(rest)
    model = check_model(rest[:size], n_features)
    temperature = rest[size:] or [defaults[-1]]
    if len(temperature) != 1 or not temperature[0] > 0:
        raise ValueError(f"expert: one temperature > 0 must follow the model ({len(shipped)} numbers by "
                         f"default), got {', '.join(f'{t:g}' for t in temperature) or 'none'}")
    return v[:P_ROLLOUT_PARAMS] + [float(x) for x in model] + [float(temperature[0])]
