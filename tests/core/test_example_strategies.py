"""Every game ships an example strategy file (its descriptor's ``example_strategy``, in docs/examples/): it
loads with the game's decision signature, plays complete games seated against three ``random`` seats, and
wins more often than random (the paired 95% interval of its win share minus random's above 0), as the tutorial
(docs/tutorials/own-strategy.md) says; all but Forks's ``contrarian``, which the tutorial shows losing."""

from pathlib import Path

import pytest

from analyses.paired import strategy_differences
from playtest import api
from simulator import games
from studies.bench.processes import strategy_name

ROOT = Path(__file__).parents[2]
EXAMPLES = {name: ROOT / games.get(name).example_strategy for name in games.names()
            if games.get(name).example_strategy}


def test_every_game_ships_an_example_strategy():
    assert set(EXAMPLES) == {"forks", "fool", "fair-enough", "fauch-fertig"}
    assert all(path.is_file() for path in EXAMPLES.values())


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_the_example_plays_whole_games_and_wins_as_the_tutorial_says(game):
    name = strategy_name(EXAMPLES[game])
    run = api.simulate(game, players=4, games=300, seed=5, strategy_files=[EXAMPLES[game]],
                       strategies=[name, "random", "random", "random"], rotate_seats=True)
    seats = run.seats()
    assert seats.height == 300 * 4 * 4
    (row,) = strategy_differences(seats).iter_rows(named=True)
    assert {row["a"], row["b"]} == {name, "random"}
    sign = 1 if row["a"] == name else -1           # the example's win share minus random's
    low, high = sorted((sign * row["low"], sign * row["high"]))
    assert (high < 0) if name == "contrarian" else (low > 0), row
