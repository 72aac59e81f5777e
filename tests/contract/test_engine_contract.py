"""The engine contract, checked for every registered game, the hidden example game (Nim) included
(``simulator.games.names(examples=True)``).

In the manner of pgx's ``api_test(env)`` and OpenSpiel's ``random_sim_test``:
every property below is one that ``simulator.core.state`` and
docs/architecture.md ("Engines as states") promise for any engine, so a game
gets all of it by registering. States are reached by playing legal actions
through the jit-compiled verbs from Python; the per-game test folders keep
only what is specific to a game's rules.

* legal actions exist (distinct ids below the descriptor's ``max_actions``)
  until the game ends, and their move keys lie below ``max_keys``;
* ``apply`` of every legal action keeps the state valid: the game goes on to
  an end the reference engine accepts, with the same scores;
* a copy plays on exactly like the original, streams included;
* ``determinize``, at decisions of every kind and for every seat, keeps the
  seat's observation, the common head, the seats' streams and (for the seat
  to move) its legal actions and their move keys, plays on to a legal end,
  and depends only on what the seat has seen (that it draws each hidden
  arrangement with its probability is checked game by game, on a small table
  whose arrangements the test enumerates: tests/<game>/test_state.py);
* the search's choice (with rollouts or the learned leaf) and the learned
  player's do not change when hidden information is rearranged, and they
  leave the state as they found it but for their own stream;
* ``result`` writes the game column ``finished`` from the state;
* the batch kernels' traces replay in the reference engine, and a traced game
  is the batch's row;
* game i of seed s is the same at any thread count and chunk size (with the search and learned players
  in the lineup: on the example game).
"""

import numba
import numpy as np
import pytest

from playtest import api
from simulator import games
from simulator.core.rng import new_stream, randint
from simulator.core.state import (H_FINISHED, H_TO_MOVE, H_TRACE, HEAD, ST_HEAD, ST_RNGS, decision_kind, is_terminal,
                                  to_move)
from strategies.games import strategy_set

NAMES = games.names(examples=True)
NONE = np.empty(0, np.int64)
OBS = 4096  # observation buffer larger than any game's; what a game does not write stays zero
MAX_STEPS = 100_000  # a game longer than this is a game that does not end


class Engine:
    """One registered game at its usual player count: its verbs, a config and the built-in strategies."""

    def __init__(self, name):
        self.name, self.game = name, games.get(name)
        self.verbs, self.cfg = self.game.engine, self.game.configure(self.game.default_players)
        self.players = self.cfg.players
        self.strategies = strategy_set(name)
        self.sids, self.params, _ = self.strategies.seats(["random"], self.players)
        self.heuristics = self.strategies.heuristics()

    def outputs(self):
        g, p = self.game, self.players
        return (np.zeros(p, np.int32), np.zeros(p, np.int64), np.zeros((p, max(1, len(g.seat_columns))), np.int32),
                np.zeros(max(1, len(g.game_columns)), np.int32))

    def new(self):
        return self.verbs.new_state(self.cfg.arrays, self.params)

    def fresh(self, game, seed=11):
        """Game ``game`` of run ``seed`` dealt, with a trace recorded from its start."""
        state, trace = self.new(), np.zeros(self.cfg.trace_len, np.int64)
        self.verbs.reset(state, self.cfg.arrays, seed, game, trace, True)
        return state, trace

    def legal(self, state):
        actions = np.full(self.game.max_actions, -1, np.int64)
        n = self.verbs.legal_actions(state, self.cfg.arrays, actions)
        return actions[:n].copy()

    def keys(self, state):
        """The move keys of the legal actions (``move_key``), sorted."""
        return sorted(int(self.verbs.move_key(state, self.cfg.arrays, int(a))) for a in self.legal(state))

    def step(self, state, trace, pick):
        """Apply the legal action ``pick(n)`` chooses (by index); return (seat, legal actions, action)."""
        seat, legal = int(to_move(state)), self.legal(state)
        action = int(legal[pick(state, len(legal))])
        self.verbs.apply(state, self.cfg.arrays, action, trace, trace.size > 0)
        return seat, tuple(legal.tolist()), action

    def play_out(self, state, trace, pick):
        """Play ``state`` to its end; return every (seat, legal actions, action) and the result's outputs."""
        moves = []
        while not is_terminal(state):
            moves.append(self.step(state, trace, pick))
            assert len(moves) < MAX_STEPS, "the game does not end"
        out = self.outputs()
        self.verbs.result(state, self.cfg.arrays, *out)
        return moves, out

    def started(self, game, steps, seed=11):
        """A state of game ``game`` after up to ``steps`` uniformly random actions, and its trace."""
        state, trace = self.fresh(game, seed)
        pick = uniform(game)
        for _ in range(steps):
            if is_terminal(state):
                break
            self.step(state, trace, pick)
        return state, trace

    def mid_game(self, count=6):
        """Non-terminal states at various depths, with their traces."""
        out = [self.started(game, 3 + 7 * game) for game in range(count)]
        return [(s, t) for s, t in out if not is_terminal(s)]

    def of_every_kind(self, games=10, per_kind=3):
        """States at decisions of every kind uniform play reaches in ``games`` games (``decision_kind``: every
        phase and decision of the game), up to ``per_kind`` of each from different games, ever deeper: game
        ``g`` gives the first state of each kind from its ``4 * g``-th decision on (or its last one before the
        end)."""
        found = {}
        for game in range(games):
            state, trace = self.fresh(game)
            pick, step, kept, late = uniform(game), 0, {}, set()
            while not is_terminal(state):
                kind = int(decision_kind(state))
                if kind not in late:  # the latest of its kind so far, until one from the 4g-th decision on
                    kept[kind] = self.copy(state)
                    if step >= 4 * game:
                        late.add(kind)
                self.step(state, trace, pick)
                step += 1
            for kind, state in kept.items():
                if len(found.setdefault(kind, [])) < per_kind:
                    found[kind].append(state)
        return [state for kind in sorted(found) for state in found[kind]]

    def copy(self, state):
        other = self.new()
        self.verbs.copy_state(state, other)
        return other

    def observation(self, state, seat):
        obs = np.zeros(OBS, np.int64)
        self.verbs.observe(state, self.cfg.arrays, seat, obs)
        return obs

    def game_part(self, state):
        return [np.array(a) for a in state[:self.game.game_entries]]

    def replayed_scores(self, trace, state):
        """The reference engine's scores for the game traced so far (it raises at anything illegal)."""
        return list(self.game.reference(self.cfg, trace[:state[ST_HEAD][H_TRACE]]).scores)


