"""playtest survey: the rows and the recommendation against known truth, the command end to end, bad input."""

import json

import numpy as np
import polars as pl

from analyses.survey import balanced_counts, closest, count_list, recommendation, summarise_count
from cli_support import invoke, same_figures

COLUMNS = ["game", "seat", "strategy", "score", "rank", "win", "players", "rounds"]


def planted_frame(players, first_share, games=20_000, seed=5):
    """Games in which seat 0 wins with probability ``first_share`` and the others share the rest evenly."""
    rng = np.random.default_rng(seed)
    others = (1 - first_share) / (players - 1)
    winner = rng.choice(players, size=games, p=[first_share] + [others] * (players - 1))
    seat = np.tile(np.arange(players), games)
    won = (seat == np.repeat(winner, players)).astype(float)
    return pl.DataFrame({"game": np.repeat(np.arange(games), players), "seat": seat, "strategy": ["x"] * seat.size,
                         "score": won, "rank": np.where(won == 1, 1, 2), "win": won,
                         "players": np.full(seat.size, players), "rounds": np.full(seat.size, 3)})


def test_a_planted_first_seat_edge_is_found_and_its_interval_covers_the_truth():
    row = summarise_count(planted_frame(2, 0.56), 2)
    assert row["verdict"] == "unbalanced" and row["shown_seat"] in (0, 1)
    assert row["first_seat_edge_lo"] < 0.06 < row["first_seat_edge_hi"]
    assert row["max_edge_lo"] <= 0.06 <= row["max_edge_hi"]
    fair = summarise_count(planted_frame(3, 1 / 3, seed=6), 3, margin=3.0)
    assert fair["verdict"] == "balanced" and fair["first_seat_edge_lo"] < 0 < fair["first_seat_edge_hi"]


def test_the_recommendation_follows_from_the_intervals():
    rows = [summarise_count(planted_frame(3, 0.43), 3, 3.0), summarise_count(planted_frame(4, 0.25, seed=7), 4, 3.0),
            summarise_count(planted_frame(5, 0.20, seed=8), 5, 3.0)]
    assert rows[0]["shown_seat"] == 0 and rows[0]["shown_edge_lo"] < 0.43 - 1 / 3 < rows[0]["shown_edge_hi"]
    lo, hi = 100 * rows[0]["shown_edge_lo"], 100 * rows[0]["shown_edge_hi"]
    assert recommendation(rows, 3.0) == (f"Balanced within ±3.0 points at 4-5 players. At 3 players the first "
                                         f"player is favoured by {lo:.1f} to {hi:.1f} points.")


def test_recommendation_words_for_each_kind():
    rows = [{"players": 2, "verdict": "unbalanced", "shown_seat": 0, "shown_edge_lo": 0.04, "shown_edge_hi": 0.07},
            {"players": 3, "verdict": "balanced"}, {"players": 4, "verdict": "balanced"},
            {"players": 5, "verdict": "unbalanced", "shown_seat": 4, "shown_edge_lo": -0.05, "shown_edge_hi": -0.02},
            {"players": 6, "verdict": "inconclusive", "games_needed": 12_000}]
    assert recommendation(rows, 1.0) == ("Balanced within ±1.0 points at 3-4 players. At 2 players the first "
                                         "player is favoured by 4.0 to 7.0 points; at 5 players seat 4 is behind "
                                         "by 2.0 to 5.0 points; inconclusive at 6 players (up to about 12,000 "
                                         "games per count would settle it).")
    assert count_list([2, 3, 4, 6, 8, 9]) == "2-4, 6 and 8-9"


def test_when_no_count_is_balanced_the_answer_says_so_and_names_the_closest():
    rows = [summarise_count(planted_frame(2, 0.60), 2), summarise_count(planted_frame(3, 0.40, seed=6), 3),
            summarise_count(planted_frame(4, 0.35, seed=7), 4)]
    assert [r["verdict"] for r in rows] == ["unbalanced"] * 3 and balanced_counts(rows) == []
    near = closest(rows)
    assert near["players"] == 3 and near["low_points"] < 100 * (0.40 - 1 / 3) < near["high_points"]
    assert recommendation(rows).startswith(
        f"No player count is balanced within ±1.0 points; the closest is 3 players, whose largest seat edge is "
        f"{near['largest_edge_points']:.1f} points ({near['low_points']:.1f} to {near['high_points']:.1f}). At 2 "
        f"players the first player is favoured by")
    fair = summarise_count(planted_frame(3, 1 / 3, seed=6), 3, margin=3.0)
    assert balanced_counts([rows[0], fair]) == [3] and closest([rows[0], fair])["players"] == 3


