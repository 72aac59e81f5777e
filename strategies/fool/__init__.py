"""Fool! strategies: ``random`` and heuristics (see ``heuristics``)."""

from simulator.fool import engine
from strategies.fool import heuristics as h
from strategies.registry import Strategy, StrategySet, make_dispatch

BUILTINS = [
    Strategy("random", h.random, (), "uniform over the legal cards"),
]

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Fool! (user files added to it stay in it)."""
    return StrategySet("fool", list(BUILTINS), dispatch, engine)
