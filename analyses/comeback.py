"""Comeback curve and decisiveness: does the seat leading after round r win, and how often does the lead change?

The engines record who led after each round in two packed game columns
(``simulator.core.leaders`` writes them; ``unpack`` below reads them, and
``tests/designer/test_comeback.py`` checks the two sides agree): four bits a
round, ``1 + seat`` for a sole leader, ``SHARED`` for a shared lead, 0 for no
round, round 1 in the lowest bits of ``leaders_1_8``. For each round ``r`` the curve is
the leader's win share over the games with a sole leader after round ``r``
(a shared win counts 1/k), against the chance ``1/players`` a seat picked
at random would have; near 1 the game is decided early, near the chance line
the lead means little. Lead changes per game count how often a different seat
took the lead alone from one recorded round to the next, the final standing
(a sole winner) included; a shared lead changes nothing.

Intervals as in ``analyses.feel``: Wilson with the deal-clustered effective
sample size for shares, a t interval over deals for the mean.
"""

import numpy as np
import polars as pl

from analyses.game_intervals import game_keys, mean_with_interval, share_with_interval
from analyses.frames import as_lazy
from analyses.moments import finished_filter

COLUMNS = ("leaders_1_8", "leaders_9_16")
SHARED = 15          # the code of a shared lead
PER_COLUMN = 8       # rounds per column
MIN_GAMES = 20  # a round with fewer games that have a sole leader is left out of the curve


def unpack(first, second):
    """``[games, 16]`` leader codes from the two columns (numpy int32 arrays)."""
    bits = np.stack([np.asarray(first).astype(np.int64) & 0xFFFFFFFF,
                     np.asarray(second).astype(np.int64) & 0xFFFFFFFF], axis=1)
    shifts = 4 * np.arange(PER_COLUMN)
    return ((bits[:, :, None] >> shifts) & 0xF).reshape(len(bits), len(COLUMNS) * PER_COLUMN)


def has_leaders(seats):
    """Whether the seat table has the leader columns (every game of ``simulator`` writes them)."""
    return set(COLUMNS) <= set(as_lazy(seats).collect_schema().names())


def leaders_recorded(seats):
    """Whether some game of a seat table with the leader columns recorded a leader in them: a run played with
    ``leader_record=False``, or one whose games all end in their first round, holds 0 in every game."""
    found = as_lazy(seats).select(pl.any_horizontal([(pl.col(c) != 0).any() for c in COLUMNS])).collect()
    return bool(found.item())


def per_game(seats):
    """One row per finished game: its keys, ``codes`` (the leader code of each recorded round, ``[games, 16]``),
    ``wins`` (each seat's win, ``[games, players]``) and the sole winner's code (``SHARED`` on a shared top)."""
    seats = finished_filter(as_lazy(seats))[0]
    keys = game_keys(seats)
    table = (seats.sort(keys + ["seat"]).group_by(keys, maintain_order=True)
             .agg(pl.col(COLUMNS[0]).first(), pl.col(COLUMNS[1]).first(), pl.col("win"))
             .collect())
    codes = unpack(table[COLUMNS[0]].to_numpy(), table[COLUMNS[1]].to_numpy())
    wins = np.array(table["win"].to_list(), dtype=float) if table.height else np.zeros((0, 1))
    sole = (wins == 1.0).any(axis=1)
    final = np.where(sole, wins.argmax(axis=1) + 1, SHARED) if table.height else np.zeros(0, int)
    return table.select(keys), codes, wins, final


def lead_changes(codes, final):
    """Per game: how often another seat took the lead alone, over the recorded rounds and the final result."""
    sequence = np.concatenate([codes, final[:, None]], axis=1)
    changes = np.zeros(len(sequence), dtype=np.int64)
    current = np.zeros(len(sequence), dtype=np.int64)
    for column in sequence.T:
        sole = (column > 0) & (column != SHARED)
        changes += sole & (current > 0) & (column != current)
        current = np.where(sole, column, current)
    return changes


def curve(seats, confidence=0.95):
    """The comeback curve as rows ``(round, games, leader_wins, low, high, chance)``: for each recorded round
    with at least ``MIN_GAMES`` games led by one seat, the leader's win share with its interval."""
    keys, codes, wins, _ = per_game(seats)
    rows = []
    players = wins.shape[1]
    for r in range(codes.shape[1]):
        sole = (codes[:, r] > 0) & (codes[:, r] != SHARED)
        if sole.sum() < MIN_GAMES:
            continue
        rows_led = np.flatnonzero(sole)
        games = keys.filter(pl.Series(sole)).with_columns(
            pl.Series("leader_won", wins[rows_led, codes[rows_led, r] - 1]))
        share, lo, hi = share_with_interval(games, "leader_won", confidence)
        rows.append((r + 1, int(sole.sum()), share, lo, hi, 1 / players))
    return pl.DataFrame(rows, schema={"round": pl.Int64, "games": pl.Int64, "leader_wins": pl.Float64,
                                      "low": pl.Float64, "high": pl.Float64, "chance": pl.Float64}, orient="row")


def feel_rows(seats, confidence=0.95):
    """The game-feel rows ``(metric, value, low, high, note)``: lead changes per game and the comeback curve."""
    if not (has_leaders(seats) and leaders_recorded(seats)):
        return []
    keys, codes, wins, final = per_game(seats)
    if not len(final):
        return []
    games = keys.with_columns(pl.Series("changes", lead_changes(codes, final)))
    rows = [("lead changes per game", *mean_with_interval(games, "changes", confidence),
             "another seat took the lead alone from one round to the next, the final result included")]
    for r in curve(seats, confidence).iter_rows(named=True):
        rows.append((f"leader after round {r['round']} wins", r["leader_wins"], r["low"], r["high"],
                     f"{r['games']:,} games with a sole leader; chance {100 * r['chance']:.0f}%; Wilson"))
    return rows
