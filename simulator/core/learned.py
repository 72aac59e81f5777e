"""The learned evaluation: a model of a seat's final win share from what it observes, and the player ``learned``.

A *model* is one flat float64 vector, so that it can be a strategy's
parameter vector (``--param learned=@FILE``) and the rollout parameters of the
search (``mcts`` with rollout = the id of ``learned``)::

    [kind, n_features, n_hidden, weights...]

* kind ``LINEAR`` (0), ``n_hidden`` 0: ``bias, w[0..n_features-1]``; the value
  is ``bias + w . x``;
* kind ``TANH`` (1) or ``RELU`` (2), one hidden layer of ``n_hidden`` units:
  ``W1`` (``n_hidden`` rows of ``n_features``, row-major), ``b1[n_hidden]``,
  ``w2[n_hidden]``, ``b2``; the value is ``b2 + w2 . act(W1 x + b1)``.

``x`` is the game's feature vector of a seat: ``features(obs, out)`` of the
engine module fills ``out[:N_FEATURES]`` from the int64 observation that
``observe(state, arrays, seat, obs)`` writes for that seat. Any scaling of
the features is folded into the first layer when a model is fitted
(``studies.train``), so inference is the plain function above. The value
predicts the observing seat's final win share (1/k of a k-way shared win);
a model fitted to a teacher's move choices (``studies.choices``) orders
moves instead.

The player ``learned`` (``learned_move``) determinizes the live state once
for its seat (every random stream reseeded from its own, as the search
does, so nothing hidden leaks), then for each legal action copies that
world, applies the action, in games whose ``learned`` looks ahead lets the
other seats play on with the game's strongest heuristic until its seat is
to move again (at most ``LOOKAHEAD_PLIES`` moves per player), and scores
what its seat then observes (the real win share if the game ended); it
takes the best, ties to the first legal action. The search (``simulator.core.search``) uses the same model as its
leaf evaluation (``leaf_shares``).

``new_learned``, ``learned_move``, ``learned_candidates`` (the positions it
scores, for fitting a teacher's choices) and ``leaf_shares`` are templates bound per
engine by ``simulator.core.kernels`` (``new_state``, ``copy_state``,
``determinize``, ``legal_actions``, ``apply``, ``result``, ``observe``,
``features``, ``choose``, ``N_FEATURES``, ``OBS_SIZE``, ``MAX_ACTIONS``, and
the look-ahead's heuristic: its strategy id ``LOOKAHEAD_SID``, -1 for none,
and parameters ``LOOKAHEAD_PARAMS``); ``value`` is shared. Everything but ``new_learned`` allocates nothing.
"""

import math

import numba as nb
import numpy as np

from simulator.core.bound import unbound
from simulator.core.rng import reseed_from
from simulator.core.state import is_terminal, to_move

# the names the templates here are bound with (simulator.core.bound)
(LOOKAHEAD_PARAMS, LOOKAHEAD_SID, MAX_ACTIONS, N_FEATURES, OBS_SIZE, apply, choose, copy_state, determinize,
 features, legal_actions, new_state, observe, result) = unbound(
    "LOOKAHEAD_PARAMS", "LOOKAHEAD_SID", "MAX_ACTIONS", "N_FEATURES", "OBS_SIZE", "apply", "choose", "copy_state",
    "determinize", "features", "legal_actions", "new_state", "observe", "result")

LINEAR, TANH, RELU = 0, 1, 2
KINDS = {LINEAR: "linear", TANH: "tanh", RELU: "relu"}
M_KIND, M_FEATURES, M_HIDDEN, M_WEIGHTS = range(4)
MIN_SHARE = 1e-3   # the leaf's floor on a seat's predicted share before the shares are normalised
LOOKAHEAD_PLIES = 4  # the learned player's look-ahead stops after this many moves per player at the latest


def model_size(kind, n_features, n_hidden):
    """The length of a model vector of this design."""
    if kind == LINEAR:
        return M_WEIGHTS + 1 + n_features
    return M_WEIGHTS + n_hidden * n_features + 2 * n_hidden + 1


