"""One unit in every file a command writes: an edge, share or difference of win share is in points, or its
name says its unit.

The convention: a column or key holding an edge, a share or a difference of
win share ends in ``_points`` (percentage points: 5.19 means 5.19 points) or
``_share`` (a fraction: 0.0519), optionally followed by ``_lo``/``_hi`` (or
``_low``/``_high``) for its interval's ends (a p-value, ``_p``, is no
share). ``violations`` finds the names that break it.

In memory the analyses keep shares as fractions (``max_edge`` 0.0519); the
writers pass their frames through ``to_file``, which turns the fractions of
``FRACTIONS`` into points and names them so (``max_edge`` ->
``max_edge_points``, ``max_edge_lo`` -> ``max_edge_points_lo``), and the
readers through ``from_file``, its inverse; the fractions of ``SHARES``
keep their values and take a ``_share`` name (``win_lo`` -> ``win_share_lo``).
"""

import re

import polars as pl

__all__ = ["FRACTIONS", "SHARES", "to_file", "from_file", "file_name", "violations"]

# in-memory names (fractions of win share) -> their base name on file (points); "_lo"/"_hi" follow the base
FRACTIONS = {"first_seat_edge": "first_seat_edge_points", "max_edge": "max_edge_points",
             "shown_edge": "shown_edge_points"}
# in-memory names of fractions that files keep as fractions, named so
SHARES = {"win_lo": "win_share_lo", "win_hi": "win_share_hi", "win_low": "win_share_low", "win_high": "win_share_high"}

_P_VALUE = re.compile(r"(^|_)p(_value)?$")
_QUANTITY = re.compile(r"(^|_)(edge|edges|share|shares|diff|difference|differences|advantage|gap)(_|$)")
_UNIT = re.compile(r"_(points|share)(_(lo|hi|low|high))?$")
_END = re.compile(r"^(.*?)(_(lo|hi))?$")


def file_name(name):
    """The name ``name`` (in memory, a fraction of win share when it is in ``FRACTIONS``) takes on file, and
    the factor its values are multiplied by: ``("max_edge_points_lo", 100)`` for ``max_edge_lo``."""
    base, _, end = _END.match(name).groups()
    if base in FRACTIONS:
        return FRACTIONS[base] + (f"_{end}" if end else ""), 100.0
    return SHARES.get(name, name), 1.0


def to_file(frame):
    """``frame`` with its fractions of win share (``FRACTIONS``) in points and named so; other columns kept."""
    out = []
    for name in frame.columns:
        new, factor = file_name(name)
        column = pl.col(name)
        out.append((column * factor if factor != 1.0 else column).alias(new))
    return frame.select(out)


def from_file(frame):
    """The inverse of ``to_file``: the frame a writer started from (fractions under their in-memory names)."""
    named = {v: k for k, v in SHARES.items()}
    points = {}
    for name in frame.columns:
        base, _, end = _END.match(name).groups()
        memory = next((k for k, v in FRACTIONS.items() if v == base), None)
        if memory is not None:
            points[name] = memory + (f"_{end}" if end else "")
    return frame.select([(pl.col(n) / 100).alias(points[n]) if n in points else pl.col(n).alias(named.get(n, n))
                         for n in frame.columns])


def violations(names):
    """The names among ``names`` that hold an edge, share or difference (by their words) without a unit
    (``_points`` or ``_share``, before an optional ``_lo``/``_hi``)."""
    return [n for n in names if _QUANTITY.search(n.lower()) and not _UNIT.search(n.lower())
            and not _P_VALUE.search(n.lower())]
