"""Fool! strategies: ``random`` and heuristics (see ``heuristics``)."""

import numba as nb

from simulator.core.search import RANDOM_ROLLOUT
from simulator.fool import engine
from strategies.fool import heuristics as h
from strategies.learned import learned_strategy
from strategies.registry import Decision, Strategy, StrategySet, make_dispatch
from strategies.search import search_strategy

__all__ = ["BUILTINS", "DECISION", "STRONGEST", "dispatch", "strategy_set"]

# Fool!'s mcts defaults: the smallest budget that beats the strongest heuristic, rollouts stopped at the
# end of the deal (the measurements that chose them: bench/journal/)
ITERATIONS = 64
HORIZON = 1

# expert's (iterations, exploration, temperature, design): design B, the move prior of its own model (expert.npy)
# over mcts's random rollouts to the end of the deal (the learned leaf plays far weaker here), at mcts's budget,
# where an all-expert table plays at least as many games/s as the all-mcts one (bench/journal/)
EXPERT = (64, 1.0, 1.0, RANDOM_ROLLOUT)

BUILTINS = [
    Strategy("random", h.random, (), "uniform over the legal cards"),
    Strategy("shedder", h.shedder, (), "dump the highest card that cannot be worst; else the least likely worst"),
    Strategy("wild_saver", h.wild_saver, (), "hold wilds for tricks where someone shed; else shed high safely"),
    Strategy("cautious", h.cautious, (), "play just above the current lowest; keep high cards"),
    Strategy("counter", h.counter, (10.0, 3.0),
             "count unseen cards: penalty shed - params[0] x chance befooled - params[1] for a wild"),
    search_strategy(h.random, iterations=ITERATIONS, horizon=HORIZON),
    learned_strategy(h.random, "fool", engine),
]

# the decision signature documented in simulator.fool.layout, with the types the engine passes
DECISION = Decision(("opt_colour", "opt_value", "n_options", "obs", "params", "rng"),
                    (nb.int64[::1], nb.int64[::1], nb.int64, nb.int64[::1], nb.float64[::1], nb.uint64[::1]))

# the built-in with the highest win share (the measurements that chose it: bench/journal/)
STRONGEST = "cautious"

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Fool! (user files added to it stay in it)."""
    return StrategySet("fool", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST,
                       expert_defaults=EXPERT)
