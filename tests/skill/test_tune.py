"""playtest tune: the optimiser's winner is confirmed on deals the search never used."""

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from analyses import tune as tuning
from playtest import api
from playtest.cli import cli
from playtest.cli_common import parse_params

LEADER = [3.0, 2.0, 1.0, -1.0, -2.0, -2.0, -2.0, -2.0]


def test_the_interval_over_deals_covers_the_true_mean():
    rng = np.random.default_rng(11)
    shares = rng.binomial(4, 0.3, size=(4000, 60)) / 4      # 4000 studies of 60 deals, true mean 0.3
    covered = [(lambda s: s.lo <= 0.3 <= s.hi)(tuning.mean_interval(row)) for row in shares]
    assert abs(np.mean(covered) - 0.95) < 0.015


def test_deal_shares_average_the_rotations_of_each_deal():
    seats = pl.DataFrame({"game": [0, 0, 1, 1], "strategy": ["a", "a", "a", "a"], "win": [1.0, 0.0, 0.5, 0.5]})
    np.testing.assert_allclose(tuning.deal_shares(seats, "a"), [0.5, 0.5])


def test_tune_confirms_on_fresh_deals_and_the_gain_is_the_paired_difference():
    seeds = []

    def simulate(game, **kw):
        seeds.append(kw["seed"])
        return api.simulate(game, **kw)

    r = tuning.tune(simulate, "forks", "leader", LEADER, field="greedy", players=3, budget=4, deals=40,
                    confirm_deals=300, seed=7)
    assert seeds[:4] == [8, 9, 10, 11] and seeds[4:] == [7, 7]      # evaluations never see the confirmation deals
    before = tuning.deal_shares(api.simulate("forks", players=3, games=300, seed=7, rotate_seats=True,
                                             strategies=["leader", "greedy", "greedy"]).seats(), "leader")
    assert abs(r.before.mean - before.mean()) < 1e-12
    assert abs(r.gain.mean - (r.after.mean - r.before.mean)) < 1e-12
    assert r.gain.lo < r.gain.mean < r.gain.hi
    assert len(r.history) == 4 and len(r.tuned) == len(LEADER)


@pytest.mark.parametrize("strategy, default", [("leader", LEADER), ("hedger", [0.5])])
def test_the_tuned_file_is_read_by_param(tmp_path, strategy, default):
    """Vectors of 8 and of 1 parameter (the optimiser's choice depends on the dimension)."""
    out = tmp_path / "tuned.toml"
    result = CliRunner().invoke(cli, ["tune", "forks", strategy, "--field", "greedy", "--players", "3",
                                      "--budget", "3", "-n", "20", "--confirm-deals", "60", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "confirmed on 60 fresh deals" in result.output
    vector = parse_params([f"{strategy}=@{out}"])[strategy]
    assert len(vector) == len(default) and vector != default


def test_tune_refuses_a_strategy_without_parameters_and_writes_nothing(tmp_path):
    out = tmp_path / "t.toml"
    result = CliRunner().invoke(cli, ["tune", "forks", "random", "--field", "greedy", "--out", str(out)])
    assert result.exit_code == 2 and "has no parameters" in result.output and not out.exists()
