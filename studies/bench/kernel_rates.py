"""Games per second of the batch kernel alone, of the reference engine, of a whole run (play and write) beside the
kernel alone, and the cost of the chunk-file encodings considered."""

import io
import time

import numba
import numpy as np

from simulator.core import batch, output
from simulator.core.run_options import RunOptions
from studies import runs
from studies.bench.processes import simulate_process

ENCODING_GAMES = 100_000  # one chunk of the default size
MIN_SECONDS = 1.0  # time each measurement for at least this long
END_TO_END_ROUNDS = 3  # end-to-end runs per game, each between two kernel-alone measurements
ENCODINGS = {  # candidates for the chunk files, each frame -> bytes; output.encode_chunk is the one chosen
    "polars, zstd 1, no statistics (chosen)": output.encode_chunk,
    "polars, zstd 1, min/max statistics": lambda frame: output.encode_chunk(
        frame, {**output.PARQUET_OPTIONS, "statistics": {"min": True, "max": True, "distinct_count": False,
                                                         "null_count": False}}),
    "polars, lz4, no statistics": lambda frame: output.encode_chunk(
        frame, {"compression": "lz4", "statistics": False}),
    "polars, uncompressed, no statistics": lambda frame: output.encode_chunk(
        frame, {"compression": "uncompressed", "statistics": False}),
    "pyarrow, delta + dictionary, lz4": lambda frame: _pyarrow_bytes(frame, "lz4"),
    "pyarrow, delta + dictionary, uncompressed": lambda frame: _pyarrow_bytes(frame, "none"),
    "pyarrow, delta + dictionary, zstd 1": lambda frame: _pyarrow_bytes(frame, "zstd"),
}


def _pyarrow_bytes(frame, compression):
    """pyarrow's writer: every column required, ``game`` and the other wide integer columns delta-encoded,
    the rest dictionary-encoded (Booleans bit-packed), statistics for ``game`` only."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = frame.to_arrow()
    table = table.cast(pa.schema([f.with_nullable(False) for f in table.schema]))
    wide = [f.name for f in table.schema if pa.types.is_integer(f.type) and f.type.bit_width >= 32]
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression=compression, write_statistics=["game"],
                   column_encoding={name: "DELTA_BINARY_PACKED" for name in wide},
                   use_dictionary=[name for name in table.column_names if name not in wide])
    return buffer.getbuffer()


def kernel_rate(spec, run_chunk, games, threads):
    """Games per second of the batch kernel alone on ``threads`` threads (best of 3)."""
    numba.set_num_threads(threads)
    outputs = batch.allocate(spec.game, spec.config.players, games)
    run_chunk(spec.config.arrays, spec.sids, spec.params, spec.seed, 0, min(games, 1000), *outputs)
    best = 0.0
    for rep in range(3):
        t = time.perf_counter()
        run_chunk(spec.config.arrays, spec.sids, spec.params, spec.seed, rep * games, games, *outputs)
        best = max(best, games / (time.perf_counter() - t))
    return best


def reference_rate(spec):
    """Games per second of the game's pure-Python reference engine playing ``random``."""
    played, started = 0, time.perf_counter()
    while time.perf_counter() - started < MIN_SECONDS or played < 20:
        spec.game.play_reference(spec.config, played)
        played += 1
    return played / (time.perf_counter() - started)


def end_to_end(game, games):
    """Games/s of the chunk loop (play and write) of `playtest simulate GAME --games N --out DIR`, and peak RSS."""
    _, rss, manifest = simulate_process(game, games)
    return manifest["games_per_second"], rss


def run_play_rate(spec, run_chunk, threads):
    """Games/s of the kernel alone playing the games of run ``spec`` (one measurement).

    The run's chunks and kernel calls (``batch.play_raw``, on ``threads`` threads), without building rows
    or writing: the end-to-end run less its output, so their ratio compares the same games.
    """
    numba.set_num_threads(threads)
    t = time.perf_counter()
    for chunk in range(spec.chunks):
        batch.play_raw(spec, run_chunk, *batch.chunk_bounds(spec, chunk))
    return spec.games / (time.perf_counter() - t)


def end_to_end_rounds(name, run_chunk, games, threads):
    """``END_TO_END_ROUNDS`` rounds of `end_to_end`, each between two `run_play_rate` measurements of
    ``run_chunk`` (the game's kernel for its built-in strategies).

    Returns ``(median end-to-end games/s, median ratio, lowest ratio, highest ratio, highest peak RSS)``,
    the ratio of a round being its end-to-end rate over the mean of the kernel-alone rates of the same
    games (the run's default seed, its chunks) measured just before and just after it: on a shared machine
    the load changes within minutes, so each ratio compares single measurements of the same games under the
    same load (a best of several short kernel runs against one long run would count the machine's noise as
    the writer's cost).
    """
    spec, _ = runs.prepare(RunOptions(name, games=games))
    rates, ratios, peak = [], [], 0.0
    before = run_play_rate(spec, run_chunk, threads)
    for _ in range(END_TO_END_ROUNDS):
        rate, rss = end_to_end(name, games)
        after = run_play_rate(spec, run_chunk, threads)
        rates.append(rate)
        ratios.append(2 * rate / (before + after))
        peak, before = max(peak, rss), after
    return float(np.median(rates)), float(np.median(ratios)), min(ratios), max(ratios), peak


def encoding_rates(spec, run_chunk, games):
    """``[(encoding, CPU seconds to encode one chunk of games, bytes per game)]`` for ``ENCODINGS`` (best of 5).

    CPU time of the whole process, so an encoder's pool threads count.
    """
    frame = batch.play_chunk(spec, run_chunk, 0, games)
    rows = []
    for name, encode in ENCODINGS.items():
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            size = len(encode(frame))
            best = min(best, time.process_time() - t)
        rows.append((name, best, size / games))
    return rows
