"""The learned model and player: inference equals a plain numpy function, models are validated, the player
scores each move by the model, whole games run without reference counting, bad model files give one line."""

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from playtest import api
from playtest.cli import cli
from simulator import games
from simulator.core.learned import LINEAR, RELU, TANH, check_model, fold_feature, model_size, value
from simulator.core.rng import next_u64
from simulator.core.search import LEARNED_LEAF
from simulator.core.state import is_terminal, to_move
from simulator.forks import engine as forks
from simulator.fool import engine as fool
from strategies.games import strategy_set
from strategies.learned import shipped_model


def numpy_value(model, x):
    """The model of simulator.core.learned, written independently with numpy."""
    kind, nf, nh = int(model[0]), int(model[1]), int(model[2])
    w = model[3:]
    if kind == LINEAR:
        return w[0] + w[1:1 + nf] @ x
    w1 = w[:nh * nf].reshape(nh, nf)
    b1 = w[nh * nf:nh * nf + nh]
    w2 = w[nh * nf + nh:nh * nf + 2 * nh]
    z = w1 @ x + b1
    h = np.tanh(z) if kind == TANH else np.maximum(z, 0.0)
    return w2 @ h + w[-1]


@pytest.mark.parametrize("kind, hidden", [(LINEAR, 0), (TANH, 5), (RELU, 7)])
def test_inference_equals_numpy(kind, hidden):
    rng = np.random.default_rng(kind)
    nf = 13
    for _ in range(20):
        model = np.concatenate([[kind, nf, hidden], rng.normal(size=model_size(kind, nf, hidden) - 3)])
        x = rng.normal(size=nf) * 3
        got = value(model[None, :], 0, x, np.empty(max(1, hidden)))
        assert got == pytest.approx(numpy_value(model, x), rel=1e-12, abs=1e-12)


def scalar_value(model, x):
    """The model's value summed one number at a time in the plain formula's order: each hidden unit its bias,
    then feature 0, 1, ...; then the output's bias and unit 0, 1, ..."""
    kind, nf, nh = int(model[0]), int(model[1]), int(model[2])
    w = [float(v) for v in model[3:]]
    if kind == LINEAR:
        total = w[0]
        for j in range(nf):
            total += w[1 + j] * x[j]
        return total
    total = w[nh * nf + 2 * nh]
    for h in range(nh):
        z = w[nh * nf + h]
        for j in range(nf):
            z += w[h * nf + j] * x[j]
        total += w[nh * nf + nh + h] * (math.tanh(z) if kind == TANH else max(z, 0.0))
    return total


