"""seat_bonus: the kernels' ranks and wins with a bonus equal those the reference engines compute themselves,
in every game; bad bonuses are refused with one line."""

import numpy as np
import pytest

from playtest import api
from simulator.core.batch import play_chunk, trace_one
from simulator.core.setup import SetupError

GAMES = 150
BONUS = {"forks": [0.0, 0.5, -1.5, 2.0], "fool": [0.5, -1.0, 1.5, 0.0], "fair-enough": [0.0, 0.5, -2.0, 1.0],
         "fauch-fertig": [0.0, 0.5, -1.0, 1.0]}
STRATEGY = {"forks": "greedy", "fool": "random", "fair-enough": "random", "fauch-fertig": "random"}


def reference_ranks(game, ref, bonus):
    """Ranks (1 = best, ties share) from the reference engine's own result and the bonus in thousandths."""
    thousandths = [round(1000 * b) for b in bonus]
    if game == "fauch-fertig":
        return ref.ranks  # the reference ranks eggs placed plus the bonus, then coins
    if game == "fair-enough":
        key = ref.standing  # score plus bonus, then the largest set
    else:
        points = ref.scores if game == "forks" else ref.totals
        key = [1000 * p + b for p, b in zip(points, thousandths)]
    return [1 + sum(o > k for o in key) for k in key]


@pytest.mark.parametrize("game", sorted(BONUS))
def test_ranks_with_a_seat_bonus_match_the_reference_engine(game):
    bonus = BONUS[game]
    spec, sset = api.prepare(game, players=4, strategies=[STRATEGY[game]], seed=3, games=GAMES,
                             setup={"players": {"4": {"seat_bonus": bonus}}})
    plain, _ = api.prepare(game, players=4, strategies=[STRATEGY[game]], seed=3, games=GAMES)
    run_chunk, trace_game = sset.kernels()
    batch = play_chunk(spec, run_chunk, 0, GAMES).sort(["game", "seat"])
    without = play_chunk(plain, run_chunk, 0, GAMES).sort(["game", "seat"])
    assert (batch["score"] == without["score"]).all()  # the bonus changes the ranking, not the play
    assert (batch["rank"] != without["rank"]).any()    # ... and it does change some rankings
    ranks = batch["rank"].to_numpy().reshape(GAMES, 4)
    wins = batch["win"].to_numpy().reshape(GAMES, 4)
    for g in range(GAMES):
        trace, *_ = trace_one(spec, trace_game, g)
        expected = reference_ranks(game, spec.game.reference(spec.config, trace), bonus)
        assert ranks[g].tolist() == expected, f"game {g}"
        top = np.array(expected) == 1
        assert np.allclose(wins[g], top / top.sum())


@pytest.mark.parametrize("bonus, where", [([0.0, 1.0], "players.4.seat_bonus: must list 4 numbers"),
                                          ([0, 0, float("nan"), 0], "players.4.seat_bonus[2]: must be a finite"),
                                          ([0, 0, "1", 0], "players.4.seat_bonus[2]"),
                                          ([0, 0, 0, 5000], "players.4.seat_bonus[3]")])
def test_a_bad_seat_bonus_is_refused_naming_it(bonus, where):
    with pytest.raises(SetupError, match=where.replace("[", r"\[").replace("]", r"\]")):
        api.prepare("forks", players=4, setup={"players": {"4": {"seat_bonus": bonus}}})


def test_the_command_line_refuses_a_bad_seat_bonus_in_one_line(tmp_path):
    from click.testing import CliRunner

    from playtest.cli import cli

    for text, message in (("[players.2]\nseat_bonus = [0.0, nan]\n", "players.2.seat_bonus[1]: must be a finite"),
                          ("[players.2]\nseat_bonus = [0.5]\n", "players.2.seat_bonus: must list 2 numbers")):
        setup = tmp_path / "bonus.toml"
        setup.write_text(text)
        out = tmp_path / "run"
        refused = CliRunner().invoke(cli, ["simulate", "forks", "-p", "2", "-n", "10", "--setup", str(setup),
                                           "--out", str(out)])
        assert refused.exit_code == 2 and refused.output.startswith("error: setup table: ") and message in \
            refused.output and refused.output.count("\n") == 1
        assert not out.exists()
