"""The comeback curve and lead changes against a hand-computed case, and the packing of the leader columns."""

import numpy as np
import polars as pl

from analyses import comeback, feel
from simulator.core import leaders

# three games of three players, each repeated ten times:
#   game 0: seat 0 leads after round 1, seat 1 after round 2, seat 1 wins           -> 1 lead change
#   game 1: shared lead after round 1, seat 2 leads after round 2, seat 0 wins      -> 1 lead change
#   game 2: seat 0 leads after rounds 1 and 2, seats 0 and 2 share the win          -> 0 lead changes
CASES = [([1, 2], [0.0, 1.0, 0.0]), ([15, 3], [1.0, 0.0, 0.0]), ([1, 1], [0.5, 0.0, 0.5])]


def frame(repeat=10):
    rows = []
    for g in range(len(CASES) * repeat):
        codes, wins = CASES[g % len(CASES)]
        first, second = leaders.pack(codes)
        for seat, win in enumerate(wins):
            rows.append((g, seat, "x", int(2 * win), 1 if win > 0 else 2, win, 3, 3, first, second))
    return pl.DataFrame(rows, orient="row", schema=["game", "seat", "strategy", "score", "rank", "win", "players",
                                                    "rounds", *leaders.COLUMNS])


def test_the_curve_and_the_lead_changes_match_the_hand_computed_case():
    table = comeback.curve(frame())
    assert table["round"].to_list() == [1, 2]
    assert table["games"].to_list() == [20, 30]  # round 1: the shared lead of game 1 is left out
    # round 1: game 0's leader (seat 0) lost, game 2's leader (seat 0) shared the win: (0 + 0.5) / 2
    # round 2: game 0's leader won, game 1's lost, game 2's shared: (1 + 0 + 0.5) / 3
    assert np.allclose(table["leader_wins"].to_list(), [0.25, 0.5])
    assert (table["low"] < table["leader_wins"]).all() and (table["leader_wins"] < table["high"]).all()
    assert np.allclose(table["chance"].to_list(), 1 / 3)
    rows = {r["metric"]: r for r in feel.summary(frame()).iter_rows(named=True)}
    assert np.isclose(rows["lead changes per game"]["value"], 2 / 3)
    assert np.isclose(rows["leader after round 2 wins"]["value"], 0.5)


def test_packing_round_trips_sixteen_rounds_and_the_sign_bit():
    codes = [15, 1, 8, 2, 3, 4, 5, 15, 6, 7, 1, 2, 15, 15, 3, 8]
    first, second = leaders.pack(codes)
    assert first < 0 and second < 0  # round 8 and 16 codes set the top bit of an int32
    assert comeback.unpack(np.array([first], np.int32), np.array([second], np.int32))[0].tolist() == codes
    assert leaders.pack([2]) == [2, 0]
