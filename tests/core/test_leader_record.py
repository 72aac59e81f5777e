"""``leader_record=False`` (``--no-leader-record``): the leader columns hold 0, every other column is unchanged,
a resumed run keeps its choice, and the report says that no comeback curve was recorded."""

import json

import polars as pl
import pytest

from analyses import comeback
from playtest import api
from simulator.core import output
from simulator.core.batch import RunError
from simulator.core.leaders import COLUMNS
from tests.cli_support import invoke

RUN = dict(players=3, games=600, chunk_size=300, seed=11, strategies=["pusher", "greedy", "random"])


def rows(out):
    return pl.read_parquet(out / "seats" / "*.parquet").sort(["game", "seat"])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("leaders")
    api.simulate("forks", out=base / "on", **RUN)
    api.simulate("forks", out=base / "off", leader_record=False, **RUN)
    return base / "on", base / "off"


def test_without_the_record_the_leader_columns_are_zero_and_every_other_column_is_the_same(runs):
    on, off = rows(runs[0]), rows(runs[1])
    assert (on.select(COLUMNS).to_numpy() != 0).any()  # Forks has rounds: the default records leaders
    assert (off.select(COLUMNS).to_numpy() == 0).all()
    assert on.drop(COLUMNS).equals(off.drop(COLUMNS))
    assert comeback.leaders_recorded(on) and not comeback.leaders_recorded(off)
    assert comeback.feel_rows(off) == [] and comeback.feel_rows(on) != []


def test_the_manifest_keeps_the_choice_and_resume_refuses_to_change_it(runs, tmp_path):
    on, off = runs
    assert output.read_manifest(on)["leader_record"] is True
    assert output.read_manifest(off)["leader_record"] is False
    with pytest.raises(RunError, match="leader_record"):
        api.simulate("forks", out=off, resume=True, **RUN)


def test_a_run_written_before_the_option_resumes_as_one_that_records_leaders(runs, tmp_path):
    out = tmp_path / "old"
    api.simulate("forks", out=out, **RUN)
    manifest = json.loads((out / output.MANIFEST).read_text())
    del manifest["leader_record"]
    output.write_manifest(out, manifest)
    api.simulate("forks", out=out, resume=True, **RUN)
    assert rows(out).equals(rows(runs[0]))


def test_the_command_line_flag_reaches_the_run_and_the_report_says_there_is_no_curve(tmp_path):
    out = tmp_path / "run"
    result = invoke("simulate", "forks", "--players", 3, "--games", 300, "--seed", 2, "--no-leader-record",
                    "--out", out)
    assert result.exit_code == 0, result.output
    assert output.read_manifest(out)["leader_record"] is False
    report = tmp_path / "report.html"
    assert invoke("report", out, "--out", report).exit_code == 0
    assert "No leader after a round was recorded" in report.read_text()
