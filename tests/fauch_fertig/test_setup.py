"""The setup table: the shipped defaults, and every way a designer's table is refused (naming the key)."""

import pytest

from simulator.core.setup import SetupError
from simulator.fauch_fertig import GAME
from simulator.fauch_fertig import layout as L


def test_default_table_follows_the_rulings():
    config = GAME.configure(4)
    cards = config.info["cards"]
    red = {L.card_number(c): (cards[c].text, cards[c + 1].text) for c in range(48, 64, 2)}
    assert red[1] == ("4 of its colour", "4 of its colour")
    assert red[6] == ("2 runs of 4", "2 runs of 4")
    assert red[8] == ("2 sets of 4 colours", "pay 5 coins")
    assert cards[48].colour == 3  # "of its colour" on a red card means red
    black = sorted(c.text for c in cards[64:])
    assert black == sorted(["free egg"] * 2 + ["black-card bonus"] * 2 + ["2 sets of 4 colours"] * 2 +
                           ["pay 5 coins"] * 2)
    assert [c.text for c in config.info["community"]] == [
        "5 of one colour", "8 cards 1-4", "8 cards 5-8", "8 different numbers", "3 sets of 3",
        "3 sets of 4 colours", "4 black cards"]
    assert config.info["start_coins"] == [10, 9, 8, 8]
    assert GAME.configure(2).info["community_needed"] == 1
    assert GAME.configure(3).info["community_needed"] == 3


@pytest.mark.parametrize("override, key, words", [
    ({"conditions": {"black": ["free egg"] * 7}}, "conditions.black", "exactly one condition per card"),
    ({"conditions": {"first_copy": ["4 of its colour"] * 9}}, "conditions.first_copy", "8 cards"),
    ({"conditions": {"black": ["free egg"] * 7 + [["free egg", "pay 5 coins"]]}}, "conditions.black[7]",
     "exactly one condition"),
    ({"conditions": {"black": ["free egg"] * 7 + ["3 dragons"]}}, "conditions.black[7]", "unknown condition"),
    ({"conditions": {"black": ["4 of its colour"] * 8}}, "conditions.black[0]", "coloured card"),
    ({"conditions": {"second_copy": ["9 different numbers"] * 8}}, "conditions.second_copy[0]", "never be met"),
    ({"conditions": {"first_copy": ["6 cards 0-4"] * 8}}, "conditions.first_copy[0]", "numbers run from 1"),
    ({"community": {"cards": ["5 of one colour", "8 cards 1-4", "4 black cards"]}}, "community.cards",
     "need 4 community cards"),
    ({"community": {"cards": ["free egg"] * 7}}, "community.cards[0]", "only on a dragon card"),
    ({"community": {"draw": "sorted"}}, "community.draw", "random"),
    ({"players": {"4": {"start_coins": [10, 9, 8]}}}, "players.4.start_coins", "4 whole numbers"),
    ({"game": {"coin_supply": 30}}, "game.coin_supply", "cannot pay the start coins"),
    ({"game": {"eggs": 0}}, "game.eggs", "at least 1"),
])
def test_bad_tables_are_refused_naming_the_key(override, key, words):
    with pytest.raises(SetupError) as err:
        GAME.configure(4, override=override)
    assert err.value.key == key
    assert words in str(err.value)


def test_two_players_need_only_one_community_card():
    config = GAME.configure(2, override={"community": {"cards": ["4 black cards"]}})
    assert config.info["community_needed"] == 1


def test_player_counts_outside_two_to_four_are_refused():
    with pytest.raises(SetupError, match="2 to 4 players"):
        GAME.configure(5)


def test_conditions_in_other_words_parse_to_the_same_rule():
    config = GAME.configure(3, override={"community": {"cards": ["3 Runs of 3", "1 set of 4 colours",
                                                                  "2  black cards"]}})
    kinds = [(c.kind, c.n, c.size) for c in config.info["community"]]
    assert kinds == [("runs", 3, 3), ("colours", 1, 4), ("black", 2, 0)]


def test_limited_coin_supply_is_what_is_left_after_setup():
    config = GAME.configure(4, override={"game": {"coin_supply": 50}})
    assert config.arrays[-1][L.R_SUPPLY] == 50 - (10 + 9 + 8 + 8) - 3
