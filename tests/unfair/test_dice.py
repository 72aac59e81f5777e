from fractions import Fraction

import numba
import numpy as np
import pytest

from simulator.core.setup import SetupError
from simulator.unfair import dice

# Hand counts over the 36 rolls: |a - b| is 0 on 6 rolls, 1 on 10, 2 on 8, 3 on 6, 4 on 4, 5 on 2;
# a double needs |a - b| beans.
DOUBLE_P = [Fraction(n, 36) for n in (6, 16, 24, 30, 34, 36)]
DOUBLE_SPENT = [Fraction(n, 36) for n in (0, 10, 10 + 16, 10 + 16 + 18, 10 + 16 + 18 + 16, 10 + 16 + 18 + 16 + 10)]


@pytest.mark.parametrize("beans", range(6))
def test_exact_double_odds_match_the_issue(beans):
    assert dice.exact("double", 0, beans, 6) == (DOUBLE_P[beans], DOUBLE_SPENT[beans])


@pytest.mark.parametrize("goal, target, beans, expected", [
    ("at-least", 10, 0, Fraction(6, 36)),      # 4+6, 5+5, 6+4, 5+6, 6+5, 6+6
    ("at-least", 12, 1, Fraction(3, 36)),      # 11 or 12 before the bean
    ("at-least", 13, 5, Fraction(0)),          # beyond two sixes
    ("at-least", 2, 0, Fraction(1)),
    ("exactly", 7, 0, Fraction(6, 36)),
    ("exactly", 12, 1, Fraction(3, 36)),
    ("exactly", 2, 2, Fraction(6, 36)),        # sums 2, 3, 4
    ("exactly", 1, 5, Fraction(0)),            # below two ones
])
def test_exact_sum_goals_by_hand(goal, target, beans, expected):
    assert dice.exact(goal, target, beans, 6)[0] == expected


def test_search_and_formula_agree_on_every_roll():
    """The kernel's search over adjustments and the exact formula are separate code."""
    for code, goal in enumerate(dice.GOALS):
        for target in range(0, 15):
            for a in range(1, 7):
                for b in range(1, 7):
                    need = dice.beans_needed(a, b, code, target, 6)
                    for beans in range(7):
                        want = need if need is not None and need <= beans else -1
                        assert dice.cheapest_adjustment(a, b, code, target, beans, 6) == want, (goal, target, a, b)


def test_dice_never_leave_one_to_six():
    # a 6 cannot become a 7: 6+6 never reaches 13, and 1+1 never drops to 1
    assert dice.cheapest_adjustment(6, 6, dice.AT_LEAST, 13, 9, 6) == -1
    assert dice.cheapest_adjustment(1, 1, dice.EXACTLY, 1, 9, 6) == -1
    # a double from 1 and 6 takes five beans on one die
    assert dice.cheapest_adjustment(1, 6, dice.DOUBLE, 0, 5, 6) == 5
    assert dice.cheapest_adjustment(1, 6, dice.DOUBLE, 0, 4, 6) == -1


def test_simulation_agrees_with_exact_within_four_standard_errors():
    df = dice.dice_study("double", range(6), trials=20_000, seed=11)
    assert df["exact_fraction"].to_list() == ["6/36", "16/36", "24/36", "30/36", "34/36", "36/36"]
    for row in df.iter_rows(named=True):
        assert abs(row["diff_p"]) <= 4 * row["se_p"]
        assert abs(row["diff_spent"]) <= 4 * row["se_spent"]
    last = df.row(5, named=True)
    assert last["sim_p"] == 1.0 and last["se_p"] == 0.0


@pytest.mark.parametrize("goal, target", [("at-least", 9), ("exactly", 7)])
def test_sum_goals_simulation_agrees(goal, target):
    df = dice.dice_study(goal, [0, 1, 3], target=target, trials=20_000, seed=5)
    for row in df.iter_rows(named=True):
        assert abs(row["diff_p"]) <= 4 * row["se_p"] + 1e-12
        assert abs(row["diff_spent"]) <= 4 * row["se_spent"] + 1e-12


def test_same_results_on_one_and_two_threads():
    beans = np.arange(4, dtype=np.int64)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = [x.sum(axis=0) for x in dice.simulate_kernel(3, 9_000, 6, dice.DOUBLE, 0, beans)]
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = [x.sum(axis=0) for x in dice.simulate_kernel(3, 9_000, 6, dice.DOUBLE, 0, beans)]
    finally:
        numba.set_num_threads(before)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("goal, target, key", [
    ("triple", None, "goal"), ("double", 7, "target"), ("exactly", None, "target")])
def test_bad_goals_are_refused(goal, target, key):
    with pytest.raises(SetupError) as err:
        dice.dice_study(goal, [1], target=target, trials=10)
    assert err.value.key == key


def test_negative_beans_are_refused():
    with pytest.raises(SetupError, match="beans"):
        dice.dice_study("double", [-1, 2], trials=10)
