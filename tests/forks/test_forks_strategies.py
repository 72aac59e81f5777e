"""Forks strategies: the random strategy as RULINGS.md defines it, heuristics that behave differently,
per-seat strategies, and a user strategy file."""

from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from playtest import api
from simulator.core.batch import trace_one
from simulator.forks.reference import Rules, decode

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "contrarian.py"


def picks_by_position(spec, sset, games):
    """How often each dealt position (first pick) and passed position (second pick) was chosen."""
    rules = Rules.from_setup(spec.config.setup, spec.config.players, spec.config.variant)
    first, second = Counter(), Counter()
    players = spec.config.players
    for g in range(games):
        trace, *_ = trace_one(spec, sset.kernels()[1], g)
        n = int(trace[0])
        deck = [decode(rules, c) for c in trace[1:1 + n]]
        picks = [decode(rules, c) for c in trace[1 + n:]]
        pos = rules.remove + rules.initial_marketing
        for r in range(spec.config.info["rounds"]):
            dealt = [deck[pos + 3 * p: pos + 3 * p + 3] for p in range(players)]
            for p in range(players):
                first[dealt[p].index(picks[2 * players * r + p])] += 1
                passed = list(dealt[(p - 1) % players])
                passed.remove(picks[2 * players * r + (p - 1) % players])
                second[passed.index(picks[2 * players * r + players + p])] += 1
            pos += 3 * players
    return first, second


def test_random_is_uniform_over_three_then_two():
    spec, sset = api.prepare("forks", players=4, seed=21)
    first, second = picks_by_position(spec, sset, 400)
    assert stats.chisquare([first[0], first[1], first[2]]).pvalue > 0.001
    assert stats.chisquare([second[0], second[1]]).pvalue > 0.001


def test_heuristics_differ_from_random_and_from_each_other():
    shares = {}
    for name in ["greedy", "leader", "pusher", "hedger"]:
        run = api.simulate("forks", players=4, games=4000, seed=2, strategies=[name, "random", "random", "random"])
        rows = run.seats()
        shares[name] = rows.filter(rows["seat"] == 0)["win"].mean()
    # a heuristic that reads the table beats three random players
    assert shares["greedy"] > 0.35
    assert len({round(v, 3) for v in shares.values()}) == 4


def test_seats_may_run_different_strategies():
    run = api.simulate("forks", players=3, games=10, strategies=["greedy", "random", "pusher"])
    per_seat = run.seats().group_by("seat").agg(pl.col("strategy").first()).sort("seat")
    assert [str(s) for s in per_seat["strategy"]] == ["greedy", "random", "pusher"]


def test_parameters_change_play():
    a = api.simulate("forks", players=4, games=2000, seed=4, strategies=["leader", "random"] * 2)
    b = api.simulate("forks", players=4, games=2000, seed=4, strategies=["leader", "random"] * 2,
                     params={"leader": [-3, -2, -1, 1, 2, 2, 2, 2]})
    assert not np.array_equal(a.seats()["score"].to_numpy(), b.seats()["score"].to_numpy())


def test_user_strategy_file_runs_without_engine_edits():
    run = api.simulate("forks", players=4, games=2000, seed=9, strategy_files=[EXAMPLE],
                       strategies=["contrarian", "random", "random", "random"])
    rows = run.seats()
    assert set(map(str, rows["strategy"].unique())) == {"contrarian", "random"}
    assert rows.height == 8000
    # and its games replay legally through the reference engine
    lines = api.replay("forks", seed=9, game_index=5, strategy_files=[EXAMPLE],
                       strategies=["contrarian", "random", "random", "random"])
    assert any("seat 0 is dealt" in line for line in lines)


def test_user_strategy_returning_an_illegal_index_is_reported_with_the_value_it_returned(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("NAME = 'bad'\n\ndef decide(kind, opt_dest, opt_value, n, obs, params, rng):\n    return 7\n")
    with pytest.raises(Exception, match=r"strategy 'bad' \(seat 0\) made an illegal choice \(it returned 7, not one "
                                        r"of its options\) in game 0"):
        api.simulate("forks", players=4, games=100, strategy_files=[bad], strategies=["bad", "random"] * 2)
