"""The choice target (``studies.choices``, ``playtest train --target choice``): every legal move's position as
``learned`` scores it, the teacher's move marked, and a model fitted so that its values pick the teacher's moves."""

import numpy as np
import pytest

from simulator import games
from simulator.core.learned import LINEAR, M_WEIGHTS, RELU, TANH, model_size
from simulator.core.output import game_rows
from simulator.core.state import is_terminal
from strategies.games import strategy_set
from strategies.learned import weights_path
from studies.choices import fit_choices, record_choices
from cli_support import assert_refused, invoke, tree
from test_learned import numpy_value

N_FEATURES = 6


def teacher_groups(teacher, decisions, seed):
    """``(features, group, chosen)``: ``decisions`` groups of 2 to 6 random candidates, the teacher choosing the
    one it values most."""
    rng = np.random.default_rng(seed)
    rows, group, chosen = [], [], []
    for d in range(decisions):
        x = rng.normal(0, 1, (rng.integers(2, 7), N_FEATURES))
        values = [numpy_value(teacher, r) for r in x]
        rows.extend(x)
        group.extend([d] * len(x))
        chosen.extend(np.arange(len(x)) == int(np.argmax(values)))
    return np.array(rows), np.array(group), np.array(chosen)


def agreement(model, features, group, chosen):
    """The share of groups where ``model``'s highest value is the chosen row."""
    values = np.array([numpy_value(model, r) for r in features])
    hits = [chosen[group == d][np.argmax(values[group == d])] for d in np.unique(group)]
    return np.mean(hits)


@pytest.mark.parametrize("kind, hidden", [(LINEAR, 0), (TANH, 5), (RELU, 5)])
def test_a_choice_fit_learns_to_pick_the_teachers_moves(kind, hidden):
    """Known truth: a teacher model picks its best candidate; a fit started from another model (the teacher's
    weights scrambled) picks the teacher's move on fresh decisions far more often than its start, and keeps
    the start's design."""
    rng = np.random.default_rng(kind)
    size = model_size(kind, N_FEATURES, hidden)
    teacher = np.concatenate([[kind, N_FEATURES, hidden], rng.normal(0, 1, size - 3)])
    start = teacher.copy()
    start[M_WEIGHTS:] = rng.permutation(teacher[M_WEIGHTS:])
    fitted = fit_choices(*teacher_groups(teacher, 1500, 1), start, temperature=0.1, pull=1e-4)
    assert fitted.size == start.size and fitted[:3].tolist() == start[:3].tolist()
    fresh = teacher_groups(teacher, 400, 2)
    before, after = agreement(start, *fresh), agreement(fitted, *fresh)
    assert after > 0.8 and after > before + 0.2, (before, after)


def test_the_pull_keeps_a_fit_at_its_start():
    teacher = np.concatenate([[LINEAR, N_FEATURES, 0], np.arange(N_FEATURES + 1.0)])
    start = np.concatenate([[LINEAR, N_FEATURES, 0], -np.arange(N_FEATURES + 1.0)])
    data = teacher_groups(teacher, 300, 3)
    np.testing.assert_allclose(fit_choices(*data, start, pull=1e6), start, atol=1e-3)
    assert np.abs(fit_choices(*data, start, pull=1e-4) - start).max() > 1


@pytest.fixture(scope="module")
def fauch_fertig():
    sset = strategy_set("fauch-fertig")
    config = games.get("fauch-fertig").configure(4)
    sids, params, _ = sset.seats(["mcts@8"], 4)
    return sset, config, sids, params


def test_every_decision_has_one_chosen_move_among_its_legal_ones(fauch_fertig):
    sset, config, sids, params = fauch_fertig
    features, group, chosen = record_choices(sset, config, sids, params, 3, 0, 4)
    assert features.shape == (group.size, sset.n_features) and group.size > 100
    assert (np.diff(group) >= 0).all() and group[0] == 0
    sizes = np.bincount(group)
    assert sizes.min() >= 2 and np.bincount(group, weights=chosen).tolist() == [1.0] * sizes.size


@pytest.mark.parametrize("game, players, pile", [("nim", 2, 21), ("fool", 4, None), ("fauch-fertig", 4, None)])
def test_the_candidates_are_the_positions_the_learned_player_scores(game, players, pile):
    """At every decision of a few games (Nim from 21 counters and Fool!, whose ``learned`` looks ahead, and
    Fauch & Fertig, whose does not), the move ``learned`` plays with a random linear model is the first best of that
    model's values of the rows ``learned_candidates`` writes for a copy of the same state (what
    ``record_choices`` records); the candidates are the legal moves, and both leave the mover's stream the
    same."""
    g, sset = games.get(game), strategy_set(game)
    arrays = g.configure(players, override=pile and {"pile": {"min": pile, "max": pile}}).arrays
    e, nf, most = g.engine, sset.n_features, g.max_actions
    sids = np.full(players, sset.learned_sid, np.int64)
    params = np.tile(np.r_[LINEAR, nf, 0, np.random.default_rng(4).normal(size=1 + nf)], (players, 1))
    new_search, candidates = sset.learned_candidates()
    learned = sset.learned_player()[1]
    buf, out = new_search(arrays, params, sids), game_rows(g, players)
    state, mine, theirs = (e.new_state(arrays, params) for _ in range(3))
    feats, actions, legal = np.empty((most, nf)), np.empty(most, np.int64), np.empty(most, np.int64)
    no_trace, scored, unscored = np.empty(0, np.int64), 0, 0
    for k in range(4):
        e.reset(state, arrays, 9, k, no_trace, False)
        while not is_terminal(state):
            e.copy_state(state, mine)
            e.copy_state(state, theirs)
            n = candidates(mine, arrays, sids, buf, feats, actions)
            move = learned(theirs, arrays, sids, params, buf, *out)
            np.testing.assert_array_equal(mine[1], theirs[1])
            if n:
                assert sorted(actions[:n]) == sorted(legal[:e.legal_actions(state, arrays, legal)])
                assert move == actions[np.argmax(params[0, M_WEIGHTS] + feats[:n] @ params[0, M_WEIGHTS + 1:])]
                scored += 1
            else:
                unscored += 1
            e.apply(state, arrays, move, no_trace, False)
    assert scored > 20 and unscored > 0


def test_a_choice_target_without_a_starting_model_is_one_error_line(tmp_path):
    result = invoke("train", "fauch-fertig", "--target", "choice", "--out", tmp_path / "m.npy")
    assert_refused(result, "--start")
    assert tree(tmp_path) == {}


def test_a_choice_round_is_gated_like_any_other():
    """One tiny round of the choice target on Fauch & Fertig: the shipped model first, then a refit kept only
    when its paired interval is above 0; the rows are the candidates recorded."""
    from playtest import api

    start = np.load(weights_path("fauch-fertig"))
    result = api.train("fauch-fertig", seed=5, rounds=1, games=2, budget=4, deals=10, start=start,
                       target="choice", threads=1)
    rounds = result.info["training"].rounds
    assert [r.round for r in rounds] == [-1, 0] and rounds[1].rows > 50
    assert rounds[1].kept == (rounds[1].gain[1] > 0) and rounds[1].model.size == start.size
    assert "target='choice'" in result.info["provenance"]["command"]
