"""Fool! through the command line: the output contract, replay and a setup table that cannot deal."""

import polars as pl

from cli_support import invoke


def test_simulate_writes_one_row_per_game_and_seat_with_the_fool_columns(tmp_path):
    out = invoke("simulate", "fool", "-p", "5", "-n", "300", "--seed", "4", "-s", "counter", "-s", "random",
                 "-s", "shedder", "-s", "cautious", "-s", "wild_saver", "-o", str(tmp_path / "run"),
                 "--chunk-size", "128")
    assert out.exit_code == 0, out.output
    seats = pl.read_parquet(tmp_path / "run" / "seats" / "*.parquet").sort(["game", "seat"])
    assert seats.height == 300 * 5
    for column in ("game", "seat", "strategy", "score", "rank", "win", "players", "rounds", "tricks_played",
                   "tricks", "tallies", "fooled"):
        assert column in seats.columns
    games = seats.group_by("game").agg(pl.col("tricks").sum(), pl.col("tricks_played").first(),
                                       pl.col("tallies").sum(), pl.col("score").min(), pl.col("win").sum())
    # every trick has one winner; a game ends at -80 or the sixth tally; win shares add up to 1
    assert (games["tricks"] == games["tricks_played"]).all()
    assert ((games["score"] <= -80) | (games["tallies"] >= 6)).all()
    assert (games["win"] - 1).abs().max() < 1e-9


def test_replay_tells_the_game_trick_by_trick():
    out = invoke("replay", "fool", "--seed", "3", "--game", "2", "-p", "7")
    assert out.exit_code == 0, out.output
    lines = out.output.replace("\n  ", " ").splitlines()  # a line wrapped to the width continues indented
    assert "2 Fool! discs" in lines[1]
    tricks = [line for line in lines if line.startswith("trick ")]
    assert tricks and all(" wins, " in t and t.endswith("befooled") and " and " in t.split("wins, ")[1]
                          for t in tricks)
    assert any(line.startswith("deal scores:") for line in lines)
    assert lines[-2].startswith("game over after")


def test_a_setup_that_cannot_deal_evenly_is_refused_with_the_numbers(tmp_path):
    table = tmp_path / "short.toml"
    table.write_text("[players.6]\nblue = [2, 11]\n")
    out = invoke("simulate", "fool", "-p", "6", "-n", "10", "--setup", str(table))
    assert out.exit_code != 0
    assert "6 players" in out.output and "71 cards" in out.output and "72" in out.output
