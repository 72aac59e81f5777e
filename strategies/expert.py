"""The guided search ``expert``: the information-set search of ``mcts`` steered by the learned model.

``expert`` is the search of ``simulator.core.search`` (the same kernels,
the same strategy id as ``mcts``: a seat named ``expert`` is a search seat
with another parameter vector), guided PUCT-style by a learned model of the
game (``simulator.core.learned``). It comes in two designs, chosen per game
by the last slot of its vector:

* **A, the learned leaf** (``LEARNED_LEAF``): no rollout; every seat's value
  of the expanded position by the model is the iteration's result
  (``leaf_shares``). Each child's prior logit is its first value for the
  seat that moved into it (the model's value of the position right after
  that move), which the expansion's leaf evaluation gives at no extra cost.
* **B, the prior alone** (``RANDOM_ROLLOUT``): the random rollouts of
  ``mcts`` to the game's evaluation point (its horizon) score the leaves, as
  in ``mcts``; the model is evaluated once per expansion, for the seat that
  moved into the new child, and that value is the child's prior logit. For
  games where a short random rollout to the evaluation point is as good as
  the model and cheaper.

In both, the move prior is a softmax at ``temperature`` of the children's
logits, over the children available in the iteration's determinization,
and a node's children are chosen by PUCT once every legal move there has
been tried: ``mean + exploration * prior * sqrt(availability) / (1 +
visits)``.

The model is the game's ``expert.npy`` in its strategy package when it
ships one, else the model ``learned`` plays (``strategies/<game>/learned.npy``).
Fool!'s is fitted where the search evaluates (every seat's view after every
move, mid-trick included, by ``studies.train.leaf_model``); Forks' and Fauch
& Fertig's are the win-share models their ``learned`` played before it was
refitted to ``expert``'s move choices (``studies.choices``), whose values
order moves but are not win shares.

Parameter vector (``--param expert=...``)::

    [iterations, exploration, rollout, forbid, horizon, model..., temperature, design]

the ``mcts`` vector (``strategies.search``) with the rollout fixed to the
number of ``learned`` (the slot that says a model follows), the horizon 0
in design A (the game's ``mcts`` horizon by default in design B), the
model, the prior's temperature (> 0) and the design (0 = A, 1 = B). Left
out after ``forbid``, the game's defaults (iterations, exploration,
temperature and design, which the game's strategy package gives its
``StrategySet`` as ``expert_defaults``); a vector that ends before the
model takes the shipped model, and one that ends after the model the
default temperature and design. A name ``expert@N`` is ``expert`` with
``N`` iterations, and ``expert:no-CLASS`` forbids a class, as for
``mcts``. A model alone (``--param expert=@my-model.npy``, a file
``playtest train`` wrote) is played with the game's defaults around it.

The default budget and design of each game are chosen so that an
all-``expert`` table plays at least as many games per second as the
all-``mcts`` one (the journal, bench/journal/, holds the measurements).
"""

import math

import numpy as np

from simulator.core.learned import check_model, model_size
from simulator.core.search import (LEARNED_LEAF, MAX_ITERATIONS, P_EXPLORATION, P_HORIZON, P_ITERATIONS,
                                   P_ROLLOUT_PARAMS, RANDOM_ROLLOUT)
from strategies.learned import weights_path
from strategies.strategy import Strategy

NAME = "expert"
MODEL_FILE = "expert.npy"   # a game's model fitted for the search's leaves, beside learned.npy when it has one
DESIGNS = {LEARNED_LEAF: "the learned leaf", RANDOM_ROLLOUT: "random rollouts"}
# (iterations, exploration, temperature, design) of a game whose strategy package names no defaults of its own
GENERIC = (256, 1.0, 0.1, LEARNED_LEAF)
SUMMARY = ("the search guided by the learned model (PUCT): a softmax move prior from the model, and the model "
           "(design 0) or random rollouts (design 1) at the leaves; params=[iterations, exploration, rollout "
           "(learned), forbidden classes, horizon, model..., temperature, design], or a model alone "
           "(--param expert=@FILE.npy); expert@N = N iterations")


def model_path(game):
    """Where ``game``'s model for ``expert`` would be: ``MODEL_FILE`` beside the shipped ``learned`` model."""
    return weights_path(game).with_name(MODEL_FILE)


