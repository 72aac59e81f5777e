"""``playtest search-gain``: the paired gain of one search over another on the same deals, with its interval.

The statistics are checked against a known truth by simulation (per-deal win
shares of two correlated arms, fixed seed); the command's bad input is one
``error:`` line. Playing the arms is ``playtest simulate``, tested elsewhere.
"""

import numpy as np
import polars as pl
from click.testing import CliRunner

from playtest.cli import cli
from studies.search_gain import lineup, paired_gain


def arms(rng, deals, gain):
    """Per-deal win shares (the mean of 4 rotations' 0/1 wins) of a baseline and a new arm that share each deal's
    luck: the new arm wins each game with the deal's probability plus ``gain``."""
    luck = rng.uniform(0.1, 0.6, deals)
    base = rng.binomial(4, luck) / 4
    new = rng.binomial(4, luck + gain) / 4
    games = np.arange(deals)
    return pl.DataFrame({"game": games, "win": new}), pl.DataFrame({"game": games, "win": base})


def test_the_paired_interval_covers_the_true_gain_about_95_percent_of_the_time():
    rng = np.random.default_rng(7)
    covered = 0
    for _ in range(400):
        new, base = arms(rng, 200, 0.05)
        n, mean, half = paired_gain(new, base)
        assert n == 200
        covered += mean - half <= 0.05 <= mean + half
    assert 0.92 <= covered / 400 <= 0.98


def test_deals_are_paired_by_their_number_and_only_shared_deals_count():
    new = pl.DataFrame({"game": [3, 1, 2, 0], "win": [1.0, 0.5, 0.25, 0.0]})
    base = pl.DataFrame({"game": [0, 1, 2, 5], "win": [0.0, 0.25, 0.25, 1.0]})
    n, mean, half = paired_gain(new, base)
    assert n == 3
    assert np.isclose(mean, (0.0 + 0.25 + 0.0) / 3)
    assert half > 0


def test_the_lineup_is_mcts_against_three_of_the_strongest_heuristic():
    assert lineup("fool") == ["mcts", "cautious", "cautious", "cautious"]
    assert lineup("forks", 64) == ["mcts@64", "pusher", "pusher", "pusher"]


def test_an_unknown_game_is_one_error_line():
    result = CliRunner().invoke(cli, ["search-gain", "fool", "nogame", "-n", "4"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [result.output.strip()]
    assert result.output.startswith("error:") and "nogame" in result.output
