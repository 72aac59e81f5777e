"""Move keys: the search's tree names a move as the searching seat observes it, never by a hidden hand position.

Every engine's ``move_key`` is checked against the game's own record of the
move (the trace ``apply`` writes, which the referees replay): on mid-game
states, determinized many times for each seat, one recorded move always has
one key and two recorded moves never share one; where the action ids are
positions in a hidden hand (Fool!, Forks, Fair Enough), one id stands for
different cards, so different keys, in other determinizations. A search's
log then shows an opponent's node of a real tree collecting one card across
determinizations (the tie-break by value: tests/core/test_search.py).
"""

import numpy as np
import pytest
from test_search_horizon import Table

from simulator import games
from simulator.core.rng import next_u64, seed_stream
from simulator.core.state import H_TRACE, decision_kind, is_terminal, to_move
from simulator.fair_enough import layout as fe
from simulator.fauch_fertig import layout as ff
from simulator.fauch_fertig.turn import ST_DRAWN

WORLDS = 12   # determinizations per state and seat


class KeyTable(Table):
    """``Table`` of tests/skill/test_search_horizon.py with copies of a state."""

    def copy(self, state):
        other = self.engine.new_state(self.cfg.arrays, self.params)
        self.engine.copy_state(state, other)
        return other


@pytest.fixture(scope="module", params=games.names())
def table(request):
    return KeyTable(request.param)


def stream(seed):
    rng = np.empty(4, np.uint64)
    seed_stream(rng, seed, 0, 0)
    return rng


def recorded_move(table, state, action):
    """The move ``action`` of the seat to move as the game's record shows it: the first trace entries ``apply``
    writes on a copy of ``state``, decoded to what every seat sees (card faces, row positions, market slots)."""
    arrays, engine = table.cfg.arrays, table.engine
    kind = int(decision_kind(state))
    work = table.copy(state)
    work[0][H_TRACE] = 0
    trace = np.full(table.cfg.trace_len + 64, -9, np.int64)
    engine.apply(work, arrays, int(action), trace, True)
    game = table.cfg.game
    if game in ("fool", "forks"):
        return int(trace[0])   # the card's code, 100 * colour (destination) + value
    if game == "fauch-fertig":
        return ("keep", int(state[ST_DRAWN][trace[0]])) if kind == ff.KEEP else (kind, int(trace[0]))
    card_kind, card_value, card_special = arrays[0], arrays[1], arrays[2]
    if kind == fe.RESEARCH:
        return "take", int(trace[1]), int(trace[2])
    if kind == fe.TARGET:
        return "target", int(trace[3])
    if trace[0] == fe.TR_SECURE:
        return ("secure",)
    if trace[0] == fe.TR_PLACE:
        special = fe.NONE if trace[2] < 0 else int(card_special[trace[2]])   # the special card played with it
        return "place", int(card_kind[trace[1]]), int(card_value[trace[1]]), special
    obs = np.zeros(fe.OBS_SIZE, np.int64)   # Sold Out: the target comes next, the placed card is shown pending
    engine.observe(work, arrays, int(to_move(work)), obs)
    return "place", int(obs[fe.OBS_PENDING_KIND]), int(obs[fe.OBS_PENDING_VALUE]), fe.SOLD_OUT


def keyed_moves(table, state):
    """``[(action, key, recorded move)]`` of every legal action of the seat to move in ``state``."""
    actions = np.empty(table.game.max_actions, np.int64)
    n = table.engine.legal_actions(state, table.cfg.arrays, actions)
    return [(int(a), int(table.engine.move_key(state, table.cfg.arrays, a)), recorded_move(table, state, a))
            for a in actions[:n]]


def states(table):
    """Non-terminal states of 10 games after 3, 8, 13... random actions."""
    out = [table.started(game, steps=3 + 5 * game, seed=game) for game in range(10)]
    return [state for state in out if not is_terminal(state)]


def test_a_move_key_names_the_recorded_move_in_every_determinization(table):
    """For every seat watching: one recorded move has one key in all its determinizations, two never share one,
    and the mover's own action ids keep their keys."""
    checked = 0
    for state in states(table):
        mover = int(to_move(state))
        for seat in range(table.cfg.players):
            key_of, move_of, own = {}, {}, {}
            for world in range(WORLDS):
                other = table.copy(state)
                table.engine.determinize(other, table.cfg.arrays, seat, stream(200 + world))
                for action, key, move in keyed_moves(table, other):
                    assert 0 <= key < table.game.max_keys
                    assert key_of.setdefault(move, key) == key, (seat, move)
                    assert move_of.setdefault(key, move) == move, (seat, key)
                    if seat == mover:
                        assert own.setdefault(action, key) == key
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", ["fool", "forks", "fair-enough"])
def test_a_hidden_hand_position_is_another_card_in_another_determinization(name):
    """Where action ids are positions in the mover's hidden hand, one id maps to several keys across the
    watching seat's determinizations (the old tree merged those moves); Fauch & Fertig's ids are its keys."""
    t = KeyTable(name)
    varied = 0
    for state in states(t):
        seat = (int(to_move(state)) + 1) % t.cfg.players
        keys = {}
        for world in range(WORLDS):
            other = t.copy(state)
            t.engine.determinize(other, t.cfg.arrays, seat, stream(300 + world))
            for action, key, _ in keyed_moves(t, other):
                keys.setdefault(action, set()).add(key)
        varied += sum(len(k) > 1 for k in keys.values())
    assert varied > 0


