"""Training the learned player by expert iteration (Anthony, Tian and Barber 2017, "Thinking Fast and Slow").

Round 0 records games of the search with random rollouts in every seat
(``mcts`` at ``budget`` iterations, the game's ``expert_horizon``); round k
records games of the search whose leaves are scored by the model of round
k-1 (rollout = ``learned``, no horizon), and fits a new model on every
round's data so far. The expert's whole parameter vector is written out
here (``expert_vector``), none of it taken from the strategy's defaults, so
a change of ``mcts``'s defaults cannot change what training produces. The
data are the features of what a seat observes, with that seat's final win
share as the target (``simulator.core.recorder``): at each of its decisions
(where the look-ahead player evaluates) or right after each of its moves,
as the game's ``recorded_at_decision`` says. The fit is scikit-learn's: ``Ridge`` on
standardised features for the linear design, ``MLPRegressor`` with one
hidden layer for the network; the standardisation is folded into the model
vector (``simulator.core.learned``). Each round's model then plays
``learned`` in one seat against the game's strongest heuristic in the
others, seats rotated, on validation deals of another seed; the strongest
round is the result, written seat-blind: its seat-number feature (the seat's
place after the first player, the engine's ``SEAT_FEATURE``) folded into
the bias at a middle seat (``SEAT_AT``), so that ``learned`` is the same
player in every seat, as ``mcts`` and the heuristics are. Measured on the
shipped models (docs/skill.md, "The seat number"): no strength lost, and in
Fair Enough and Forks a first-seat edge that then agrees with ``mcts``'s.

Every run is reproducible from its seed: round k plays deals ``k * games ..``
of run ``seed``, validation deals come from run ``seed + 1``.
"""

import time
from dataclasses import dataclass, field

import numpy as np

from simulator import games as game_registry
from simulator.core.learned import LINEAR, RELU, TANH, fold_feature, model_size
from simulator.core.search import P_EXPLORATION, P_FORBID, P_HORIZON, P_ITERATIONS, P_ROLLOUT, P_ROLLOUT_PARAMS
from strategies.games import strategy_set

DESIGNS = {"linear": LINEAR, "tanh": TANH, "relu": RELU}
SEAT_AT = 0.5   # the seat-number feature (seat / (players - 1)) of a middle seat, which the written model reads
ROWS_PER_GAME = 64   # the recorder's first guess of rows per game (doubled while too few)
# the expert's search, every slot of the mcts vector (simulator.core.search) but the iterations and the rollout:
EXPERT_EXPLORATION = 0.7
EXPERT_FORBID = 0.0


@dataclass
class Round:
    """One round of expert iteration: its data, its model and the model's validation win share."""

    round: int
    rows: int
    model: np.ndarray
    share: float
    lo: float
    hi: float
    seconds: float


@dataclass
class Training:
    """What ``train`` did: every round, and the index of the round whose model is the result."""

    game: str
    players: int
    seat_feature: int = -1
    rounds: list = field(default_factory=list)
    best: int = -1

    @property
    def model(self):
        """The result: the best round's model, seat-blind (its seat-number feature read as ``SEAT_AT``)."""
        model = self.rounds[self.best].model
        return model if self.seat_feature < 0 else fold_feature(model, self.seat_feature, SEAT_AT)