def check_model(vector, n_features):
    """Validate a model vector for a game with ``n_features`` features; return it as a float64 array.

    Raises ``ValueError`` saying what is wrong (not a flat list of finite
    numbers, an unknown kind, the wrong feature count, the wrong length).
    """
    v = np.asarray(vector, dtype=np.float64)
    if v.ndim != 1 or v.size < M_WEIGHTS + 2:
        raise ValueError(f"a learned model is a flat list of at least {M_WEIGHTS + 2} numbers, got shape {v.shape}")
    if not np.isfinite(v).all():
        raise ValueError("a learned model must hold finite numbers only")
    kind, features, hidden = v[M_KIND], v[M_FEATURES], v[M_HIDDEN]
    if kind not in KINDS:
        raise ValueError(f"learned model kind {kind:g} is not one of "
                         f"{', '.join(f'{k} ({n})' for k, n in KINDS.items())}")
    if features != n_features:
        raise ValueError(f"the learned model reads {features:g} features; this game has {n_features}")
    if hidden != int(hidden) or hidden < 0 or (kind == LINEAR) != (hidden == 0):
        raise ValueError(f"learned model: {hidden:g} hidden units for kind {int(kind)} ({KINDS[int(kind)]}); "
                         f"a linear model has 0, a network at least 1")
    size = model_size(int(kind), n_features, int(hidden))
    if v.size != size:
        raise ValueError(f"a {KINDS[int(kind)]} learned model with {n_features} features and {int(hidden)} hidden "
                         f"units has {size} numbers, got {v.size}")
    return v


def fold_feature(vector, index, at):
    """A copy of the model ``vector`` that reads feature ``index`` as the constant ``at``, whatever it is given.

    The feature's input weights are folded into the bias (the first layer's biases of a network) and set to 0,
    so the value equals the original model's at the same features with the ``index``-th replaced by ``at``.
    """
    v = np.array(vector, dtype=np.float64)
    kind, nf, nh = int(v[M_KIND]), int(v[M_FEATURES]), int(v[M_HIDDEN])
    if kind == LINEAR:
        v[M_WEIGHTS] += v[M_WEIGHTS + 1 + index] * at
        v[M_WEIGHTS + 1 + index] = 0.0
        return v
    w1 = v[M_WEIGHTS:M_WEIGHTS + nh * nf].reshape(nh, nf)      # views into v
    b1 = v[M_WEIGHTS + nh * nf:M_WEIGHTS + nh * nf + nh]
    b1 += w1[:, index] * at
    w1[:, index] = 0.0
    return v


def hidden_size(vector):
    """The hidden units of a model vector (its scratch size for ``value``)."""
    return int(vector[M_HIDDEN])


@nb.njit(cache=True, _nrt=False, inline="always")
def value(model, row, feat, hidden):
    """The value of the model in ``model[row]`` (a 2-d array: a parameter matrix) at the features ``feat``.

    ``hidden`` is scratch of at least the model's hidden units. Jit-compiled,
    allocation-free. Each hidden unit's sum is formed in the order of the
    plain formula (its bias, then feature 0, 1, ...), so the value is the
    same to the last bit; the units' sums advance side by side, feature by
    feature, so that they do not wait on one another.
    """
    kind, nf, nh = int(model[row, M_KIND]), int(model[row, M_FEATURES]), int(model[row, M_HIDDEN])
    w = M_WEIGHTS
    if kind == LINEAR:
        total = model[row, w]
        for j in range(nf):
            total += model[row, w + 1 + j] * feat[j]
        return total
    for h in range(nh):
        hidden[h] = model[row, w + nh * nf + h]
    for j in range(nf):
        x = feat[j]
        for h in range(nh):
            hidden[h] += model[row, w + h * nf + j] * x
    for h in range(nh):
        hidden[h] = math.tanh(hidden[h]) if kind == TANH else max(hidden[h], 0.0)
    out = w + nh * nf + nh
    total = model[row, out + nh]
    for h in range(nh):
        total += model[row, out + h] * hidden[h]
    return total


