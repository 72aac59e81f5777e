"""Scenario files: a position put on the table, turns scripted or played by strategies, checked by the rules."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from playtest.cli import cli
from simulator.core.setup import SetupError, read_toml
from simulator.fauch_fertig import GAME

HERE = Path(__file__).with_name("scenarios")


def play(name, sset, **changes):
    spec = read_toml(HERE / name)
    spec.update(changes)
    return GAME.scenario(spec, sset)


def test_heidi_rulebook_coin_flow(strategies):
    lines, result = play("heidi.toml", strategies)
    (turn,) = result["turns"]
    assert (turn["player"], turn["action"], turn["card"]) == ("Heidi", "market 1", "red 3")
    # by the rules: 1 coin onto each of the 2 other market cards, then the 2 coins on the red card are hers
    assert turn["coins"] == {"before": 4, "paid_to_market": 2, "taken_from_market": 2, "from_supply": 0,
                             "paid_for_egg": 0, "after": 4 - 1 - 1 + 2}
    # slot 1 holds the top card of the pile, without coins; the others gained 1 coin each
    assert result["market"] == [{"card": "blue 7", "coins": 0}, {"card": "blue 5", "coins": 1 + 1},
                                {"card": "green 6", "coins": 0 + 1}]
    assert result["coins"] == {"Heidi": 4, "Otto": 9}
    assert turn["eggs"] == [] and not result["game_over"] and result["winners"] is None
    assert any("Heidi buys red 3" in line for line in lines)


def test_a_purchase_completing_a_card_condition_places_an_egg(strategies):
    _, result = play("egg_by_purchase.toml", strategies)
    (turn,) = result["turns"]
    assert turn["card"] == "red 5"
    # red 1 asks "4 of its colour": red 1, 2, 4 and now red 5
    assert turn["eggs"] == [{"player": "Heidi", "card": "red 1", "reason": "4 of its colour", "golden": False}]
    assert result["eggs_left"] == {"Heidi": 10 - 1, "Otto": 12}
    assert turn["coins"]["after"] == 6 - 2 + 1


def test_community_card_two_eggs_to_the_completer_one_to_the_neighbour(strategies):
    lines, result = play("community.toml", strategies)
    (turn,) = result["turns"]
    assert (turn["player"], turn["card"]) == ("Otto", "blue 5")
    reasons = [(e["player"], e["card"]) for e in turn["eggs"]]
    assert sorted(reasons) == [("Heidi", None), ("Otto", None), ("Otto", None)]
    assert result["eggs"] == {"Heidi": 1, "Otto": 2}
    assert "community card '5 of one colour' is complete: Otto completed it, Heidi is the neighbour" in lines


def test_a_completed_community_card_is_not_completed_again(strategies):
    # the same position one blue card further on: the two displays already meet "5 of one colour"
    spec = read_toml(HERE / "community.toml")
    spec["seats"][0]["display"].append("blue 6")
    _, result = GAME.scenario(spec, strategies)
    assert result["turns"][0]["eggs"] == []


def test_unscripted_turns_are_played_by_the_named_strategy(strategies):
    lines, result = play("chaser.toml", strategies)
    first, second = result["turns"]
    # the condition-chaser takes the card that meets red 1's "4 of its colour"
    assert (first["player"], first["action"], first["card"]) == ("Heidi", "market 2", "red 5")
    assert first["eggs"][0]["card"] == "red 1"
    assert second["player"] == "Otto"
    assert lines[1] == "players: Heidi (chaser), Otto (random)"


def test_strategies_play_a_position_to_the_end_of_the_game(strategies):
    _, result = play("chaser.toml", strategies, turns=None, strategies=["chaser"])
    assert result["game_over"]
    assert min(result["eggs_left"].values()) == 0
    # the round is finished: both players had the same number of turns
    seats = [t["player"] for t in result["turns"]]
    assert seats.count("Heidi") == seats.count("Otto")
    for turn in result["turns"]:
        c = turn["coins"]
        assert c["after"] == (c["before"] - c["paid_to_market"] + c["taken_from_market"] + c["from_supply"]
                              - c["paid_for_egg"])
    best = max(result["eggs"].values())
    assert all(result["eggs"][w] == best for w in result["winners"])


def test_scripted_pay_choice(strategies):
    # red 8's second copy asks 5 coins for an egg when it is laid out
    spec = read_toml(HERE / "heidi.toml")
    spec["market"]["cards"][0] = "red 8 (pay 5 coins)"
    spec["seats"][0]["coins"] = 7
    spec["actions"] = ["market 1, pay"]
    _, result = GAME.scenario(spec, strategies)
    (turn,) = result["turns"]
    assert turn["action"] == "market 1, pay"
    assert turn["coins"]["after"] == 7 - 2 + 2 - 5
    assert turn["eggs"] == [{"player": "Heidi", "card": "red 8", "reason": "pay 5 coins", "golden": False}]


def test_cli_prints_the_scenario_as_json():
    out = CliRunner().invoke(cli, ["scenario", str(HERE / "heidi.toml"), "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["result"]["turns"][0]["coins"]["after"] == 4
    assert data["log"][0].startswith("Heidi buys the red card")


def test_a_card_used_twice_is_refused(strategies):
    with pytest.raises(SetupError, match=r"market\.cards\[1\]: 'red 3' is used twice"):
        play("used_twice.toml", strategies)


@pytest.mark.parametrize("edit, key", [
    (lambda s: s["seats"][0].update(display=["orange 3"]), "seats[0].display[0]"),
    (lambda s: s["seats"][0].update(display=["black"]), "seats[0].display[0]"),   # which black card?
    (lambda s: s.update(actions=["market 4"]), "actions[0]"),
    (lambda s: s.update(actions=["market 1, pay"]), "actions[0]"),   # red 3 is no pay card
    (lambda s: s["seats"][0].update(coins=0), "actions[0]"),         # 0 coins cannot pay the other two
    (lambda s: s.update(turn="Anne"), "turn"),
    (lambda s: s.update(players=3), "names"),                          # 2 names for 3 players
    (lambda s: s.update(players=3, names=["Heidi", "Otto", "Anne"]), "seats"),   # 2 seats for 3 players
    (lambda s: s.update(community=["17 of one colour"]), "community[0]"),  # a colour has 16 cards
    (lambda s: s.update(community=[]), "community"),
    (lambda s: s["seats"][0].update(eggs_on=["blue 1"]), "seats[0].eggs_on[0]"),
])
def test_impossible_positions_and_actions_are_refused(strategies, edit, key):
    spec = read_toml(HERE / "heidi.toml")
    edit(spec)
    with pytest.raises(SetupError) as err:
        GAME.scenario(spec, strategies)
    assert key in str(err.value)


def test_cli_refuses_a_bad_file():
    out = CliRunner().invoke(cli, ["scenario", str(HERE / "used_twice.toml")])
    assert out.exit_code != 0
    assert "used twice" in out.output