def uniform(seed):
    """``pick(state, n)``: uniform indices from a numpy generator of its own."""
    rng = np.random.default_rng(seed)
    return lambda state, n: int(rng.integers(n))


def own_stream(state, n):
    """``pick(state, n)``: the index drawn from the seat to move's stream in the state (a copy must carry it)."""
    return int(randint(state[ST_RNGS][1 + state[ST_HEAD][H_TO_MOVE]], n))


def by_game(name, value=None, id=None):
    """A fixture parameter of game ``name`` whose tests run in one pytest-xdist worker with the game's other
    contract tests, so that its compiled search is built once (tests/conftest.py)."""
    return pytest.param(name if value is None else value, id=id or name,
                        marks=pytest.mark.xdist_group(f"tests/contract:{name}"))


@pytest.fixture(scope="module", params=[by_game(name) for name in NAMES])
def engine(request):
    return Engine(request.param)


def test_legal_actions_exist_until_the_game_ends_and_the_reference_replays_the_game(engine):
    for game in range(8):
        state, trace = engine.fresh(game)
        moves, (scores, _, _, game_stats) = engine.play_out(state, trace, uniform(game))
        assert moves, "a game with no decision"
        for _, legal, _ in moves:
            assert len(legal) >= 1
            assert len(set(legal)) == len(legal)
            assert min(legal) >= 0 and max(legal) < engine.game.max_actions
        assert engine.legal(state).size == 0 or is_terminal(state)
        assert engine.replayed_scores(trace, state) == scores.tolist()


def test_move_keys_lie_below_max_keys(engine):
    for state, _ in engine.mid_game():
        keys = engine.keys(state)
        assert keys and 0 <= keys[0] and keys[-1] < engine.game.max_keys


def test_apply_of_every_legal_action_keeps_the_state_valid(engine):
    for i, (state, trace) in enumerate(engine.mid_game(4)):
        for action in engine.legal(state):
            after, record = engine.copy(state), trace.copy()
            engine.verbs.apply(after, engine.cfg.arrays, int(action), record, True)
            _, (scores, *_) = engine.play_out(after, record, uniform(i))
            assert engine.replayed_scores(record, after) == scores.tolist()


