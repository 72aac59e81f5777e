"""The search player (with rollouts or the learned leaf) and the learned player in every game: they see only what
their seat sees, and they are reproducible.

Generic over the state verbs, in the manner of OpenSpiel's tests run over
every game: a mid-game state is reached by random play, then

* ``determinize`` is a function of the seat's information: two states the
  seat cannot tell apart (one a determinization of the other) determinize to
  the same game with the same stream;
* the search's choice never changes when the hidden information is
  rearranged consistently with the seat's observation;
* ``mcts`` plays whole games as a strategy, with the same rows on one thread
  and on two;
* with horizon h, an iteration of the search ends at the h-th evaluation
  point ahead (Fool!: the end of a deal, Forks: of a round) or at the end of
  the game, and scores the rank shares of the standing there.

Fool! and Forks are checked at horizons 0 and 1 (their default is 1, the
other games have only 0).
"""

import numpy as np
import pytest

from playtest import api
from simulator import games
from simulator.core.rng import seed_stream
from simulator.core.state import is_terminal, to_move
from simulator.fool import engine as fool
from simulator.forks import engine as forks
from simulator.forks import layout as forks_layout
from strategies.games import strategy_set

GAMES = ["forks", "fool", "fair-enough", "fauch-fertig"]
TABLES = [(name, None) for name in GAMES] + [("fool", 0), ("forks", 0)]   # (game, horizon; None: the default)


def stream(seed):
    rng = np.empty(4, np.uint64)
    seed_stream(rng, seed, 0, 0)
    return rng


class Table:
    """One game's engine, a config at its usual player count and a bound player: the search (at ``horizon`` if
    given; with ``kind`` "leaf" its leaves scored by the shipped learned model) or, with ``kind`` "learned", the
    learned player."""

    def __init__(self, name, iterations=48, horizon=None, kind="mcts"):
        g = games.get(name)
        self.engine, self.cfg = g.engine, g.configure(g.default_players)
        sset = strategy_set(name)
        players = self.cfg.players
        player = "learned" if kind == "learned" else f"mcts@{iterations}"
        vector = sset.search_vector(player, horizon) if kind != "learned" else None
        if kind == "leaf":
            vector = vector[:2] + [sset.learned_sid, vector[3], 0] + list(sset.get("learned")[1].params)
        self.sids, self.params, _ = sset.seats([player], players, overrides={player: vector} if vector else None)
        # the kernels' own players: compiled once for both
        self.new_search, self.search = sset.learned_player() if kind == "learned" else sset.search_player()
        self.outputs = (np.zeros(players, np.int32), np.zeros(players, np.int64),
                        np.zeros((players, max(1, len(g.seat_columns))), np.int32),
                        np.zeros(max(1, len(g.game_columns)), np.int32))

    def started(self, game, steps, seed=0):
        """A state of game ``game`` after ``steps`` uniformly random actions (fewer if it ends)."""
        rng = np.random.default_rng(seed)
        arrays = self.cfg.arrays
        state = self.engine.new_state(arrays, self.params)
        none = np.empty(0, np.int64)
        self.engine.reset(state, arrays, 11, game, none, False)
        actions = np.empty(self.engine.MAX_ACTIONS, np.int64)
        for _ in range(steps):
            n = self.engine.legal_actions(state, arrays, actions)
            self.engine.apply(state, arrays, int(actions[rng.integers(n)]), none, False)
            if is_terminal(state):
                break
        return state

    def copy(self, state):
        other = self.engine.new_state(self.cfg.arrays, self.params)
        self.engine.copy_state(state, other)
        return other

    def decide(self, state, buf=None):
        buf = self.new_search(self.cfg.arrays, self.params, self.sids) if buf is None else buf
        return int(self.search(state, self.cfg.arrays, self.sids, self.params, buf, *self.outputs))


TABLE_IDS = [f"{n}-horizon-{h}" for n, h in TABLES]  # shared ids: one game's tests run in one xdist group
PLAYERS = [(n, h, "mcts") for n, h in TABLES] + [(n, None, kind) for n in GAMES for kind in ("learned", "leaf")]
PLAYER_IDS = TABLE_IDS + [f"{n}-{kind}" for n in GAMES for kind in ("learned", "leaf")]