def test_the_keys_of_fauch_fertig_are_its_action_ids():
    t = KeyTable("fauch-fertig")
    assert t.game.max_keys == ff.MAX_ACTIONS
    for state in states(t):
        assert all(action == key for action, key, _ in keyed_moves(t, state))


def searched_with_log(t, state, iterations):
    """Search ``state`` with the tree log on; return the buffers (the tree and the log)."""
    buf = list(t.new_search(t.cfg.arrays, t.params, t.sids))
    buf[20] = np.full((64 * iterations, 3), -1, np.int64)
    buf[21] = np.zeros((iterations, 4), np.uint64)
    buf = tuple(buf)
    t.decide(state, buf)
    return buf


def replayed_tree_moves(t, state, buf):
    """``{node: [(action, recorded move)]}`` of every step an iteration took in the tree, replayed from the log:
    the iteration's determinization from its logged stream, then the logged actions."""
    me = int(to_move(state))
    log, log_rng = buf[20], buf[21]
    seen = {}
    for it in range(log_rng.shape[0]):
        rng = log_rng[it].copy()
        work = t.copy(state)
        t.engine.determinize(work, t.cfg.arrays, me, rng)
        lanes = work[1]
        for lane in range(lanes.shape[0]):
            for k in range(4):
                lanes[lane, k] = next_u64(rng)
        for _, node, action in log[log[:, 0] == it]:
            assert not is_terminal(work)
            seen.setdefault(int(node), []).append((int(action), recorded_move(t, work, action)))
            t.engine.apply(work, t.cfg.arrays, int(action), np.empty(0, np.int64), False)
    return seen


def test_an_opponents_node_collects_one_observed_card_across_determinizations():
    """Fool!, a real search of 200 iterations: every iteration through an opponent's node played the same card
    there, from different hand positions in different determinizations."""
    t = KeyTable("fool", iterations=200, horizon=1)
    moved_around = 0
    for state in states(t)[:3]:
        me = int(to_move(state))
        buf = searched_with_log(t, state, 200)
        assert buf[20][-1, 0] == -1   # the log had room for every step
        mover = buf[3]
        for node, steps in replayed_tree_moves(t, state, buf).items():
            if mover[node] == me:
                continue
            assert len({move for _, move in steps}) == 1, steps
            moved_around += len({action for action, _ in steps}) > 1
    assert moved_around > 0


@pytest.mark.parametrize("name", ["fool", "forks", "fair-enough"])
def test_every_node_of_a_real_tree_is_one_observed_move(name):
    """A real search of 200 iterations, replayed from its log: every iteration through a node, the searching
    seat's own nodes included, made the same observed move there (an own move is keyed by its action id *and* its
    card, so an id naming another card deeper in the tree, such as a card passed or dealt in that determinization,
    is another node). Only Fool!'s trees reach the seat's own later moves in these states (Forks's and Fair
    Enough's stay about two plies deep, the benchmark journal, "The shallow keyed tree")."""
    t = KeyTable(name, iterations=200)   # the game's default horizon
    own_below_root, checked = 0, 0
    for state in states(t)[:3]:
        me = int(to_move(state))
        buf = searched_with_log(t, state, 200)
        assert buf[20][-1, 0] == -1
        parent, mover = buf[1], buf[3]
        for node, steps in replayed_tree_moves(t, state, buf).items():
            assert len({move for _, move in steps}) == 1, (node, steps)
            own_below_root += mover[node] == me and parent[node] != 0
            checked += 1
    assert checked > 10
    assert own_below_root > 0 or name != "fool"


def test_the_searching_seats_copies_of_one_card_are_separate_moves():
    """Fool!: the searching seat's own moves are its hand positions (with their cards), so two wilds in its hand
    are two root children, as the old action-id tree had them; an opponent's two wilds are one move."""
    t = KeyTable("fool", iterations=200, horizon=1)
    max_keys, actions = t.game.max_keys, np.empty(t.game.max_actions, np.int64)
    duplicated = 0
    for game in range(40):
        state = t.started(game, steps=1 + game % 5, seed=game)
        n = t.engine.legal_actions(state, t.cfg.arrays, actions)
        cards = [int(t.engine.move_key(state, t.cfg.arrays, a)) for a in actions[:n]]
        if len(set(cards)) == n:
            continue
        duplicated += 1
        buf = searched_with_log(t, state, 200)
        key, card, child, sibling = buf[2], buf[23], buf[4], buf[5]
        root, ch = [], child[0]
        while ch >= 0:
            root.append((int(key[ch]) - max_keys, int(card[ch])))
            ch = sibling[ch]
        assert sorted(root) == sorted(zip(actions[:n].tolist(), cards))
    assert duplicated > 0
