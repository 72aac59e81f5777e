"""Nim (the example game) strategies: ``random`` and ``modular`` (see ``heuristics``), with ``mcts`` and
``learned`` as in every game."""

import numba as nb

from simulator.example import engine
from strategies.example import heuristics as h
from strategies.learned import learned_strategy
from strategies.registry import Decision, Strategy, StrategySet, make_dispatch
from strategies.search import search_strategy

__all__ = ["BUILTINS", "DECISION", "STRONGEST", "dispatch", "strategy_set"]

BUILTINS = [
    Strategy("random", h.random, (), "uniform: take 1 to the most allowed"),
    Strategy("modular", h.modular, (), "leave a multiple of take + 1 when it can (the winning move with two "
                                       "players), else take one"),
    search_strategy(h.random, horizon=0),
    learned_strategy(h.random, "nim", engine),
]

# the decision signature documented in simulator.example.layout, with the types the engine passes
DECISION = Decision(("pile", "n_options", "obs", "params", "rng"),
                    (nb.int64, nb.int64, nb.int64[::1], nb.float64[::1], nb.uint64[::1]))

# the built-in the learned player's look-ahead plays the other seats with
STRONGEST = "modular"

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Nim (user files added to it stay in it)."""
    return StrategySet("nim", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST)
