import numpy as np

from simulator.unfair import wishing_well

ZERO = {"values": [0], "weights": [1]}


def play(wish_from, keep, cash_out, income, cards, rolls, rounds=None, start=0):
    rounds = rounds or len(income)
    out = np.zeros(len(wishing_well.COLUMNS), np.int64)
    a, b = (np.array(x, np.int64) for x in zip(*rolls))
    wishing_well.play_policy((wish_from, keep, cash_out), rounds, (start, 1, 2, 6), np.array(income, np.int64),
                             np.array(cards, np.int64), a, b, out)
    return dict(zip(wishing_well.COLUMNS, out.tolist()))


def test_wish_spends_the_fewest_beans_for_a_double():
    # 2 beans; rolls (3, 5) needs 2, (1, 6) needs 5 (not granted, nothing spent), (4, 4) needs 0
    got = play(0, 0, 0, income=[2, 0, 0], cards=[0, 0, 0], rolls=[(3, 5), (1, 6), (4, 4)])
    assert got == {"wishes": 3, "granted": 2, "beans_spent": 2, "beans_gained": 2, "coins": 0, "beans_left": 0}


def test_trading_sells_beans_above_keep_and_cashes_out_last():
    # never wish, keep 1: round 1 +1 bean +2 cards -> 3 beans, sell 2; round 2 cash out all
    got = play(-1, 1, 1, income=[1, 0], cards=[2, 0], rolls=[(1, 1), (1, 1)])
    assert got["coins"] == 2 * 2 + 1 * 2
    assert got["beans_left"] == 0 and got["wishes"] == 0


def test_threshold_policy_wishes_only_with_enough_beans():
    # wish from 2 beans: round 1 holds 1 -> trade (no cards), round 2 holds 2 -> wish
    got = play(2, 2, 0, income=[1, 1], cards=[0, 0], rolls=[(2, 6), (2, 3)])
    assert got["wishes"] == 1 and got["granted"] == 1 and got["beans_left"] == 1


def test_always_wish_without_beans_grants_one_in_six(table):
    setup = table({"wishing_well": {"bean_income": ZERO, "start_beans": 0}})
    df = wishing_well.wishing_well_study(setup, trials=6_000, seed=4)
    row = df.filter(df["policy"] == "always wish").row(0, named=True)
    assert row["wishes"] == 8
    assert abs(row["granted"] - 8 / 6) <= 4 * row["granted_se"]
    trade = df.filter(df["policy"] == "always trade").row(0, named=True)
    assert trade["wishes"] == 0 and trade["granted_per_wish"] is None


def test_first_date_plays_six_rounds(table):
    df = wishing_well.wishing_well_study(table(), first_date=True, trials=200, seed=4)
    assert set(df["rounds"]) == {6}
    assert df.filter(df["policy"] == "always wish")["wishes"].item() == 6