@nb.njit(cache=True, _nrt=False)
def win_shares(standing, share):
    """``share[p]``: seat p's win share of a finished game (1/k for each of k tied leaders). Jit-compiled."""
    top = standing[0]
    for p in range(standing.size):
        top = max(top, standing[p])
    k = 0
    for p in range(standing.size):
        if standing[p] == top:
            k += 1
    for p in range(standing.size):
        share[p] = 1.0 / k if standing[p] == top else 0.0


def new_learned(arrays, params, sids):
    """Template: one thread's buffers of the learned player and the learned leaf (the only allocation).

    The last three are the look-ahead's: every seat's strategy id and
    parameter row for ``choose``, set here to the bound heuristic
    ``LOOKAHEAD_SID`` with ``LOOKAHEAD_PARAMS``, and a third world.
    """
    players = sids.size
    rsids = np.full(players, LOOKAHEAD_SID, np.int64)
    rparams = np.zeros(params.shape, np.float64)
    for p in range(players):
        for j in range(min(LOOKAHEAD_PARAMS.size, params.shape[1])):
            rparams[p, j] = LOOKAHEAD_PARAMS[j]
    return (new_state(arrays, params),                    # the determinized world
            new_state(arrays, params),                    # the world after a tried action
            np.zeros(OBS_SIZE, np.int64),                 # an observation
            np.zeros(N_FEATURES, np.float64),             # its features
            np.zeros(max(1, params.shape[1]), np.float64),  # hidden units (a model has fewer than its length)
            np.empty(MAX_ACTIONS, np.int64),              # legal actions
            np.empty(4, np.uint64),                       # the player's stream
            np.empty(players, np.float64),                # win shares of a finished game
            np.empty(0, np.int64),                        # no trace
            rsids,                                        # the look-ahead's strategy per seat
            rparams)                                      # its parameters per seat


def seat_value(state, arrays, params, row, seat, buf, scores, standing, seat_stats, game_stats):
    """Template: the model's value for ``seat`` of ``state`` from what it observes (its real win share once the
    game is over); the model is ``params[row]``. ``scores``... are scratch for ``result``."""
    obs, feat, hidden, share = buf[2], buf[3], buf[4], buf[7]
    if is_terminal(state):
        result(state, arrays, scores, standing, seat_stats, game_stats)
        win_shares(standing, share)
        return share[seat]
    observe(state, arrays, seat, obs)
    features(obs, feat)
    return value(params, row, feat, hidden)


def determinized(state, arrays, me, world, rng):
    """Template (inlined): ``world`` = ``state`` determinized for seat ``me`` from its own stream, every random
    stream of ``world`` reseeded from it (so nothing hidden leaks); the seat's stream in ``state`` advances as the
    determinization drew from it. ``rng`` is scratch for the stream."""
    rngs = state[1]
    for k in range(4):
        rng[k] = rngs[1 + me, k]
    copy_state(state, world)
    determinize(world, arrays, me, rng)
    reseed_from(world[1], rng)
    for k in range(4):
        rngs[1 + me, k] = rng[k]


def look_ahead(world, trial, arrays, action, me, cap, rsids, rparams, no_trace):
    """Template (inlined): ``trial`` = ``world`` after seat ``me`` plays ``action`` and the other seats play on by
    the look-ahead's heuristic (``rsids``, ``rparams``, through ``choose``) until the game ends, ``me`` is to move
    again, or ``cap`` moves were made (0: the position right after the move)."""
    copy_state(world, trial)
    apply(trial, arrays, action, no_trace, False)
    plies = 0
    while plies < cap and not is_terminal(trial) and to_move(trial) != me:
        apply(trial, arrays, choose(trial, arrays, rsids, rparams), no_trace, False)
        plies += 1