@pytest.fixture(scope="module", params=PLAYERS, ids=PLAYER_IDS)
def table(request):
    return Table(request.param[0], horizon=request.param[1], kind=request.param[2])


def mid_game_states(table, count=6):
    out = []
    for game in range(count):
        state = table.started(game, steps=3 + 5 * game, seed=game)
        if not is_terminal(state):
            out.append(state)
    return out


def play_out(table, state, seed):
    """Play ``state`` to its end with uniformly random actions; return every legal-action count and the result."""
    rng = np.random.default_rng(seed)
    arrays, none = table.cfg.arrays, np.empty(0, np.int64)
    actions = np.empty(table.engine.MAX_ACTIONS, np.int64)
    counts = []
    while not is_terminal(state):
        n = table.engine.legal_actions(state, arrays, actions)
        counts.append((int(to_move(state)), n))
        table.engine.apply(state, arrays, int(actions[rng.integers(n)]), none, False)
    table.engine.result(state, arrays, *table.outputs)
    return counts, [o.copy() for o in table.outputs]


def test_determinize_depends_only_on_what_the_seat_has_seen(table):
    """Two states the seat cannot tell apart determinize, with one stream, to the same game."""
    for i, state in enumerate(mid_game_states(table)):
        seat = int(to_move(state))
        other = table.copy(state)
        table.engine.determinize(other, table.cfg.arrays, seat, stream(99))   # another world the seat cannot tell
        a, b = table.copy(state), table.copy(other)
        table.engine.determinize(a, table.cfg.arrays, seat, stream(5))
        table.engine.determinize(b, table.cfg.arrays, seat, stream(5))
        (counts_a, result_a), (counts_b, result_b) = play_out(table, a, i), play_out(table, b, i)
        assert counts_a == counts_b
        for x, y in zip(result_a, result_b):
            np.testing.assert_array_equal(x, y)


def test_the_search_choice_never_changes_with_the_hidden_information(table):
    for state in mid_game_states(table):
        seat = int(to_move(state))
        choices = set()
        for world in range(4):
            other = table.copy(state)
            table.engine.determinize(other, table.cfg.arrays, seat, stream(1000 + world))
            choices.add(table.decide(other))
        assert len(choices) == 1, choices


def test_the_search_leaves_the_state_as_it_was_but_for_its_own_stream(table):
    state = mid_game_states(table)[0]
    seat = int(to_move(state))
    before = [np.array(a) for a in state]
    table.decide(state)
    after = [np.array(a) for a in state]
    np.testing.assert_array_equal(before[0], after[0])
    lanes = [lane for lane in range(before[1].shape[0]) if lane != 1 + seat]
    np.testing.assert_array_equal(before[1][lanes], after[1][lanes])
    for x, y in zip(before[2:table.engine.GAME_ENTRIES], after[2:table.engine.GAME_ENTRIES]):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name, horizon", TABLES, ids=TABLE_IDS)
def test_mcts_plays_whole_games_reproducibly_on_any_thread_count(name, horizon):
    kw = dict(players=games.get(name).default_players, games=6, seed=3, rotate_seats=True,
              strategies=["mcts@16"] + ["random"] * (games.get(name).default_players - 1),
              params={"mcts@16": strategy_set(name).search_vector("mcts@16", horizon)})
    one = api.simulate(name, threads=1, chunk_size=2, **kw).seats()
    two = api.simulate(name, threads=2, **kw).seats()
    assert one.equals(two)
    assert one.filter(one["strategy"] == "mcts@16").height == 6 * kw["players"]


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
    first = (state[0][fool.G_TRICK] == 0 and state[0][fool.G_PLAYED] == 0
             and list(state[fool.HAND_N]) == [size] * t.cfg.players)
    return int(state[0][fool.G_DEAL]), list(state[fool.TOTALS]), first


def forks_unit(t, state):
    """(rounds begun, the standing ``result`` writes) and whether ``state`` is a round's first decision (seat 0's
    first investment, every hand holding two cards per round played)."""
    rounds = int(state[0][forks_layout.H_ROUND])
    first = (state[0][1] == forks_layout.INVEST and to_move(state) == 0
             and list(state[forks_layout.S_HAND_N]) == [2 * rounds] * t.cfg.players)
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
