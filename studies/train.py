"""Training the learned model by expert iteration (Anthony, Tian and Barber 2017, "Thinking Fast and Slow").

One model serves two players: ``learned``, the fast player that scores each
move by it, and the guided search ``expert`` (``strategies.expert``), whose
leaves and move prior it gives. Round 0 records games of the search with
random rollouts in every seat (``mcts`` at ``budget`` iterations,
the game's ``expert_horizon``); round k records games of the guided search
steered by the kept generation's model (``expert`` at ``budget``
iterations, ``EXPERT_TEMPERATURE``; the budget is the expert's, by default
``EXPERT_FACTOR`` times the game's ``expert`` default), and fits a new
model on every round's data so far. The expert's whole parameter vector is
written out here (``expert_vector``), none of it taken from the strategy's
defaults, so a change of ``mcts``'s or ``expert``'s defaults cannot change
what training produces. The data are the features of what a seat observes,
with that seat's final win share as the target
(``simulator.core.recorder``): at each of its decisions or right after each
of its moves, as the game's ``recorded_at_decision`` says. The fit is
scikit-learn's: ``Ridge`` on standardised features for the linear design,
``MLPRegressor`` with one hidden layer for the network; the
standardisation is folded into the model vector
(``simulator.core.learned``).

Each generation's model then plays ``learned`` in one seat against the
game's strongest heuristic in the others, seats rotated, on the same
validation deals of another seed; a new generation is kept only when it
beats the kept one there, paired deal by deal: the 95% t interval of the
per-deal differences lies above 0 (``paired_gain``). A mean above 0 alone is
not enough: on a few hundred deals such a generation is often level with
the kept one on fresh deals. The kept generation
is the result, written seat-blind: its seat-number feature (the seat's
place after the first player, the engine's ``SEAT_FEATURE``) folded into
the bias at a middle seat (``SEAT_AT``), so that ``learned`` is the same
player in every seat, as ``mcts`` and the heuristics are.

``expert`` may play a model of its own, fitted where its leaves ask
(``leaf_model``): every seat's view after every move of games played by
the search, mid-trick included (``simulator.core.recorder``'s
``EVERY_SEAT``), shipped as ``strategies/<game>/expert.npy``
(``strategies.expert``); ``learned`` keeps the model fitted at its own
decisions or moves.

Training runs on any table: ``variant`` and ``setup`` (a dict merged over
the game's setup table) and ``players`` give the table the games are
recorded and validated on; ``strategies.model_files`` writes them beside the
model.

Training may start from a model (``start``, e.g. the shipped one): it is
validated first, as round -1, and is the first kept generation, so round 0's
expert is already the guided search steered by it, and a round's model is
kept only when it beats it (or a later kept one). A fit is from scratch by
default; ``warm`` starts each round's fit from the kept generation's model,
which keeps what that model knew of positions the new rows do not cover.

With the choice target (``target="choice"``, ``studies.choices``) each round
records instead every decision's candidate moves in games of the game's
own ``expert``, and refits the kept model so that its values pick the moves
``expert`` picked; the gate is the same.

Every run is reproducible from its seed: round k plays deals ``k * games ..``
of run ``seed``, validation deals come from run ``seed + 1``.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from simulator import games as game_registry
from simulator.core.learned import KINDS, LINEAR, M_HIDDEN, M_KIND, M_WEIGHTS, RELU, TANH, fold_feature
from simulator.core.output import game_rows
from simulator.core.recorder import AFTER_MOVE, AT_DECISION, EVERY_SEAT
from simulator.core.search import (LEARNED_LEAF, P_EXPLORATION, P_FORBID, P_HORIZON, P_ITERATIONS, P_ROLLOUT,
                                   P_ROLLOUT_PARAMS)
from strategies.games import strategy_set
from studies.choices import fit_choices, record_choices
from studies.model_weights import network_parts, raw, standardised

DESIGNS = {"linear": LINEAR, "tanh": TANH, "relu": RELU}
SEAT_AT = 0.5   # the seat-number feature (seat / (players - 1)) of a middle seat, which the written model reads
ROWS_PER_GAME = 64   # the recorder's first guess of rows per game (doubled while too few)
WARM_SETUP_ROWS = 200   # rows of the one-epoch fit that sets a warm-started network's regressor up
# the expert's search, every slot of the mcts vector (simulator.core.search) but the iterations and the rollout:
EXPERT_EXPLORATION = 0.7
EXPERT_FORBID = 0.0
# the guided expert (rounds 1 and later): PUCT's exploration constant and the move prior's temperature
GUIDED_EXPLORATION = 1.0
EXPERT_TEMPERATURE = 0.1
EXPERT_FACTOR = 4   # the expert's default budget: this many times the iterations of the game's expert player


@dataclass
class Round:
    """One round of expert iteration: its data, its model, the model's validation win share, and the paired
    gain over the generation kept before it (points of win share; None for the first) and whether it is kept.
    Round -1 is the starting model (no data of its own)."""

    round: int
    rows: int
    model: np.ndarray
    share: float
    lo: float
    hi: float
    seconds: float
    gain: tuple | None = None
    kept: bool = True


@dataclass
class Training:
    """What ``train`` did: every round (the starting model first, as round -1, when there is one), and the round
    number of the kept generation, whose model is the result."""

    game: str
    players: int
    seat_feature: int = -1
    rounds: list = field(default_factory=list)
    best: int = -1

    @property
    def model(self):
        """The result: the kept round's model, seat-blind (its seat-number feature read as ``SEAT_AT``)."""
        model = next(r.model for r in self.rounds if r.round == self.best)
        return model if self.seat_feature < 0 else fold_feature(model, self.seat_feature, SEAT_AT)


