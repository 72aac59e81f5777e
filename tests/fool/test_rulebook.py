"""The printed examples of the Fool! rulebook and the rulings, on the reference engine."""

import pytest

from simulator.core.setup import read_toml
from simulator.fool.reference import Deal, RefereeError, Rules, Trick, next_start, play_random
from simulator.fool.setup import SETUP_PATH, compile_setup

from .helpers import card

ANNE, PAUL, RACHEL, CAMILLE = range(4)
NAMES = ["Anne", "Paul", "Rachel", "Camille"]


def rules(players=4):
    return Rules.from_setup(read_toml(SETUP_PATH), players)


def play_scripted(hands, leader, passing, cards, players=4):
    """Play one trick of a deal whose hands are given, each seat playing its scripted card."""
    hands = [[card(c) for c in h] for h in hands]
    deal = Deal(rules(players), hands, leader, passing=set(passing), names=NAMES[:players] if players == 4 else None)
    script = {seat: card(c) for seat, c in cards.items()}
    lines = []
    trick = deal.play_trick(lambda view: script[view.seat], lines.append)
    return deal, trick, lines


def test_example_a_lowest_follower_is_befooled():
    hands = [["blue 7", "green 3"], ["blue 5", "green 4"], ["blue 8", "yellow 2"], ["blue 2", "green 5"]]
    deal, trick, _ = play_scripted(hands, ANNE, {CAMILLE}, {ANNE: "blue 7", PAUL: "blue 5", RACHEL: "blue 8"})
    assert [s for s, _ in trick.plays] == [ANNE, PAUL, RACHEL]
    assert trick.winner() == RACHEL
    assert deal.passing == {PAUL}
    assert deal.leader == RACHEL


def test_example_b_the_only_shed_card_is_worst_even_above_a_lower_follower():
    hands = [["yellow 2", "green 3"], ["yellow 4", "green 4"], ["yellow 10", "blue 2"], ["green 5", "orange 3"]]
    deal, trick, _ = play_scripted(hands, RACHEL, {PAUL}, {RACHEL: "yellow 10", CAMILLE: "green 5", ANNE: "yellow 2"})
    assert [s for s, _ in trick.plays] == [RACHEL, CAMILLE, ANNE]
    assert trick.winner() == RACHEL
    assert deal.passing == {CAMILLE}


def test_example_c_the_lower_of_two_shed_cards_is_worst():
    hands = [["green 14", "green 3"], ["orange 11", "green 4"], ["blue 6", "blue 2"], ["blue 3", "orange 3"]]
    deal, trick, _ = play_scripted(hands, RACHEL, {CAMILLE}, {RACHEL: "blue 6", ANNE: "green 14", PAUL: "orange 11"})
    assert [s for s, _ in trick.plays] == [RACHEL, ANNE, PAUL]
    assert trick.winner() == RACHEL
    assert deal.passing == {PAUL}


def test_example_d_a_wild_follows_and_is_the_lowest_of_the_lead_colour():
    hands = [["yellow 11", "green 3"], ["yellow 4", "green 4"], ["yellow 8", "blue 2"], ["1", "yellow 3"]]
    deal, trick, _ = play_scripted(hands, RACHEL, {PAUL}, {RACHEL: "yellow 8", CAMILLE: "1", ANNE: "yellow 11"})
    assert trick.winner() == ANNE
    assert deal.passing == {CAMILLE}
    assert deal.leader == ANNE


def test_example_e_a_shed_card_is_worse_than_a_wild():
    hands = [["green 10", "green 3"], ["1", "green 4"], ["yellow 3", "blue 2"], ["green 2", "orange 3"]]
    deal, trick, _ = play_scripted(hands, ANNE, {CAMILLE}, {ANNE: "green 10", PAUL: "1", RACHEL: "yellow 3"})
    assert trick.winner() == ANNE
    assert deal.passing == {RACHEL}


def test_a_wild_may_be_played_while_holding_the_lead_colour_but_nothing_else_may():
    trick = Trick(0, [(0, card("green 10"))])
    hand = [card("green 4"), card("1"), card("yellow 9")]
    assert sorted(trick.legal(hand)) == sorted([card("green 4"), card("1")])
    with pytest.raises(RefereeError, match="must follow green"):
        play_scripted([["green 10", "blue 2"], ["green 4", "yellow 9"], ["green 5", "blue 3"], ["green 6", "blue 4"]],
                      ANNE, set(), {ANNE: "green 10", PAUL: "yellow 9"})


def test_after_a_wild_lead_the_next_numbered_card_sets_the_lead_colour():
    trick = Trick(0, [(0, card("1")), (1, card("1")), (2, card("orange 5"))])
    assert trick.lead_colour == "orange"
    # before any numbered card, any card is legal
    assert Trick(0, [(0, card("1"))]).legal([card("green 2"), card("blue 3")]) == [card("green 2"), card("blue 3")]
    trick.plays.append((3, card("orange 9")))
    assert trick.winner() == 3
    # both wilds follow orange; the later one is the worst
    assert trick.worst(2) == [1, 0]


def test_all_wilds_the_first_player_wins_and_the_last_is_befooled():
    trick = Trick(2, [(2, card("1")), (3, card("1")), (0, card("1"))])
    assert trick.winner() == 2
    assert trick.worst(1) == [0]
    assert trick.worst(2) == [0, 3]


def test_equal_shed_values_the_later_card_is_worse_and_two_discs_take_the_next_worst():
    trick = Trick(0, [(0, card("green 9")), (1, card("blue 4")), (2, card("1")), (3, card("yellow 4")),
                      (4, card("green 3"))])
    assert trick.worst(1) == [3]
    assert trick.worst(2) == [3, 1]
    assert trick.worst(3) == [3, 1, 2]
    assert trick.winner() == 0


def test_scoring_example():
    # Rachel holds the disc from the previous trick; Paul and Camille play their last cards and Paul is worst.
    hands = [["green 3", "green 9", "1", "green 12"], ["green 5"], ["yellow 9", "blue 4"], ["green 7"]]
    deal, _, lines = play_scripted(hands, ANNE, {RACHEL}, {ANNE: "green 12", PAUL: "green 5", CAMILLE: "green 7"})
    assert deal.over
    assert deal.scores() == [-17, 0, -13, 10]
    assert lines == ["trick 1: Anne green 12, Paul green 5, Camille green 7; Rachel passes "
                     "-> Anne wins, Paul befooled"]
    # Anne has the most negative points and starts the next deal
    assert next_start(deal.scores(), RACHEL) == ANNE


def test_next_start_ties_go_clockwise_from_the_previous_start_counting_it_first():
    assert next_start([-5, -9, -9, -9], 2) == 2
    assert next_start([-5, -9, 0, -9], 2) == 3
    assert next_start([-9, 10, 0, -9], 2) == 3
    assert next_start([-9, 10, 0, 10], 2) == 0


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_the_reference_engine_plays_whole_games_on_its_own(players):
    cfg = compile_setup(read_toml(SETUP_PATH), players, "standard")
    for seed in range(10):
        result = play_random(cfg, seed)
        assert min(result.totals) <= -80 or sum(result.tallies) >= 6
        assert sum(result.tricks) == result.trick_count
        assert [sum(d[s] for d in result.deal_scores) for s in range(players)] == result.totals