def shipped_model(game, learned_model, n_features):
    """The model ``expert`` plays in ``game`` by default: the game's ``MODEL_FILE`` when it ships one (validated
    for ``n_features``), else ``learned_model`` (the ``learned`` player's)."""
    path = model_path(game)
    if not path.exists():
        return tuple(learned_model)
    return tuple(float(x) for x in check_model(np.load(path), n_features))


def _design(defaults):
    """``(iterations, exploration, temperature, design)`` of a game's defaults (design A when left out)."""
    iterations, exploration, temperature, *design = defaults
    return iterations, exploration, temperature, (design[0] if design else LEARNED_LEAF)


def default_vector(defaults, learned_sid, model, horizon):
    """The default ``expert`` vector: ``defaults`` (iterations, exploration, temperature[, design]), the rollout
    ``learned_sid``, ``model``, and in design B ``horizon`` (the game's ``mcts`` horizon; 0 in design A)."""
    iterations, exploration, temperature, design = _design(defaults)
    return (float(iterations), float(exploration), float(learned_sid), 0.0,
            float(horizon) if design == RANDOM_ROLLOUT else 0.0, *(float(x) for x in model), float(temperature),
            float(design))


def expert_strategy(search, defaults, learned_sid, model):
    """The ``expert`` strategy with ``defaults`` (iterations, exploration, temperature[, design]) and ``model``;
    ``search`` is the game's ``mcts`` (its decision function fills the slot, never called; design B rolls out
    to its horizon)."""
    vector = default_vector(defaults, learned_sid, model, search.params[P_HORIZON])
    return Strategy(NAME, search.decide, vector, SUMMARY)


def _is_model(vector, n_features):
    """True when ``vector`` is a whole model of a game with ``n_features`` features (``check_model`` takes it)."""
    try:
        check_model(vector, n_features)
    except ValueError:
        return False
    return True


def check_vector(vector, defaults, n_features, evaluation_point=None):
    """Validate an ``expert`` vector and complete it from ``defaults`` (the seat's default vector); return it.

    A vector that is a whole model of the game alone (a file ``playtest
    train`` wrote: kind, features, hidden units and their weights) is that
    model with the defaults around it. Otherwise the rollout must be
    ``learned`` (the default's); the model must be a
    valid model of ``n_features`` features, followed by at most a
    temperature > 0 and a design (``DESIGNS``); the horizon 0 in design A,
    a whole number in design B, above 0 only where the game has an
    ``evaluation_point``. Raises ``ValueError`` saying what is wrong.
    """
    v = [float(x) for x in vector]
    shipped = check_model(defaults[P_ROLLOUT_PARAMS:-2], n_features)
    if _is_model(v, n_features):
        v = [float(x) for x in defaults[:P_ROLLOUT_PARAMS]] + v
    elif len(v) <= P_ROLLOUT_PARAMS:
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
    rest = v[P_ROLLOUT_PARAMS:]
    if len(rest) < 3:
        raise ValueError("expert: the model must follow the horizon")
    size = model_size(int(rest[0]), int(rest[1]), int(rest[2])) if rest[0] in (0, 1, 2) else len(rest)
    model = check_model(rest[:size], n_features)
    tail = rest[size:]
    if len(tail) > 2 or (tail and not tail[0] > 0):
        raise ValueError(f"expert: one temperature > 0 and the design must follow the model ({len(shipped)} "
                         f"numbers by default), got {', '.join(f'{t:g}' for t in tail) or 'none'}")
    temperature, design = (tail + list(defaults[len(defaults) - 2 + len(tail):]))[:2]
    if design not in DESIGNS:
        raise ValueError(f"expert design must be {' or '.join(f'{k} ({d})' for k, d in DESIGNS.items())}, "
                         f"got {design:g}")
    horizon = v[P_HORIZON]
    if design == LEARNED_LEAF and horizon != 0:
        raise ValueError(f"expert scores its leaves with the learned model in design 0: horizon 0, got {horizon:g}")
    if horizon != int(horizon) or not 0 <= horizon < 2 ** 31:
        raise ValueError(f"expert horizon must be a whole number 0 or more, got {horizon:g}")
    if horizon >= 1 and evaluation_point is None:
        raise ValueError(f"expert horizon {horizon:g} stops rollouts at the game's evaluation points, and this "
                         f"game has none: use horizon 0")
    return v[:P_ROLLOUT_PARAMS] + [float(x) for x in model] + [float(temperature), float(design)]
