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

# the built-in with the highest win share: 42.2% (41.9 to 42.4) against specialist (25.9%) and farmer (11.0%)
# (tournament, 4 players, 1,500 deals, seed 0, 4 December 2026 with the farmer that buys once it holds 20 coins;
# 46.7% before that change)
STRONGEST = "chaser"
# the learned player scores a move right after it, without look-ahead. Re-decided with the recorder fixed (each
# player's model trained for it, playtest train --seed 1 --rounds 3 --games 200 --deals 200, the same validation
# deals): the best round against 3 x chaser won 27.69% (24.55 to 30.83) without look-ahead (recorded right after
# the seat's moves) and 24.88% (21.82 to 27.93) with it (recorded at its decisions); measured again for the tanh
# network of 16 units (round 0 of --games 1000, 400 validation deals): 28.90% (26.80 to 30.99) without, 23.02%
# (20.92 to 25.13) with it; docs/skill.md
LEARNED_LOOKS_AHEAD = False

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Fauch & Fertig (user files added to it stay in it)."""
    return StrategySet("fauch-fertig", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST, expert_defaults=EXPERT,
                       learned_looks_ahead=LEARNED_LOOKS_AHEAD)
