"""Data for checking the feature functions: (features of a seat, that seat's final win share) from played games.

``record`` plays games through an engine's state verbs from Python, with
uniformly random moves or a lineup of built-in strategies (their ``choose``
bound to the game's dispatcher, compiled uncached on first use), and after
every ``every``-th decision records the features of every seat from its own
observation (``engine.observe`` then ``features``). The target of each row is
that seat's win share of the finished game (1/k for each of k tied leaders).
Games cut off by a safety cap are dropped. The test of the features and the
fits in the benchmark journal ("Features") use it.
"""

import numpy as np

from simulator import games
from simulator.core.kernels import bind_choose
from simulator.core.state import is_terminal
from strategies.games import strategy_set

_CHOOSE = {}  # game name -> its choose bound to the built-ins' dispatcher


def _bound_choose(name, engine):
    if name not in _CHOOSE:
        _CHOOSE[name] = bind_choose(games.get(name), strategy_set(name).dispatch, cache=False)
    return _CHOOSE[name]


def win_shares(standing):
    """Each seat's win share of a finished game from its ``standing`` (1/k for each of k tied leaders)."""
    top = standing == standing.max()
    return top / top.sum()


def record(name, n_games, *, players=None, lineup=None, seed=0, every=1, first_game=0):
    """Play ``n_games`` games of ``name`` (run ``seed``) and return the rows ``(X, y, game, seat)``.

    ``lineup``: None for uniformly random moves, else strategy names (one for
    every seat or one per seat). ``X[i]`` are the features of seat
    ``seat[i]`` of game ``game[i]`` after a decision, ``y[i]`` that seat's
    final win share.
    """
    g = games.get(name)
    cfg = g.configure(players or g.default_players)
    engine, arrays, players = g.engine, cfg.arrays, cfg.players
    sset = strategy_set(name)
    sids, params, _ = sset.seats(lineup or ["random"], players)
    choose = _bound_choose(name, engine) if lineup else None
    state = engine.new_state(arrays, params)
    none = np.empty(0, np.int64)
    actions = np.empty(g.max_actions, np.int64)
    obs = np.zeros(engine.OBS_SIZE, np.int64)
    feat = np.zeros(engine.N_FEATURES, np.float64)
    scores, standing = np.zeros(players, np.int64), np.zeros(players, np.int64)
    seat_stats = np.zeros((players, max(1, len(g.seat_columns))), np.int64)
    game_stats = np.zeros(max(1, len(g.game_columns)), np.int64)
    rng = np.random.default_rng(seed)
    X, y, game_of, seat_of = [], [], [], []
    for game in range(first_game, first_game + n_games):
        engine.reset(state, arrays, seed, game, none, False)
        rows = []
        step = 0
        while not is_terminal(state):
            if choose is None:
                n = engine.legal_actions(state, arrays, actions)
                action = int(actions[rng.integers(n)])
            else:
                action = int(choose(state, arrays, sids, params))
            engine.apply(state, arrays, action, none, False)
            step += 1
            if step % every == 0 and not is_terminal(state):
                for seat in range(players):
                    engine.observe(state, arrays, seat, obs)
                    engine.features(obs, feat)
                    rows.append((feat.copy(), seat))
        engine.result(state, arrays, scores, standing, seat_stats, game_stats)
        if not game_stats[g.game_columns.index("finished")]:  # a capped game has no winner by the rules
            continue
        share = win_shares(standing)
        for f, seat in rows:
            X.append(f)
            y.append(share[seat])
            game_of.append(game)
            seat_of.append(seat)
    return (np.array(X).reshape(-1, engine.N_FEATURES), np.array(y), np.array(game_of, np.int64),
            np.array(seat_of, np.int64))
