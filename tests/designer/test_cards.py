"""playtest cards: an overwhelmingly strong card is named first; bad input is one error line."""

import json
import types

import pytest

from cli_support import invoke, same_figures

STRONG = """[deck]
values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 40]
[players.4]
time_cards = [100, 100, 100, 100, 100, 100]
"""


def test_an_overwhelmingly_strong_card_is_named_first(tmp_path):
    setup = tmp_path / "strong.toml"
    setup.write_text(STRONG)  # nine cards worth 40 points among cards worth 1 to 9, time enough to place them
    report = tmp_path / "cards" / "report.html"
    done = invoke("cards", "fair-enough", "-p", 4, "-s", "banker", "-n", 600, "--threads", 1, "--setup", setup,
                  "--card", "value 1", "--card", "value 40", "--card", "queue", "--card", "value 5",
                  "--out", tmp_path / "cards", "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result[0]["card"] == "value 40" and result[0]["meaning"] == "the 40s of every kind left out"
    kinds = {r["card"]: r["kind"] for r in result}
    assert kinds.pop("queue (played)") == "observational" and set(kinds.values()) == {"causal"}
    spread = next(r for r in result if r["card"] == "value 40" and r["measure"] == "mean score spread")
    assert spread["high"] < -10  # the spread falls by far more than ten points of score without the 40s
    assert report.is_file() and (tmp_path / "cards" / "report-data" / "card-effects.csv").is_file()
    assert "Removing value 40 (the 40s of every kind left out) changes" in report.read_text()


FOOL_WILD = """[scoring]
wild_penalty = 60
loss_limit = 50
"""


def test_fool_a_wild_made_ruinous_is_named_first_and_being_dealt_one_hurts(tmp_path):
    setup = tmp_path / "wild.toml"
    setup.write_text(FOOL_WILD)  # a wild "1" left in hand costs 60 points: past the loss limit, the game ends
    done = invoke("cards", "fool", "-s", "wild_saver", "-n", 600, "--threads", 1, "--setup", setup,
                  "--card", "wild", "--card", "green", "--card", "blue", "--json")
    assert done.exit_code == 0, done.output
    rows = {(r["card"], r["measure"]): r for r in json.loads(done.stdout)}
    first = json.loads(done.stdout)[0]["card"]
    assert first in ("wild", "wild (dealt)")
    dealt = rows["wild (dealt)", "win share"]
    assert dealt["kind"] == "causal" and dealt["high"] < -5   # dealt a wild: caught holding one more often
    assert rows["wild", "mean rounds"]["low"] > 0             # one wild fewer: fewer games ended by a wild
    assert rows["wild", "mean score spread"]["high"] < 0      # ... and fewer 60-point penalties
    assert rows["wild (played)", "win share"]["kind"] == "observational"
    assert {card for card, _ in rows} == {"wild", "green", "blue", "wild (dealt)", "wild (played)"}


FF_FREE_EGG = """[game]
eggs = 1
[conditions]
second_copy = ["4 of its colour", "6 cards 1-4", "7 different numbers", "2 sets of 3",
               "6 cards 5-8", "2 runs of 4", "4 of its colour", "2 sets of 4 colours"]
black = ["free egg", "free egg", "free egg", "free egg", "2 sets of 4 colours", "2 sets of 4 colours",
         "2 sets of 4 colours", "2 sets of 4 colours"]
"""


def test_fauch_fertig_a_free_egg_that_wins_outright_is_named_first(tmp_path):
    setup = tmp_path / "egg.toml"
    setup.write_text(FF_FREE_EGG)  # one egg wins; four black cards carry a free egg and no pay card is left
    done = invoke("cards", "fauch-fertig", "-s", "chaser", "-n", 600, "--threads", 1, "--setup", setup,
                  "--card", "free egg", "--card", "2 runs of 4", "--card", "6 cards 1-4", "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result[0]["card"] == "free egg (dealt)" and result[0]["kind"] == "causal"
    assert result[0]["low"] > 40        # dealt a free egg: the egg is placed at once, the game won in round one
    rows = {(r["card"], r["measure"]): r for r in result}
    assert rows["free egg", "mean rounds"]["low"] > 0.5           # made dead: nobody wins at the deal
    assert rows["free egg (bought)", "win share"]["kind"] == "observational"
    assert "dead" in rows["free egg", "mean rounds"]["meaning"]


def test_forks_says_who_was_dealt_and_who_invested_and_replaces_a_value_at_4_players():
    done = invoke("cards", "forks", "-p", 4, "-s", "greedy", "-n", 300, "--threads", 1, "--card", "value 12",
                  "--json")
    assert done.exit_code == 0, done.output
    kinds = {r["card"]: r["kind"] for r in json.loads(done.stdout)}
    assert kinds == {"value 12 (dealt)": "causal", "value 12 (invested)": "observational",
                     "value 12": "causal"}  # 4 players: the 12s become 11s, so the deck still deals out evenly
    meaning = next(r["meaning"] for r in json.loads(done.stdout) if r["card"] == "value 12")
    assert meaning == "the 5 cards of value 12 become 11s (one a destination; the deck keeps its 55 cards)"


FORKS_STRONG = """[deck]
values = [3, 4, 5, 6, 7, 8, 9, 10, 11, 40]
"""


def test_forks_a_value_made_overwhelmingly_strong_is_named_first(tmp_path):
    setup = tmp_path / "strong.toml"
    setup.write_text(FORKS_STRONG)  # every destination's 12 printed as a 40: it decides both marketing and scores
    done = invoke("cards", "forks", "-p", 4, "-s", "greedy", "-n", 400, "--threads", 1, "--setup", setup,
                  "--card", "value 3", "--card", "value 7", "--card", "value 40", "--json")
    assert done.exit_code == 0, done.output
    result = json.loads(done.stdout)
    assert result[0]["card"] == "value 40" and result[0]["kind"] == "causal"
    assert result[0]["meaning"] == "the 5 cards of value 40 become 11s (one a destination; the deck keeps its 55 " \
                                   "cards)"
    spread = next(r for r in result if r["card"] == "value 40" and r["measure"] == "mean score spread")
    assert spread["high"] < -10  # a 40 invested scores +-40: as 11s the spread of scores falls by far more than 10
    assert not [r for r in result if r["kind"] == "not playable"]


def test_forks_replacements_keep_the_deck_dealing_out_at_every_player_count():
    from studies.card_tables import candidates
    from simulator.forks import GAME

    config = GAME.configure(4)
    replaced = candidates("forks", config.setup, 4)
    # 4 players (setup.toml): 50 numbered cards 3-12 and the extras red 4, green 5, yellow 6, blue 7, grey 8;
    # mean card value 405 / 55 = 7.36, so 3-7 move up and 8-12 down
    assert {card: change["deck"] for card, (_, change) in replaced.items()} == {
        "value 3": {"values": [4, 4, 5, 6, 7, 8, 9, 10, 11, 12]},
        "value 4": {"values": [3, 5, 5, 6, 7, 8, 9, 10, 11, 12], "extra": {"red": 5}},
        "value 5": {"values": [3, 4, 6, 6, 7, 8, 9, 10, 11, 12], "extra": {"green": 6}},
        "value 6": {"values": [3, 4, 5, 7, 7, 8, 9, 10, 11, 12], "extra": {"yellow": 7}},
        "value 7": {"values": [3, 4, 5, 6, 8, 8, 9, 10, 11, 12], "extra": {"blue": 8}},
        "value 8": {"values": [3, 4, 5, 6, 7, 7, 9, 10, 11, 12], "extra": {"grey": 7}},
        "value 9": {"values": [3, 4, 5, 6, 7, 8, 8, 10, 11, 12]},
        "value 10": {"values": [3, 4, 5, 6, 7, 8, 9, 9, 11, 12]},
        "value 11": {"values": [3, 4, 5, 6, 7, 8, 9, 10, 10, 12]},
        "value 12": {"values": [3, 4, 5, 6, 7, 8, 9, 10, 11, 11]}}
    assert replaced["value 4"][0] == "the 6 cards of value 4 become 5s (one a destination, red's extra card " \
                                     "included; the deck keeps its 55 cards)"
    values = sorted(GAME.configure(4, override=replaced["value 4"][1]).arrays[1].tolist())
    assert values == sorted([3, 5, 5, 6, 7, 8, 9, 10, 11, 12] * 5 + [5, 5, 6, 7, 8])
    # 2 and 3 players play without the 10s, 11s and 12s: 9 is the top value in play and moves down to 8
    assert candidates("forks", GAME.configure(3).setup, 3)["value 9"][1]["deck"]["values"][6] == 8
    for players in range(2, 7):
        config = GAME.configure(players)
        replaced = candidates("forks", config.setup, players)
        assert len(replaced) == (7 if players < 4 else 10)
        for _, change in replaced.values():  # the same number of cards: every table is playable
            assert GAME.configure(players, override=change).info["cards"] == config.info["cards"]


SMALL_DECK = """[deck]
kinds = 1
values = [1, 2, 3, 4, 5, 6, 7, 8, 9]
queue = 0
preorder = 0
sold_out = 0
"""


def test_a_removal_that_leaves_too_few_cards_is_listed_as_not_playable(tmp_path):
    setup = tmp_path / "small.toml"
    setup.write_text(SMALL_DECK)  # 9 cards: just enough for 2 hands of three and the face-up row of three
    done = invoke("cards", "fair-enough", "-p", 2, "-s", "banker", "-n", 200, "--threads", 1, "--setup", setup,
                  "--card", "value 9", "--json")
    assert done.exit_code == 0, done.output
    (row,) = json.loads(done.stdout)
    assert row["card"] == "value 9" and row["kind"] == "not playable" and row["effect"] is None
    assert "8 cards cannot deal three to each of 2 players" in row["meaning"]


def test_cards_resume_reads_back_finished_tables_and_refuses_other_settings(tmp_path):
    out = tmp_path / "c"
    args = ("cards", "fool", "-s", "shedder", "-n", 200, "--threads", 1, "--card", "wild", "--card", "green",
            "--out", out, "--json")
    done = invoke(*args)
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["base", "c00", "c01"]
    # as if interrupted during the last table: its run directory gone, the others kept
    import shutil

    shutil.rmtree(out / "runs" / "c01")
    parts = sorted((out / "runs" / "c00" / "seats").glob("part-*.parquet"))
    kept = [p.stat().st_mtime_ns for p in parts]
    again = invoke(*args, "--resume")
    assert again.exit_code == 0, again.output
    same_figures(json.loads(again.stdout), json.loads(done.stdout))  # the same deals: the same figures
    assert [p.stat().st_mtime_ns for p in parts] == kept  # a finished table is read back, not played again
    assert (out / "runs" / "c01" / "manifest.json").is_file()
    other = invoke("cards", "fool", "-s", "shedder", "-n", 300, "--threads", 1, "--card", "wild", "--card", "green",
                   "--out", out, "--resume")
    assert other.exit_code == 2 and other.output == f"error: cannot resume {out}: the cards run there differs in " \
                                                     f"options\n"


def test_cards_bad_input_is_one_error_line(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("keep")
    nan = tmp_path / "nan.toml"
    nan.write_text("[players.4]\nseat_bonus = [0.0, 0.0, nan, 0.0]\n")
    short = tmp_path / "short.toml"
    short.write_text("[players.4]\nseat_bonus = [0.0, 0.0]\n")
    out = tmp_path / "out"
    cases = [(["fair-enough", "-p", 4, "--card", "joker"], "no card 'joker' in the fair-enough table at 4 players"),
             (["fool", "--card", "joker", "--out", out], "its cards: wild, green"),
             (["fair-enough", "-p", 9, "--out", out], "players"),
             (["forks", "-p", 4, "--setup", nan, "--out", out], "players.4.seat_bonus[2]: must be a finite"),
             (["forks", "-p", 4, "--setup", short, "--out", out], "players.4.seat_bonus: must list 4 numbers"),
             (["forks", "-p", 4, "--out", theirs, "--force"], "notes.txt"),
             (["forks", "-p", 4, "--out", theirs], "already exists"),
             (["forks", "-p", 4, "--out", out, "--resume"], "holds no cards run")]
    for args, message in cases:
        refused = invoke("cards", *args)
        assert refused.exit_code == 2 and refused.output.startswith("error: ") and message in refused.output, \
            refused.output
        assert refused.output.count("\n") == 1
        assert not out.exists()
    assert sorted(p.name for p in theirs.iterdir()) == ["notes.txt"]


def test_the_observational_share_recovers_a_planted_association():
    import numpy as np
    import polars as pl

    from analyses.cards import held_effects
    from studies.card_tables import holdings

    rng = np.random.default_rng(4)
    games = 5000
    holder = rng.integers(0, 2, games)             # one seat of two plays a Queue in every game
    holder_wins = rng.random(games) < 0.7          # and wins 70% of the time: 40 points over the other seat
    winner = np.where(holder_wins, holder, 1 - holder)
    seat = np.tile([0, 1], games)
    frame = pl.DataFrame({"game": np.repeat(np.arange(games), 2), "seat": seat,
                          "win": (seat == np.repeat(winner, 2)).astype(float),
                          "queue_played": (seat == np.repeat(holder, 2)).astype(np.int32)})
    (row,) = held_effects(frame, holdings("fair-enough", {"deck": {"queue": 1}}, 2))
    assert row.card == "queue (played)" and row.kind == "observational"
    assert row.low < 40 < row.high and row.high - row.low < 8


def test_a_dealt_kind_bit_recovers_a_planted_effect_and_other_bits_show_none():
    import numpy as np
    import polars as pl

    from analyses.cards import held_effects
    from simulator.core.card_rows import Holding

    rng = np.random.default_rng(9)
    games, players = 6000, 3
    bits = rng.integers(0, 8, size=(games, players))      # three kinds, each dealt to a seat at random
    has = (bits >> 1) & 1                                  # kind 1 is the strong one
    weight = np.where(has == 1, 3.0, 1.0)                  # a seat holding it is three times as likely to win
    p = weight / weight.sum(axis=1, keepdims=True)
    winner = (rng.random(games)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
    won = (np.arange(players)[None, :] == winner[:, None]).astype(float)
    frame = pl.DataFrame({"game": np.repeat(np.arange(games), players), "win": won.ravel(),
                          "dealt_kinds": bits.ravel().astype(np.int32)})
    truth = 100 * ((won * has).sum() / has.sum() - (won * (1 - has)).sum() / (1 - has).sum())
    rows = [Holding(f"kind {k} (dealt)", "dealt_kinds", k, "causal", "") for k in range(3)]
    found = {r.card: r for r in held_effects(frame, rows)}
    strong = found["kind 1 (dealt)"]
    assert strong.low < truth < strong.high and strong.low > 20   # the planted effect, about +30 points
    for k in (0, 2):                                               # kinds dealt independently of winning
        assert found[f"kind {k} (dealt)"].low < 0 < found[f"kind {k} (dealt)"].high


def test_the_who_holds_it_interval_covers_the_truth_about_95_percent_of_the_time():
    import numpy as np
    import polars as pl

    from analyses.cards import held_effects
    from simulator.core.card_rows import Holding

    def planted(rng, games, players=3):
        has = rng.random((games, players)) < 0.4             # each seat dealt the card with chance 0.4
        weight = np.where(has, 2.0, 1.0)                     # and then twice as likely to win
        cumulative = np.cumsum(weight / weight.sum(axis=1, keepdims=True), axis=1)
        winner = (rng.random(games)[:, None] > cumulative).sum(axis=1)
        won = (np.arange(players)[None, :] == winner[:, None]).astype(float)
        return has, won

    has, won = planted(np.random.default_rng(0), 2_000_000)   # the truth: the ratio of the population means
    truth = 100 * ((won * has).sum() / has.sum() - (won * ~has).sum() / (~has).sum())
    rng = np.random.default_rng(1)
    row = [Holding("card (dealt)", "dealt", None, "causal", "")]
    covered, runs = 0, 200
    for k in range(runs):
        has, won = planted(rng, 400)
        frame = pl.DataFrame({"game": np.repeat(np.arange(400), 3), "win": won.ravel(),
                              "dealt": has.ravel().astype(np.int32)})
        (found,) = held_effects(frame, row, replicates=400, seed=k)
        covered += found.low < truth < found.high
    assert 0.90 <= covered / runs <= 0.99, covered   # 191 of 200 when written; binomial sd at 95%: 1.5 points


def test_fauch_fertig_kinds_are_the_tables_conditions_in_its_order_and_the_kernel_knows_each_cards_kind():
    from studies.card_tables import candidates
    from simulator.fauch_fertig import GAME
    from simulator.fauch_fertig.cards import card_kinds
    from simulator.fauch_fertig.layout import BLACK, N_CARDS, R_CARD_KIND, card_colour, card_copy, card_number

    config = GAME.configure(4)
    kinds = ["4 of its colour", "6 cards 1-4", "7 different numbers", "2 sets of 3", "6 cards 5-8", "2 runs of 4",
             "2 sets of 4 colours", "pay 5 coins", "free egg", "black-card bonus"]  # read off setup.toml
    assert card_kinds(config.setup) == kinds
    rules = config.arrays[-1]
    table = config.setup["conditions"]
    for card in range(N_CARDS):
        if card_colour(card) == BLACK:
            text = table["black"][card_copy(card)]
        else:
            text = table[("first_copy", "second_copy")[card_copy(card)]][card_number(card) - 1]
        assert kinds[rules[R_CARD_KIND + card]] == text
    removed = candidates("fauch-fertig", config.setup, 4)
    assert removed["pay 5 coins"][0] == "the 6 'pay 5 coins' cards made dead (pay 1000000 coins)"  # 4 + 2 black
    assert removed["4 of its colour"][0].startswith("the 16 ")  # two entries of each copy list, four colours
    assert GAME.configure(4, override=removed["free egg"][1]).info["cards"]  # a dead table is a valid table


def test_fool_removals_keep_the_deck_dealing_out_evenly():
    from studies.card_tables import candidates
    from simulator.fool import GAME

    config = GAME.configure(4)
    removed = candidates("fool", config.setup, 4)
    assert list(removed) == ["wild", "green", "yellow", "orange", "blue"]
    # 4 players (setup.toml): green 2-17 is the longest colour, orange 2-13 the longest after it
    assert removed["wild"][1] == {"players": {"4": {"wilds": 2, "green": [2, 18]}}}
    assert removed["blue"][1] == {"players": {"4": {"blue": [2, 7], "green": [2, 18]}}}
    assert removed["green"][1] == {"players": {"4": {"green": [2, 16], "orange": [2, 14]}}}
    for _, change in removed.values():  # 48 cards still deal 12 to each seat
        assert GAME.configure(4, override=change).info["cards"] == 48


def planted_effects():
    """Four cards: a removal that moves the first seat, a dealt card, a played card and a dealt card of no
    clear effect."""
    from analyses.cards import CardEffect

    return {"a": [CardEffect("a", "first seat edge", 5.0, 3.0, 7.0), CardEffect("a", "mean rounds", 0.1, -0.2, 0.4)],
            "b (dealt)": [CardEffect("b (dealt)", "win share", -9.0, -12.0, -6.0, "causal")],
            "c (played)": [CardEffect("c (played)", "win share", 20.0, 15.0, 25.0, "observational")],
            "d (dealt)": [CardEffect("d (dealt)", "win share", 1.0, -1.0, 3.0, "causal")]}


def test_the_ranking_orders_one_measure_by_size_and_says_causal_or_association():
    from analyses.cards import outlier_sentences, ranking, ranking_rows

    effects, meanings = planted_effects(), {"a": "one a fewer"}
    assert [r.card for r in ranking(effects)] == ["c (played)", "b (dealt)", "d (dealt)"]
    assert [r["evidence"] for r in ranking_rows(effects)] == ["association: played", "causal: dealt at random",
                                                               "causal: dealt at random"]
    sentences = outlier_sentences(effects, meanings)
    assert [s[:22] for s in sentences] == ["Observational: seats t", "Being dealt a 'b' card", "Removing a (one a fewe"]
    assert [r.card for r in ranking(effects, "first seat edge")] == ["a"]
    assert ranking_rows(effects, "first seat edge")[0]["evidence"] == "causal: paired removal"
    assert outlier_sentences(effects, meanings, "first seat edge")[0].startswith("Removing a (one a fewer)")


def test_the_report_opens_with_the_same_ranking(tmp_path):
    from reports.build import render
    from reports.cards_report import cards_section

    section = cards_section("Planted: which card matters", planted_effects(), {"a": "one a fewer"}, {})
    page = render([section], tmp_path / "cards.html", title=section.title, source="test").read_text()
    ranking = page.index("Cards ranked by what holding one is worth")
    assert ranking < page.index('class="verdict"') and ranking < page.index("Every card and measure")
    rows = [page.index(card, ranking) for card in ("c (played)", "b (dealt)", "d (dealt)")]
    assert rows == sorted(rows) and page.index("Observational: seats that played") < page.index("Being dealt a")
    data = (tmp_path / "cards-data" / "card-ranking.csv").read_text().splitlines()
    assert data[0] == "rank,card,effect_points,low_points,high_points,evidence"
    assert data[1].startswith("1,c (played),20.0,15.0,25.0,association: played")


def test_cards_opens_with_a_ranked_table_with_headers_within_80_columns(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    done = invoke("cards", "forks", "-p", 2, "-s", "greedy", "-n", 200, "--threads", 1, "--card", "value 3",
                  "--card", "value 9")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Cards ranked by what holding one is worth") and max(map(len, lines)) <= 80
    header = " ".join(lines[1:6])
    assert all(word in header for word in ("rank", "card", "effect", "interval", "causal or"))
    by = invoke("cards", "forks", "-p", 2, "-s", "greedy", "-n", 200, "--threads", 1, "--card", "value 3",
                "--measure", "mean rounds")
    assert by.exit_code == 0 and by.stdout.startswith("Cards ranked by what removing one changes: the mean rounds")


def test_the_designer_commands_explain_their_lineup_options():
    for command in ("compensate", "survey", "cards"):
        shown = " ".join(invoke(command, "--help").stdout.split())
        assert "--strategy-file PATH A Python file defining your own strategy" in shown
        assert "--param NAME=V1,V2,... Replace a strategy's parameter vector" in shown
        assert "--variant TEXT Rules variant" in shown


def test_a_game_without_card_hooks_has_no_cards_to_ask_about_in_one_line(tmp_path):
    from analyses.cards import CardError
    from playtest import api
    from studies.card_tables import holdings
    from simulator import games

    nim = games.get("nim")
    assert nim.card_candidates is None and holdings("nim", nim.default_setup(), 2) == []
    with pytest.raises(CardError) as refused:
        api.cards("nim", players=2, games=100, out=tmp_path / "cards")
    assert str(refused.value) == ("nim has no cards for playtest cards to take out (its descriptor names no "
                                  "card_candidates)")
    assert not (tmp_path / "cards").exists()


def test_cards_asks_the_games_descriptor_for_its_cards(monkeypatch):
    import dataclasses

    from studies import card_tables
    from simulator import games
    from simulator.core.card_rows import Holding

    nim = dataclasses.replace(games.get("nim"), card_candidates=lambda table, players: {
        "counter": (f"one counter fewer at {players} players", {"pile": {"max": table["pile"]["max"] - 1}})},
        card_holdings=lambda table, players: [Holding("counter (taken)", "taken", None, "observational", "")])
    monkeypatch.setattr(card_tables, "games", types.SimpleNamespace(get={"nim": nim}.__getitem__))
    table = nim.default_setup()
    assert card_tables.candidates("nim", table, 2) == {
        "counter": ("one counter fewer at 2 players", {"pile": {"max": table["pile"]["max"] - 1}})}
    assert [h.card for h in card_tables.holdings("nim", table, 2)] == ["counter (taken)"]