def record(sset, config, sids, params, seed, start, count, at_decision, threads=1):
    """``(features, targets)`` of games ``start .. start+count-1`` of run ``seed`` played by the lineup
    (``sids``, ``params``), from ``simulator.core.recorder`` (``at_decision``: recorded at each seat's
    decisions, else right after its moves). With ``threads`` > 1 the games are split into that many runs of
    consecutive games, recorded at once (the recorder releases the GIL) and joined in order: every game is
    played from its own seed and index alone, so the rows are the same on any thread count."""
    threads = max(1, min(threads, count))
    if threads > 1:
        from concurrent.futures import ThreadPoolExecutor

        sset.recorder()   # compiled (or loaded) once, before the threads call it
        cuts = [start + count * i // threads for i in range(threads + 1)]
        with ThreadPoolExecutor(threads) as pool:
            parts = list(pool.map(lambda i: record(sset, config, sids, params, seed, cuts[i], cuts[i + 1] - cuts[i],
                                                   at_decision), range(threads)))
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    recorder = sset.recorder()
    game = game_registry.get(sset.game)
    players = config.players
    scratch = (np.zeros(players, np.int32), np.zeros(players, np.int64),
               np.zeros((players, max(1, len(game.seat_columns))), np.int32),
               np.zeros(max(1, len(game.game_columns)), np.int32))
    capacity = ROWS_PER_GAME * count
    while True:
        feats = np.empty((capacity, sset.n_features), np.float64)
        game_of, seat_of, target = np.empty(capacity, np.int64), np.empty(capacity, np.int64), np.empty(capacity)
        rows = recorder(config.arrays, sids, params, seed, start, count, at_decision, feats, game_of, seat_of, target, *scratch)
        if rows >= 0:
            return feats[:rows], target[:rows]
        if rows < -1:
            raise RuntimeError(f"seat {-rows - 2} chose illegally while recording training games")
        capacity *= 2


def fit(features, targets, design="linear", hidden=16, seed=0):
    """A model vector fitted to ``(features, targets)``: scikit-learn's ``Ridge`` (linear) or ``MLPRegressor``
    (one hidden layer of ``hidden`` units, ``design`` "tanh" or "relu") on standardised features, with the
    standardisation folded into the vector."""
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(features)
    x = scaler.transform(features)
    kind, n = DESIGNS[design], features.shape[1]
    if kind == LINEAR:
        reg = Ridge(alpha=1.0).fit(x, targets)
        w = reg.coef_ / scaler.scale_
        model = np.concatenate([[kind, n, 0, reg.intercept_ - w @ scaler.mean_], w])
    else:
        reg = MLPRegressor(hidden_layer_sizes=(hidden,), activation=design, alpha=1e-3, max_iter=300,
                           early_stopping=True, random_state=seed).fit(x, targets)
        w1 = reg.coefs_[0].T / scaler.scale_            # (hidden, features)
        b1 = reg.intercepts_[0] - w1 @ scaler.mean_
        model = np.concatenate([[kind, n, hidden], w1.ravel(), b1, reg.coefs_[1][:, 0], reg.intercepts_[1]])
    assert model.size == model_size(kind, n, int(model[2]))
    return model


def expert_vector(sset, budget, model=None):
    """The ``mcts`` vector of the expert, every slot written out: ``budget`` iterations, exploration
    ``EXPERT_EXPLORATION``, nothing forbidden, random rollouts to the game's ``expert_horizon`` (no model), or
    leaves scored by ``model`` (horizon 0). Raises ``RuntimeError`` if the search has a slot not pinned here."""
    slots = {P_ITERATIONS: float(budget), P_EXPLORATION: EXPERT_EXPLORATION, P_ROLLOUT: -1.0,
             P_FORBID: EXPERT_FORBID, P_HORIZON: float(game_registry.get(sset.game).expert_horizon)}
    if sorted(slots) != list(range(P_ROLLOUT_PARAMS)):
        raise RuntimeError(f"the expert pins mcts slots {sorted(slots)}; the search has {P_ROLLOUT_PARAMS}: pin "
                           f"the new one in playtest.train")
    vector = [slots[i] for i in range(P_ROLLOUT_PARAMS)]
    if model is None:
        return vector
    vector[P_ROLLOUT], vector[P_HORIZON] = float(sset.learned_sid), 0.0
    return vector + [float(x) for x in model]


def validate(simulate, game, players, model, field, deals, seed, threads=1):
    """``(share, lo, hi)``: the win share of ``learned`` playing ``model`` in one seat against ``field`` in
    the others, seats rotated, over ``deals`` deals of run ``seed`` played by ``simulate`` (``playtest.api``'s,
    passed in so that this module does not import the API that calls it), a t interval over deals, 95%."""
    from analyses.tune import deal_shares, mean_interval

    run = simulate(game, players=players, games=deals, seed=seed, strategies=["learned"] + [field] * (players - 1),
                   params={"learned": [float(x) for x in model]}, rotate_seats=True, threads=threads)
    share = mean_interval(deal_shares(run.seats(), "learned"))
    return share.mean, share.lo, share.hi


def train(game, *, simulate, seed=0, rounds=3, games=200, budget=64, design="linear", hidden=16, deals=200,
          players=None, threads=1, at_decision=None, on_round=None):
    """Expert iteration for ``game`` (see the module): ``rounds`` rounds of ``games`` recorded games each, the
    expert ``mcts@budget``; each round's model validated on ``deals`` deals played by ``simulate``
    (``playtest.api.simulate``). ``at_decision`` None records where the game's ``recorded_at_decision`` says;
    True (at each seat's decisions) or False (right after its moves) chooses. ``threads`` records each round's
    games and plays the validation matches on that many threads (the same rows and model on any count).
    Returns the ``Training``."""
    sset = strategy_set(game)
    g = game_registry.get(game)
    players = g.default_players if players is None else players
    config = g.configure(players)
    field = sset.strongest
    at_decision = g.recorded_at_decision if at_decision is None else at_decision
    out = Training(game, players, sset.seat_feature)
    xs, ys, model = [], [], None
    for k in range(rounds):
        start = time.perf_counter()
        name = f"mcts@{budget}"
        sids, params, _ = sset.seats([name], players, overrides={name: expert_vector(sset, budget, model)})
        x, y = record(sset, config, sids, params, seed, k * games, games, at_decision, threads)
        xs.append(x)
        ys.append(y)
        model = fit(np.concatenate(xs), np.concatenate(ys), design, hidden, seed)
        share = validate(simulate, game, players, model, field, deals, seed + 1, threads)
        out.rounds.append(Round(k, sum(len(v) for v in ys), model, *share, time.perf_counter() - start))
        if on_round:
            on_round(out.rounds[-1])
    out.best = max(range(rounds), key=lambda i: out.rounds[i].share)
    return out
