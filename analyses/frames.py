"""Accepting seat frames in any of the forms the analyses take (polars, lazy polars, pandas)."""

import polars as pl


def as_polars(frame):
    """Accept a polars or pandas frame and return a polars one."""
    return frame if isinstance(frame, pl.DataFrame) else pl.from_pandas(frame)


def as_lazy(frame):
    """Accept a polars LazyFrame, DataFrame or pandas frame and return a LazyFrame.

    The seat statistics aggregate lazily and collect with the streaming
    engine, so a run of any size (``pl.scan_parquet``) is summarised in
    constant memory.
    """
    return frame if isinstance(frame, pl.LazyFrame) else as_polars(frame).lazy()