def learned_move(state, arrays, sids, params, buf, scores, standing, seat_stats, game_stats):
    """Template: the action the ``learned`` seat to move takes in ``state`` (left unchanged but for its stream).

    Its parameter row is the model. It determinizes ``state`` once
    (``determinized``); for each legal action it plays that action and the
    look-ahead (``look_ahead``: the other seats by the bound heuristic
    ``LOOKAHEAD_SID`` until the game ends, its seat is to move again, or
    ``LOOKAHEAD_PLIES`` x players moves were made; with ``LOOKAHEAD_SID`` -1
    none) and scores what its seat then observes (``seat_value``). Best
    value wins, ties to the first legal action; a single legal action is
    taken without scoring (the look-ahead plays on copies with streams of
    their own, so no stream changes). ``buf`` are the search's buffers
    (``simulator.core.search.new_search``), whose last entry is the learned
    player's (``new_learned``). ``scores``, ``standing``, ``seat_stats``
    and ``game_stats`` are the game's output rows, used as scratch (the
    caller writes the real result after the game). Allocation-free.
    """
    lbuf = buf[-1]
    world, trial, acts, rng, no_trace, rsids, rparams = lbuf[0], lbuf[1], lbuf[5], lbuf[6], lbuf[8], lbuf[9], lbuf[10]
    me = to_move(state)
    determinized(state, arrays, me, world, rng)
    n = legal_actions(world, arrays, acts)
    if n == 1:  # a forced move: nothing to score (every stream is as the scoring would have left it)
        return acts[0]
    cap = LOOKAHEAD_PLIES * sids.size if LOOKAHEAD_SID >= 0 else 0
    best, best_value = -1, -1e300
    for i in range(n):
        look_ahead(world, trial, arrays, acts[i], me, cap, rsids, rparams, no_trace)
        v = seat_value(trial, arrays, params, me, me, lbuf, scores, standing, seat_stats,
                       game_stats)
        if v > best_value:
            best, best_value = acts[i], v
    return best


def learned_candidates(state, arrays, sids, buf, feats, actions):
    """Template: the positions ``learned_move`` would score in ``state``, for a teacher's choices to be fitted to
    (``studies.choices``). Determinizes and looks ahead exactly as ``learned_move`` (so ``state``'s mover's stream
    advances the same way); writes each legal action to ``actions[i]`` and the features of what the mover then
    observes to ``feats[i]``, and returns their number. Returns 0 (nothing to fit) when there is one legal action
    or a move's look-ahead ends the game (the player scores that by the real result, not the model).
    Allocation-free."""
    lbuf = buf[-1]
    world, trial, obs, feat, acts, rng, no_trace, rsids, rparams = (lbuf[0], lbuf[1], lbuf[2], lbuf[3], lbuf[5],
                                                                    lbuf[6], lbuf[8], lbuf[9], lbuf[10])
    me = to_move(state)
    determinized(state, arrays, me, world, rng)
    n = legal_actions(world, arrays, acts)
    if n == 1:
        return 0
    cap = LOOKAHEAD_PLIES * sids.size if LOOKAHEAD_SID >= 0 else 0
    for i in range(n):
        look_ahead(world, trial, arrays, acts[i], me, cap, rsids, rparams, no_trace)
        if is_terminal(trial):
            return 0
        observe(trial, arrays, me, obs)
        features(obs, feat)
        actions[i] = acts[i]
        for j in range(feat.size):
            feats[i, j] = feat[j]
    return n


def leaf_shares(state, arrays, model, buf, share, scores, standing, seat_stats, game_stats):
    """Template: every seat's share of the leaf ``state`` by the model in ``model[0]``, into ``share``.

    A finished game gives the real win shares; otherwise each seat's value
    from its own observation, floored at ``MIN_SHARE`` and normalised to sum
    to 1. Allocation-free.
    """
    if is_terminal(state):
        result(state, arrays, scores, standing, seat_stats, game_stats)
        win_shares(standing, share)
        return
    total = 0.0
    for p in range(share.size):
        v = max(MIN_SHARE, seat_value(state, arrays, model, 0, p, buf, scores, standing,
                                      seat_stats, game_stats))
        share[p] = v
        total += v
    for p in range(share.size):
        share[p] /= total