def test_a_copy_plays_on_exactly_like_the_original(engine):
    for state, trace in engine.mid_game():
        twin, _ = engine.fresh(99, seed=3)  # another game in the copy's arrays, to be overwritten
        engine.verbs.copy_state(state, twin)
        twin_trace, original_trace = trace.copy(), trace.copy()
        from_twin = engine.play_out(twin, twin_trace, own_stream)
        assert not is_terminal(state)  # playing the copy left the original where it was
        from_original = engine.play_out(state, original_trace, own_stream)
        assert from_twin[0] == from_original[0]
        for a, b in zip(from_twin[1], from_original[1]):
            np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(twin_trace, original_trace)
        np.testing.assert_array_equal(twin[ST_HEAD], state[ST_HEAD])


def test_result_writes_finished_from_the_state(engine):
    column = engine.game.game_columns.index("finished")
    for game in range(4):
        state, trace = engine.fresh(game)
        _, (*_, game_stats) = engine.play_out(state, trace, uniform(game))
        assert game_stats[column] == state[ST_HEAD][H_FINISHED] and game_stats[column] in (0, 1)


@pytest.mark.parametrize("engine", [by_game(n) for n in NAMES if hasattr(games.get(n).engine, "standing")],
                         indirect=True)
def test_standing_is_the_standing_result_writes(engine):
    """The optional verb ``standing`` (what the game loop records a round's leader from, in the games that
    have it; the others' loop asks ``result``) writes exactly the standing of ``result``, at every point of a
    game."""
    for game in range(4):
        state, trace = engine.fresh(game)
        pick = uniform(game)
        while True:
            out = engine.outputs()
            engine.verbs.result(state, engine.cfg.arrays, *out)
            alone = np.full(engine.players, -7, np.int64)
            engine.verbs.standing(state, engine.cfg.arrays, alone)
            np.testing.assert_array_equal(alone, out[1])
            if is_terminal(state):
                break
            engine.step(state, trace, pick)


def test_determinize_keeps_what_the_seat_sees_and_plays_on_to_a_legal_end(engine):
    """At decisions of every kind, for every seat (not only the one to move: issue 43 found Fair Enough's Sold
    Out target decision redealing the card being placed when determinized for another seat, and play from there
    crashing)."""
    for i, state in enumerate(engine.of_every_kind()):
        for seat in range(engine.players):
            world = engine.copy(state)
            engine.verbs.determinize(world, engine.cfg.arrays, seat, new_stream(i * 10 + seat))
            np.testing.assert_array_equal(engine.observation(world, seat), engine.observation(state, seat))
            np.testing.assert_array_equal(world[ST_HEAD][:HEAD], state[ST_HEAD][:HEAD])  # to move, kind, trace, finished
            np.testing.assert_array_equal(world[ST_RNGS][1:], state[ST_RNGS][1:])        # the seats' streams
            if seat == to_move(state):  # its actions and move keys name the same moves in every world
                np.testing.assert_array_equal(engine.legal(world), engine.legal(state))
                assert engine.keys(world) == engine.keys(state)
            moves, _ = engine.play_out(world, NONE, uniform(i))
            assert all(len(legal) >= 1 for _, legal, _ in moves)


def test_determinize_depends_only_on_what_the_seat_has_seen(engine):
    """Two states the seat cannot tell apart determinize, with one stream, to the same game."""
    for i, (state, _) in enumerate(engine.mid_game()):
        seat = int(to_move(state))
        other = engine.copy(state)
        engine.verbs.determinize(other, engine.cfg.arrays, seat, new_stream(99))  # a world the seat cannot tell
        a, b = engine.copy(state), engine.copy(other)
        engine.verbs.determinize(a, engine.cfg.arrays, seat, new_stream(5))
        engine.verbs.determinize(b, engine.cfg.arrays, seat, new_stream(5))
        moves_a, out_a = engine.play_out(a, NONE, uniform(i))
        moves_b, out_b = engine.play_out(b, NONE, uniform(i))
        assert moves_a == moves_b
        for x, y in zip(out_a, out_b):
            np.testing.assert_array_equal(x, y)


SEARCH_TABLES = sorted({(name, h) for name in NAMES for h in (None, 0)}, key=lambda t: (t[0], t[1] is None))
# (game, horizon, player): the search with rollouts, the learned player, the search with the learned leaf
PLAYERS = ([(n, h, "mcts") for n, h in SEARCH_TABLES]
           + [(n, None, kind) for n in NAMES for kind in ("learned", "learned-leaf")])