def test_survey_end_to_end_json_report_and_resume(tmp_path):
    out = tmp_path / "s"
    done = invoke("survey", "forks", "--players", "2,3", "-n", 300, "-s", "greedy", "--threads", 1, "--out", out,
                  "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert isinstance(result, list) and [c["players"] for c in result] == [2, 3]
    for c in result:
        assert c["verdict"] in ("balanced", "unbalanced", "inconclusive")
        assert c["largest_edge"]["low"] <= c["largest_edge"]["estimate"] <= c["largest_edge"]["high"]
        assert c["first_seat_edge"]["low"] <= c["first_seat_edge"]["estimate"] <= c["first_seat_edge"]["high"]
        assert c["feel"]["mean_rounds"]["estimate"] == 4.0  # two or three players: four rounds (Forks rules)
    written = json.loads((out / "survey.json").read_text())
    assert written["recommendation"].endswith(".") and written["closest"]["players"] in (2, 3)
    assert written["balanced_counts"] == [c["players"] for c in result if c["verdict"] == "balanced"]
    assert written["rows"][0]["max_edge_points"] == result[0]["largest_edge"]["estimate"]
    shown = invoke("survey", "forks", "--players", "2,3", "-n", 300, "-s", "greedy", "--threads", 1)
    lines = shown.stdout.splitlines()
    assert shown.exit_code == 0 and " ".join(lines).startswith(written["recommendation"].split(". ")[0])
    assert max(len(line) for line in lines) <= 80 and "verdict" in shown.stdout
    # every game of Forks at two or three players lasts four rounds: the figure, not an interval of no width
    said = " ".join(shown.stdout.split())
    assert said.count("4.00 (every") == 2 and "(4.00 to" not in said   # the cell may wrap in its column
    assert (out / "report.html").is_file() and (out / "runs" / "p3" / "manifest.json").is_file()
    again = invoke("survey", "forks", "--players", "2,3", "-n", 300, "-s", "greedy", "--threads", 1, "--out", out,
                   "--resume", "--json", "--no-report")
    assert again.exit_code == 0
    same_figures(json.loads(again.stdout), result)


def test_bad_input_is_one_error_line_and_writes_nothing(tmp_path):
    out = tmp_path / "s"
    lacking = invoke("survey", "forks", "--players", "2,7", "-n", 100, "--out", out)
    assert lacking.exit_code == 2 and lacking.output.startswith("error: ") and lacking.output.count("\n") == 1
    assert "7" in lacking.output and not out.exists()
    words = invoke("survey", "forks", "--players", "two", "--out", out)
    assert words.exit_code == 2 and words.output.startswith("error: --players 'two'") and not out.exists()
    for text, message in (("[players.3]\nseat_bonus = [0.0, nan, 0.0]\n", "players.3.seat_bonus[1]: must be a finite"),
                          ("[players.2]\nseat_bonus = [0.5]\n", "players.2.seat_bonus: must list 2 numbers")):
        setup = tmp_path / "bonus.toml"
        setup.write_text(text)
        bonus = invoke("survey", "forks", "--players", "2,3", "-n", 100, "--setup", setup, "--out", out)
        assert bonus.exit_code == 2 and bonus.output.startswith("error: ") and message in bonus.output, bonus.output
        assert bonus.output.count("\n") == 1 and not out.exists()
    nothing = invoke("survey", "forks", "--players", "2", "-n", 100, "--out", out, "--resume")
    assert nothing.exit_code == 2 and "holds no survey to continue" in nothing.output and not out.exists()
    out.mkdir()
    (out / "mine.txt").write_text("keep")
    foreign = invoke("survey", "forks", "--players", "2", "-n", 100, "--out", out, "--force")
    assert foreign.exit_code == 2 and "mine.txt" in foreign.output and (out / "mine.txt").read_text() == "keep"
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]
