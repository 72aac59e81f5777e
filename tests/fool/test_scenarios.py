"""Scenario files: the rulebook's trick examples (A)-(E) and its scoring example, played from TOML."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from playtest.cli import cli
from simulator.core.setup import SetupError, read_toml
from simulator.fool import GAME
from strategies.games import strategy_set

HERE = Path(__file__).with_name("scenarios")

# (file, leader, cards in playing order, passing, winner, befooled) as printed in the rulebook
EXAMPLES = [
    ("example_a.toml", "Anne", ["blue 7", "blue 5", "blue 8"], ["Camille"], "Rachel", ["Paul"]),
    ("example_b.toml", "Rachel", ["yellow 10", "green 5", "yellow 2"], ["Paul"], "Rachel", ["Camille"]),
    ("example_c.toml", "Rachel", ["blue 6", "green 14", "orange 11"], ["Camille"], "Rachel", ["Paul"]),
    ("example_d.toml", "Rachel", ["yellow 8", '"1"', "yellow 11"], ["Paul"], "Anne", ["Camille"]),
    ("example_e.toml", "Anne", ["green 10", '"1"', "yellow 3"], ["Camille"], "Anne", ["Rachel"]),
]


@pytest.mark.parametrize("name, leader, cards, passing, winner, befooled", EXAMPLES)
def test_rulebook_trick_examples(name, leader, cards, passing, winner, befooled):
    _, result = GAME.scenario(read_toml(HERE / name), strategy_set("fool"))
    (trick,) = result["tricks"]
    assert trick["leader"] == leader
    assert [c["card"] for c in trick["cards"]] == cards
    assert trick["passing"] == passing
    assert (trick["winner"], trick["befooled"]) == (winner, befooled)
    assert not result["deal_over"]


def test_rulebook_scoring_example():
    lines, result = GAME.scenario(read_toml(HERE / "scoring_example.toml"), strategy_set("fool"))
    assert result["deal_over"]
    assert result["points"] == {"Anne": -17, "Rachel": -13, "Camille": 10, "Paul": 0}
    assert lines[-1] == "deal over: Anne -17, Paul +0, Rachel -13, Camille +10"


def test_unscripted_cards_are_played_by_the_named_strategies_to_the_end_of_the_deal():
    table = read_toml(HERE / "example_b.toml")
    del table["tricks"]
    table["strategies"] = ["cautious", "shedder", "counter", "wild_saver"]
    _, result = GAME.scenario(table, strategy_set("fool"))
    assert result["deal_over"]
    assert result["tricks"][0]["befooled"] == ["Camille"]
    # every trick after the scripted one follows from the one before
    for before, after in zip(result["tricks"], result["tricks"][1:]):
        assert after["leader"] == before["winner"] and after["passing"] == sorted(
            before["befooled"], key=["Anne", "Paul", "Rachel", "Camille"].index)
    assert sum(1 for h in result["hands"].values() if not h) >= 1


@pytest.mark.parametrize("change, key", [
    ({"plays": [["yellow 10", "yellow 3"]]}, "plays[0]"),          # Camille holds no yellow 3
    ({"plays": [["yellow 10", "green 5", "green 3"]]}, "plays[0]"),  # Anne must follow yellow
    ({"hands": {"Anne": ["purple 3"]}}, "hands.Anne"),
    ({"leader": "Bob"}, "leader"),
    ({"strategies": ["nobody"]}, "strategies"),
    ({"colour": 1}, "colour"),
])
def test_broken_scenarios_are_refused_naming_the_key(change, key):
    table = read_toml(HERE / "example_b.toml")
    for k, v in change.items():
        if isinstance(v, dict):
            table[k] = {**table[k], **v}
        else:
            table[k] = v
    with pytest.raises(SetupError) as err:
        GAME.scenario(table, strategy_set("fool"))
    assert err.value.key == key


def test_scenario_command_prints_json():
    out = CliRunner().invoke(cli, ["scenario", str(HERE / "example_d.toml"), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["result"]["tricks"][0]["winner"] == "Anne"
    assert data["log"][-1].endswith("-> Anne wins, Camille befooled")
