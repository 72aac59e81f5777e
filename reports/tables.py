"""Report tables a person reads: human column names, percentages with one decimal, points with two,
counts with thousands separators, never scientific notation.

A ``Table`` keeps the raw frame it shows; the report writes it as CSV next to
the page, and a table longer than ``COLLAPSE_ROWS`` is shown collapsed with
that CSV linked.
"""

import math
from dataclasses import dataclass

import polars as pl

COLLAPSE_ROWS = 12

# raw column name -> the name a designer reads (columns not listed: underscores become spaces)
LABELS = {
    "strategy_params": "Strategy parameters", "rotate_seats": "Rotated seats", "until_ci": "Played until ± (--until-ci)",
    "engine_version": "Engine version", "git_revision": "Git revision", "wall_seconds": "Wall time (s)",
    "games_per_second": "Games per second", "complete": "Complete", "p_complete": "Complete",
    "sim_p": "Simulated chance", "exact_p": "Exact chance", "diff_p": "Simulated minus exact",
}
PERCENT_COLUMNS = ("share", "rate", "p_", "_p", "chance", "prob")


@dataclass
class Table:
    """A captioned table: header row, formatted cell rows, and the raw ``data`` written as ``name``.csv."""

    caption: str
    header: list
    rows: list
    name: str = ""
    data: pl.DataFrame | None = None

    @property
    def collapsed(self):
        """Long tables are shown folded, with their CSV linked."""
        return len(self.rows) > COLLAPSE_ROWS

    @property
    def text_columns(self):
        """Indices of the columns aligned left as text: those where at least half the filled cells begin with a
        letter, so a column of notes is aligned as one even when a note begins with a number."""
        columns = zip(*self.rows) if self.rows else []
        return {i for i, cells in enumerate(columns)
                if 2 * sum(c[:1].isalpha() for c in cells) >= sum(bool(c) for c in cells) > 0}

    @classmethod
    def of(cls, caption, frame, name="", columns=None):
        """A table of ``frame``: ``columns`` maps each shown header to a function of the row (a dict)
        returning its text; without it, every column with its human name and generic formatting."""
        if columns is None:
            columns = {label(c): _generic(c) for c in frame.columns}
        rows = [[f(row) for f in columns.values()] for row in frame.iter_rows(named=True)]
        return cls(caption, list(columns), rows, name, frame)


def label(column):
    """The human name of a raw column (``x_95``, a 95% half-width, reads ``"± X (95%)"``)."""
    if column.endswith("_95"):
        return f"± {label(column[:-3]).lower()} (95%)"
    return LABELS.get(column, column.replace("_", " ").capitalize())


def _generic(column):
    percent = any(key in column for key in PERCENT_COLUMNS) and column not in ("p_value",)

    def cell(row):
        value = row[column]
        if isinstance(value, float) and percent and abs(value) <= 1:
            return pct(value)
        return text(value)
    return cell


def text(value):
    """A cell's text: whole numbers with separators, other numbers with 2-3 significant places, no
    scientific notation; lists joined with commas."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value == round(value) and abs(value) >= 1:
            return f"{value:,.0f}"
        size = abs(value)
        return f"{value:,.0f}" if size >= 100 else f"{value:.2f}" if size >= 1 else f"{value:.3f}"
    if isinstance(value, list):
        return ", ".join(map(text, value))
    return str(value)


def pct(share, decimals=1):
    """A share (0-1) as a percentage: ``0.2713 -> "27.1%"``."""
    return "" if share is None else f"{100 * share:.{decimals}f}%"


def points(share, signed=True):
    """A difference of shares as percentage points: ``0.0206 -> "+2.06"``."""
    return "" if share is None else f"{100 * share:{'+' if signed else ''}.2f}"


def pct_interval(lo, hi):
    """A share interval: ``"26.8% to 27.4%"``."""
    return f"{pct(lo)} to {pct(hi)}"


def points_interval(lo, hi):
    """A difference interval in points: ``"+1.20 to +2.90"``."""
    return f"{points(lo)} to {points(hi)}"


def p_value(p):
    """A p-value without scientific notation: ``"< 0.0001"`` below that, else 3 or 4 decimals."""
    return "" if p is None or math.isnan(p) else "< 0.0001" if p < 1e-4 else f"{p:.4f}" if p < 0.01 else f"{p:.3f}"


def p_is(p):
    """``"p = 0.048"`` or ``"p < 0.0001"``, for a sentence."""
    shown = p_value(p)
    return f"p {shown}" if shown.startswith("<") else f"p = {shown}"
