"""Forks rules checked on hand-made situations with the reference engine, and the kernel against it."""

import numpy as np
import pytest

from playtest import api
from simulator.forks.reference import Card, Table, play, score_hand

from tests_support import forks_rules


def test_printed_scoring_example():
    # Rulebook: Green Acres (9) and Greysteel (19) are the bottom two; Greysteel ties
    # Bluecrest at 19 and Bluecrest wins the tie. The hand scores 6-4-8-4+8+5 = 3.
    table = Table({"red": [Card("red", 12), Card("red", 11)], "green": [Card("green", 9)],
                   "yellow": [Card("yellow", 12), Card("yellow", 10)], "blue": [Card("blue", 12), Card("blue", 7)],
                   "grey": [Card("grey", 11), Card("grey", 8)]})
    ranking = table.order(["red", "green", "yellow", "blue", "grey"])
    assert ranking[3:] == ["grey", "green"]
    hand = [Card("blue", 6), Card("green", 4), Card("grey", 8), Card("grey", 4), Card("red", 8), Card("yellow", 5)]
    gained, lost = score_hand(hand, ranking, 3)
    assert (gained, lost, gained - lost) == (19, 16, 3)


def test_tiebreak_first_in_order_wins():
    table = Table({d: [Card(d, 5)] for d in ["red", "green", "yellow", "blue", "grey"]})
    assert table.order(["red", "green", "yellow", "blue", "grey"]) == ["red", "green", "yellow", "blue", "grey"]
    assert table.order(["grey", "blue", "yellow", "green", "red"]) == ["grey", "blue", "yellow", "green", "red"]


@pytest.mark.parametrize("players, cards, rounds", [(2, 40, 4), (3, 40, 4), (4, 55, 4), (5, 55, 3), (6, 55, 3)])
def test_deck_size_and_rounds(players, cards, rounds):
    # 2-3 players play without the 10s, 11s and 12s (5 x 3 cards); the game lasts 3 or 4 rounds
    config = api.prepare("forks", players=players)[0].config
    assert config.info["cards"] == cards
    assert config.info["rounds"] == rounds


def test_two_player_game_reveals_a_deck_card_after_each_round():
    rules = forks_rules(2)
    deck = sorted(rules.deck)
    first = lambda kind, options, me, table, r: options[0]  # noqa: E731
    result = play(rules, deck, [first, first], log=True)
    reveals = [line for line in result.log if line.startswith("revealed")]
    assert len(reveals) == 4 and result.rounds == 4
    # 40 cards: 9 removed, 3 initial marketing, 4 rounds x (6 dealt + 1 revealed) = 40
    assert 9 + 3 + 4 * 7 == len(rules.deck)


def test_picks_are_simultaneous():
    # every decision of a round sees the marketing as it was before that round's reveal
    rules = forks_rules(4)
    seen = {}

    def spy(kind, options, me, table, round_no):
        seen.setdefault(round_no, set()).add(tuple(table.total(d) for d in rules.destinations))
        return options[0]

    play(rules, sorted(rules.deck), [spy] * 4)
    assert all(len(totals) == 1 for totals in seen.values())


def test_merge_variant_markets_any_hand_card():
    rules = forks_rules(4, "merge")
    hands = {}

    def oldest(kind, options, me, table, round_no):
        if kind == "market":
            hands[(me.seat, round_no)] = len(options)
        return options[0]

    result = play(rules, sorted(rules.deck), [oldest] * 4)
    # after round r the hand holds 2r cards, so the market choice is among 2(r-1) + 3
    assert all(n == 2 * (r - 1) + 3 for (_, r), n in hands.items())
    assert result.rounds == 4


def test_shared_win_in_batch_output():
    run = api.simulate("forks", players=2, games=3000, seed=3)
    rows = run.seats().sort(["game", "seat"])
    score = rows["score"].to_numpy().reshape(-1, 2)
    win = rows["win"].to_numpy().reshape(-1, 2)
    rank = rows["rank"].to_numpy().reshape(-1, 2)
    ties = score[:, 0] == score[:, 1]
    assert ties.any() and (~ties).any()
    assert np.all(win[ties] == 0.5) and np.all(rank[ties] == 1)
    leader = np.where(score[:, 0] > score[:, 1], 0, 1)[~ties]
    assert np.all(win[~ties][np.arange(leader.size), leader] == 1.0)
    assert np.all(rank[~ties][np.arange(leader.size), 1 - leader] == 2)
