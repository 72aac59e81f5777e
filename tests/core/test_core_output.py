"""Chunk files: the encoding is the one documented, and readers get the frame back exactly.

``output.encode_chunk`` writes with pyarrow (required columns, delta and
dictionary encodings, LZ4); polars and pandas must read back the frame the
run built, with its types, in every game and with rotated seats, and a run
directory holding chunks of the earlier polars writer (a run resumed across
the change) must still read as one table.
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


def test_chunk_columns_are_encoded_as_documented(frames):
    frame = frames["fair-enough"]
    meta = pq.read_metadata(io.BytesIO(bytes(output.encode_chunk(frame)))).row_group(0)
    columns = {meta.column(i).path_in_schema: meta.column(i) for i in range(meta.num_columns)}
    assert set(columns) == set(frame.columns)
    for name, column in columns.items():
        assert column.compression == "LZ4", name
        wide = frame.schema[name] in (pl.Int32, pl.Int64)
        flag = frame.schema[name] == pl.Boolean  # parquet bit-packs Booleans; it has no dictionary for them
        assert ("DELTA_BINARY_PACKED" in column.encodings) == wide, (name, column.encodings)
        assert ("RLE_DICTIONARY" in column.encodings) == (not wide and not flag), (name, column.encodings)
        assert column.is_stats_set == (name == "game"), name
    schema = pq.read_schema(io.BytesIO(bytes(output.encode_chunk(frame))))
    assert not any(field.nullable for field in schema)


def test_a_run_directory_mixing_chunks_of_the_earlier_writer_reads_as_one_table(frames, tmp_path):
    frame = frames["forks"]
    seats = tmp_path / output.SEATS_DIR
    seats.mkdir()
    first, second = frame.filter(pl.col("game") < 30), frame.filter(pl.col("game") >= 30)
    first.write_parquet(seats / "part-000000.parquet", compression="zstd", compression_level=1)
    (seats / "part-000001.parquet").write_bytes(bytes(output.encode_chunk(second)))
    assert_frame_equal(output.read_seats(tmp_path), frame)
    wins = output.scan_seats(tmp_path).group_by("seat").agg(pl.col("win").sum()).sort("seat").collect()
    assert_frame_equal(wins, frame.group_by("seat").agg(pl.col("win").sum()).sort("seat"))
