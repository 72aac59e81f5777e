"""Seat compensation: the per-seat knob values (``seat_bonus`` points, or a game's own per-seat key such as
Fauch & Fertig's ``start_coins``) that bring every seat's edge inside the margin.

The search is a sample-average root finder with common random numbers:
every evaluation plays the same deals (the search seed), so the edges it
compares differ by the knob alone, and each seat's edge is a monotone step
function of its own knob. Seat 0 is held at its starting value; the other
seats are solved in turn (Gauss-Seidel) by bisection on the knob's grid
(``step``: half points for ``seat_bonus``, whole coins for ``start_coins``)
within ``[low, high]``, until every edge on the search deals is within a
quarter of the margin or ``ROUNDS`` passes are done. A ``seat_bonus`` is
then shifted so the smallest entry is 0 (adding the same points to every
seat changes no ranking): the smallest compensation.

Nothing the search saw is reported as evidence. On a fresh seed
(``CONFIRM_OFFSET``, never used by the search) the found values are played
once for the verdict, and each seat's interval is found by test inversion
on those deals: the grid values of that seat's knob (the others held) for
which its 95% simultaneous edge interval still contains 0. The interval's
ends are found by bisection (the edge's bounds are monotone in the knob on
common deals).

``evaluate(values, seed)`` is the caller's: it plays the knob ``values``
(one per seat) on ``seed`` and returns the ``SeatMoments``.
"""

from dataclasses import dataclass, field

import numpy as np

from analyses.verdict import DEFAULT_MARGIN, decide, simultaneous_edges

CONFIRM_OFFSET = 1_000_003   # the confirmation deals: seed + this (as a sweep's --search)
ROUNDS = 3                   # Gauss-Seidel passes over the seats at most
KNOBS = {"seat_bonus": dict(step=0.5, low=-10.0, high=10.0, unit="points", shift=True),
         "start_coins": dict(step=1.0, low=0.0, high=20.0, unit="coins", shift=False)}


@dataclass
class Compensation:
    """What ``compensate`` found: the knob's values per seat, their intervals (None for the held seat 0 and
    where no grid value passes, ``open_ends`` then ["none"]; where the interval reaches the searched range,
    the end is that bound and ``open_ends`` says which end),
    the confirmed ``Verdict``, whether the search found values inside the range, and the seeds."""

    knob: str
    unit: str
    players: int
    values: list
    low: list
    high: list
    open_ends: list
    verdict: object
    found: bool
    low_bound: float
    high_bound: float
    search_seed: int
    confirmation_seed: int
    evaluations: int
    search_edges: list = field(default_factory=list)

    def sentence(self):
        """The one sentence to quote: the compensation with its intervals and the confirmed verdict."""
        shown = ", ".join(f"{v:g}" for v in self.values)
        if not self.found:
            return (f"Nothing in the searched range ({self.low_bound:g} to {self.high_bound:g} {self.unit} per "
                    f"seat) balances the game: at its best ({self.knob} = [{shown}]) the confirmation games say: "
                    f"{self.verdict.sentence()}")
        seats = "; ".join(f"seat {s}: {self.values[s]:g} ({self._interval(s)})" for s in range(1, self.players))
        return (f"{self.knob} = [{shown}] {self.unit} ({seats}; 95% intervals by test inversion on fresh deals, "
                f"seat 0 held). Confirmed on seed {self.confirmation_seed}: {self.verdict.sentence()}")

    def _interval(self, seat):
        if "none" in self.open_ends[seat]:
            return ("no grid value: on the fresh deals even this one leaves the seat's edge interval off 0, so "
                    "the step is too coarse for this margin or the search deals misled it")
        lo = f"{self.low[seat]:g}" + (" or less" if "low" in self.open_ends[seat] else "")
        hi = f"{self.high[seat]:g}" + (" or more" if "high" in self.open_ends[seat] else "")
        return f"{lo} to {hi}"

    def snippet(self):
        """The setup-table lines to paste."""
        values = ", ".join(repr(float(v)) if self.knob == "seat_bonus" else str(int(v)) for v in self.values)
        return f"[players.{self.players}]\n{self.knob} = [{values}]\n"

    def to_dict(self):
        return {"players": self.players, "knob": self.knob, self.knob: self.values, "unit": self.unit,
                "low": self.low, "high": self.high, "open_ends": self.open_ends, "found": self.found,
                "verdict": self.verdict.to_dict(), "confirmation_seed": self.confirmation_seed,
                "search_seed": self.search_seed, "evaluations": self.evaluations,
                "searched_range": [self.low_bound, self.high_bound], "sentence": self.sentence(),
                "search_edges": self.search_edges}


