"""Fair Enough strategies: ``random`` and three heuristics (see ``heuristics``)."""

import numba as nb

from simulator.fair_enough import engine
from strategies.fair_enough import heuristics as h
from strategies.learned import learned_strategy
from strategies.registry import Decision, Strategy, StrategySet, make_dispatch
from strategies.search import search_strategy

__all__ = ["BUILTINS", "DECISION", "STRONGEST", "dispatch", "strategy_set"]

# expert's (iterations, exploration, temperature): the largest budget at which an all-expert table plays at least
# as many games/s as the all-mcts one (bench/journal/)
EXPERT = (128, 1.0, 0.1)

BUILTINS = [
    Strategy("random", h.random, (),
             "uniform over the legal options of each decision (research take, card/special or secure, Sold Out target)"),
    Strategy("banker", h.banker, (10.0, 1.2),
             "time-aware banker: high cards, secures once params[0] time or less would be left"),
    Strategy("builder", h.builder, (3.0, 6.0, 1.2),
             "set builder: researches and places toward its largest kinds (params[0] per card held)"),
    Strategy("aggressor", h.aggressor, (12.0, 8.0),
             "Sold-Out aggressor: hoards Sold Out, strikes piles worth params[0] or more"),
    search_strategy(h.random),
    learned_strategy(h.random, "fair-enough", engine),
]

# the decision signature documented in simulator.fair_enough.layout, with the types the engine passes
DECISION = Decision(("kind", "opt", "n_options", "obs", "params", "rng"),
                    (nb.int64, nb.int64[:, ::1], nb.int64, nb.int64[::1], nb.float64[::1], nb.uint64[::1]))

# the built-in with the highest win share (the measurements that chose it: bench/journal/)
STRONGEST = "builder"

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Fair Enough (user files added to it stay in it)."""
    return StrategySet("fair-enough", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST,
                       expert_defaults=EXPERT)
