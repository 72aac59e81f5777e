"""The information-set MCTS template on a game with a known solution (tests/core/toy_nim.py)."""

import numpy as np
import pytest

import toy_nim
from simulator.core.kernels import SEARCH_VERBS, bind_search

VERBS = {name: getattr(toy_nim, name) for name in SEARCH_VERBS + ("choose",)}
NEW_SEARCH, SEARCH, _ = bind_search(VERBS, cache=False, search_sid=0)  # (the learned player: not used here)


def searched(pile, iterations=2000, exploration=0.7, rollout=-1, forbid=0, seed=3, slots=()):
    """``(action, state before, state after, search buffers)`` of seat 0's search of a pile; ``slots`` the
    widening and world slots (none: a parameter row from before them)."""
    arrays = (np.int64(pile),)
    sids = np.zeros(2, np.int64)
    params = np.array([[iterations, exploration, rollout, forbid, 0, *slots]] * 2, np.float64)  # horizon 0
    state = toy_nim.new_state(arrays, params)
    toy_nim.reset(state, arrays, seed, 0, np.empty(0, np.int64), False)
    buf = NEW_SEARCH(arrays, params, sids)
    out = (np.empty(2, np.int32), np.empty(2, np.int64), np.zeros((2, 1), np.int32), np.zeros(1, np.int32))
    before = [a.copy() for a in state]
    action = SEARCH(state, arrays, sids, params, buf, *out)
    return action, before, state, buf


def decide(pile, **options):
    return searched(pile, **options)[:3]


def tree(buf):
    """``{node: (seat that moved into it, visits, [children])}`` of the search tree in ``buf``."""
    mover, child, sibling, visits = buf[3], buf[4], buf[5], buf[6]
    nodes, todo = {}, [0]
    while todo:
        node = todo.pop()
        kids, ch = [], child[node]
        while ch >= 0:
            kids.append(int(ch))
            ch = sibling[ch]
        nodes[node] = (int(mover[node]) if node else -1, float(visits[node]), kids)
        todo += kids
    return nodes


@pytest.mark.parametrize("pile, take", [(10, 2), (7, 3), (5, 1), (13, 1), (6, 2)])
def test_search_leaves_a_multiple_of_four(pile, take):
    action, _, _ = decide(pile)
    assert action + 1 == take


def test_search_changes_only_its_own_stream_and_is_reproducible():
    a1, before, after = decide(10, iterations=300)
    a2, _, _ = decide(10, iterations=300)
    assert a1 == a2
    np.testing.assert_array_equal(before[0], after[0])
    np.testing.assert_array_equal(before[1][[0, 2]], after[1][[0, 2]])   # chance and the other seat
    assert not np.array_equal(before[1][1], after[1][1])                 # the searcher's stream advanced


def test_a_losing_position_still_returns_a_legal_action():
    action, _, _ = decide(8, iterations=200)
    assert 0 <= action < 3


@pytest.mark.parametrize("pile", [7, 3, 11])
def test_a_forbidden_class_is_never_taken_while_there_is_another_option(pile):
    action, _, _ = decide(pile, forbid=1)
    assert action != 2


def test_a_forbidden_class_is_taken_when_it_is_the_only_option():
    assert decide(1, forbid=3)[0] == 0   # only "take one" is legal, and it is forbidden
    assert decide(4, forbid=3)[0] == 1   # "take two" is all that is allowed (though it loses)


@pytest.mark.parametrize("seed", range(6))
def test_a_visit_tie_at_the_root_goes_to_the_higher_mean_value(seed):
    """2 counters, 2 iterations: each move is tried once; taking both wins, taking one loses (the opponent takes
    the last), so the tie goes to the winning move, not to the lower key."""
    assert decide(2, iterations=2, seed=seed)[0] == 1


@pytest.mark.parametrize("pile, seed", [(10, 3), (13, 1), (21, 5), (6, 2)])
def test_widening_0_and_no_kept_worlds_search_as_a_row_from_before_the_slots(pile, seed):
    """Slots widening 0 and worlds 0 (the defaults) give the same tree and choice as a 5-value parameter row."""
    old = searched(pile, iterations=300, seed=seed)
    new = searched(pile, iterations=300, seed=seed, slots=(0.0, 0.5, 1.0, 0.0))
    assert old[0] == new[0]
    assert tree(old[3]) == tree(new[3])
    np.testing.assert_array_equal(old[2][1], new[2][1])   # the searcher's stream drew the same numbers


@pytest.mark.parametrize("iterations, k, children", [(1, 1.0, 1), (2, 1.0, 1), (3, 1.0, 2), (5, 1.0, 2), (6, 1.0, 3),
                                                     (2, 2.0, 2), (3, 2.0, 3)])
def test_widening_at_every_node_adds_a_root_child_only_while_children_are_fewer_than_k_visits_to_the_alpha(
        iterations, k, children):
    """By hand, k = 1, alpha = 0.5: the root (3 legal moves) gets its first child at iteration 0, none at 1 (1 child,
    1 visit: 1 >= 1), its second at 2 (1 < sqrt 2), none at 3 and 4 (2 >= sqrt 3, sqrt 4), its third at 5; k = 2:
    one at 0, 1 (1 < 2) and 2 (2 < 2 sqrt 2)."""
    nodes = tree(searched(10, iterations=iterations, slots=(k, 0.5, 1.0, 0.0))[3])
    assert len(nodes[0][2]) == children


def test_widening_at_the_other_seats_nodes_leaves_the_root_alone():
    nodes = tree(searched(10, iterations=3, slots=(1.0, 0.5, 0.0, 0.0))[3])
    assert len(nodes[0][2]) == 3


@pytest.mark.parametrize("own", [0.0, 1.0])
def test_widened_nodes_have_fewer_children_than_1_plus_k_visits_to_the_alpha(own):
    """Every legal move of a Nim node stays legal, so a widened node (the other seat's; every node with widen-own
    1) only grows while children < k visits^alpha and ends with fewer than 1 + k visits^alpha; without widening
    a node with 3 legal moves has them all as children from its 4th visit on."""
    k, alpha = 0.5, 0.5
    buf = searched(21, iterations=1500, slots=(k, alpha, own, 0.0))[3]
    nodes = tree(buf)
    pile = {0: 21}
    for node in sorted(nodes):
        for kid in nodes[node][2]:
            pile[kid] = pile[node] - (int(buf[2][kid]) + 1)   # the key of Nim's move is its action id
    narrowed = 0
    for node, (_, visits, kids) in nodes.items():
        if pile[node] < 3 or visits < 4:
            continue
        if own or nodes[kids[0]][0] == 1:
            assert len(kids) < 1 + k * visits ** alpha
            narrowed += len(kids) < 3
        else:
            assert len(kids) == 3
    assert narrowed > 5
