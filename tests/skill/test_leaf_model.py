"""The model ``expert`` plays: recorded where its leaves ask (every seat's view after every move), shipped apart
from ``learned``'s, and named in a run's provenance."""

import numpy as np

from simulator.core.recorder import EVERY_SEAT
from strategies import expert, model_files
from strategies.games import strategy_set
from strategies.learned import weights_path
from tests.core.test_recorder import games_as_rows, record

# Nim from two counters (see tests/core/test_recorder.py): seat 0 takes both and wins, or takes one and seat 1
# takes the last. After every move that does not end the game, both seats' views (the pile over four) with their
# final win shares.
EVERY_SEAT_ROWS = {"takes two": None,
                   "takes one": [(0.25, 0, 0.0), (0.25, 1, 1.0)]}


def test_every_seat_records_both_seats_after_every_move_that_does_not_end_the_game():
    games = 40
    rows, *columns = record(2, games, EVERY_SEAT)
    by_game = games_as_rows(rows, *columns)
    seen = {next(k for k, expected in EVERY_SEAT_ROWS.items() if expected == by_game.get(g)) for g in range(games)}
    assert seen == set(EVERY_SEAT_ROWS)


def test_every_seat_from_five_counters_gives_each_position_after_a_move_once_per_seat():
    rows, feats, game_of, seat_of, target = record(5, 20, EVERY_SEAT, capacity=400)
    for g in range(20):
        mine = game_of == g
        f, s, t = feats[mine], seat_of[mine], target[mine]
        assert list(s) == [i % 2 for i in range(len(s))] and np.array_equal(f[0::2], f[1::2])
        assert f[0] < 5 / 4 and np.all(np.diff(f[0::2]) < 0)
        np.testing.assert_array_equal(t[0::2] + t[1::2], np.ones(len(s) // 2))   # one winner per game


def test_expert_plays_the_games_own_model_where_one_is_shipped_and_learned_keeps_its_own():
    fool, fair = strategy_set("fool"), strategy_set("fair-enough")
    own = np.load(expert.model_path("fool"))
    played = np.asarray(fool.get("expert")[1].params[5:5 + own.size])
    np.testing.assert_array_equal(played, own)
    assert not np.array_equal(np.asarray(fool.all[fool.learned_sid].params), own)   # learned keeps learned.npy
    assert not expert.model_path("fair-enough").exists()
    learned = fair.all[fair.learned_sid].params
    assert fair.get("expert")[1].params[5:5 + len(learned)] == learned


def test_a_runs_provenance_names_the_expert_models_sidecar():
    sset = strategy_set("fool")
    sids, params, names = sset.seats(["expert", "learned", "cautious", "cautious"], 4)
    found = {m["strategy"]: m for m in model_files.provenance(names, sids, params, sset.learned_sid,
                                                              weights_path("fool"))}
    assert set(found) == {"expert", "learned"} and found["expert"]["game"] == "fool"
    assert "leaf_model" in found["expert"]["command"] and "leaf_model" not in found["learned"]["command"]



def test_leaf_model_fits_every_seats_view_after_every_move():
    """Nim's two seats each get a row after every move that does not end the game: twice the rows of recording
    the mover alone, on the same games; the model reads the game's features, the same from the same seed."""
    from simulator import games as game_registry
    from simulator.core.learned import check_model
    from simulator.core.recorder import AFTER_MOVE
    from studies.train import leaf_model, record

    sset = strategy_set("nim")
    model, rows = leaf_model("nim", lineup="random", games=30, seed=2)
    sids, params, _ = sset.seats(["random"], 2)
    _, movers = record(sset, game_registry.get("nim").configure(2), sids, params, 2, 0, 30, AFTER_MOVE)
    assert rows == 2 * len(movers) > 0
    check_model(model, sset.n_features)
    np.testing.assert_array_equal(model, leaf_model("nim", lineup="random", games=30, seed=2)[0])