class _Counted:
    """``evaluate`` with a count of its calls and a memory of the values already played on a seed."""

    def __init__(self, evaluate):
        self.evaluate, self.calls, self.seen = evaluate, 0, {}

    def __call__(self, values, seed):
        key = (tuple(float(v) for v in values), seed)
        if key not in self.seen:
            self.calls += 1
            self.seen[key] = self.evaluate([float(v) for v in values], seed)
        return self.seen[key]


def _edges(moments):
    return moments.mean - 1.0 / moments.players


def _grid(low, high, step):
    return np.round(np.arange(low, high + step / 2, step), 9)


def _solve_seat(play, values, seat, grid, seed):
    """The grid value of ``seat``'s knob (others held) whose edge on ``seed`` is nearest 0, by bisection on the
    sign of the edge; also whether the edge changes sign inside the grid."""
    def edge(i):
        trial = list(values)
        trial[seat] = grid[i]
        return _edges(play(trial, seed))[seat]

    lo, hi = 0, len(grid) - 1
    e_lo, e_hi = edge(lo), edge(hi)
    if e_lo >= 0 or e_hi <= 0:  # no sign change: the nearer end
        return (grid[lo] if abs(e_lo) <= abs(e_hi) else grid[hi]), False
    while hi - lo > 1:
        mid = (lo + hi) // 2
        e_mid = edge(mid)
        if e_mid < 0:
            lo, e_lo = mid, e_mid
        else:
            hi, e_hi = mid, e_mid
    return (grid[lo] if abs(e_lo) <= abs(e_hi) else grid[hi]), True


def _bound_end(play, values, seat, grid, seed, confidence, upper):
    """The last grid index (from the found value outwards) at which ``seat``'s simultaneous interval still
    contains 0, by bisection, and whether that is the grid's end; ``(None, False)`` when even the found value's
    interval excludes 0."""
    start = int(np.argmin(np.abs(grid - values[seat])))

    def covers(i):
        trial = list(values)
        trial[seat] = grid[i]
        _, lo, hi = simultaneous_edges(play(trial, seed), confidence)
        return lo[seat] <= 0 <= hi[seat]

    end = len(grid) - 1 if upper else 0
    if not covers(start):
        return None, False
    if covers(end):
        return end, True
    inside, outside = start, end
    while abs(outside - inside) > 1:
        mid = (inside + outside) // 2
        if covers(mid):
            inside = mid
        else:
            outside = mid
    return inside, False


def compensate(evaluate, players, *, knob="seat_bonus", start=None, low=None, high=None, step=None, seed=0,
               margin=DEFAULT_MARGIN, confidence=0.95, rounds=ROUNDS):
    """Search the per-seat ``knob`` values that balance the game (see the module docstring); return the
    ``Compensation``. ``start`` is the knob's starting row (zeros for ``seat_bonus``); ``low``, ``high`` and
    ``step`` default to ``KNOBS[knob]``."""
    spec = KNOBS.get(knob, dict(step=1.0, low=0.0, high=20.0, unit="", shift=False))
    low = spec["low"] if low is None else low
    high = spec["high"] if high is None else high
    step = spec["step"] if step is None else step
    grid = _grid(low, high, step)
    play = _Counted(evaluate)
    values = [float(v) for v in (start if start is not None else [0.0] * players)]
    found = True
    for _ in range(rounds):
        for seat in range(1, players):
            values[seat], changed_sign = _solve_seat(play, values, seat, grid, seed)
            found = found and changed_sign
        edges = _edges(play(values, seed))
        if not found or np.abs(edges).max() < margin / 400:
            break
        found = True  # a later pass may find a sign change the first did not
    search_edges = [100 * float(e) for e in _edges(play(values, seed))]
    confirm = seed + CONFIRM_OFFSET
    lows, highs, ends = [None] * players, [None] * players, [[] for _ in range(players)]
    if found:
        for seat in range(1, players):
            lo_i, lo_open = _bound_end(play, values, seat, grid, confirm, confidence, upper=False)
            if lo_i is None:
                ends[seat] = ["none"]
                continue
            hi_i, hi_open = _bound_end(play, values, seat, grid, confirm, confidence, upper=True)
            lows[seat], highs[seat] = float(grid[lo_i]), float(grid[hi_i])
            ends[seat] = ["low"] * lo_open + ["high"] * hi_open
    verdict = decide(play(values, confirm), margin, confidence, ["?"] * players)
    if spec["shift"]:
        shift = -min(values)
        values = [v + shift for v in values]
        lows = [None if v is None else v + shift for v in lows]
        highs = [None if v is None else v + shift for v in highs]
    return Compensation(knob, spec["unit"], players, [float(v) for v in values], lows, highs, ends, verdict,
                        found and verdict.kind != "unbalanced", low, high, seed, confirm, play.calls, search_edges)

