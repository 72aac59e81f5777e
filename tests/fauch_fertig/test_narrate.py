"""Narration: a traced game in words, with buys, coins moved, eggs placed and why."""

from simulator.fauch_fertig import GAME


def test_narration_tells_buys_coins_and_eggs(configs, trace_one):
    config = configs[3]
    names = ["chaser", "farmer", "specialist"]
    trace, scores, *_ = trace_one(config, names, 3, 5)
    lines = GAME.narrate(config, trace, names)
    text = "\n".join(lines)
    assert lines[0] == "Fauch & Fertig, 3 players; seats: 0=chaser, 1=farmer, 2=specialist"
    assert "-- round 1" in text
    assert "from market slot" in text and "pays 1 coin onto market slots" in text and "takes the" in text
    assert "places an egg on" in text
    assert "community card" in text
    egg_lines = [line for line in lines if " places " in line and "egg" in line]
    assert len(egg_lines) == sum(int(s) for s in scores)   # one line per egg, each with its reason
    assert all(": " in line for line in egg_lines)
    assert lines[-1].startswith(("winner: seat", "shared win: seats"))
