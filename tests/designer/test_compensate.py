"""playtest compensate against known truth: a planted handicap is recovered within the reported interval."""

import json
from pathlib import Path

import numpy as np

from analyses.compensate import compensate
from analyses.planning import games_for_verdict
from analyses.moments import SeatMoments
from cli_support import invoke


def planted(handicap, sd=4.0, played=None):
    """``evaluate(values, seed, games)`` of a game in which each seat scores a whole number around 0 minus its
    ``handicap``; the knob is added to the score and the best total wins (shared tops share the win). The
    first games of a seed are the same games whatever the count; ``played`` collects ``(seed, games)``."""
    handicap = np.asarray(handicap, dtype=float)

    def evaluate(values, seed, games):
        if played is not None:
            played.append((seed, games))
        rng = np.random.default_rng(seed)
        score = np.round(rng.normal(0, sd, (games, handicap.size))) - handicap + np.asarray(values)
        top = score == score.max(axis=1, keepdims=True)
        return SeatMoments.of_units(top / top.sum(axis=1, keepdims=True))

    return evaluate


def test_a_planted_two_seat_handicap_is_recovered_within_its_interval():
    found = compensate(planted([0, 3]), 2, seed=1, margin=2.0, games=20_000)
    assert found.found and found.values == [0.0, 3.0]
    assert found.low[1] <= 3.0 <= found.high[1] and found.high[1] - found.low[1] <= 2.0
    assert found.verdict.kind == "balanced" and found.confirmed
    assert found.sentence().startswith("Confirmed: seat_bonus = [0, 3] points relative to seat 0 balances the game "
                                       "within ±2.0")
    assert found.snippet() == "[players.2]\nseat_bonus = [0.0, 3.0]\n"


def test_a_table_that_already_balances_the_game_needs_no_compensation():
    fair = compensate(planted([0, 0]), 2, seed=1, margin=2.0, games=20_000)
    assert fair.confirmed and fair.unchanged and fair.values == [0.0, 0.0]
    assert fair.sentence().startswith("No compensation needed: the table as it is (seat_bonus = [0, 0] points "
                                      "relative to seat 0) balances the game within ±2.0")
    # a designer's table that already gives seat 1 the three points it lacks
    given = compensate(planted([0, 3]), 2, start=[0, 3], seed=1, margin=2.0, games=20_000)
    assert given.confirmed and given.unchanged and given.to_dict()["unchanged"]
    moved = compensate(planted([0, 3]), 2, start=[0, 1], seed=1, margin=2.0, games=20_000)
    assert moved.confirmed and not moved.unchanged and moved.sentence().startswith("Confirmed: seat_bonus = [0, 3]")


def test_four_seats_are_solved_together_each_bonus_and_interval_relative_to_seat_0():
    found = compensate(planted([1, 0, 3, 2]), 4, seed=2, games=20_000)
    assert found.found and found.values == [0.0, -1.0, 2.0, 1.0]  # seat 1 is a point ahead of seat 0: it gives one
    for seat in (1, 2, 3):
        assert found.low[seat] <= found.values[seat] <= found.high[seat]
    assert found.confirmation_seed != found.search_seed


def test_a_handicap_beyond_the_range_is_said_plainly():
    found = compensate(planted([0, 15]), 2, seed=3, games=20_000)
    assert not found.found and found.verdict.kind == "unbalanced" and not found.confirmed
    assert found.sentence().startswith("No seat_bonus was confirmed within ±1.0 points: nothing in the searched "
                                       "range (-10 to 10 points per seat) balances the game")