class Search:
    """A game's search player (``mcts@48``, at ``horizon``; None: the game's default) bound as the kernels bind it;
    with ``kind`` "learned-leaf" its leaves scored by the shipped learned model, with "learned" the learned
    player instead."""

    def __init__(self, engine, horizon, kind="mcts"):
        self.engine, sset = engine, engine.strategies
        if kind == "learned":
            self.sids, self.params, _ = sset.seats(["learned"], engine.players)
            self.new_search, self.search = sset.learned_player()
            return
        player = "mcts@48"
        vector = sset.search_vector(player, horizon)
        if kind == "learned-leaf":   # rollout = learned, horizon 0: the shipped model follows by default
            vector = vector[:2] + [sset.learned_sid, vector[3], 0]
        self.sids, self.params, _ = sset.seats([player], engine.players, overrides={player: vector})
        self.new_search, self.search = sset.search_player()

    def decide(self, state):
        e = self.engine
        buf = self.new_search(e.cfg.arrays, self.params, self.sids)
        return int(self.search(state, e.cfg.arrays, self.sids, self.params, buf, *e.outputs()))


@pytest.fixture(scope="module", params=[by_game(n, (n, h, k), f"{n}-horizon-{h}" if k == "mcts" else f"{n}-{k}")
                                        for n, h, k in PLAYERS])
def search(request):
    name, horizon, kind = request.param
    return Search(Engine(name), horizon, kind)


def test_the_search_choice_never_changes_with_the_hidden_information(search):
    e = search.engine
    for state, _ in e.mid_game():
        seat = int(to_move(state))
        choices = set()
        for world in range(4):
            other = e.copy(state)
            e.verbs.determinize(other, e.cfg.arrays, seat, new_stream(1000 + world))
            choices.add(search.decide(other))
        assert len(choices) == 1, choices


def test_the_search_leaves_the_state_as_it_was_but_for_its_own_stream(search):
    e = search.engine
    state, _ = e.mid_game()[0]
    seat = int(to_move(state))
    before = e.game_part(state)
    search.decide(state)
    after = e.game_part(state)
    np.testing.assert_array_equal(before[ST_HEAD], after[ST_HEAD])
    lanes = [lane for lane in range(before[ST_RNGS].shape[0]) if lane != 1 + seat]
    np.testing.assert_array_equal(before[ST_RNGS][lanes], after[ST_RNGS][lanes])
    for x, y in zip(before[2:], after[2:]):
        np.testing.assert_array_equal(x, y)


def test_traces_of_the_batch_kernels_replay_in_the_reference_engine_and_are_the_batch_rows(engine):
    from simulator.core.batch import traced_game

    lineup = [engine.heuristics[s % len(engine.heuristics)] for s in range(1, engine.players + 1)]
    sids, params, _ = engine.strategies.seats(lineup, engine.players)
    run_chunk, trace_game = engine.strategies.kernels()
    count = 24
    rows = [np.zeros((count, *o.shape), o.dtype) for o in engine.outputs()]
    status = np.ones(count, np.int32)
    run_chunk(engine.cfg.arrays, sids, params, 5, 0, count, *rows, status)
    assert not status.any()
    for game in range(count):
        n, trace, *outputs = traced_game(engine.game, engine.cfg, trace_game, sids, params, 5, game)
        assert n > 0
        assert list(engine.game.reference(engine.cfg, trace).scores) == outputs[0].tolist()
        for row, out in zip(rows, outputs):
            np.testing.assert_array_equal(row[game], out)


def test_game_i_of_a_seed_is_the_same_at_any_thread_count_and_chunk_size(engine):
    players = engine.players
    lineup = [engine.heuristics[s % len(engine.heuristics)] for s in range(players)]
    kw = dict(players=players, games=6, seed=3, rotate_seats=True, strategies=lineup)
    one = api.simulate(engine.name, threads=1, chunk_size=4, **kw).seats()
    two = api.simulate(engine.name, threads=min(2, numba.config.NUMBA_NUM_THREADS), chunk_size=100, **kw).seats()
    assert one.equals(two)
    assert one.height == 6 * players * players


def test_search_and_learned_seats_play_the_same_games_at_any_thread_count_and_chunk_size():
    """The search and learned players in the batch kernels (their buffers are allocated once per thread and
    reused from game to game: code shared by every game), on the example game, the cheapest to compile with them
    (50 s of a test worker; 1.3 to 7 minutes for the other games, most of it compiling, 4 December 2026). In
    every game their choices depend only on their own stream (the search tests above)."""
    kw = dict(players=2, games=6, seed=3, rotate_seats=True, strategies=["mcts@16", "learned"])
    one = api.simulate("nim", threads=1, chunk_size=4, **kw).seats()
    two = api.simulate("nim", threads=min(2, numba.config.NUMBA_NUM_THREADS), chunk_size=100, **kw).seats()
    assert one.equals(two)
    assert sorted(set(one["strategy"])) == ["learned", "mcts@16"] and one.height == 6 * 2 * 2
