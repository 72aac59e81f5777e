"""Condition tests: the kernel's count-vector tests against the reference engine's search over the cards.

The reference engine searches the actual cards for disjoint groups (a
different method from the kernel's greedy and counting rules); hypothesis
draws random displays and random condition parameters. Hand-made displays pin
each condition to the rulebook's wording.
"""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from simulator.core.setup import SetupError
from simulator.fauch_fertig import layout as L
from simulator.fauch_fertig.conditions import holds
from simulator.fauch_fertig.reference import Card, condition_met
from simulator.fauch_fertig.setup import parse_condition


def cards_of(ids):
    return [Card(i, L.COLOUR_NAMES[L.card_colour(i)], L.card_number(i) or None, None) for i in ids]


def kernel_holds(cond, ids):
    colours = np.zeros((1, 5), np.int64)
    numbers = np.zeros((1, 9), np.int64)
    for i in ids:
        colours[0, L.card_colour(i)] += 1
        if L.card_number(i):
            numbers[0, L.card_number(i)] += 1
    return holds(*cond.code(), colours, numbers, 0)


def card(colour, number, copy=0):
    """The id of a coloured card (colour by name) or, with colour "black", black card ``copy``."""
    if colour == "black":
        return 64 + copy
    return 16 * L.COLOUR_NAMES.index(colour) + 2 * (number - 1) + copy


def both(text, ids, colour=None):
    cond = parse_condition(text, "test", colour)
    ref, ker = condition_met(cond, cards_of(ids)), kernel_holds(cond, ids)
    assert ref == ker, (text, ids)
    return ref


R, B, G, P = "red", "blue", "green", "purple"


def test_four_of_its_colour_counts_only_that_colour():
    reds = [card(R, n) for n in (1, 2, 3)]
    assert not both("4 of its colour", reds + [card(B, 4)], colour=3)
    assert both("4 of its colour", reds + [card(R, 3, 1)], colour=3)
    assert not both("4 of its colour", reds + [card(R, 3, 1)], colour=0)


def test_value_ranges_ignore_black_and_colour():
    low = [card(c, n) for c, n in ((R, 1), (B, 2), (G, 3), (P, 4), (R, 4, ), (B, 1))]
    assert both("6 cards 1-4", low)
    assert not both("6 cards 1-4", low[:5] + [card(R, 5), card("black", 0)])
    assert not both("6 cards 5-8", low)


def test_seven_different_numbers():
    seven = [card(R, n) for n in range(1, 8)]
    assert both("7 different numbers", seven)
    assert not both("7 different numbers", seven[:6] + [card(B, 6), card("black", 1)])


def test_two_sets_of_three_may_reuse_a_number_with_six_cards():
    sixes = [card(c, 6, k) for c in (R, B, G) for k in (0, 1)]
    assert both("2 sets of 3", sixes)
    assert not both("2 sets of 3", sixes[:5] + [card(P, 5), card(P, 5, 1)])


def test_two_runs_need_eight_different_cards():
    run = [card(R, n) for n in range(1, 5)]
    assert not both("2 runs of 4", run + [card(B, n) for n in (2, 3, 4)])  # 7 cards cannot share
    assert both("2 runs of 4", run + [card(B, n) for n in (3, 4, 5, 6)])
    assert both("2 runs of 4", [card(R, n) for n in range(1, 9)])        # 1-4 and 5-8
    assert both("2 runs of 4", [card(R, n) for n in range(1, 8)] + [card(B, 4)])     # 1-4 and 4-7
    assert not both("2 runs of 4", [card(R, n) for n in range(1, 8)] + [card(B, 1)])


def test_two_sets_of_four_colours_need_each_colour_twice_and_never_black():
    pairs = [card(c, n, k) for c in (R, B, G) for n, k in ((1, 0), (2, 0))]
    assert not both("2 sets of 4 colours", pairs + [card(P, 1), card("black", 0), card("black", 1)])
    assert both("2 sets of 4 colours", pairs + [card(P, 1), card(P, 7)])


def test_black_cards_and_one_colour_community_conditions():
    assert both("4 black cards", [card("black", k) for k in range(4)])
    assert not both("4 black cards", [card("black", k) for k in range(3)] + [card(R, 1)])
    assert both("5 of one colour", [card(G, n) for n in range(1, 6)])
    assert not both("5 of one colour", [card(G, n) for n in range(1, 5)] + [card(R, 5)])


def test_free_egg_always_and_actions_never_hold():
    assert both("free egg", [], colour=3)
    assert not both("pay 5 coins", [card(R, 1)], colour=3)
    assert not both("black-card bonus", [card("black", 0)], colour=L.BLACK)


CONDITIONS = st.one_of(
    st.builds(lambda n, c: (f"{n} of its colour", c), st.integers(1, 10), st.integers(0, 3)),
    st.builds(lambda n: (f"{n} of one colour", None), st.integers(1, 10)),
    st.builds(lambda n, lo, w: (f"{n} cards {lo}-{min(8, lo + w)}", None), st.integers(1, 12), st.integers(1, 8),
              st.integers(0, 7)),
    st.builds(lambda n: (f"{n} different numbers", None), st.integers(1, 8)),
    st.builds(lambda m, s: (f"{m} sets of {s}", None), st.integers(1, 4), st.integers(1, 4)),
    st.builds(lambda m, s: (f"{m} runs of {s}", None), st.integers(1, 3), st.integers(2, 5)),
    st.builds(lambda m, k: (f"{m} sets of {k} colours", None), st.integers(1, 4), st.integers(1, 4)),
    st.builds(lambda n: (f"{n} black cards", None), st.integers(1, 5)),
)


@settings(max_examples=600, deadline=None, derandomize=True)
@given(CONDITIONS, st.lists(st.integers(0, L.N_CARDS - 1), max_size=30, unique=True))
def test_kernel_agrees_with_search_over_random_displays(condition, ids):
    text, colour = condition
    try:
        parse_condition(text, "test", colour)
    except SetupError:
        assume(False)   # a condition not even the whole deck meets: the setup table refuses it
    both(text, ids, colour)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 63), min_size=6, max_size=24, unique=True))
def test_runs_agree_on_dense_number_displays(ids):
    """Displays of coloured cards only, where runs are frequent and the greedy choice matters."""
    for text in ("2 runs of 4", "2 runs of 3", "3 runs of 2", "2 sets of 3", "3 sets of 2"):
        both(text, ids)
