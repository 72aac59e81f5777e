"""The search player's horizon in the games that have evaluation points (Fool!, Forks), and kernels compiled
without the search.

With horizon h, an iteration of the search ends at the h-th evaluation point
ahead (Fool!: the end of a deal, Forks: of a round) or at the end of the game,
and scores the rank shares of the standing there. What the search promises in
every game (its choice is the same in every world its seat cannot tell apart,
it leaves the state as it was, it plays whole games reproducibly) is in the
engine contract, tests/contract.
"""

import numpy as np
import pytest

from playtest import api
from simulator import games
from simulator.core.output import game_rows
from simulator.core.state import is_terminal, to_move
from simulator.fool import engine as fool
from simulator.forks import engine as forks
from simulator.forks import layout as forks_layout
from strategies.games import strategy_set


class Table:
    """One game's engine, a config at its usual player count and a bound search (at ``horizon`` if given)."""

    def __init__(self, name, iterations=48, horizon=None):
        g = games.get(name)
        self.game, self.engine, self.cfg = g, g.engine, g.configure(g.default_players)
        sset = strategy_set(name)
        players = self.cfg.players
        player = f"mcts@{iterations}"
        self.sids, self.params, _ = sset.seats([player], players, overrides={player: sset.search_vector(player, horizon)})
        self.new_search, self.search = sset.search_player()  # the kernels' own: compiled once for both
        self.outputs = game_rows(g, players)

    def started(self, game, steps, seed=0):
        """A state of game ``game`` after ``steps`` uniformly random actions (fewer if it ends)."""
        rng = np.random.default_rng(seed)
        arrays = self.cfg.arrays
        state = self.engine.new_state(arrays, self.params)
        none = np.empty(0, np.int64)
        self.engine.reset(state, arrays, 11, game, none, False)
        actions = np.empty(self.game.max_actions, np.int64)
        for _ in range(steps):
            n = self.engine.legal_actions(state, arrays, actions)
            self.engine.apply(state, arrays, int(actions[rng.integers(n)]), none, False)
            if is_terminal(state):
                break
        return state

    def decide(self, state, buf=None):
        buf = self.new_search(self.cfg.arrays, self.params, self.sids) if buf is None else buf
        return int(self.search(state, self.cfg.arrays, self.sids, self.params, buf, *self.outputs))


def test_kernels_compiled_without_the_search_never_play_mcts_silently():
    from simulator.core.batch import StrategyFailure, play_chunk

    spec, sset = api.prepare("forks", strategies=["mcts@4", "random", "random", "random"])
    run_chunk, _ = sset.kernels(search=False)
    with pytest.raises(StrategyFailure, match="mcts@4"):
        play_chunk(spec, run_chunk, 0, 1)


def rank_shares(totals):
    """Every seat's rank share, (players - 1 - rank) / (players - 1) averaged over the ranks its ties span."""
    n = len(totals)
    shares = []
    for t in totals:
        first = sum(u > t for u in totals)
        last = first + sum(u == t for u in totals) - 1
        shares.append(np.mean([(n - 1 - r) / (n - 1) for r in range(first, last + 1)]))
    return shares


def fool_unit(t, state):
    """(deals begun, the standing Fool! scores there: the totals) and whether ``state`` is a deal's first decision."""
    size = t.cfg.arrays[2][fool.R_HAND]
    first = (state[0][fool.HD_TRICK] == 0 and state[0][fool.HD_PLAYED] == 0
             and list(state[fool.ST_HAND_N]) == [size] * t.cfg.players)
    return int(state[0][fool.HD_DEAL]), list(state[fool.ST_TOTALS]), first


def forks_unit(t, state):
    """(rounds begun, the standing ``result`` writes) and whether ``state`` is a round's first decision (seat 0's
    first investment, every hand holding two cards per round played)."""
    rounds = int(state[0][forks_layout.HD_ROUND])
    first = (state[0][1] == forks_layout.INVEST and to_move(state) == 0
             and list(state[forks_layout.ST_HAND_N]) == [2 * rounds] * t.cfg.players)
    forks.result(state, t.cfg.arrays, *t.outputs)
    return rounds, list(t.outputs[1]), first


UNITS = {"fool": (fool_unit, (0, 7, 23, 38)), "forks": (forks_unit, (0, 3, 9, 17))}   # decisions played before


@pytest.mark.parametrize("name, horizon", [(n, h) for n in sorted(UNITS) for h in (0, 1, 2)])
def test_with_horizon_h_every_iteration_ends_at_the_h_th_evaluation_point_ahead(name, horizon):
    """One iteration per decision, many decisions: the state the search scored (its work copy, left as the
    last iteration ended) is the first decision of the deal or round h ahead of the searched one, or the end of
    the game if it came first, and the iteration scored the rank shares of its standing; with horizon 0 it is
    always the end of the game."""
    unit, steps_list = UNITS[name]
    t = Table(name, iterations=1, horizon=horizon)
    buf = t.new_search(t.cfg.arrays, t.params, t.sids)
    work, share = buf[0], buf[16]
    ends = {"ahead": 0, "game over": 0}
    for game in range(6):
        for steps in steps_list:   # from the first decision to late in the game
            state = t.started(game, steps, seed=game)
            if is_terminal(state):
                continue
            here = unit(t, state)[0]
            for _ in range(5):    # the seat's stream moves on: another determinization and rollout each time
                t.decide(state, buf)
                if horizon == 0:
                    assert is_terminal(work)
                    continue
                mark, standing, first = unit(t, work)
                if is_terminal(work):
                    assert here <= mark <= here + horizon
                    ends["game over"] += 1
                else:
                    assert mark == here + horizon and first
                    ends["ahead"] += 1
                np.testing.assert_allclose(share, rank_shares(standing))
    if horizon:
        assert ends["ahead"] > 0, ends
