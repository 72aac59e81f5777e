"""Fool! strategies: ``random`` and heuristics (see ``heuristics``)."""

import numba as nb

from simulator.fool import engine
from strategies.fool import heuristics as h
from strategies.learned import learned_strategy
from strategies.registry import Decision, Strategy, StrategySet, make_dispatch
from strategies.search import search_strategy

__all__ = ["BUILTINS", "DECISION", "STRONGEST", "dispatch", "strategy_set"]

# Fool!'s mcts defaults (docs/skill.md, "How strong it is"): against 3 x cautious, seats rotated, seed 1, with rollouts
# to the end of the game (horizon 0) mcts won 23.8% +- 5.5 of 50 deals at 256 iterations and 43.1% +- 7.6 of 40 at
# 1,024; stopped at the end of the deal (horizon 1) 30.8% +- 6.3 at 32 (not above the fair 25%), 33.5% +- 4.8 at 64
# (50 deals; 39.5% +- 4.4 of 100 fresh deals, seed 2), 50.0% +- 6.3 at 256, 65.9% +- 6.9 at 1,024, and one
# iteration costs about a quarter of a horizon-0 one
ITERATIONS = 64
HORIZON = 1

# expert's (iterations, exploration, temperature): the largest budget at which an all-expert table plays at least
# as many games/s as the all-mcts one (bench/journal/)
EXPERT = (32, 1.0, 0.1)

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

# the built-in with the highest win share: 30.6% against shedder, counter and wild_saver (tournament, 4 players, 1,500 deals x 4 rotations)
STRONGEST = "cautious"

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Fool! (user files added to it stay in it)."""
    return StrategySet("fool", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST, expert_defaults=EXPERT)