def record(sset, config, sids, params, seed, start, count, positions, threads=1):
    """``(features, targets)`` of games ``start .. start+count-1`` of run ``seed`` played by the lineup
    (``sids``, ``params``), from ``simulator.core.recorder`` at its ``positions`` (``AT_DECISION``, ``AFTER_MOVE``
    or ``EVERY_SEAT``; True is ``AT_DECISION``, False ``AFTER_MOVE``). With ``threads`` > 1 the games are split into
    that many runs of
    consecutive games, recorded at once (the recorder releases the GIL) and joined in order: every game is
    played from its own seed and index alone, so the rows are the same on any thread count."""
    threads = max(1, min(threads, count))
    if threads > 1:
        from concurrent.futures import ThreadPoolExecutor

        sset.recorder()   # compiled (or loaded) once, before the threads call it
        cuts = [start + count * i // threads for i in range(threads + 1)]
        with ThreadPoolExecutor(threads) as pool:
            parts = list(pool.map(lambda i: record(sset, config, sids, params, seed, cuts[i], cuts[i + 1] - cuts[i],
                                                   positions), range(threads)))
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    recorder = sset.recorder()
    game = game_registry.get(sset.game)
    scratch = game_rows(game, config.players)
    capacity = ROWS_PER_GAME * count
    while True:
        feats = np.empty((capacity, sset.n_features), np.float64)
        game_of, seat_of, target = np.empty(capacity, np.int64), np.empty(capacity, np.int64), np.empty(capacity)
        rows = recorder(config.arrays, sids, params, seed, start, count, int(positions),
                        (feats, game_of, seat_of, target), scratch)
        if rows >= 0:
            return feats[:rows], target[:rows]
        if rows < -1:
            raise RuntimeError(f"seat {-rows - 2} chose illegally while recording training games")
        capacity *= 2


def fit(features, targets, design="linear", hidden=16, seed=0, start=None):
    """A model vector fitted to ``(features, targets)``: scikit-learn's ``Ridge`` (linear) or ``MLPRegressor``
    (one hidden layer of ``hidden`` units, ``design`` "tanh" or "relu") on standardised features, with the
    standardisation folded into the vector.

    With ``start`` (a model vector of the same features) the fit is warm-started from it and keeps its design
    (``design`` and ``hidden`` are not read): the network's training begins at ``start``'s weights, and the
    linear model is ``start`` plus a ridge fit to what ``start`` leaves unexplained, so the penalty pulls
    toward ``start`` rather than toward zero."""
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(features)
    x = scaler.transform(features)
    n = features.shape[1]
    kind = DESIGNS[design] if start is None else int(start[M_KIND])
    if kind == LINEAR:
        base = 0.0 if start is None else start[M_WEIGHTS] + features @ start[M_WEIGHTS + 1:]
        reg = Ridge(alpha=1.0).fit(x, targets - base)
        model = raw(LINEAR, n, 0, np.concatenate([[reg.intercept_], reg.coef_]), scaler.mean_, scaler.scale_)
        if start is not None:
            model[M_WEIGHTS:] += start[M_WEIGHTS:]
    else:
        hidden = hidden if start is None else int(start[M_HIDDEN])
        reg = _network(x, targets, KINDS[kind], hidden, seed, start, scaler)
        theta = np.concatenate([reg.coefs_[0].T.ravel(), reg.intercepts_[0], reg.coefs_[1][:, 0], reg.intercepts_[1]])
        model = raw(kind, n, hidden, theta, scaler.mean_, scaler.scale_)
    return model


def _network(x, targets, activation, hidden, seed, start, scaler):
    """``MLPRegressor`` fitted to the standardised ``x``, from random weights or, warm-started, from the network
    ``start`` (a model vector on the raw features, re-expressed on ``x`` by ``scaler``)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor

    reg = MLPRegressor(hidden_layer_sizes=(hidden,), activation=activation, alpha=1e-3, max_iter=300,
                       early_stopping=True, random_state=seed, warm_start=start is not None)
    if start is not None:
        with warnings.catch_warnings():   # one epoch on a few rows sets the regressor up; its weights are replaced
            warnings.simplefilter("ignore", ConvergenceWarning)
            _interruptible(reg.set_params(max_iter=1).fit, x[:WARM_SETUP_ROWS], targets[:WARM_SETUP_ROWS])
        reg.set_params(max_iter=300)
        w1, b1, w2, b2 = network_parts(standardised(start, scaler.mean_, scaler.scale_), x.shape[1], hidden)
        reg.coefs_ = [w1.T.copy(), w2[:, None].copy()]
        reg.intercepts_ = [b1.copy(), np.array([b2])]
        reg.best_validation_score_ = -np.inf   # early stopping keeps the best epoch of this fit, not of the set-up
    return _interruptible(reg.fit, x, targets)


def _interruptible(fit, *args):
    """``fit(*args)``, stopped by Ctrl-C. scikit-learn's network training catches it, warns "Training interrupted
    by user" and returns the weights so far; here that warning raises ``KeyboardInterrupt`` again, so that a
    training run stops instead of going on with a cut-short fit. Other warnings are passed on."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fit(*args)
    for w in caught:
        if "interrupted by user" in str(w.message):
            raise KeyboardInterrupt
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return result


def expert_budget(game):
    """The expert's default iterations in ``game``: ``EXPERT_FACTOR`` times those of its ``expert`` player."""
    return EXPERT_FACTOR * strategy_set(game).expert_defaults[0]


def expert_vector(sset, budget, model=None):
    """The vector of the expert, every slot written out: without ``model`` the ``mcts`` vector of ``budget``
    iterations, exploration ``EXPERT_EXPLORATION``, nothing forbidden, random rollouts to the game's
    ``expert_horizon``; with ``model`` the ``expert`` vector (``strategies.expert``) of design A: leaves and move
    prior by ``model``, exploration ``GUIDED_EXPLORATION``, horizon 0, temperature ``EXPERT_TEMPERATURE``. Raises
    ``RuntimeError`` if the search has a slot not pinned here."""
    slots = {P_ITERATIONS: float(budget), P_EXPLORATION: EXPERT_EXPLORATION, P_ROLLOUT: -1.0,
             P_FORBID: EXPERT_FORBID, P_HORIZON: float(game_registry.get(sset.game).expert_horizon)}
    if sorted(slots) != list(range(P_ROLLOUT_PARAMS)):
        raise RuntimeError(f"the expert pins mcts slots {sorted(slots)}; the search has {P_ROLLOUT_PARAMS}: pin "
                           f"the new one in studies.train")
    vector = [slots[i] for i in range(P_ROLLOUT_PARAMS)]
    if model is None:
        return vector
    vector[P_EXPLORATION], vector[P_ROLLOUT], vector[P_HORIZON] = GUIDED_EXPLORATION, float(sset.learned_sid), 0.0
    return vector + [float(x) for x in model] + [EXPERT_TEMPERATURE, float(LEARNED_LEAF)]


def validate(simulate, game, table, model, field, deals, seed, threads=1):
    """The per-deal win shares of ``learned`` playing ``model`` in one seat against ``field`` in the others,
    seats rotated, over ``deals`` deals of run ``seed`` played by ``simulate`` (``playtest.api``'s, passed in so
    that this module does not import the API that calls it) on ``table`` (``players``, ``variant``,
    ``setup``)."""
    from analyses.tune import deal_shares

    players = table["players"]
    run = simulate(game, games=deals, seed=seed, strategies=["learned"] + [field] * (players - 1),
                   params={"learned": [float(x) for x in model]}, rotate_seats=True, threads=threads, **table)
    return deal_shares(run.seats(), "learned")


def paired_gain(shares, kept_shares):
    """``(mean, lo, hi)``: the points of win share a generation gains over the kept one on the same validation
    deals, paired deal by deal, with its 95% t interval. The generation beats the kept one when ``lo`` > 0."""
    from analyses.tune import mean_interval

    diff = mean_interval(100 * (np.asarray(shares) - np.asarray(kept_shares)))
    return diff.mean, diff.lo, diff.hi


def train(game, *, simulate, seed=0, rounds=3, games=200, budget=None, design="linear", hidden=16, deals=2000,
          players=None, variant="standard", setup=None, threads=1, at_decision=None, start=None, warm=False,
          target="share", on_round=None):
    """Expert iteration for ``game`` (see the module): ``rounds`` rounds of ``games`` recorded games each, the
    expert at ``budget`` iterations (None: ``expert_budget``); each round's model validated on ``deals``
    deals played by ``simulate`` (``playtest.api.simulate``) and kept when it beats the kept one there
    (``paired_gain``). ``players``, ``variant`` and ``setup`` (a dict merged over the game's setup table)
    choose the table. ``at_decision`` None records where the game's ``recorded_at_decision`` says; True (at
    each seat's decisions) or False (right after its moves) chooses. ``threads`` records each round's games
    and plays the validation matches on that many threads (the same rows and model on any count). ``start``
    (a model vector of the game's features, or None) is validated first as round -1 and kept: round 0's
    expert is then the guided search it steers, and the rounds' models must beat it. ``warm`` fits each
    round's model warm-started from the kept generation's (``fit``'s ``start``; from scratch while none is
    kept), on every round's rows so far. ``target`` "choice" fits the kept model to the move choices of the
    game's ``expert`` at ``budget`` iterations instead (``studies.choices``; it needs ``start``). Returns the
    ``Training``."""
    from analyses.tune import mean_interval

    sset = strategy_set(game)
    g = game_registry.get(game)
    players = g.default_players if players is None else players
    budget = expert_budget(game) if budget is None else budget
    config = g.configure(players, variant, setup)
    table = {"players": players, "variant": variant, "setup": setup}
    field = sset.strongest
    at_decision = g.recorded_at_decision if at_decision is None else at_decision
    out = Training(game, players, sset.seat_feature)
    if target == "choice" and start is None:
        raise ValueError("the choice target refits a starting model (start)")
    xs, ys, groups, kept, kept_shares = [], [], [], None, None
    if start is not None:
        begin = time.perf_counter()
        kept = np.asarray(start, np.float64)
        kept_shares = validate(simulate, game, table, kept, field, deals, seed + 1, threads)
        share = mean_interval(kept_shares)
        out.rounds.append(Round(-1, 0, kept, share.mean, share.lo, share.hi, time.perf_counter() - begin))
        out.best = -1
        if on_round:
            on_round(out.rounds[-1])
    for k in range(rounds):
        begin = time.perf_counter()
        if target == "choice":   # the teacher: the game's own expert, whatever model is kept
            sids, params, _ = sset.seats([f"expert@{budget}"], players)
            x, group, chosen = record_choices(sset, config, sids, params, seed, k * games, games)
            xs.append(x)
            ys.append(chosen)
            groups.append(group + max((int(g[-1]) + 1 for g in groups if g.size), default=0))  # numbered on
            model = fit_choices(np.concatenate(xs), np.concatenate(groups), np.concatenate(ys), kept)
        else:
            name = f"mcts@{budget}" if kept is None else f"expert@{budget}"
            sids, params, _ = sset.seats([name], players, overrides={name: expert_vector(sset, budget, kept)})
            x, y = record(sset, config, sids, params, seed, k * games, games,
                          AT_DECISION if at_decision else AFTER_MOVE, threads)
            xs.append(x)
            ys.append(y)
            model = fit(np.concatenate(xs), np.concatenate(ys), design, hidden, seed, kept if warm else None)
        shares = validate(simulate, game, table, model, field, deals, seed + 1, threads)
        share = mean_interval(shares)
        gain = None if kept_shares is None else paired_gain(shares, kept_shares)
        keep = gain is None or gain[1] > 0
        out.rounds.append(Round(k, sum(len(v) for v in ys), model, share.mean, share.lo, share.hi,
                                time.perf_counter() - begin, gain, keep))
        if keep:
            kept, kept_shares, out.best = model, shares, k
        if on_round:
            on_round(out.rounds[-1])
    return out


def leaf_model(game, *, lineup, games, seed=0, design="linear", hidden=16, players=None, threads=1):
    """A model for ``expert``'s search, fitted where the search evaluates: every seat's view after every move
    (``EVERY_SEAT``, mid-trick included) of ``games`` games of run ``seed`` with ``lineup`` (a strategy name,
    e.g. ``mcts@256``) in every seat, each row's target that seat's final win share; ``design`` and ``hidden``
    as in ``fit``, written seat-blind like ``Training.model``. Returns ``(model, rows)``."""
    sset = strategy_set(game)
    g = game_registry.get(game)
    players = g.default_players if players is None else players
    sids, params, _ = sset.seats([lineup], players)
    x, y = record(sset, g.configure(players), sids, params, seed, 0, games, EVERY_SEAT, threads)
    model = fit(x, y, design, hidden, seed)
    if sset.seat_feature >= 0:
        model = fold_feature(model, sset.seat_feature, SEAT_AT)
    return model, len(y)


def provenance(game, players, variant, config_setup, command):
    """What a model trained here is for (``strategies.model_files``' sidecar): the game, the player count,
    the variant, the digest of the merged setup table and the command that trained it."""
    from strategies.model_files import table_digest

    return {"game": game, "players": players, "variant": variant, "setup_digest": table_digest(config_setup),
            "command": command}
