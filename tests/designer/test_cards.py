"""playtest cards: an overwhelmingly strong card is named first; bad input is one error line."""

import json


from cli_support import invoke

STRONG = """[deck]
values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 40]
[players.4]
time_cards = [100, 100, 100, 100, 100, 100]
"""


def test_an_overwhelmingly_strong_card_is_named_first(tmp_path):
    setup = tmp_path / "strong.toml"
    setup.write_text(STRONG)  # nine cards worth 40 points among cards worth 1 to 9, time enough to place them
    report = tmp_path / "cards.html"
    done = invoke("cards", "fair-enough", "-p", 4, "-s", "banker", "-n", 600, "--threads", 1, "--setup", setup,
                  "--card", "value 1", "--card", "value 40", "--card", "queue", "--card", "value 5",
                  "--report", report, "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result["effects"][0]["card"] == "value 40"
    kinds = {r["card"]: r["kind"] for r in result["effects"]}
    assert kinds.pop("queue (played)") == "observational" and set(kinds.values()) == {"causal"}
    assert result["sentences"][0].startswith("Removing value 40 (the 40s of every kind left out) changes")
    spread = next(r for r in result["effects"] if r["card"] == "value 40" and r["measure"] == "mean score spread")
    assert spread["high"] < -10  # the spread falls by far more than ten points of score without the 40s
    assert report.is_file() and (tmp_path / "cards-data" / "card-effects.csv").is_file()


def test_cards_bad_input_is_one_error_line(tmp_path):
    mine = tmp_path / "mine.html"
    mine.write_text("mine")
    cases = [(["fair-enough", "-p", 4, "--card", "joker"], "no card 'joker' in the fair-enough table at 4 players"),
             (["fool", "-p", 4], "does not know the cards of fool"),
             (["fair-enough", "-p", 4, "--report", mine], "does not write over a file"),
             (["fair-enough", "-p", 9], "players")]
    for args, message in cases:
        refused = invoke("cards", *args)
        assert refused.exit_code == 2 and refused.output.startswith("error: ") and message in refused.output, \
            refused.output
        assert refused.output.count("\n") == 1
    assert mine.read_text() == "mine"


def test_the_observational_share_recovers_a_planted_association():
    import numpy as np
    import polars as pl

    from analyses.cards import held_effects

    rng = np.random.default_rng(4)
    games = 5000
    holder = rng.integers(0, 2, games)             # one seat of two plays a Queue in every game
    holder_wins = rng.random(games) < 0.7          # and wins 70% of the time: 40 points over the other seat
    winner = np.where(holder_wins, holder, 1 - holder)
    seat = np.tile([0, 1], games)
    frame = pl.DataFrame({"game": np.repeat(np.arange(games), 2), "seat": seat,
                          "win": (seat == np.repeat(winner, 2)).astype(float),
                          "queue_played": (seat == np.repeat(holder, 2)).astype(np.int32)})
    (row,) = held_effects("fair-enough", frame)
    assert row.card == "queue (played)" and row.kind == "observational"
    assert row.low < 40 < row.high and row.high - row.low < 8
