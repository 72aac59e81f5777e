"""Training for a designer's own table (``playtest train --setup --variant --players``), the model file's record of
what it was trained for, the verdict's line when a model plays another table, and the kept generations of expert
iteration. On the example game (Nim), with tiny budgets."""

import json

import numpy as np
import pytest

from playtest import api
from simulator import games
from simulator.core.search import LEARNED_LEAF
from strategies import model_files
from strategies.learned import weights_path
from cli_support import assert_refused, invoke, tree

TABLE = {"pile": {"min": 9, "max": 13}}   # smaller piles than the default table's 15 to 25


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    out = tmp_path_factory.mktemp("model") / "nim-small.npy"
    result = api.train("nim", seed=2, rounds=3, games=20, budget=8, deals=20, players=2, setup=TABLE, out=out,
                       command="playtest train nim --setup small.toml")
    return out, result


def test_the_model_file_records_the_game_table_players_and_command(trained):
    out, result = trained
    info = json.loads(out.with_suffix(".json").read_text())
    own = games.get("nim").configure(2, "standard", TABLE).setup
    assert info == {"game": "nim", "players": 2, "variant": "standard", "command": "playtest train nim --setup small.toml",
                    "setup_digest": model_files.table_digest(own)}
    assert info["setup_digest"] != model_files.table_digest(games.get("nim").configure(2).setup)
    np.testing.assert_array_equal(np.load(out), result.info["model"])


def test_a_generation_is_kept_only_when_it_beats_the_kept_one_paired(trained):
    rounds = result_rounds = trained[1].info["training"].rounds
    assert rounds[0].kept and rounds[0].gain is None
    for r in result_rounds[1:]:
        assert r.gain is not None and r.gain[1] <= r.gain[0] <= r.gain[2]
        assert r.kept == (r.gain[1] > 0)
    kept = [r.round for r in rounds if r.kept]
    assert trained[1].info["best"] == kept[-1]


@pytest.mark.parametrize("delta, low, high", [(0.0, 0.005, 0.06), (0.03, 0.9, 1.0)])
def test_the_gate_keeps_a_level_generation_about_one_time_in_40_and_a_better_one_nearly_always(delta, low, high):
    """Known truth: 400 validations of 2,000 deals, each deal's share of the kept model and of the new generation
    (4 rotations) drawn around the same deal strength, the new one ``delta`` stronger. A level generation
    passes the gate (paired interval above 0) about 2.5% of the time (a mean above 0 would pass half); one
    3 points stronger nearly always."""
    from studies.train import paired_gain

    rng = np.random.default_rng(20261206)
    kept = 0
    for _ in range(400):
        strength = rng.beta(4, 6, 2000)
        before = rng.binomial(4, strength) / 4
        after = rng.binomial(4, np.clip(strength + delta, 0, 1)) / 4
        kept += paired_gain(after, before)[1] > 0
    assert low <= kept / 400 <= high


def test_later_rounds_record_games_of_the_guided_search():
    """Round 1's expert is ``expert`` (the search with the learned leaf and prior), not mcts with rollouts."""
    import studies.train as training
    from strategies.games import strategy_set

    sset = strategy_set("nim")
    model = list(np.load(weights_path("nim")))
    vector = training.expert_vector(sset, 32, model)
    assert vector == [32.0, training.GUIDED_EXPLORATION, float(sset.learned_sid), 0.0, 0.0] + model + [
        training.EXPERT_TEMPERATURE, float(LEARNED_LEAF)]
    sids, params, names = sset.seats(["expert@32"], 2, overrides={"expert@32": vector})
    assert list(sids) == [sset.search_sid] * 2 and names == ["expert@32"] * 2


def verdict_lines(model, players=2, setup=None):
    """The verdict's "cannot tell" lines of ``learned`` playing the model file ``model`` (read as ``--param
    learned=@FILE.npy`` reads it) against ``random``."""
    vector = [float(x) for x in model_files.read(model)]
    run = api.simulate("nim", players=players, games=40, seed=1, strategies=["learned"] + ["random"] * (players - 1),
                       params={"learned": vector}, setup=setup)
    return [line.strip() for line in api.verdict(run).lines() if "cannot tell" in line]


