import numpy as np
import pytest

from simulator.unfair import panoramas as pano
from simulator.unfair.setup import load_setup, panoramas_config

E, O, W = pano.EMPTY, pano.OTHER, pano.WALL
# The printed table, typed from the rulebook: cards -> (partial, complete)
PRINTED = {2: (5, 10), 3: (10, 20), 4: (25, 40), 5: (35, 60), 6: (45, None)}


@pytest.fixture(scope="module")
def tables():
    cfg = panoramas_config(load_setup())
    return cfg.partial, cfg.complete


def score(tables, park, length, wildcard=False, vistas=False):
    partial, complete = tables
    return pano.score_park(np.array(park, np.int64), length, partial, complete, wildcard, vistas, 5)


@pytest.mark.parametrize("cards", [2, 3, 4, 5, 6])
def test_partial_row_of_the_printed_table(tables, cards):
    park = list(range(1, cards + 1)) + [O] * (6 - cards)   # a six-space park, panorama of 7
    assert score(tables, park, 7) == (PRINTED[cards][0], False)


@pytest.mark.parametrize("cards", [2, 3, 4, 5])
def test_complete_row_of_the_printed_table(tables, cards):
    park = [O] * (5 - cards) + list(range(1, cards + 1))
    assert score(tables, park, cards) == (PRINTED[cards][1], True)


def test_wrong_order_and_gaps_do_not_score(tables):
    assert score(tables, [2, 1, O, O, O], 3) == (0, False)
    assert score(tables, [1, E, 2, 3, O], 3) == (5, False)     # only 2-3 side by side
    assert score(tables, [1, 2, O, 4, 5], 5) == (10, False)    # two separate partial runs


def test_wildcard_completes_a_panorama(tables):
    assert score(tables, [1, 2, W, O, O], 3, wildcard=True) == (20, True)   # as the end card
    assert score(tables, [1, W, 3, O, O], 3, wildcard=True) == (20, True)   # in the middle
    assert score(tables, [1, 2, W, O, O], 3, wildcard=False) == (5, False)  # without its ability


def test_wildcard_never_extends_a_panorama(tables):
    assert score(tables, [1, 2, W, O, O], 2, wildcard=True) == (10, True)
    assert score(tables, [W, 1, 2, O, O], 2, wildcard=True) == (10, True)


def test_only_one_wildcard_counts(tables):
    assert score(tables, [1, W, W, 4, O], 4, wildcard=True) == (5, False)


def test_wildcard_alone_is_no_panorama(tables):
    assert score(tables, [W, O, O, O, O], 3, wildcard=True, vistas=True) == (0, False)


def test_scenic_vistas_costs_five_points(tables):
    assert score(tables, [1, 2, O, O, O], 3, vistas=True) == (20 - 5, True)
    assert score(tables, [1, 2, 3, O, O], 4, vistas=True) == (40 - 5, True)
    assert score(tables, [1, O, O, O, O], 3, vistas=True) == (0, False)     # 5 points for 5: not taken
    assert score(tables, [1, 2, E, O, O], 3, vistas=True) == (5, False)     # needs an attraction there
    assert score(tables, [1, W, O, O, O], 3, wildcard=True, vistas=True) == (20 - 5, True)


def build(arrivals, policy, length, wildcard=False, tables=None):
    partial, complete = tables
    park = np.empty(5, np.int64)
    coins, demolished = pano.build_park(np.array(arrivals, np.int64), len(arrivals), policy, wildcard, length, 3,
                                        partial, complete, park)
    return park.tolist(), coins, demolished


def test_arrival_policy_fills_from_the_entrance(tables):
    assert build([2, 1, O, W, O, O], pano.ARRIVAL, 2, tables=tables) == ([2, 1, O, W, O], 0, 0)


def test_plan_policy_pays_three_coins_per_empty_space_skipped(tables):
    # planned spaces 4 and 5: card 2 skips four empty spaces (12), card 1 then skips two (6)
    assert build([2, O, 1], pano.PLAN, 2, tables=tables) == ([O, E, E, 1, 2], 18, 0)
    # other cards stop when only planned spaces are left
    assert build([O, O, O, O, 1], pano.PLAN, 2, tables=tables) == ([O, O, O, 1, E], 0, 0)


def test_save_policy_demolishes_its_placeholder(tables):
    assert build([O, O, O, O, 1, 2], pano.SAVE, 2, tables=tables) == ([O, O, O, 1, 2], 0, 1)


def test_wall_is_kept_for_the_last_round(tables):
    # planned spaces 3-5; the wall goes where it completes the panorama (paying two skips)
    assert build([1, W, 2], pano.PLAN, 3, wildcard=True, tables=tables) == ([E, E, 1, 2, W], 6 + 6 + 6, 0)


def test_study_orders_policies_as_expected():
    df = pano.panoramas_study(load_setup(), trials=2_000, seed=8)
    assert df.height == 5 * 3 * 2 * 2
    plain = df.filter(~df["wildcard"] & ~df["vistas"] & (df["length"] == 3))
    points = dict(zip(plain["policy"], plain["points"]))
    # planning gets far more panorama points than building in order of arrival
    assert points["plan spaces, pay to skip"] > points["build in order of arrival"] + 3
    assert (df["coins"].filter(df["policy"] == "build in order of arrival") == 0).all()
    six = df.filter(df["length"] == 6)
    assert (six["p_complete"] == 0).all()   # six cards never fit five spaces
