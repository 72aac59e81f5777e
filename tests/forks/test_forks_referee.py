"""The kernel's traced games, replayed by the independent reference engine: every pick legal, same scores."""

import numpy as np
import pytest

from playtest import api
from simulator.core.batch import play_chunk, trace_one
from simulator.core.leaders import pack
from simulator.forks.reference import RefereeError, replay

LINEUPS = [["random"], ["greedy", "leader", "pusher", "hedger", "random", "greedy"]]
GAMES = 400  # per (players, variant, lineup): 1600 traced games per player count


@pytest.mark.parametrize("variant", ["standard", "merge"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("lineup", LINEUPS, ids=["random", "mixed"])
def test_reference_replays_kernel_traces(players, variant, lineup):
    strategies = lineup if len(lineup) == 1 else lineup[:players]
    spec, sset = api.prepare("forks", players=players, variant=variant, strategies=strategies, seed=11,
                             games=GAMES)
    run_chunk, trace_game = sset.kernels()
    batch = play_chunk(spec, run_chunk, 0, GAMES).sort(["game", "seat"])
    batch_scores = batch["score"].to_numpy().reshape(GAMES, players)
    for g in range(GAMES):
        trace, scores, seat_stats, game_stats = trace_one(spec, trace_game, g)
        ref = replay(spec.config, trace)
        assert ref.scores == scores.tolist(), f"game {g}"
        assert ref.gained == seat_stats[:, 0].tolist() and ref.lost == seat_stats[:, 1].tolist()
        assert ref.dealt_values == seat_stats[:, 2].tolist() and ref.invested_values == seat_stats[:, 3].tolist()
        assert all(bin(b).count("1") in (1, 2, 3) for b in ref.dealt_values)  # three cards: one to three values
        assert ref.rounds == game_stats[0]
        assert list(game_stats[2:]) == pack(ref.leaders), f"game {g}: leaders after each round"
        assert np.array_equal(batch_scores[g], scores), f"batch row differs from traced game {g}"


def test_referee_refuses_an_illegal_pick():
    spec, sset = api.prepare("forks", players=4, seed=5)
    trace, *_ = trace_one(spec, sset.kernels()[1], 0)
    n = int(trace[0])
    bad = trace.copy()
    first_dealt = bad[1 + 4 + 3: 1 + 4 + 3 + 3]  # after 4 removed and 3 marketed: seat 0's three cards
    # replace seat 0's first pick with a card seat 1 was dealt
    bad[1 + n] = bad[1 + 4 + 3 + 3]
    assert bad[1 + n] not in first_dealt
    with pytest.raises(RefereeError, match="seat 0"):
        replay(spec.config, bad)


def test_referee_refuses_a_deck_that_is_not_the_table():
    spec, sset = api.prepare("forks", players=4, seed=5)
    trace, *_ = trace_one(spec, sset.kernels()[1], 0)
    bad = trace.copy()
    bad[1] = 100 * 0 + 99  # a red 99 does not exist
    with pytest.raises(RefereeError, match="deck"):
        replay(spec.config, bad)
