"""The search player, compiled as the game kernels compile it: iterations per second, the cost of ``copy_state``
and ``determinize``, and games per second of all-``mcts`` and all-``learned`` tables."""

import threading
import time
import warnings

import numba
import numpy as np

from simulator import games as game_registry
from simulator.core.bound import unbound
from simulator.core.kernels import bind
from simulator.core.rng import seed_stream
from simulator.core.state import is_terminal, to_move
from strategies.games import strategy_set

# the names the templates here are bound with (simulator.core.bound)
copy_state, determinize = unbound("copy_state", "determinize")

# games of the all-mcts table: with 8, one of 2 threads sat idle at the end and the rate read too low
SEARCH_TABLE_GAMES = 64
SEARCH_ITERATIONS = 1000  # per decision, in the iteration-rate measurement
SEARCH_TARGET_THREADS = 2


def search_target(name):
    """Iterations per second over ``SEARCH_TARGET_THREADS`` threads that the search of game ``name`` should reach."""
    return game_registry.get(name).bench_search_target


def mid_game_states(g, cfg, params, count=32):
    """``count`` states of random games of ``g``, each after a different number of random actions."""
    engine, arrays, none = g.engine, cfg.arrays, np.empty(0, np.int64)
    rng = np.random.default_rng(0)
    actions = np.empty(g.max_actions, np.int64)
    states = []
    game = 0
    while len(states) < count:
        state = engine.new_state(arrays, params)
        engine.reset(state, arrays, 1, game, none, False)
        for _ in range(game % 12):
            engine.apply(state, arrays, int(actions[rng.integers(engine.legal_actions(state, arrays, actions))]),
                         none, False)
            if is_terminal(state):
                break
        if not is_terminal(state):
            states.append(state)
        game += 1
    return states


def time_verbs(state, other, arrays, seat, rng, n):
    """Template: seconds per call of ``copy_state`` and of ``determinize`` over ``n`` calls each."""
    with numba.objmode(t0="f8"):
        t0 = time.perf_counter()
    for _ in range(n):
        copy_state(state, other)
    with numba.objmode(t1="f8"):
        t1 = time.perf_counter()
    for _ in range(n):
        determinize(other, arrays, seat, rng)
    with numba.objmode(t2="f8"):
        t2 = time.perf_counter()
    return (t1 - t0) / n, (t2 - t1) / n


def search_rates(name, threads, horizon=None):
    """``(iterations/s on 1 thread, on ``threads``, on 2, ns per copy_state, ns per determinize)`` for one game.

    The search is the one the game kernels call (``StrategySet.search_player``), with the game's default
    ``mcts`` vector at ``SEARCH_ITERATIONS`` iterations, and ``horizon`` in place of the default
    horizon when given.
    """
    g = game_registry.get(name)
    cfg = g.configure(g.default_players)
    sset = strategy_set(name)
    player = f"mcts@{SEARCH_ITERATIONS}"
    sids, params, _ = sset.seats([player], cfg.players, overrides={player: sset.search_vector(player, horizon)})
    engine = g.engine
    new_search, searcher = sset.search_player()
    states = mid_game_states(g, cfg, params)
    most = max(threads, SEARCH_TARGET_THREADS)
    outs = [(np.zeros(cfg.players, np.int32), np.zeros(cfg.players, np.int64),
             np.zeros((cfg.players, max(1, len(g.seat_columns))), np.int32),
             np.zeros(max(1, len(g.game_columns)), np.int32)) for _ in range(most)]
    bufs = [new_search(cfg.arrays, params, sids) for _ in range(most)]

    def work(k, todo):
        for state in todo:
            searcher(state, cfg.arrays, sids, params, bufs[k], *outs[k])

    work(0, states[:1])  # compile
    rates = {}
    for n in sorted({1, threads, SEARCH_TARGET_THREADS}):
        parts = [[engine.new_state(cfg.arrays, params) for _ in states] for _ in range(n)]
        for part in parts:
            for src, dst in zip(states, part):
                engine.copy_state(src, dst)
        t = time.perf_counter()
        pool = [threading.Thread(target=work, args=(k, parts[k])) for k in range(n)]
        for th in pool:
            th.start()
        for th in pool:
            th.join()
        rates[n] = n * len(states) * SEARCH_ITERATIONS / (time.perf_counter() - t)
    timer = bind(time_verbs, cache=False, parallel=False, nrt=False, copy_state=engine.copy_state,
                 determinize=engine.determinize)
    rng = np.empty(4, np.uint64)
    seed_stream(rng, 1, 0, 0)
    other = engine.new_state(cfg.arrays, params)
    with warnings.catch_warnings():  # numba warns that the timer's clock reads (object mode) cannot run in parallel
        warnings.simplefilter("ignore", numba.NumbaWarning)
        copy_s, det_s = timer(states[0], other, cfg.arrays, int(to_move(states[0])), rng, 20_000)
    return rates[1], rates[threads], rates[SEARCH_TARGET_THREADS], 1e9 * copy_s, 1e9 * det_s


def mcts_table_rate(simulate, name, games):
    """``(games/s, budget)`` of ``mcts`` at the game's default budget in every seat, all threads (kernel and output);
    ``simulate`` is ``playtest.api.simulate``."""
    g = game_registry.get(name)
    _, params, _ = strategy_set(name).seats(["mcts"], g.default_players)
    simulate(name, games=2, strategies=["mcts@2"], seed=2)  # compile
    return table_rate(simulate, name, "mcts", games), int(params[0, 0])


def table_rate(simulate, name, strategy, games):
    """Games/s of ``strategy`` (with its defaults) in every seat, all threads (kernel and output), compiled
    beforehand (``simulate``: ``playtest.api.simulate``)."""
    simulate(name, games=2, strategies=[strategy], seed=2)
    t = time.perf_counter()
    simulate(name, games=games, strategies=[strategy], seed=3)
    return games / (time.perf_counter() - t)