def test_a_model_on_another_table_or_player_count_adds_one_cannot_tell_line(trained):
    out, _ = trained
    assert len(verdict_lines(out, setup=TABLE)) == 1       # its own table: the usual line only
    other = verdict_lines(out)                              # the default table
    assert len(other) == 2 and "`learned`" in other[1] and "another setup table" in other[1]
    three = verdict_lines(out, players=3, setup=TABLE)
    assert len(three) == 2 and "2 players" in three[1] and "another setup table" not in three[1]


def test_playtest_simulate_prints_the_line_under_its_verdict():
    """What the terminal shows, not only the verdict object: Fool!'s shipped model was trained for 4 players."""
    result = invoke("simulate", "fool", "-p", 5, "-s", "learned", "--games", 40, "--seed", 1)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "cannot tell: how `learned` would play with a model trained for this table (its model was trained " \
           "for 4 players;" in text
    assert "with a model trained" not in " ".join(invoke("simulate", "fool", "-s", "learned", "--games", 40,
                                                         "--seed", 1).stdout.split())


def test_the_shipped_models_record_their_table():
    for game in ("forks", "fool", "fair-enough", "fauch-fertig", "nim"):
        g = games.get(game)
        info = json.loads(model_files.sidecar(weights_path(game)).read_text())
        assert info["game"] == game and info["players"] == g.default_players
        assert info["setup_digest"] == model_files.table_digest(g.configure(g.default_players).setup)


@pytest.fixture(scope="module")
def started(tmp_path_factory):
    """Two rounds of expert iteration on the default Nim table, starting from the shipped model, with every
    expert vector the rounds record with kept."""
    import studies.train as training

    start = np.load(weights_path("nim"))
    vectors = []
    original = training.expert_vector

    def spy(sset, budget, model=None):
        vectors.append(None if model is None else np.asarray(model, np.float64).copy())
        return original(sset, budget, model)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(training, "expert_vector", spy)
        result = api.train("nim", seed=3, rounds=2, games=20, budget=8, deals=20, start=start)
    return start, vectors, result


def test_training_from_a_model_validates_it_first_and_keeps_it_as_round_minus_one(started):
    start, _, result = started
    rounds = result.info["training"].rounds
    assert [r.round for r in rounds] == [-1, 0, 1]
    assert rounds[0].rows == 0 and rounds[0].kept and rounds[0].gain is None
    np.testing.assert_array_equal(rounds[0].model, start)
    assert all(r.gain is not None and r.kept == (r.gain[1] > 0) for r in rounds[1:])   # round 0 is gated too
    assert result.to_polars()["round"].to_list() == [-1, 0, 1]


def test_round_0_of_a_started_training_records_the_search_guided_by_the_starting_model(started):
    start, vectors, _ = started
    assert vectors[0] is not None                      # not mcts with random rollouts
    np.testing.assert_array_equal(vectors[0], start)


def test_the_result_of_a_started_training_is_its_last_kept_generation(started):
    start, _, result = started
    training = result.info["training"]
    best = [r for r in training.rounds if r.kept][-1]
    assert result.info["best"] == best.round
    expected = start if best.round < 0 else training.model
    np.testing.assert_array_equal(result.info["model"], expected)


def test_a_starting_model_of_another_game_is_refused_before_any_game(tmp_path):
    wrong = tmp_path / "fool.npy"
    np.save(wrong, np.load(weights_path("fool")))
    before = tree(tmp_path)
    result = invoke("train", "forks", "--start", wrong, "--rounds", "1", "--games", "2", "--budget", "2",
                    "--deals", "2", "--out", tmp_path / "m.npy")
    assert_refused(result, "starting model", "features")
    assert tree(tmp_path) == before
    text = tmp_path / "notes.npy"
    text.write_text("not a model\n")
    assert_refused(invoke("train", "forks", "--start", text, "--out", tmp_path / "m.npy"), "--start", "not a model")
