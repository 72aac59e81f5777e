"""The rules, checked on the reference engine with hand-made positions.

Cards are named as in narration: a kind letter and a value (``A7``), or the
special's name. Each test sets the exact position it needs on a ``Table``.
"""

import pytest

from simulator.fair_enough.layout import PREORDER, QUEUE, SOLD_OUT
from simulator.fair_enough.reference import SECURE, IllegalMove, Place, Table, score_seat

from .helpers import config_for


def table(players=3, time=20):
    t = Table(config_for(players))
    t.time = time
    return t


def card(t, name):
    """The deck's card with that name (``A7``, ``Queue``...), first copy for specials."""
    for c in t.cards:
        if str(c) == name:
            return c
    raise KeyError(name)


def special(t, kind, copy=0):
    return [c for c in t.cards if c.special == kind][copy]


def test_a_card_alone_costs_its_value_and_may_reach_but_not_pass_zero():
    t = table(time=7)
    t.hands[0] = [card(t, "A7"), card(t, "B8")]
    moves = t.legal_moves(0)
    assert Place(card(t, "A7")) in moves
    assert Place(card(t, "B8")) not in moves          # 7 - 8 < 0
    with pytest.raises(IllegalMove):
        t.play_turn(0, Place(card(t, "B8")))
    assert t.play_turn(0, Place(card(t, "A7"))) is True  # exactly zero ends the phase
    assert t.time == 0


def test_queue_doubles_the_time_and_is_discarded():
    t = table(time=10)
    q = special(t, QUEUE)
    t.hands[0] = [card(t, "A4"), card(t, "B6"), q]
    assert Place(card(t, "B6"), q) not in t.legal_moves(0)  # 10 - 2 x 6 < 0
    t.play_turn(0, Place(card(t, "A4"), q))
    assert t.time == 10 - 2 * 4
    assert t.placed[0] == [card(t, "A4")] and q in t.discard and q not in t.hands[0]
    assert t.records[0].played[QUEUE] == 1


def test_preorder_costs_no_time_even_when_the_card_alone_would_not_fit():
    t = table(time=3)
    pre = special(t, PREORDER)
    t.hands[0] = [card(t, "C9"), pre]
    assert Place(card(t, "C9")) not in t.legal_moves(0)
    t.play_turn(0, Place(card(t, "C9"), pre))
    assert t.time == 3 and t.placed[0] == [card(t, "C9")] and pre in t.discard


def test_sold_out_removes_any_unsecured_card_and_gives_its_printed_time_back():
    t = table(time=2)
    so = special(t, SOLD_OUT)
    t.hands[0] = [card(t, "A8"), so]
    t.placed[1] = [card(t, "B7")]        # placed earlier with a Queue: still 7 comes back
    t.placed[2] = [card(t, "C1")]
    t.placed[0] = [card(t, "D5")]        # own cards are targets too
    moves = t.legal_moves(0)
    assert Place(card(t, "A8"), so, card(t, "B7")) in moves      # 2 + 7 - 8 = 1
    assert Place(card(t, "A8"), so, card(t, "D5")) not in moves  # 2 + 5 - 8 < 0
    assert Place(card(t, "A8"), so, card(t, "C1")) not in moves
    t.play_turn(0, Place(card(t, "A8"), so, card(t, "B7")))
    assert t.time == 1
    assert t.placed[1] == [] and card(t, "B7") in t.discard and so in t.discard
    assert t.placed[0] == [card(t, "D5"), card(t, "A8")]
    assert t.records[1].lost_to_sold_out == 1 and t.records[0].played[SOLD_OUT] == 1


def test_sold_out_needs_an_unsecured_target_and_never_reaches_secured_cards():
    t = table(time=20)
    so = special(t, SOLD_OUT)
    t.hands[0] = [card(t, "A3"), so]
    t.collections[1] = [card(t, "B9")]   # secured: safe
    t.secured[1] = True
    assert [m for m in t.legal_moves(0) if m != SECURE] == [Place(card(t, "A3"))]
    assert not t.is_legal(0, Place(card(t, "A3"), so, card(t, "B9")))


def test_sold_out_before_the_card_lets_a_player_place_more_than_the_time_left():
    # time 3, card 5: only possible because the removed 4 comes back first (3 + 4 - 5 = 2)
    t = table(time=3)
    so = special(t, SOLD_OUT)
    t.hands[0] = [card(t, "A5"), so]
    t.placed[1] = [card(t, "B4")]
    assert Place(card(t, "A5"), so, card(t, "B4")) in t.legal_moves(0)


def test_only_one_special_per_turn():
    t = table(time=20)
    q, pre = special(t, QUEUE), special(t, PREORDER)
    t.hands[0] = [card(t, "A2"), q, pre]
    assert {m.special for m in t.legal_moves(0) if m != SECURE} == {None, q, pre}


