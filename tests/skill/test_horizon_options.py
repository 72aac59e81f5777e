"""``playtest ladder`` and ``playtest restrict`` play the search player at the horizon ``--horizon`` gives, the
game's default without it, and refuse a horizon the game has no evaluation points for before anything is played."""

import json

import pytest
from click.testing import CliRunner

from playtest import cli_skill
from playtest.cli import cli


def search_rows(run_dir):
    """Every ``mcts`` seat's parameter vector in a run's manifest."""
    manifest = json.loads((run_dir / "manifest.json").read_text())
    return [v for name, v in zip(manifest["strategies"], manifest["strategy_params"]) if name.startswith("mcts")]


def test_the_ladder_plays_and_records_the_horizon_it_is_given(tmp_path):
    for horizon, args in ((1, []), (0, ["--horizon", "0"])):   # Forks's default is 1
        out = tmp_path / f"ladder-{horizon}"
        result = CliRunner().invoke(cli_skill.ladder, ["forks", "--first", "2", "--levels", "1", "-n", "10",
                                                       "--no-report", "--out", str(out), *args])
        assert result.exit_code == 0, result.output
        assert f"(mcts@budget, horizon {horizon})" in result.output
        assert json.loads((out / "ladder.json").read_text())["horizon"] == horizon
        for run in ("00002-below", "00002-field", "00002-seats"):
            rows = search_rows(out / run)
            assert rows and all(row[4] == horizon for row in rows), (run, rows)


def test_restrict_plays_every_seat_at_the_horizon_it_is_given():
    result = CliRunner().invoke(cli_skill.restrict, ["forks", "--forbid", "market-held", "--agent", "mcts@2",
                                                     "-n", "10", "--horizon", "0", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["horizon"] == 0


@pytest.mark.parametrize("args", [["ladder", "fair-enough", "-o", "l"], ["restrict", "fauch-fertig", "--forbid", "blind"],
                                  ["ladder", "forks", "-o", "l", "--horizon", "-1"]])
def test_a_horizon_the_game_cannot_play_is_refused_in_one_line_before_anything_is_played(tmp_path, monkeypatch,
                                                                                          args):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args + ([] if "--horizon" in args else ["--horizon", "1"]))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "horizon" in lines[0], result.output
    assert list(tmp_path.iterdir()) == []
