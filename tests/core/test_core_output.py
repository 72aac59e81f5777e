"""Chunk files: readers get the frame back exactly, encoded as documented.

polars and pandas must read back the frame the run built, with its types
(``strategy`` a categorical), in every game and with rotated seats.
"""

import io

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


def test_chunk_columns_are_zstd_compressed_and_carry_min_max_statistics(frames):
    frame = frames["fair-enough"]
    meta = pq.read_metadata(io.BytesIO(bytes(output.encode_chunk(frame)))).row_group(0)
    columns = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}
    assert set(columns) == set(frame.columns)
    for name, column in columns.items():
        assert column.compression == "ZSTD", name
        assert column.statistics.has_min_max, name
        assert not column.statistics.has_distinct_count, name
    game = columns["game"].statistics
    assert (game.min, game.max) == (frame["game"].min(), frame["game"].max())
    assert "RLE_DICTIONARY" in columns["strategy"].encodings
