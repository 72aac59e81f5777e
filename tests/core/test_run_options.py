"""The run options travel as one record: the command line and the API build equal ``RunOptions``, bad input is
refused when the record is built (one line, nothing written), and the record reaches the run unchanged."""

import pickle

import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from playtest import api
from playtest.cli import cli
from simulator.core.rundir import RunError
from simulator.core.run_options import RunOptions
from simulator.core.setup import SetupError
from studies import runs

SETUP = '[players.3]\nseat_bonus = [0.5, 0.0, 0.0]\n'


def seated(monkeypatch):
    """Record every ``RunOptions`` that reaches ``studies.runs.prepare`` (the one door into a run)."""
    seen = []
    prepare = runs.prepare

    def spy(options):
        seen.append(options)
        return prepare(options)

    monkeypatch.setattr(runs, "prepare", spy)
    return seen


def test_the_command_line_and_the_api_build_equal_records(monkeypatch, tmp_path):
    (tmp_path / "table.toml").write_text(SETUP)
    monkeypatch.chdir(tmp_path)  # a relative setup path, as a user types it
    seen = seated(monkeypatch)
    result = CliRunner().invoke(cli, ["simulate", "forks", "--players", "3", "--games", "40", "--seed", "9",
                                      "-s", "greedy", "-s", "hedger", "-s", "random", "--param", "hedger=0.25",
                                      "--setup", "table.toml", "--chunk-size", "16", "--threads", "1"])
    assert result.exit_code == 0, result.output
    api.simulate("forks", players=3, games=40, seed=9, strategies=["greedy", "hedger", "random"],
                 params={"hedger": [0.25]}, setup=tmp_path / "table.toml", chunk_size=16, threads=1)
    from_cli, from_api = seen
    assert from_cli == from_api
    assert from_cli.setup == {"players": {"3": {"seat_bonus": [0.5, 0.0, 0.0]}}} and from_cli.params == {"hedger": (0.25,)}
    assert from_cli.strategies == ("greedy", "hedger", "random") and from_cli.threads == 1


def test_a_record_passed_to_the_api_reaches_the_run_unchanged(monkeypatch):
    record = RunOptions("forks", players=3, games=30, seed=4, strategies=["greedy", "random", "random"])
    seen = seated(monkeypatch)
    run = api.simulate(record)
    assert seen == [record] and seen[0] is record
    assert run.manifest["seed"] == 4 and run.manifest["games"] == 30
    assert_frame_equal(run.seats(), api.simulate("forks", players=3, games=30, seed=4,
                                                 strategies=["greedy", "random", "random"]).seats())


def test_a_record_and_a_run_keyword_beside_it_are_refused():
    with pytest.raises(RunError, match="give seed in it, not beside it"):
        api.simulate(RunOptions("forks", players=3, games=10), seed=3)


@pytest.mark.parametrize("changes, message", [
    ({"seed": -1}, "the seed must be a whole number from 0"),
    ({"seed": 2 ** 63}, "the seed must be a whole number from 0"),
    ({"games": 0}, "the number of games must be a whole number of at least 1"),
    ({"games": 2.5}, "the number of games must be a whole number of at least 1"),
    ({"chunk_size": True}, "the chunk size must be a whole number of at least 1"),
    ({"threads": 10_000}, "the number of threads must be from 1 to"),
    ({"rotate_seats": "yes"}, "rotate_seats must be True or False"),
    ({"strategies": []}, "strategies must be one strategy name or one per seat"),
    ({"params": {3: [1.0]}}, "params must map strategy names"),
])
def test_bad_values_are_refused_when_the_record_is_built(changes, message):
    with pytest.raises(RunError, match=message) as caught:
        RunOptions("forks", **changes)
    assert "\n" not in str(caught.value)


def test_a_bad_table_is_refused_when_the_record_is_built(tmp_path):
    with pytest.raises(SetupError, match="file not found"):
        RunOptions("forks", setup=tmp_path / "missing.toml")
    with pytest.raises(SetupError):
        RunOptions("forks", players=9)  # no setup row for nine players


def test_bad_input_on_the_command_line_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "run"
    result = CliRunner().invoke(cli, ["simulate", "forks", "--threads", "10000", "--games", "10",
                                      "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and result.output.startswith("error: the number of threads")
    assert not out.exists()


def test_a_record_pickles_whole_for_the_dask_workers():
    record = RunOptions("fool", games=50, seed=3, strategies=["random"], setup={})
    back = pickle.loads(pickle.dumps(record))
    assert back == record and back.config.arrays[0].tobytes() == record.config.arrays[0].tobytes()
