"""Narration of a traced game and the scenario hook."""

import re

import pytest

from simulator.core.setup import SetupError
from simulator.fair_enough import GAME

from .helpers import config_for, trace_one


def test_narration_counts_the_time_down_round_by_round(kernels, strategies):
    config = config_for(4)
    sids, params, names = strategies.seats(["random"], 4)
    trace = trace_one(kernels, config, sids, params, 3, 2)[0]
    lines = GAME.narrate(config, trace, names)
    assert sum(line.startswith("Round ") and line.endswith(": research") for line in lines) == 6
    cards = [int(m.group(1)) for line in lines if (m := re.match(r"Round \d: collecting, time card (\d+)", line))]
    assert sorted(cards) == [16, 19, 22, 25, 28, 31]
    # every placement states the countdown, and the first one starts from the round's time card
    steps = [tuple(map(int, m.groups())) for line in lines if (m := re.search(r"time (\d+) -> (\d+)$", line))]
    assert steps and steps[0][0] == cards[0]
    assert lines[-1].startswith(("winner: seat", "shared win: seats"))


SCENARIO = {
    "game": "fair-enough", "players": 3, "time": 12, "turn": 0,
    "moves": ["C4 + Sold Out A7", "secure", "B2 + Queue", "B9", "E5 + Pre-order"],
    "seats": [{"hand": ["C4", "B9", "Sold Out"]},
              {"hand": ["D1"], "placed": ["A7"]},
              {"hand": ["B2", "Queue", "E5", "Pre-order"], "placed": ["F3"]}],
}


def test_scenario_plays_the_moves_and_lists_what_is_legal_next():
    lines, result = GAME.scenario(SCENARIO)
    # 12 + 7 (A7 removed) - 4 = 15; seat 1 secures; 15 - 2 x 2 = 11; 11 - 9 = 2; Pre-order keeps 2
    assert "  seat 0 places C4 with Sold Out (removes seat 1's A7, +7): time 12 -> 15" in lines
    assert result["time"] == 2 and result["first_to_secure"] == 1
    assert result["placed"] == [["C4", "B9"], [], ["F3", "B2", "E5"]]
    assert result["to_move"] == 0 and result["legal_moves"] == ["secure"]


def test_scenario_reports_an_illegal_move_and_stops():
    spec = dict(SCENARIO, moves=["B9", "D1", "E5"])  # 12 - 9 = 3, 3 - 1 = 2, E5 does not fit
    lines, result = GAME.scenario(spec)
    assert result["illegal"].startswith("move 3 ('E5') is illegal")
    assert result["time"] == 2


def test_scenario_refuses_a_card_used_twice():
    spec = dict(SCENARIO, seats=[{"hand": ["C4"]}, {"hand": ["C4"]}, {}])
    with pytest.raises(SetupError, match=r"seats\[1\].hand"):
        GAME.scenario(spec)
