"""Chunk files: readers get the frame back exactly, encoded as documented.

polars and pandas must read back the frame the run built, with its types
(``strategy`` a categorical), in every game and with rotated seats.
"""

import io

import numpy as np
import pandas as pd
import polars as pl
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

from playtest import api
from simulator import games as game_registry
from simulator.core import output


@pytest.fixture(scope="module", params=[False, True], ids=["seats", "rotated"])
def frames(request):
    """One small in-memory run of every game: ``{game: frame}``."""
    return {name: api.simulate(name, games=60, seed=4, rotate_seats=request.param).frame
            for name in game_registry.names()}


def test_every_games_chunk_reads_back_as_the_same_frame_in_polars_and_pandas(frames):
    for name, frame in frames.items():
        data = bytes(output.encode_chunk(frame))
        assert_frame_equal(pl.read_parquet(io.BytesIO(data)), frame)
        back = pd.read_parquet(io.BytesIO(data))
        assert back.dtypes.astype(str).tolist() == frame.to_pandas().dtypes.astype(str).tolist(), name
        assert back["strategy"].dtype == "category", name


def test_chunk_columns_are_zstd_compressed_without_statistics(frames):
    frame = frames["fair-enough"]
    meta = pq.read_metadata(io.BytesIO(bytes(output.encode_chunk(frame)))).row_group(0)
    columns = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}
    assert set(columns) == set(frame.columns)
    for name, column in columns.items():
        assert column.compression == "ZSTD", name
        assert column.statistics is None or not (column.statistics.has_min_max
                                                 or column.statistics.has_distinct_count), name
    assert "RLE_DICTIONARY" in columns["strategy"].encodings


def test_seat_columns_hold_each_seat_statistic_in_game_then_seat_order():
    stats = np.random.default_rng(5).integers(-1000, 1000, size=(37, 4, 6)).astype(np.int32)
    columns = output.seat_columns(stats)
    assert columns.shape == (6, 37 * 4) and columns.flags.c_contiguous
    for j in range(6):
        assert (columns[j] == [stats[g, s, j] for g in range(37) for s in range(4)]).all()
