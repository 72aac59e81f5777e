import pytest

from simulator.core.setup import SetupError
from simulator.unfair.setup import (fame_config, gems_config, load_setup, panoramas_config, rounds, validate,
                                    wishing_well_config)


def test_default_table_is_valid():
    validate(load_setup())


def test_first_date_is_six_rounds():
    assert rounds(load_setup(), False) == 8
    assert rounds(load_setup(), True) == 6


def test_user_file_is_merged_over_the_default(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[fame]\ncap = 12\n")
    setup = load_setup(path)
    assert fame_config(setup).cap == 12
    assert fame_config(setup).threshold == 25  # kept from the default


@pytest.mark.parametrize("override, check, key", [
    ({"gems": {"counts": [1, 2, 3, 4, 5, 4, 3, 2, 2]}}, gems_config, "gems.counts"),        # 26 tokens
    ({"gems": {"values": [0, 2, 3, 4, 5, 6, 7, 8, 9]}}, gems_config, "gems.values[0]"),
    ({"gems": {"values": [1, 2, 3, 4, 5, 6, 7, 8, 10]}}, gems_config, "gems.values[8]"),
    ({"gems": {"counts": [25]}}, gems_config, "gems.counts"),                             # one count, nine values
    ({"fame": {"cap": -1}}, fame_config, "fame.cap"),
    ({"fame": {"cleanup_divisor": 0}}, fame_config, "fame.cleanup_divisor"),
    ({"fame": {"capacity_by_round": [8, 11]}}, fame_config, "fame.capacity_by_round"),
    ({"fame": {"plans": [{"name": "x", "gain_rounds": [9], "gain": {"values": [1], "weights": [1]}}]}},
     fame_config, "fame.plans[0].gain_rounds[0]"),
    ({"panoramas": {"skip_cost": -3}}, panoramas_config, "panoramas.skip_cost"),
    ({"panoramas": {"vistas_penalty": -5}}, panoramas_config, "panoramas.vistas_penalty"),
    ({"panoramas": {"spaces": 6}}, panoramas_config, "panoramas.complete"),                # 6 cards: n/a
    ({"panoramas": {"lengths": [1]}}, panoramas_config, "panoramas.lengths[0]"),
    ({"wishing_well": {"coins_per_bean": -2}}, wishing_well_config, "wishing_well.coins_per_bean"),
    ({"wishing_well": {"bean_income": {"values": [0, 1], "weights": [1]}}}, wishing_well_config,
     "wishing_well.bean_income.weights"),
    ({"wishing_well": {"bean_income": {"values": [0, 1], "weights": [0, 0]}}}, wishing_well_config,
     "wishing_well.bean_income.weights"),
    ({"wishing_well": {"bean_income": {"values": [-1, 1], "weights": [1, 1]}}}, wishing_well_config,
     "wishing_well.bean_income.values"),
    ({"wishing_well": {"policies": [{"name": "x", "wish_from_beans": "sometimes", "keep_beans": 0,
                                     "cash_out_last_round": True}]}},
     wishing_well_config, "wishing_well.policies[0].wish_from_beans"),
    ({"game": {"first_date_rounds": 9}}, lambda s: rounds(s, True), "game.first_date_rounds"),
])
def test_bad_tables_are_refused_naming_the_key(table, override, check, key):
    with pytest.raises(SetupError) as err:
        check(table(override))
    assert err.value.key == key
    assert key in str(err.value)


def test_gem_table_must_total_the_printed_25(table):
    with pytest.raises(SetupError, match="must total 25 tokens"):
        gems_config(table({"gems": {"counts": [1, 2, 3, 4, 4, 4, 3, 2, 1]}}))


def test_six_card_panoramas_fit_a_bigger_park_once_a_complete_score_is_given(table):
    cfg = panoramas_config(table({"panoramas": {"spaces": 6, "complete": [10, 20, 40, 60, 80]}}))
    assert cfg.complete[6] == 80
