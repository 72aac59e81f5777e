"""Statistics over per-game result dataframes (polars; pandas frames are accepted too)."""

__all__ = ["compare", "feel", "ladder", "moments", "paired", "planning", "restrict", "runs", "seat_summary", "seats",
           "sweep", "tournament", "tune", "verdict"]