def test_compensate_writes_a_confirmed_table_simulate_accepts_and_json_names_the_strategy(tmp_path):
    out = tmp_path / "fair.toml"
    done = invoke("compensate", "forks", "-p", 2, "-s", "greedy", "-n", 400, "--margin", 8, "--threads", 1, "--out",
                  out, "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result["confirmed"] and result["verdict"]["largest_edge"]["strategy"] == "greedy"
    assert result["players"] == 2 and len(result["seat_bonus"]) == 2 and result["seat_bonus"][0] == 0.0
    assert result["confirmation_seed"] == 1_000_003 and result["verdict"]["verdict"] in ("balanced", "inconclusive",
                                                                                          "unbalanced")
    assert f"seat_bonus = [{result['seat_bonus'][0]}, {result['seat_bonus'][1]}]" in out.read_text()
    again = invoke("simulate", "forks", "-p", 2, "-n", 50, "--setup", out, "--json")
    assert again.exit_code == 0, again.output


def test_a_seat_ahead_of_seat_0_gives_points_on_the_same_basis_as_its_interval():
    found = compensate(planted([2, 0, 0]), 3, seed=5, margin=2.0, games=20_000)
    assert found.confirmed and found.values[0] == 0.0 and found.values[1] == found.values[2] == -2.0
    for seat in (1, 2):  # the bonus and its interval are the same quantity: both below 0, the bonus inside
        assert found.low[seat] <= found.values[seat] <= found.high[seat] < 0
    assert "seat_bonus = [0, -2, -2] points relative to seat 0" in found.sentence()
    assert found.snippet() == "[players.3]\nseat_bonus = [0.0, -2.0, -2.0]\n"


def test_compensate_bad_input_is_one_error_line(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text("# mine\n")
    nan = tmp_path / "nan.toml"
    nan.write_text("[players.2]\nseat_bonus = [nan, 0.0]\n")
    cases = [(["forks", "-p", 2, "--setup", nan], "players.2.seat_bonus[0]: must be a finite"),
             (["fauch-fertig", "-p", 2, "--knob", "eggs"], "--knob eggs: not a per-seat key"),
             (["forks", "-p", 2, "--out", tmp_path / "new.toml", "--knob", "remove"], "--knob remove"),(["forks", "-p", 2, "--knob", "remove"], "--knob remove: not a per-seat key of the [players.2] row"),
             (["forks", "-p", 2, "--out", mine], "already exists"),
             (["forks", "-p", 9], "the table has no row for 9 players"),
             (["forks", "-p", 2, "--low", 3, "--high", 1], "--low 3 must be below --high 1")]
    for args, message in cases:
        refused = invoke("compensate", *args)
        assert refused.exit_code == 2 and refused.output.startswith("error: ") and message in refused.output
        assert refused.output.count("\n") == 1
    assert mine.read_text() == "# mine\n" and not (tmp_path / "new.toml").exists()


def test_the_games_per_evaluation_are_planned_from_the_margin_and_the_seat_count():
    played = []
    found = compensate(planted([0, 1, 2], played=played), 3, seed=4, margin=3.0)
    planned = games_for_verdict(3.0, 3)
    assert found.games == planned and {g for s, g in played if s == 4} == {planned}
    assert games_for_verdict(1.0, 4) > games_for_verdict(2.0, 4) and found.confirmed


def test_an_inconclusive_confirmation_plays_more_games_up_to_the_cap():
    played = []
    capped = compensate(planted([0, 0], played=played), 2, seed=1, margin=2.0, games=400, max_games=1600,
                        step=1.0)
    assert [g for s, g in played if s == capped.confirmation_seed][:3] == [400, 800, 1600]
    assert capped.verdict.kind == "inconclusive" and capped.confirmation_games == capped.verdict.games == 1600
    assert not capped.confirmed and capped.sentence().startswith("No seat_bonus was confirmed")
    played.clear()
    settled = compensate(planted([0, 0], played=played), 2, seed=1, margin=2.0, games=2000, max_games=32_000,
                         step=1.0)
    confirm = [g for s, g in played if s == settled.confirmation_seed]
    assert confirm[0] == 2000 and len(confirm) > 1 and settled.confirmed and settled.confirmation_games < 32_000


def test_a_refused_compensation_writes_nothing_and_says_so_in_one_sentence(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short relative path: the line naming it must fit 80 columns, whatever pytest's tmp_path
    out = Path("fe.toml")
    done = invoke("compensate", "forks", "-p", 2, "-s", "greedy", "-n", 100, "--max-games", 100, "--margin", 0.25,
                  "--threads", 1, "--out", out)
    assert done.exit_code == 0, done.output
    first = done.stdout.splitlines()[0]
    assert first.startswith("No seat_bonus was confirmed within ±0.25 points") and not out.exists()
    assert "Nothing written to" in done.stdout and max(len(line) for line in done.stdout.splitlines()) <= 80
    assert "seat_bonus, points" in done.stdout and "held" in done.stdout and "Setup-table lines" not in done.stdout
    progress = done.stderr.splitlines()  # a log: one line per stage, not one per evaluation
    assert 2 <= len(progress) <= 3 and progress[0] == "searching on the search deals: 100 games per evaluation"
    kept = invoke("compensate", "forks", "-p", 2, "-s", "greedy", "-n", 100, "--max-games", 100, "--margin", 0.25,
                  "--threads", 1, "--out", out, "--write-unconfirmed", "--json")
    assert kept.exit_code == 0, kept.output
    assert json.loads(kept.stdout)["confirmed"] is False and "# UNCONFIRMED: No seat_bonus" in out.read_text()
    again = invoke("simulate", "forks", "-p", 2, "-n", 20, "--setup", out, "--json")
    assert again.exit_code == 0, again.output
