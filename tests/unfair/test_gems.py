from collections import Counter

import numpy as np

from simulator.core.rng import seed_stream
from simulator.unfair import gems
from simulator.unfair.setup import gems_config, load_setup

ONE = {"values": [1], "weights": [1]}


def fresh_supply():
    tokens = gems_config(load_setup()).tokens
    pile = tokens.copy()
    counts = np.array([tokens.size, 0], np.int64)
    state = np.empty(4, np.uint64)
    seed_stream(state, 7, 0, 0)
    return tokens, pile, np.empty(tokens.size, np.int64), counts, state


def test_the_assumed_table_has_25_tokens_one_1_one_9_most_5():
    counts = Counter(gems_config(load_setup()).tokens.tolist())
    assert sum(counts.values()) == 25
    assert counts[1] == 1 and counts[9] == 1
    assert max(counts, key=counts.get) == 5


def test_no_token_when_all_are_out_then_recycling():
    tokens, pile, discard, counts, state = fresh_supply()
    drawn = [gems.draw_gem(pile, discard, counts, state) for _ in range(25)]
    assert sorted(drawn) == sorted(tokens.tolist())
    assert gems.draw_gem(pile, discard, counts, state) == -1   # all in play, none discarded
    for v in (9, 1, 5):
        gems.discard_gem(discard, counts, v)
    again = [gems.draw_gem(pile, discard, counts, state) for _ in range(3)]
    assert sorted(again) == [1, 5, 9]                           # the discard pile became the draw pile
    assert counts.tolist() == [0, 0]
    assert gems.draw_gem(pile, discard, counts, state) == -1


def test_supply_runs_out_and_does_not_catch_up(table):
    # one player, one facility of drill 5 a round, nothing dug up: 25 tokens last five rounds
    setup = table({"gems": {"players": 1, "facilities_per_round": ONE, "drill": {"values": [5], "weights": [1]},
                            "dug_up_per_round": {"values": [0], "weights": [1]}}})
    out = gems.gems_tables(setup, trials=40, seed=3)
    value = out["facility value"]
    assert value["tokens"].to_list() == [5.0] * 5 + [0.0] * 3
    assert value["p_short"].to_list() == [0.0] * 5 + [1.0] * 3
    assert sum(value["value"].to_list()) == sum(range(1, 10)) + sum(range(2, 9)) + sum(range(3, 8)) \
        + sum(range(4, 7)) + 5  # every token, 125 coins, once per game
    supply = out["supply"]
    assert supply["p_short_so_far"].to_list() == [0.0] * 5 + [1.0] * 3
    assert supply["tokens_missed_so_far"].to_list() == [0.0] * 5 + [5.0, 10.0, 15.0]
    assert supply["p_recycled_so_far"].to_list() == [0.0] * 8


def test_dug_up_tokens_are_recycled(table):
    # as above, but one token dug up each round: round 6 recycles the 5 dug up in rounds 1-5,
    # rounds 7 and 8 get only the single token dug up the round before
    setup = table({"gems": {"players": 1, "facilities_per_round": ONE, "drill": {"values": [5], "weights": [1]},
                            "dug_up_per_round": ONE}})
    out = gems.gems_tables(setup, trials=40, seed=3)
    assert out["facility value"]["tokens"].to_list() == [5.0] * 6 + [1.0, 1.0]
    supply = out["supply"]
    assert supply["tokens_missed_so_far"].to_list() == [0.0] * 6 + [4.0, 8.0]
    assert supply["p_recycled_so_far"].to_list() == [0.0] * 5 + [1.0] * 3


def test_facility_value_is_five_coins_a_token_on_average():
    df = gems.gems_study(load_setup(), trials=4_000, seed=9)
    early = df.filter(df["round"] <= 4)
    for row in early.iter_rows(named=True):   # the mean token is (1*1 + 2*2 + ... + 9*1) / 25 = 5
        assert abs(row["value"] - 5 * row["drill"]) <= 4 * row["value_se"]
