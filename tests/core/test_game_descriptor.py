"""A game's descriptor is validated when it is first loaded: a missing verb or an unusable constant is refused in
one line naming the game and what is wrong."""

import dataclasses
import types

import pytest

from simulator import games
from simulator.core.game import ENGINE_NAMES, InvalidGame


def forks_with(engine_names=(), **changes):
    """The Forks descriptor with ``changes`` to its fields, over a copy of its engine module's verbs without
    ``engine_names``."""
    forks = games.get("forks")
    engine = types.SimpleNamespace(**{n: getattr(forks.engine, n) for n in ENGINE_NAMES if n not in engine_names})
    return dataclasses.replace(forks, engine=engine, **changes)


def test_every_registered_game_describes_itself_validly():
    for name in games.names(examples=True):
        g = games.get(name)
        assert g.validate() is g
        assert g.max_actions >= 1 and g.max_keys >= 1 and isinstance(g.allocation_free, bool)


@pytest.mark.parametrize("changes, says", [
    ({"engine_names": ("move_key", "determinize")}, "its engine module lacks determinize, move_key"),
    ({"max_actions": 0}, "max_actions must be a whole number of at least 1, got 0"),
    ({"max_keys": 2.5}, "max_keys must be a whole number of at least 1, got 2.5"),
    ({"game_entries": 1}, "game_entries must be a whole number of at least 2, got 1"),
    ({"standing_point": True}, "standing_point must be a whole number of at least 1, got True"),
    ({"allocation_free": "yes"}, "allocation_free must be True or False"),
    ({"evaluation_point": ""}, "evaluation_point must be None or one line"),
    ({"evaluation_point": "two\nlines"}, "evaluation_point must be None or one line"),
    ({"action_classes": ("a", "a")}, "action_classes must be a tuple of at most 62 distinct names"),
    ({"action_classes": "blind"}, "action_classes must be a tuple of at most 62 distinct names"),
])
def test_a_broken_description_of_the_engine_is_refused_in_one_line(changes, says):
    with pytest.raises(InvalidGame) as refused:
        forks_with(**changes).validate()
    assert str(refused.value).startswith("game 'forks': ") and says in str(refused.value)
    assert "\n" not in str(refused.value)


def test_the_engine_modules_no_longer_declare_what_the_descriptor_does():
    # one place: a constant left in an engine module would be a second source the kernels do not read
    for name in games.names(examples=True):
        engine = games.get(name).engine
        stale = [c for c in ("ALLOCATION_FREE", "EVALUATION_POINT", "ACTION_CLASSES", "GAME_ENTRIES",
                             "STANDING_POINT", "MAX_KEYS") if hasattr(engine, c)]
        assert stale == [], f"{name}: {stale}"


def test_a_broken_description_is_refused():
    forks = games.get("forks")
    with pytest.raises(InvalidGame, match="min 2 <= default 7 <= max 6"):
        dataclasses.replace(forks, default_players=7).validate()
    with pytest.raises(InvalidGame, match="include 'finished'"):
        dataclasses.replace(forks, game_columns=("rounds",)).validate()


@pytest.mark.parametrize("game, changes, says", [
    ("forks", {"expert_horizon": -1}, "expert_horizon must be a whole number of at least 0, got -1"),
    ("nim", {"expert_horizon": 1}, "expert_horizon 1 stops rollouts at evaluation points, and the game has none"),
    ("forks", {"recorded_at_decision": 1}, "recorded_at_decision must be True or False"),
    ("forks", {"bench_search_target": 0}, "bench_search_target must be a whole number of at least 1, got 0"),
    ("forks", {"bench_learned_games": 2.5}, "bench_learned_games must be a whole number of at least 1, got 2.5"),
    ("forks", {"card_holdings": None}, "card_candidates and card_holdings go together"),
])
def test_a_broken_description_of_cards_train_or_bench_is_refused_in_one_line(game, changes, says):
    with pytest.raises(InvalidGame) as refused:
        dataclasses.replace(games.get(game), **changes).validate()
    assert str(refused.value).startswith(f"game {game!r}: ") and says in str(refused.value)
    assert "\n" not in str(refused.value)


def test_the_strategies_and_the_shipped_model_of_a_game_follow_from_its_one_registry_line(monkeypatch):
    from strategies import games as strategy_games
    from strategies.learned import weights_path

    for name in games.names(examples=True):
        assert weights_path(name).is_file(), name
    assert strategy_games.package("nim") == "strategies.example"
    monkeypatch.setitem(games.EXAMPLES, "toy", "simulator.toy")   # a new game: one line in simulator.games
    assert strategy_games.package("toy") == "strategies.toy"
    assert weights_path("toy").parts[-3:] == ("strategies", "toy", "learned.npy")
    with pytest.raises(games.UnknownGame, match="unknown game 'nothing'"):
        strategy_games.package("nothing")
