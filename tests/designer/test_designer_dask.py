"""survey and cards on the Dask backend (a LocalCluster of 2 worker processes on loopback): the same figures
as on this machine."""

import json
import logging

import pytest
from dask.distributed import Client, LocalCluster

from cli_support import invoke, same_figures


@pytest.fixture(scope="module")
def scheduler():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0", silence_logs=logging.ERROR) as c, Client(c):
        yield c.scheduler_address


def test_cards_on_dask_give_the_local_figures(tmp_path, scheduler):
    args = ("cards", "fool", "-s", "shedder", "-n", 200, "--card", "wild", "--json")
    local = invoke(*args, "--threads", 1)
    assert local.exit_code == 0, local.output
    out = tmp_path / "c"
    remote = invoke(*args, "--backend", "dask", "--scheduler", scheduler, "--out", out)
    assert remote.exit_code == 0, remote.output
    same_figures(json.loads(remote.stdout), json.loads(local.stdout))
    assert json.loads((out / "runs" / "c00" / "manifest.json").read_text())["backend"] == "dask"


def test_survey_on_dask_gives_the_local_rows(scheduler):
    args = ("survey", "forks", "--players", "2,3", "-n", 200, "-s", "greedy", "--json")
    local = invoke(*args, "--threads", 1)
    assert local.exit_code == 0, local.output
    remote = invoke(*args, "--backend", "dask", "--scheduler", scheduler)
    assert remote.exit_code == 0, remote.output
    same_figures(json.loads(remote.stdout), json.loads(local.stdout))
