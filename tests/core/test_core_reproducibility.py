"""Game i of seed s is the same game whatever the rotation or output mode (threads and chunk size: tests/contract)."""

import polars as pl
from polars.testing import assert_frame_equal

from playtest import api
from simulator.core.batch import play_chunk


def frame(**kw):
    return api.simulate("forks", players=4, games=5000, seed=13, strategies=["greedy", "random"] * 2, **kw).seats()


def test_same_seed_same_rows_and_other_seed_other_rows():
    assert_frame_equal(frame(), frame())
    other = api.simulate("forks", players=4, games=5000, seed=14, strategies=["greedy", "random"] * 2).seats()
    assert not other["score"].equals(frame()["score"])


def test_written_rows_equal_in_memory_rows(tmp_path):
    run = api.simulate("forks", players=4, games=5000, seed=13, strategies=["greedy", "random"] * 2,
                       out=tmp_path / "run", chunk_size=1200)
    assert len(list((tmp_path / "run" / "seats").glob("*.parquet"))) == 5
    assert_frame_equal(run.seats(), frame())


def test_rotated_seats_keep_the_deal():
    spec, sset = api.prepare("forks", players=4, games=300, seed=3, strategies=["random"], rotate_seats=True)
    rows = play_chunk(spec, sset.kernels()[0], 0, 300)
    # with the same strategy everywhere, every rotation of a deal is the same game
    scores = rows.sort(["game", "rotation", "seat"])["score"].to_numpy().reshape(300, 4, 4)
    assert (scores == scores[:, :1, :]).all()
    # so simulate plays such a run once: the rows of rotation 0
    run = api.simulate("forks", players=4, games=300, seed=3, strategies=["random"], rotate_seats=True)
    assert run.manifest["rotate_seats"] is False
    assert_frame_equal(run.seats(), rows.filter(pl.col("rotation") == 0).drop("rotation"))


def test_rotation_moves_strategies_over_seats():
    rows = api.simulate("forks", players=3, games=10, strategies=["greedy", "pusher", "random"],
                        rotate_seats=True).seats()
    lineup = rows.filter(pl.col("game") == 0).sort(["rotation", "seat"])["strategy"].cast(pl.String).to_list()
    assert lineup == ["greedy", "pusher", "random", "pusher", "random", "greedy", "random", "greedy", "pusher"]