@pytest.mark.parametrize("path", sorted((Path(__file__).parents[2] / "strategies").glob("*/*.npy")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_inference_is_the_plain_formula_to_the_last_bit(path):
    """Summing the hidden units side by side must not reorder any sum: the shipped figures were played with
    these exact values, and a move chosen between two near-equal values could change otherwise."""
    model = np.load(path)
    nf = int(model[1])
    rng = np.random.default_rng(7)
    for _ in range(50):
        x = [float(v) for v in rng.normal(size=nf) * rng.choice([0.0, 1.0, 9.0], size=nf)]
        assert value(model[None, :], 0, np.array(x), np.empty(max(1, int(model[2])))) == scalar_value(model, x)


@pytest.mark.parametrize("kind, hidden", [(LINEAR, 0), (TANH, 5), (RELU, 7)])
def test_a_folded_feature_is_read_as_its_constant_whatever_it_is_given(kind, hidden):
    rng = np.random.default_rng(10 + kind)
    nf, index, at = 9, 4, 0.5
    model = np.concatenate([[kind, nf, hidden], rng.normal(size=model_size(kind, nf, hidden) - 3)])
    folded = fold_feature(model, index, at)
    assert folded is not model and model.size == folded.size
    for _ in range(20):
        x = rng.normal(size=nf) * 3
        fixed = x.copy()
        fixed[index] = at
        got = value(folded[None, :], 0, x, np.empty(max(1, hidden)))
        assert got == pytest.approx(numpy_value(model, fixed), rel=1e-12, abs=1e-12)
        assert numpy_value(model, x) != pytest.approx(numpy_value(model, fixed), rel=1e-9)  # the feature mattered


def test_every_shipped_model_and_every_trained_one_is_seat_blind():
    """Each game's seat-number feature (its place after the first player) has no weight in the model that ships
    or that training writes, so `learned` is the same player in every seat."""
    from studies.train import train

    for game in ("forks", "fool", "fair-enough", "fauch-fertig"):
        sset = strategy_set(game)
        model = np.asarray(shipped_model(game, sset.n_features))
        assert seat_weights(model, sset.seat_feature) == [0.0] * max(1, int(model[2])), game
    run = train("forks", simulate=api.simulate, seed=4, rounds=1, games=3, deals=4, design="tanh", hidden=3)
    assert seat_weights(run.model, strategy_set("forks").seat_feature) == [0.0] * 3
    assert seat_weights(run.rounds[0].model, strategy_set("forks").seat_feature) != [0.0] * 3  # as fitted


def seat_weights(model, index):
    """The input weights of feature ``index`` (one per hidden unit, or the linear weight)."""
    kind, nf, nh = int(model[0]), int(model[1]), int(model[2])
    if kind == LINEAR:
        return [float(model[4 + index])]
    return [float(w) for w in model[3:3 + nh * nf].reshape(nh, nf)[:, index]]


def test_a_model_in_a_wider_parameter_row_reads_only_its_own_numbers():
    rng = np.random.default_rng(3)
    model = np.concatenate([[TANH, 4, 3], rng.normal(size=model_size(TANH, 4, 3) - 3)])
    row = np.concatenate([model, rng.normal(size=9)])   # a parameter matrix is as wide as its widest seat
    x = rng.normal(size=4)
    assert value(np.stack([row * 0, row]), 1, x, np.empty(3)) == pytest.approx(numpy_value(model, x))


@pytest.mark.parametrize("vector, problem", [
    ([0, 4, 0, 1, 1, 1, 1], "has 8 numbers, got 7"),
    ([0, 5, 0, 1, 1, 1, 1, 1, 1], "reads 5 features; this game has 4"),
    ([3, 4, 0, 1, 1, 1, 1, 1], "kind 3 is not one of"),
    ([0, 4, 0, 1, 1, np.nan, 1, 1], "finite"),
    ([1, 4, 0, 1, 1, 1, 1, 1], "a network at least 1"),
    ([[0, 4, 0, 1, 1, 1, 1, 1]], "flat list"),
])
def test_check_model_names_the_problem(vector, problem):
    with pytest.raises(ValueError, match=problem):
        check_model(vector, 4)


def fool_player():
    """Fool! at its default table, a ``learned`` seat with a random linear model, and the bound player."""
    g = games.get("fool")
    cfg = g.configure(g.default_players)
    sset = strategy_set("fool")
    model = np.concatenate([[LINEAR, sset.n_features, 0], np.random.default_rng(5).normal(size=sset.n_features + 1)])
    sids, params, _ = sset.seats(["learned"], cfg.players, overrides={"learned": list(model)})
    new_search, player = sset.learned_player()
    outputs = (np.zeros(cfg.players, np.int32), np.zeros(cfg.players, np.int64),
               np.zeros((cfg.players, len(g.seat_columns)), np.int32), np.zeros(len(g.game_columns), np.int32))
    return cfg, sids, params, model, new_search(cfg.arrays, params, sids), player, outputs


def reference_choice(state, arrays, me, model, choose, rsids, rparams, cap, outputs):
    """The learned player written step by step in Python on the engine's verbs: determinize once from the seat's
    stream (every lane reseeded from it; the advanced stream is stored back in ``state``), then for each legal
    action play the others on by ``choose`` until the seat is to move again, the game ends or ``cap`` moves were
    made, and value the seat's observation (its win share if the game ended; ``outputs`` give the result's
    shapes)."""
    none = np.empty(0, np.int64)
    rng = state[1][1 + me].copy()
    world, trial = fool.new_state(arrays, rparams), fool.new_state(arrays, rparams)
    fool.copy_state(state, world)
    fool.determinize(world, arrays, me, rng)
    for lane in range(world[1].shape[0]):
        for k in range(4):
            world[1][lane, k] = next_u64(rng)
    state[1][1 + me] = rng
    actions = np.empty(games.get("fool").max_actions, np.int64)
    n = fool.legal_actions(world, arrays, actions)
    obs, feat = np.zeros(fool.OBS_SIZE, np.int64), np.zeros(fool.N_FEATURES)
    values, moves = [], []
    for a in actions[:n]:
        fool.copy_state(world, trial)
        fool.apply(trial, arrays, a, none, False)
        plies = 0
        while plies < cap and not is_terminal(trial) and to_move(trial) != me:
            fool.apply(trial, arrays, choose(trial, arrays, rsids, rparams), none, False)
            plies += 1
        moves.append(plies)
        if is_terminal(trial):  # a finished game: the seat's real win share
            scores, standing, seat_stats, game_stats = (np.zeros_like(o) for o in outputs)
            fool.result(trial, arrays, scores, standing, seat_stats, game_stats)
            top = standing == standing.max()
            values.append(top[me] / top.sum())
            continue
        fool.observe(trial, arrays, me, obs)
        fool.features(obs, feat)
        values.append(numpy_value(model, feat))
    return int(actions[int(np.argmax(values))]), max(moves)


def test_learned_takes_the_move_the_model_values_most_at_its_next_decision():
    """At every decision of a Fool! seat the player's choice is the argmax of the model at the seat's next
    decision, the other seats playing on by the strongest heuristic (cautious) in one determinized world (a Python
    reference on the engine's verbs); and the look-ahead does pass over other seats' moves."""
    from simulator.core.kernels import bind_choose
    from simulator.core.learned import LOOKAHEAD_PLIES

    cfg, sids, params, model, buf, player, outputs = fool_player()
    sset = strategy_set("fool")
    cautious, cautious_params = sset.lookahead
    assert sset.names()[cautious] == "cautious"
    choose = bind_choose(games.get("fool"), sset.dispatch, cache=False)
    rsids = np.full(cfg.players, cautious, np.int64)
    rparams = np.zeros(params.shape)
    rparams[:, :len(cautious_params)] = cautious_params
    arrays, none = cfg.arrays, np.empty(0, np.int64)
    rng = np.random.default_rng(0)
    state = fool.new_state(arrays, params)
    actions = np.empty(games.get("fool").max_actions, np.int64)
    checked, looked = 0, 0
    for game in range(3):
        fool.reset(state, arrays, 7, game, none, False)
        while not is_terminal(state):
            me = int(to_move(state))
            copy = fool.new_state(arrays, params)
            fool.copy_state(state, copy)
            want, plies = reference_choice(copy, arrays, me, model, choose, rsids, rparams,
                                           LOOKAHEAD_PLIES * cfg.players, outputs)
            assert player(state, arrays, sids, params, buf, *outputs) == want
            np.testing.assert_array_equal(state[1][1 + me], copy[1][1 + me])  # one determinization's draws
            checked += 1
            looked += plies > 0
            n = fool.legal_actions(state, arrays, actions)
            fool.apply(state, arrays, int(actions[rng.integers(n)]), none, False)
    assert checked > 50 and looked > checked // 2


def test_learned_plays_whole_games_without_reference_counting_reproducibly():
    """Forks is compiled without numba's reference counting (allocation_free): the game loop with learned seated
    compiles that way and plays the same rows on one thread and on two."""
    assert games.get("forks").allocation_free
    kw = dict(players=4, games=40, seed=3, rotate_seats=True, strategies=["learned", "pusher", "pusher", "pusher"])
    one = api.simulate("forks", threads=1, chunk_size=8, **kw).seats()
    two = api.simulate("forks", threads=2, **kw).seats()
    assert one.equals(two)
    assert one.filter(one["strategy"] == "learned").height == 40 * 4


@pytest.mark.parametrize("content, problem", [
    (b"1, 2, x", "is not a file of numbers"),
    (f"0 {forks.N_FEATURES} 0 1 2".encode(), f"has {forks.N_FEATURES + 4} numbers, got 5"),
    (b"", "one flat list of numbers"),
])
def test_a_bad_model_file_is_one_error_line(tmp_path, content, problem):
    path = tmp_path / "model.txt"
    path.write_bytes(content)
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["simulate", "forks", "--games", "4", "-s", "learned", "--param",
                                      f"learned=@{path}", "--out", str(out)])
    assert result.exit_code != 0
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and problem in lines[0], result.output
    assert not out.exists()


def test_a_npy_model_of_another_game_is_refused(tmp_path):
    path = tmp_path / "model.npy"
    np.save(path, np.zeros(model_size(LINEAR, 7, 0)) + np.array([0, 7, 0] + [0] * 8))
    result = CliRunner().invoke(cli, ["simulate", "forks", "--games", "4", "-s", "learned", "--param",
                                      f"learned=@{path}", "--out", str(tmp_path / "run")])
    assert result.exit_code != 0 and f"reads 7 features; this game has {forks.N_FEATURES}" in result.output


@pytest.mark.parametrize("design", ["linear", "tanh"])
def test_training_is_reproducible_from_its_seed(design):
    """Two tiny expert iterations with one seed fit the same model, a valid one for the game, and validate it."""
    from studies.train import train

    runs = [train("forks", simulate=api.simulate, seed=4, rounds=2, games=3, deals=4, design=design, hidden=3)
            for _ in range(2)]
    a, b = (r.model for r in runs)
    np.testing.assert_array_equal(a, b)
    check_model(a, forks.N_FEATURES)
    assert [r.rows for r in runs[0].rounds] == [r.rows for r in runs[1].rounds] and runs[0].rounds[0].rows > 50
    assert all(0 <= r.share <= 1 for r in runs[0].rounds)


def test_recording_on_several_threads_gives_the_rows_of_one_thread():
    """studies.train.record splits the games into runs of consecutive games, one per thread, and joins them in
    order: the same rows as one thread (Fauch & Fertig, the search expert in every seat). Playing one game less
    changes them, so the comparison can fail."""
    from studies.train import expert_vector, record
    from simulator import games as game_registry

    sset = strategy_set("fauch-fertig")
    config = game_registry.get("fauch-fertig").configure(4)
    sids, params, _ = sset.seats(["mcts@8"], 4, overrides={"mcts@8": expert_vector(sset, 8)})
    one = record(sset, config, sids, params, 3, 5, 5, False)
    for threads in (2, 3):
        many = record(sset, config, sids, params, 3, 5, 5, False, threads)
        np.testing.assert_array_equal(one[0], many[0])
        np.testing.assert_array_equal(one[1], many[1])
    fewer = record(sset, config, sids, params, 3, 6, 4, False, 2)
    assert len(fewer[1]) < len(one[1]) and len(one[1]) > 50


def test_the_look_ahead_plays_the_strongest_heuristic_with_its_defaults_except_in_forks_and_fauch_fertig():
    for game in ("fool", "fair-enough"):
        sset = strategy_set(game)
        sid, params = sset.lookahead
        assert sset.names()[sid] == sset.strongest and params == tuple(sset.all[sid].params)
    assert strategy_set("forks").lookahead == strategy_set("fauch-fertig").lookahead == (-1, ())


def test_the_expert_vector_is_written_out_and_not_read_from_the_strategy_defaults(monkeypatch):
    """The expert's mcts vector is pinned in studies.train: changing mcts's defaults leaves it as it is, and a
    search with a slot the expert does not pin stops training instead of silently taking a default."""
    import studies.train as training

    sset = strategy_set("forks")
    assert training.expert_vector(sset, 64) == [64.0, 0.7, -1.0, 0.0, 1.0]      # Forks: horizon 1 (end of round)
    assert training.expert_vector(strategy_set("fair-enough"), 32) == [32.0, 0.7, -1.0, 0.0, 0.0]
    model = [0.0, 2.0, 0.0, 0.5, 0.25, 0.125]
    assert training.expert_vector(sset, 64, model) == [64.0, training.GUIDED_EXPLORATION, float(sset.learned_sid),
                                                       0.0, 0.0] + model + [training.EXPERT_TEMPERATURE,
                                                                            float(LEARNED_LEAF)]
    sid, mcts = sset.get("mcts")
    sset.builtins[sid] = dataclasses.replace(mcts, params=(512.0, 2.0, 0.0, 3.0, 0.0))   # a fresh set: no leak
    assert sset.search_vector("mcts")[0] == 512.0
    assert training.expert_vector(sset, 64) == [64.0, 0.7, -1.0, 0.0, 1.0]
    monkeypatch.setattr(training, "P_ROLLOUT_PARAMS", 6)
    with pytest.raises(RuntimeError, match="pin the new one"):
        training.expert_vector(sset, 64)


def test_training_takes_its_defaults_from_the_games_descriptor(monkeypatch):
    """`playtest train nim` through the descriptor's hooks: the expert's horizon and where the recorder takes a
    seat's features are the game's ``expert_horizon`` and ``recorded_at_decision``."""
    import types

    import studies.train as training
    from simulator.core.search import P_HORIZON

    def descriptor_says(name, **fields):
        changed = dataclasses.replace(games.get(name), **fields)
        monkeypatch.setattr(training, "game_registry", types.SimpleNamespace(get={name: changed}.__getitem__))

    descriptor_says("fool", expert_horizon=3)
    assert training.expert_vector(strategy_set("fool"), 8)[P_HORIZON] == 3.0
    tiny = dict(simulate=api.simulate, seed=1, rounds=1, games=20, budget=8, deals=20)
    models = {}
    for says in (True, False):
        descriptor_says("nim", recorded_at_decision=says)
        models[says] = training.train("nim", **tiny).model
    monkeypatch.undo()
    assert np.array_equal(models[False], training.train("nim", at_decision=False, **tiny).model)
    assert np.array_equal(models[True], training.train("nim", at_decision=True, **tiny).model)
    assert not np.array_equal(models[True], models[False])   # the pile before the move is not the pile after it
