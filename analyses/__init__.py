"""Statistics over per-game result dataframes (polars; pandas frames are accepted too)."""
