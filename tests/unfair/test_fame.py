import numpy as np

from simulator.unfair import fame

ROUND_ROWS = {"park_stars_noise": {"values": [0], "weights": [1]}}


def one_plan(gain, rounds=range(1, 9)):
    return [{"name": "fixed", "gain_rounds": list(rounds), "gain": {"values": [gain], "weights": [1]}}]


def test_gain_is_capped_and_cleanup_halves_rounding_down():
    assert fame.fame_after_gain(9, 4, 15) == 13
    assert fame.fame_after_gain(13, 4, 15) == 15   # the 2 above the cap are lost
    assert fame.fame_after_cleanup(15, 2) == 7
    assert fame.fame_after_cleanup(7, 2) == 3
    assert fame.fame_after_cleanup(1, 2) == 0


def test_fame_track_over_a_game(table):
    # +10 fame every round, cap 15: 10, then 5+10, then 7+10 capped at 15, ...
    setup = table({"fame": {**ROUND_ROWS, "park_stars_by_round": [0] * 8, "plans": one_plan(10)}})
    _, _, out = fame.simulate(setup, trials=3, seed=1)
    np.testing.assert_array_equal(out[0, 0, :, 0], [10, 15, 15, 15, 15, 15, 15, 15])
    np.testing.assert_array_equal(out[1, 0], out[0, 0])  # nothing random left


def test_fame_only_in_planned_rounds(table):
    setup = table({"fame": {**ROUND_ROWS, "park_stars_by_round": [0] * 8, "plans": one_plan(8, [1, 4])}})
    _, _, out = fame.simulate(setup, trials=1, seed=1)
    np.testing.assert_array_equal(out[0, 0, :, 0], [8, 4, 2, 9, 4, 2, 1, 0])


def test_guests_are_limited_by_capacity(table):
    setup = table({"fame": {**ROUND_ROWS, "park_stars_by_round": [10] * 8, "capacity_by_round": [12] * 8,
                            "plans": one_plan(4)}})
    _, _, out = fame.simulate(setup, trials=1, seed=1)
    # fame 4, 6, 7, 7, ...: star totals 14, 16, 17, ...; guests stop at 12
    np.testing.assert_array_equal(out[0, 0, :3, 1], [14, 16, 17])
    np.testing.assert_array_equal(out[0, 0, :, 2], [12] * 8)


def test_one_mythic_marker_per_round_and_one_per_attraction(table):
    # 100 stars every round: at most one marker a round, and never more than the attractions
    setup = table({"fame": {**ROUND_ROWS, "park_stars_by_round": [100] * 8,
                            "attractions_by_round": [1, 2, 2, 3, 3, 4, 4, 5], "plans": one_plan(0)}})
    _, _, out = fame.simulate(setup, trials=1, seed=1)
    np.testing.assert_array_equal(out[0, 0, :, 3], [1, 1, 0, 1, 0, 1, 0, 1])
    np.testing.assert_array_equal(out[0, 0, :, 4], [1, 2, 2, 3, 3, 4, 4, 5])


def test_mythic_needs_the_threshold(table):
    # 20 park stars + fame: 5 (25, marker), then 2+5 = 7 (27, marker), ... only with fame
    setup = table({"fame": {**ROUND_ROWS, "park_stars_by_round": [20] * 8, "attractions_by_round": [5] * 8,
                            "plans": one_plan(5, [1]) + [{"name": "none", "gain_rounds": [],
                                                          "gain": {"values": [0], "weights": [1]}}]}})
    tables = fame.fame_tables(setup, trials=2, seed=1)
    by_round = tables["fame by round"]
    assert by_round.filter(by_round["plan"] == "fixed")["p_mythic"].to_list() == [1.0] + [0.0] * 7
    assert by_round.filter(by_round["plan"] == "none")["markers"].to_list() == [0.0] * 8
    end = tables["mythic markers at game end"]
    assert end.filter((end["plan"] == "fixed") & (end["markers"] == 1))["probability"].item() == 1.0


def test_first_date_game_is_six_rounds(table):
    df = fame.fame_study(table(), first_date=True, trials=50, seed=2)
    assert df["round"].max() == 6 and set(df["rounds"]) == {6}
