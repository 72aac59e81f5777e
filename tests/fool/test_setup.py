"""The Fool! setup table: the shipped rows deal out evenly, broken tables are refused by name."""

import pytest

from simulator.core.setup import SetupError, merge, read_toml
from simulator.fool.setup import SETUP_PATH, compile_setup

DEFAULT = read_toml(SETUP_PATH)


@pytest.mark.parametrize("players, cards, hand, discs", [(4, 48, 12, 1), (5, 60, 12, 1), (6, 72, 12, 1),
                                                         (7, 84, 12, 2), (8, 88, 11, 2)])
def test_shipped_rows_match_the_rulings(players, cards, hand, discs):
    config = compile_setup(DEFAULT, players, "standard")
    assert (config.info["cards"], config.info["hand"], config.info["discs"]) == (cards, hand, discs)
    colours, values, _ = config.arrays
    assert (colours == 0).sum() == {4: 3, 5: 4, 6: 5, 7: 6, 8: 6}[players]
    assert set(values[colours == 0]) == {1}


def test_the_printed_four_player_deck():
    colours, values, _ = compile_setup(DEFAULT, 4, "standard").arrays
    highest = {c: values[colours == c].max() for c in range(1, 5)}
    assert highest == {1: 17, 2: 11, 3: 13, 4: 8}
    assert all(values[colours == c].min() == 2 for c in range(1, 5))


def test_a_table_that_cannot_be_dealt_evenly_names_the_player_count_and_the_numbers():
    broken = merge(DEFAULT, {"players": {"5": {"green": [2, 19]}}})
    with pytest.raises(SetupError) as err:
        compile_setup(broken, 5, "standard")
    message = str(err.value)
    assert err.value.key == "players.5"
    for part in ("5 players", "55 numbered", "4 wilds", "59 cards", "12 cards each", "60"):
        assert part in message


def test_a_designer_can_change_ranges_wilds_and_hand_size():
    table = merge(DEFAULT, {"players": {"4": {"green": [2, 15], "wilds": 1, "hand": 11}}})
    config = compile_setup(table, 4, "standard")
    assert config.info["cards"] == 44


@pytest.mark.parametrize("override, key", [
    ({"players": {"4": {"gren": [2, 17]}}}, "players.4.gren"),
    ({"players": {"4": {"blue": [1, 8]}}}, "players.4.blue"),
    ({"players": {"4": {"blue": [9, 8]}}}, "players.4.blue"),
    ({"players": {"4": {"discs": 2}}}, "players.4.discs"),
    ({"players": {"4": {"hand": 1}}}, "players.4.hand"),
    ({"deck": {"colours": ["green", "green"]}}, "deck.colours"),
    ({"scoring": {"wild_penalty": 0}}, "scoring.wild_penalty"),
])
def test_broken_tables_are_refused_naming_the_key(override, key):
    with pytest.raises(SetupError) as err:
        compile_setup(merge(DEFAULT, override), 4, "standard")
    assert err.value.key == key


def test_a_player_count_without_a_row_is_refused():
    with pytest.raises(SetupError, match="no row for 3 players"):
        compile_setup(DEFAULT, 3, "standard")