def test_zero_ending_the_zero_maker_secures_everyone_else_loses_unsecured_cards():
    t = table(players=4, time=10)
    t.hands = [[card(t, "A4")], [card(t, "B3")], [card(t, "C3")], [card(t, "D1"), card(t, "D2")]]
    t.placed[3] = [card(t, "E6")]
    t.secure(3)                                   # seat 3 banked E6 earlier
    assert t.turn(0, Place(card(t, "A4"))) is False   # 10 -> 6
    assert t.turn(1, Place(card(t, "B3"))) is False   # 6 -> 3
    assert t.turn(2, Place(card(t, "C3"))) is True    # 3 -> 0: the fair closes
    assert t.collections[2] == [card(t, "C3")]
    assert t.collections[3] == [card(t, "E6")]        # secured before: kept
    assert t.collections[0] == [] and t.collections[1] == []
    assert card(t, "A4") in t.discard and card(t, "B3") in t.discard
    assert [r.lost_at_close for r in t.records] == [1, 1, 0, 0]
    assert t.first == 3                               # seat 3 secured first, not the zero-maker


class Scripted:
    """A decision source replaying fixed moves per seat (for whole phases)."""

    def __init__(self, moves):
        self.moves = moves

    def collect(self, table, seat, options):
        return self.moves[seat].pop(0)


def test_first_to_secure_takes_the_start_card_and_starts_the_next_round():
    t = table(players=3)
    t.time_deck = [12]
    t.round, t.start = 0, 0
    t.hands = [[card(t, "A2"), card(t, "A5")], [card(t, "B4")], [card(t, "C1")]]
    src = Scripted({0: [Place(card(t, "A2")), SECURE],
                    1: [SECURE],
                    2: [Place(card(t, "C1")), SECURE]})
    t.collecting_phase(src)
    # seat 0 places (12 -> 10), seat 1 secures first, seat 2 places (-> 9), seat 0 and 2 secure
    assert t.start == 1 and t.records[1].secured_first == 1
    assert t.collections == [[card(t, "A2")], [], [card(t, "C1")]]
    assert t.time == 9


def test_a_zero_maker_who_is_first_out_takes_the_start_card():
    t = table(players=2)
    t.time_deck = [5]
    t.round, t.start = 0, 1
    t.hands = [[card(t, "A3")], [card(t, "B2")]]
    t.collecting_phase(Scripted({1: [Place(card(t, "B2"))], 0: [Place(card(t, "A3"))]}))
    assert t.start == 0 and t.collections[0] == [card(t, "A3")] and t.collections[1] == []
    assert t.records[1].lost_at_close == 1


class FixedOrder:
    """Chance that keeps cards in the order given (so a test knows the reshuffled deck)."""

    def reshuffle(self, cards):
        return list(cards)


def test_an_empty_deck_is_rebuilt_from_the_discard_pile():
    t = table()
    t.deck = [card(t, "A1")]
    t.discard = [card(t, "B2"), card(t, "C3"), card(t, "D4")]
    t.row = []
    t.refill(FixedOrder())
    assert t.row == [card(t, "A1"), card(t, "B2"), card(t, "C3")]
    assert t.deck == [card(t, "D4")] and t.discard == [] and t.reshuffles == 1


def test_with_deck_and_discard_pile_empty_the_row_stays_short():
    t = table()
    t.deck, t.discard, t.row = [card(t, "A1")], [], [card(t, "E5")]
    t.refill(FixedOrder())
    assert t.row == [card(t, "E5"), card(t, "A1")] and t.reshuffles == 0


def test_research_takes_none_one_or_two_never_three():
    t = table()
    t.row = [card(t, "A1"), card(t, "B1"), card(t, "C1")]
    assert t.legal_takes() == [(), (0,), (1,), (2,), (0, 1), (0, 2), (1, 2)]
    with pytest.raises(IllegalMove):
        t.take(0, (0, 1, 2), FixedOrder())


def test_scoring_worked_example():
    t = table()
    collection = [card(t, n) for n in ("A3", "A5", "A7", "A9", "B2", "B4", "B6", "C10")]
    hand = [card(t, "D8"), card(t, "E1"), special(t, QUEUE), special(t, SOLD_OUT)]
    # values: A 3+5+7+9 = 24, B 2+4+6 = 12, C 10  -> 46
    # sets:   A has 4 cards -> 5 x (4-2) = 10; B has 3 -> 5 x (3-2) = 5; C has 1 -> 0  -> 15
    # hand:   2 x (8 + 1) = 18 for collection cards, 2 specials x 10 = 20  -> 38
    # score:  46 + 15 - 38 = 23; largest set: 4 (kind A)
    assert score_seat(collection, hand) == (46, 15, 38, 4)
    t.collections[0], t.hands[0] = collection, hand
    seat = t.result().seats[0]
    assert (seat.score, seat.largest_set) == (23, 4)


def test_ties_go_to_the_largest_set_then_are_shared():
    t = table(players=3)
    # seat 0: A1 A2 A3 = 6 + 5 = 11 with a set of 3; seat 1: B5 C6 = 11 with sets of 1; seat 2 the same
    t.collections = [[card(t, "A1"), card(t, "A2"), card(t, "A3")], [card(t, "B5"), card(t, "C6")],
                     [card(t, "D5"), card(t, "E6")]]
    r = t.result()
    assert r.scores == [11, 11, 11]
    assert r.standing[0] > r.standing[1] == r.standing[2]
