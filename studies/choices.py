"""Distilling a teacher's move choices into the learned model (``playtest train --target choice``).

``learned`` plays the legal move whose position it values most, so what it
needs from its model is the right order among a seat's candidate moves.
Fitting the seat's final win share by squared error (``studies.train.fit``)
gets the level of the value right but not that order: in Fauch & Fertig such
fits play 10 to 30 points worse than the shipped model even on rows of the
very games they are judged on (bench/journal/2026-12-06-warm-start.md).

Here the model is fitted to a teacher's choices instead, the apprentice's
target in expert iteration (Anthony, Tian and Barber 2017):

* ``record_choices`` plays games with the teacher in every seat (the guided
  search ``expert``) and, at every decision where ``learned`` would compare
  moves by its model, writes one row per legal move: the features of what
  the mover observes where ``learned`` scores that move (right after it, or
  after its look-ahead; ``simulator.core.learned.learned_candidates``, the
  same determinization and look-ahead as the player), with the decision's
  group number and whether the teacher chose it. Decisions where a move's
  look-ahead ends the game are left out (``learned`` scores those by the real
  result, not the model).
* ``fit_choices`` fits the model so that a softmax of its values over each
  group (at ``TEMPERATURE``, in win-share units) gives the teacher's move:
  the mean cross-entropy over the groups, plus an L2 pull (``PULL``) toward
  the starting model's weights, minimised by scipy's L-BFGS.

The values of such a model keep the order of the moves, not the level of a
win share, so it serves ``learned`` and not ``expert``'s leaf.
"""

import numpy as np

from simulator import games as game_registry
from simulator.core.learned import KINDS, LINEAR, M_FEATURES, M_HIDDEN, M_KIND
from simulator.core.output import game_rows
from simulator.core.state import is_terminal, to_move
from studies.model_weights import network_parts, raw, standardised

TEMPERATURE = 0.03   # the softmax's temperature: about the spread of a shipped model's values over a decision's moves
PULL = 0.01          # the L2 pull toward the starting weights (on standardised features), per unit of cross-entropy
ITERATIONS = 200     # L-BFGS iterations at most


def record_choices(sset, config, sids, params, seed, start, count):
    """``(features, group, chosen)`` of games ``start .. start+count-1`` of run ``seed`` played by the lineup
    (``sids``, ``params``; search seats only): per decision where ``learned`` would score more than one move by
    its model (``simulator.core.learned.learned_candidates``, on a copy of the state, so the game is the lineup's
    own), one row per legal move (the features ``learned`` scores it by, in the engine's order), the decision's
    number in ``group`` (0, 1, ... in play order) and True in ``chosen`` for the move played."""
    g = game_registry.get(sset.game)
    engine, arrays = g.engine, config.arrays
    new_search, search = sset.search_player()
    candidates = sset.learned_candidates()[1]
    buf = new_search(arrays, params, sids)
    outputs = game_rows(g, config.players)
    no_trace = np.empty(0, np.int64)
    state, copy = engine.new_state(arrays, params), engine.new_state(arrays, params)
    feats = np.empty((g.max_actions, sset.n_features), np.float64)
    actions = np.empty(g.max_actions, np.int64)
    rows, group, chosen, decisions = [], [], [], 0
    for k in range(start, start + count):
        engine.reset(state, arrays, seed, k, no_trace, False)
        while not is_terminal(state):
            engine.copy_state(state, copy)
            n = candidates(copy, arrays, sids, buf, feats, actions)
            played = int(search(state, arrays, sids, params, buf, *outputs))
            if played < 0:
                raise RuntimeError(f"seat {to_move(state)} chose illegally while recording choices")
            if n:
                rows.append(feats[:n].copy())
                group.append(np.full(n, decisions))
                chosen.append(actions[:n] == played)
                decisions += 1
            engine.apply(state, arrays, played, no_trace, False)
    if not rows:
        return np.empty((0, sset.n_features)), np.empty(0, np.int64), np.empty(0, bool)
    return np.concatenate(rows), np.concatenate(group).astype(np.int64), np.concatenate(chosen)


def fit_choices(features, group, chosen, start, temperature=TEMPERATURE, pull=PULL, iterations=ITERATIONS):
    """The model ``start`` (a model vector: linear or a network) refitted to the teacher's choices: the
    softmax at ``temperature`` of its values over each group of rows (``group`` sorted, one ``chosen`` row
    per group) fitted to the chosen row by cross-entropy, with an L2 pull of ``pull`` toward ``start``'s
    weights; on standardised features, folded back into a vector of ``start``'s design."""
    from scipy.optimize import minimize

    start = np.asarray(start, np.float64)
    kind, nf, hidden = int(start[M_KIND]), int(start[M_FEATURES]), int(start[M_HIDDEN])
    mean, scale = features.mean(0), features.std(0)
    scale[scale == 0] = 1.0
    x = (features - mean) / scale
    first = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    sizes = np.diff(np.r_[first, group.size])
    target = chosen.astype(np.float64)
    net = _Net(kind, nf, hidden)
    theta0 = standardised(start, mean, scale)

    def loss(theta):
        v, backward = net.forward(theta, x)
        u = v / temperature
        top = np.maximum.reduceat(u, first)
        e = np.exp(u - np.repeat(top, sizes))
        total = np.add.reduceat(e, first)
        p = e / np.repeat(total, sizes)
        cross = (np.log(total) + top - np.add.reduceat(u * target, first)).sum() / first.size
        grad = backward((p - target) / temperature / first.size)
        return cross + 0.5 * pull * ((theta - theta0) ** 2).sum(), grad + pull * (theta - theta0)

    theta = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": iterations}).x
    return raw(kind, nf, hidden, theta, mean, scale)


class _Net:
    """A model vector's design as a function of its weights on standardised features (``studies.model_weights``):
    ``forward`` gives the values and a function from their gradient to the weights'."""

    def __init__(self, kind, nf, hidden):
        self.kind, self.nf, self.h = kind, nf, hidden

    def forward(self, theta, x):
        if self.kind == LINEAR:
            return theta[0] + x @ theta[1:], lambda g: np.concatenate([[g.sum()], x.T @ g])
        w1, b1, w2, b2 = network_parts(theta, self.nf, self.h)
        z = x @ w1.T + b1
        a = np.tanh(z) if KINDS[self.kind] == "tanh" else np.maximum(z, 0.0)
        slope = 1 - a * a if KINDS[self.kind] == "tanh" else (z > 0).astype(np.float64)

        def backward(g):
            delta = g[:, None] * w2[None, :] * slope
            return np.concatenate([(delta.T @ x).ravel(), delta.sum(0), a.T @ g, [g.sum()]])

        return a @ w2 + b2, backward
