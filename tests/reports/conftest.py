"""Small Forks runs, a sweep, a tournament and a skill ladder, made once per test session (fixed seeds)."""

import pytest
from click.testing import CliRunner

from analyses import sweep, tournament
from playtest import api, cli_skill
from simulator.core.setup import SetupError

GRID = {
    "players": 4, "games": 600, "seed": 5, "strategies": ["greedy"],
    "setup": {"players": {"4": {"remove": [4, 5, 6], "initial_marketing": [1, 3]}}},
}


@pytest.fixture(scope="session")
def study(tmp_path_factory):
    """Paths of a plain run, a rotated run, a sweep and a tournament."""
    root = tmp_path_factory.mktemp("study")
    api.simulate("forks", players=4, games=2000, seed=1, strategies=["greedy"], out=root / "plain")
    api.simulate("forks", players=3, games=800, seed=2, strategies=["greedy", "random", "random"],
                 rotate_seats=True, out=root / "rotated")
    sweep.sweep(api.simulate, "forks", GRID, root / "sweep", unplayable=(SetupError,))
    tournament.play(api.simulate, "forks", ["greedy", "random"], root / "tournament", players=2, games=500, seed=3)
    return {name: root / name for name in ("plain", "rotated", "sweep", "tournament")}


@pytest.fixture(scope="session")
def ladder_dir(tmp_path_factory):
    """The smallest skill ladder, played by the command line: Forks, budgets 2 and 4, 10 deals per run."""
    out = tmp_path_factory.mktemp("ladder") / "forks"
    result = CliRunner().invoke(cli_skill.ladder, ["forks", "--first", "2", "--levels", "2", "-n", "10",
                                                   "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out
