"""Fauch & Fertig strategies: ``random`` and three heuristics (see ``heuristics``)."""

import numba as nb

from simulator.fauch_fertig import engine
from strategies.fauch_fertig import heuristics as h
from strategies.learned import learned_strategy
from strategies.registry import Decision, Strategy, StrategySet, make_dispatch
from strategies.search import search_strategy

__all__ = ["BUILTINS", "DECISION", "STRONGEST", "dispatch", "strategy_set"]

# expert's (iterations, exploration, temperature): the largest budget at which an all-expert table plays at least
# as many games/s as the all-mcts one (bench/journal/)
EXPERT = (192, 1.0, 0.1)

BUILTINS = [
    Strategy("random", h.random, (), "uniform over the legal actions, the drawn cards and the pay choice"),
    Strategy("chaser", h.chaser, (10.0, 1.0, 1.0, 6.0),
             "condition-chaser: buy the card completing most conditions (weights: eggs, closer, buy at, blind from)"),
    Strategy("farmer", h.farmer, (1.0, 4.0, 2.0, 3.0),
             "coin-farmer: buy when coins piled on a card pay, or once it holds 20 coins (weights: coin, eggs, buy at, "
             "reserve after paying)"),
    Strategy("specialist", h.specialist, (2.0, 10.0, 1.5, 6.0),
             "colour specialist: collect the colour held most (weights: colour, eggs, buy at, blind from)"),
    search_strategy(h.random),
    learned_strategy(h.random, "fauch-fertig", engine),
]

# the decision signature documented in simulator.fauch_fertig.layout, with the types the engine passes
DECISION = Decision(("kind", "options", "n_options", "obs", "params", "rng"),
                    (nb.int64, nb.int64[::1], nb.int64, nb.int64[::1], nb.float64[::1], nb.uint64[::1]))

# the built-in with the highest win share (the measurements that chose it: bench/journal/)
STRONGEST = "chaser"
# the learned player scores a move right after it, without look-ahead (the measurements that chose it:
# bench/journal/)
LEARNED_LOOKS_AHEAD = False

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Fauch & Fertig (user files added to it stay in it)."""
    return StrategySet("fauch-fertig", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST,
                       expert_defaults=EXPERT,
                       learned_looks_ahead=LEARNED_LOOKS_AHEAD)
