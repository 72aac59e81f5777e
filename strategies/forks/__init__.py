"""Forks strategies: ``random`` and four heuristics (see ``heuristics``)."""

import numba as nb

from simulator.core.search import RANDOM_ROLLOUT
from simulator.forks import engine
from strategies.forks import heuristics as h
from strategies.learned import learned_strategy
from strategies.registry import Decision, Strategy, StrategySet, make_dispatch
from strategies.search import search_strategy

__all__ = ["BUILTINS", "DECISION", "STRONGEST", "dispatch", "strategy_set"]

# Forks's default mcts horizon: rollouts stop at the end of the round, as strong as playing to the end
# at a lower cost (the measurements that chose it: bench/journal/)
HORIZON = 1

# expert's (iterations, exploration, temperature, design): design B, the model's move prior over mcts's random
# rollouts to the end of the round (in Forks the learned leaf is no better than that rollout and costs more), at the
# largest budget measured at which an all-expert table plays at least as many games/s as the all-mcts one
# (bench/journal/)
EXPERT = (160, 1.0, 1.0, RANDOM_ROLLOUT)

BUILTINS = [
    Strategy("random", h.random, (), "uniform: 1 of the 3 dealt cards, then 1 of the 2 passed (merge: any hand card)"),
    Strategy("greedy", h.greedy, (), "maximise the hand's score if the game ended now"),
    Strategy("leader", h.leader, (3.0, 2.0, 1.0, -1.0, -2.0, -2.0, -2.0, -2.0),
             "follow the market leaders: a card is worth params[place] x value"),
    Strategy("pusher", h.pusher, (), "keep low, push high: market cards that lift your own destinations"),
    Strategy("hedger", h.hedger, (0.5,), "spread the risk: value on current standings minus params[0] x holding"),
    search_strategy(h.random, horizon=HORIZON),
    learned_strategy(h.random, "forks", engine),
]

# the decision signature documented in simulator.forks.layout, with the types the engine passes
DECISION = Decision(("kind", "opt_dest", "opt_value", "n_options", "obs", "params", "rng"),
                    (nb.int64, nb.int64[::1], nb.int64[::1], nb.int64, nb.int64[::1], nb.float64[::1], nb.uint64[::1]))

# the built-in with the highest win share (the measurements that chose it: bench/journal/)
STRONGEST = "pusher"
# the learned player scores a move right after it, without look-ahead: its model fitted to expert's choices plays
# better so against mcts than with the look-ahead (the measurements that chose it: bench/journal/)
LEARNED_LOOKS_AHEAD = False

dispatch = make_dispatch([s.decide for s in BUILTINS])


def strategy_set():
    """A fresh ``StrategySet`` for Forks (user files added to it stay in it)."""
    return StrategySet("forks", list(BUILTINS), dispatch, engine, DECISION, strongest=STRONGEST,
                       expert_defaults=EXPERT, learned_looks_ahead=LEARNED_LOOKS_AHEAD)
