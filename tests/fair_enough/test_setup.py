"""The setup table: defaults per player count, the Variante card, and refusals that name the key."""

import pytest

from simulator.core.setup import SetupError
from .helpers import config_for


@pytest.mark.parametrize("players, times", [(2, [10, 13, 16, 19, 22, 25]), (3, [13, 16, 19, 22, 25, 28]),
                                            (4, [16, 19, 22, 25, 28, 31]), (5, [16, 19, 22, 25, 28, 31])])
def test_default_time_cards_follow_the_rulings(players, times):
    assert config_for(players).info["time_cards"] == times
    assert config_for(players, "variante").info["time_cards"] == times + [21]


def test_default_deck_is_102_cards():
    config = config_for(4)
    kind, value, special = config.arrays[:3]
    assert len(kind) == 102
    assert sorted(zip(kind[:90], value[:90])) == [(k, v) for k in range(9) for v in range(1, 11)]
    assert sorted(special[90:]) == [1] * 4 + [2] * 4 + [3] * 4


@pytest.mark.parametrize("override, key", [
    ({"players": {"3": {"time_cards": [13, 16, 19, 22, 25]}}}, "players.3.time_cards"),
    ({"players": {"5": {"time_cards": [16, 19, 22, 25, 28, 31, 34]}}}, "players.5.time_cards"),
    ({"players": {"2": {"time_cards": [10, 13, 0, 19, 22, 25]}}}, "players.2.time_cards[2]"),
    ({"players": {"4": {"time_cards": [16, -19, 22, 25, 28, 31]}}}, "players.4.time_cards[1]"),
    ({"time_cards": {"variante": 0}}, "time_cards.variante"),
    ({"players": {"6": {"time_cards": [1, 2, 3, 4, 5, 6]}}}, "players.6"),
    ({"deck": {"kinds": 13}}, "deck.kinds"),
])
def test_broken_tables_are_refused_naming_the_key(override, key):
    # the row for 4 players is fine in most cases: every row is checked whatever is played
    with pytest.raises(SetupError) as err:
        config_for(4, override=override)
    assert err.value.key == key
    assert key in str(err.value)


def test_unknown_variant_and_player_count_are_refused():
    with pytest.raises(SetupError, match="variant"):
        config_for(4, "merge")
    with pytest.raises(SetupError, match="2 to 5 players"):
        config_for(6)


def test_a_designer_table_replaces_the_times():
    config = config_for(4, override={"players": {"4": {"time_cards": [20, 20, 20, 20, 20, 20]}}})
    assert config.info["time_cards"] == [20] * 6
