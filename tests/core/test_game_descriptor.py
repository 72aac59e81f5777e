"""A game's descriptor is validated when it is first loaded: a missing verb or an unusable constant is refused in
one line naming the game and what is wrong."""

import dataclasses
import types

import pytest

from simulator import games
from simulator.core.game import ENGINE_NAMES, InvalidGame


def forks_with(**changes):
    """The Forks descriptor over a copy of its engine module's names, with ``changes`` (None removes a name)."""
    forks = games.get("forks")
    names = {n: getattr(forks.engine, n) for n in ENGINE_NAMES + ("ALLOCATION_FREE", "ACTION_CLASSES")}
    names.update(changes)
    engine = types.SimpleNamespace(**{k: v for k, v in names.items() if v is not None})
    return dataclasses.replace(forks, engine=engine)


def test_every_registered_game_describes_itself_validly():
    for name in games.names():
        g = games.get(name)
        assert g.validate() is g
        assert g.max_actions >= 1 and g.max_keys >= 1 and isinstance(g.allocation_free, bool)


@pytest.mark.parametrize("changes, says", [
    ({"MAX_KEYS": None}, "its engine module lacks MAX_KEYS"),
    ({"move_key": None, "determinize": None}, "lacks determinize, move_key"),
    ({"MAX_ACTIONS": 0}, "MAX_ACTIONS must be a positive whole number, got 0"),
    ({"GAME_ENTRIES": 1}, "GAME_ENTRIES must be a positive whole number of at least 2"),
    ({"ALLOCATION_FREE": "yes"}, "ALLOCATION_FREE must be True or False"),
    ({"EVALUATION_POINT": ""}, "EVALUATION_POINT must be None or one line"),
    ({"ACTION_CLASSES": ("a", "a")}, "ACTION_CLASSES must be at most 62 distinct names"),
])
def test_a_broken_engine_is_refused_in_one_line(changes, says):
    with pytest.raises(InvalidGame) as refused:
        forks_with(**changes).validate()
    assert str(refused.value).startswith("game 'forks': ") and says in str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_broken_description_is_refused():
    forks = games.get("forks")
    with pytest.raises(InvalidGame, match="min 2 <= default 7 <= max 6"):
        dataclasses.replace(forks, default_players=7).validate()
    with pytest.raises(InvalidGame, match="include 'finished'"):
        dataclasses.replace(forks, game_columns=("rounds",)).validate()
