"""Fool! strategies: ``random`` and heuristics (see ``heuristics``)."""

import numba as nb

from simulator.fool import engine
from strategies.fool import heuristics as h
from strategies.registry import Decision, Strategy, StrategySet, make_dispatch
from strategies.search import FOOL_HORIZON, FOOL_ITERATIONS, search_strategy

__all__ = ["BUILTINS", "DECISION", "STRONGEST", "dispatch", "strategy_set"]

BUILTINS = [
    Strategy("random", h.random, (), "uniform over the legal cards"),
    Strategy("shedder", h.shedder, (), "dump the highest card that cannot be worst; else the least likely worst"),
    Strategy("wild_saver", h.wild_saver, (), "hold wilds for tricks where someone shed; else shed high safely"),
    Strategy("cautious", h.cautious, (), "play just above the current lowest; keep high cards"),
    Strategy("counter", h.counter, (10.0, 3.0),
             "count unseen cards: penalty shed - params[0] x chance befooled - params[1] for a wild"),
    search_strategy(h.random, iterations=FOOL_ITERATIONS, horizon=FOOL_HORIZON),
]

# the decision signature documented in simulator.fool.layout, with the types the engine passes
DECISION = Decision(("opt_colour", "opt_value", "n_options", "obs", "params", "rng"),
                    (nb.int64[::1], nb.int64[::1], nb.int64, nb.int64[::1], nb.float64[::1], nb.uint64[::1]))

# the built-in with the highest win share: 30.6% against shedder, counter and wild_saver (tournament, 4 players, 1,500 deals x 4 rotations)
STRONGEST = "cautious"

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Fool! (user files added to it stay in it)."""
    return StrategySet("fool", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST)
