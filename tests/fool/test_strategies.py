"""The Fool! heuristics in situations whose right answer a player can work out by hand."""

import numpy as np

from simulator.core.setup import read_toml
from simulator.fool.layout import OBS_TO_PLAY
from simulator.fool.observe import colour_id, observe
from simulator.fool.reference import Rules, Trick, View
from simulator.fool.setup import SETUP_PATH
from strategies.fool import heuristics as h

from .helpers import card, config, run_games

RULES = Rules.from_setup(read_toml(SETUP_PATH), 4)


def situation(hand, trick, leader=0, passing=(), seat=None):
    """The view of the player to act after ``trick`` (cards in playing order from ``leader``)."""
    plays = []
    s = leader
    for text in trick:
        while s in passing:
            s = (s + 1) % 4
        plays.append((s, card(text)))
        s = (s + 1) % 4
    while s in passing:
        s = (s + 1) % 4
    t = Trick(leader, plays)
    hand = [card(c) for c in hand]
    legal = t.legal(hand)
    view = View(s if seat is None else seat, hand, legal, t, set(passing), [5] * 4, [0] * 4, 0, 0, 3, [], RULES)
    colours = np.array([colour_id(RULES, c) for c in legal], np.int64)
    values = np.array([c.value for c in legal], np.int64)
    return legal, colours, values, observe(view)


def choose(strategy, hand, trick, params=(), **kw):
    legal, colours, values, obs = situation(hand, trick, **kw)
    k = strategy(colours, values, len(legal), obs, np.array(params or [0.0]), np.ones(4, np.uint64))
    return str(legal[k])


def test_safety_counts_the_cards_already_below():
    # example (C): after blue 6 and a shed green 14, a shed orange 11 would be the worst, an orange 15 not
    _, colours, values, obs = situation(["orange 11", "orange 13"], ["blue 6", "green 14"], leader=2, passing={3})
    assert h.discs_left(obs, colours[0], values[0]) == 1
    _, colours, values, obs = situation(["orange 11", "orange 13"], ["blue 6", "green 9"], leader=2, passing={3})
    assert h.discs_left(obs, colours[0], values[0]) == 0 and h.discs_left(obs, colours[1], values[1]) == 0
    # a wild is safe once any card has been shed, never against followers only
    _, colours, values, obs = situation(["1", "yellow 9"], ["yellow 10", "green 5"])
    assert h.discs_left(obs, 0, 1) == 0
    _, colours, values, obs = situation(["1", "yellow 9"], ["yellow 10", "yellow 3"])
    assert h.discs_left(obs, 0, 1) == 1


def test_fool_chance_is_exact_when_nobody_is_left_and_zero_when_safe():
    # seat 2 plays last (seat 3 passes): under the yellow 4 is certain doom, above it certain safety
    legal, colours, values, obs = situation(["yellow 2", "yellow 11"], ["yellow 10", "yellow 4"], passing={3})
    assert obs[OBS_TO_PLAY] == 0
    assert h.fool_chance(obs, colours[0], values[0]) == 1.0
    assert h.fool_chance(obs, colours[1], values[1]) == 0.0
    # with players still to come, a low follower is at risk but not doomed
    legal, colours, values, obs = situation(["yellow 2", "yellow 11"], ["yellow 10"])
    assert 0.0 < h.fool_chance(obs, colours[0], values[0]) < 1.0


def test_shedder_dumps_the_highest_safe_card():
    assert choose(h.shedder, ["orange 11", "orange 13", "green 3"], ["blue 6", "green 9"], leader=2,
                  passing={3}) == "orange 13"
    # nothing safe: the card ranking highest in the trick
    assert choose(h.shedder, ["yellow 2", "yellow 5"], ["yellow 10", "yellow 7"], passing={3}) == "yellow 5"


def test_wild_saver_plays_a_wild_only_below_a_shed_card():
    assert choose(h.wild_saver, ["1", "yellow 9"], ["yellow 10", "green 5"]) == '"1"'
    assert choose(h.wild_saver, ["1", "yellow 9"], ["yellow 10", "yellow 3"]) == "yellow 9"


def test_cautious_plays_just_above_the_lowest():
    assert choose(h.cautious, ["yellow 4", "yellow 8", "yellow 11"], ["yellow 10", "yellow 3"]) == "yellow 4"
    assert choose(h.shedder, ["yellow 4", "yellow 8", "yellow 11"], ["yellow 10", "yellow 3"]) == "yellow 11"


def test_counter_weighs_points_shed_against_the_risk():
    # no yellow to follow the yellow 10: shedding green 15 sheds most, the wild is the safest
    hand, trick = ["green 15", "orange 2", "1"], ["yellow 10"]
    legal, colours, values, obs = situation(hand, trick)
    risk = {str(c): h.fool_chance(obs, colour_id(RULES, c), c.value) for c in legal}
    assert risk['"1"'] < risk["green 15"] < risk["orange 2"]
    assert choose(h.counter, hand, trick, params=(0.0, 3.0)) == "green 15"
    assert choose(h.counter, hand, trick, params=(1000.0, 3.0)) == '"1"'


def test_every_heuristic_beats_three_random_players(strategies, kernels):
    run_chunk, _ = kernels
    cfg = config(4)
    for name in ("shedder", "wild_saver", "cautious", "counter"):
        sids, params, _ = strategies.seats([name, "random", "random", "random"], 4)
        scores, _, _, status = run_games(run_chunk, cfg, sids, params, 8, 0, 2000)
        assert not status.any()
        # a random player averages about -50; every heuristic loses far less
        assert scores[:, 0].mean() > scores[:, 1:].mean() + 20, name
