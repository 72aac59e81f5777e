"""The training-data recorder (simulator.core.recorder) on the example game Nim (simulator.example, take 1 to 3),
whose games with a pile of two can be written down by hand."""

import numpy as np
import pytest

from simulator import games
from simulator.core import recorder
from simulator.core.kernels import bind, bind_choose, bind_engine_search
from strategies.games import strategy_set

# one worker runs the whole module: its kernels are compiled uncached, once in every process that needs them
pytestmark = pytest.mark.xdist_group("tests/core/test_recorder.py")

NIM = games.get("nim")
SIDS = {s.name: i for i, s in enumerate(strategy_set("nim").builtins)}
CHOOSE = bind_choose(NIM, strategy_set("nim").dispatch, cache=False)
NEW_SEARCH, SEARCH, LEARNED, _ = bind_engine_search(NIM, CHOOSE, cache=False, search_sid=SIDS["mcts"],
                                                    learned_sid=SIDS["learned"])
E = NIM.engine
RECORD = bind(recorder.record_games, cache=False, parallel=False, choose=CHOOSE, new_state=E.new_state,
              new_search=NEW_SEARCH, search=SEARCH, learned_player=LEARNED, reset=E.reset, apply=E.apply,
              result=E.result, observe=E.observe, features=E.features, SEARCH_SID=SIDS["mcts"],
              LEARNED_SID=SIDS["learned"])


def record(pile, games, at_decision, capacity=100):
    """The recorder's rows for ``games`` games of Nim from ``pile`` counters, both seats playing at random (the
    first feature, the pile in units of four, is the only one returned)."""
    arrays = NIM.configure(2, override={"pile": {"min": pile, "max": pile}, "turn": {"take": 3}}).arrays
    sids, params = np.full(2, SIDS["random"], np.int64), np.zeros((2, 1), np.float64)
    feats = np.full((capacity, NIM.engine.N_FEATURES), np.nan)
    game_of, seat_of, target = np.full(capacity, -1), np.full(capacity, -1), np.full(capacity, np.nan)
    out = (np.empty(2, np.int32), np.empty(2, np.int64), np.zeros((2, len(NIM.seat_columns)), np.int32),
           np.zeros(len(NIM.game_columns), np.int32))
    rows = RECORD(arrays, sids, params, 5, 0, games, at_decision, (feats, game_of, seat_of, target), out)
    return rows, feats[:max(rows, 0), 0], game_of[:max(rows, 0)], seat_of[:max(rows, 0)], target[:max(rows, 0)]


def games_as_rows(rows, feats, game_of, seat_of, target):
    """Per game, its rows as ``(features, seat, target)`` tuples."""
    by_game = {}
    for r in range(rows):
        by_game.setdefault(int(game_of[r]), []).append((float(feats[r]), int(seat_of[r]), float(target[r])))
    return by_game


# With two counters seat 0 either takes both and wins, or takes one and seat 1 takes the last and wins. The feature
# is the pile over four; the target the seat's final win share.
AT_DECISION = {"takes two": [(0.5, 0, 1.0)],
               "takes one": [(0.5, 0, 0.0), (0.25, 1, 1.0)]}
AFTER_MOVE = {"takes two": None,                      # the only move ends the game: nothing recorded
              "takes one": [(0.25, 0, 0.0)]}          # one counter left after seat 0's move; seat 1's ends it


@pytest.mark.parametrize("at_decision, expected", [(True, AT_DECISION), (False, AFTER_MOVE)])
def test_the_recorded_rows_are_the_hand_written_ones(at_decision, expected):
    games = 40
    rows, *columns = record(2, games, at_decision)
    by_game = games_as_rows(rows, *columns)
    seen = set()
    for g in range(games):
        got = by_game.get(g)
        kind = next(k for k, rows_of in expected.items() if rows_of == got)   # StopIteration: an unexpected game
        seen.add(kind)
    assert seen == set(expected)                        # both openings were played
    assert rows == sum(len(v) for v in by_game.values())


def test_at_decision_records_every_decision_with_the_pile_before_it():
    """From five counters the rows of a game alternate seats from seat 0, the pile falls by one to three per
    move, and the targets are 1 for the seat that took the last counter (the last row's seat) and 0 else."""
    rows, feats, game_of, seat_of, target = record(5, 30, True, capacity=200)
    for g in range(30):
        mine = game_of == g
        f, s, t = feats[mine], seat_of[mine], target[mine]
        assert f[0] == 5 / 4 and list(s) == [i % 2 for i in range(len(s))]
        assert all(0.25 <= d <= 0.75 for d in -np.diff(f)) and f[-1] <= 0.75
        np.testing.assert_array_equal(t, (s == s[-1]).astype(float))


def test_too_few_rows_asks_for_more():
    assert record(5, 10, True, capacity=3)[0] == -1
    assert record(5, 10, False, capacity=3)[0] == -1


