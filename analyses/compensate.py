"""Seat compensation: the per-seat knob values (``seat_bonus`` points, or a game's own per-seat key such as
a ``start_coins`` row) that bring every seat's edge inside the margin, confirmed or refused.

How many games: every evaluation plays ``planned_games(margin, players)``
games (``analyses.planning.games_for_verdict``: the games after which a game
whose seats are even reads "balanced within the margin" with probability
0.8), so the confirmation can decide at all.

The search is a sample-average root finder with common random numbers:
every evaluation plays the same deals (the search seed), so the edges it
compares differ by the knob alone, and each seat's edge is a monotone step
function of its own knob. Seat 0 is held at its starting value; the other
seats are solved in turn (Gauss-Seidel) by bisection on the knob's grid
(``step``: half points for ``seat_bonus``, whole coins for ``start_coins``)
within ``[low, high]``, until every edge on the search deals is within a
quarter of the margin or ``ROUNDS`` passes are done.

Nothing the search saw is reported as evidence. On a fresh seed
(``CONFIRM_OFFSET``, never used by the search) the found values are played
for the verdict; while it is inconclusive the confirmation doubles its games
(the first games of a seed are the same games) up to ``max_games``. Only a
"balanced" confirmation confirms the compensation (``Compensation.confirmed``).
Each seat's interval is then found by test inversion on the confirmation's
deals: the grid values of that seat's knob (the others held) for which its
95% simultaneous edge interval still contains 0, by bisection (the edge's
bounds are monotone in the knob on common deals).

One basis: every value and every interval end is the knob's value itself,
seat 0 held at its start (0 points for ``seat_bonus``, so each bonus is
relative to seat 0 and may be negative), and the table written carries
exactly those values.

``evaluate(values, seed, games)`` is the caller's: it plays the knob
``values`` (one per seat) for ``games`` games on ``seed`` and returns the
``SeatMoments``.
"""

from dataclasses import dataclass, field

import numpy as np

from analyses import planning
from analyses.verdict import DEFAULT_MARGIN, decide, points, simultaneous_edges

CONFIRM_OFFSET = 1_000_003   # the confirmation deals: seed + this (as a sweep's --search)
ROUNDS = 3                   # Gauss-Seidel passes over the seats at most
MAX_FACTOR = 4               # an inconclusive confirmation doubles its games up to this many times the planned
KNOBS = {"seat_bonus": dict(step=0.5, low=-10.0, high=10.0, unit="points"),
         "start_coins": dict(step=1.0, low=0.0, high=20.0, unit="coins")}


def planned_games(margin, players):
    """Games per evaluation: those after which a game whose seats are even reads "balanced within
    ±``margin`` points" with probability 0.8 (``analyses.planning.games_for_verdict``)."""
    return planning.games_for_verdict(margin, players)


@dataclass
class Compensation:
    """What ``compensate`` found: the knob's values per seat and their intervals on the confirmation deals
    (None for the held seat 0 and where no grid value passes, ``open_ends`` then ["none"]; where the interval
    reaches the searched range, the end is that bound and ``open_ends`` says which end), the confirmation's
    ``Verdict``, whether the search found values inside the range, the seeds and the games played."""

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
    games: int = 0
    confirmation_games: int = 0
    search_edges: list = field(default_factory=list)
    start: list = None

    @property
    def unchanged(self):
        """True when the values found are the table's own (``start``): the table needs no compensation."""
        return self.start is not None and list(self.values) == list(self.start)

    @property
    def confirmed(self):
        """True when the search found values inside the range and the fresh deals call them balanced."""
        return self.found and self.verdict.kind == "balanced"

    @property
    def basis(self):
        """What the values are measured from: "relative to seat 0" for ``seat_bonus`` (seat 0 held at 0), else
        "seat 0 held" (a game's own knob, e.g. coins, is a count in every seat)."""
        return "relative to seat 0" if self.knob == "seat_bonus" else "seat 0 held"

    def _shown(self):
        """The values with their unit and basis: "[0, 2.5, 5] points relative to seat 0"."""
        unit = f" {self.unit}" if self.unit else ""
        return "[" + ", ".join(f"{v:g}" for v in self.values) + f"]{unit} {self.basis}"

    def sentence(self):
        """The one sentence to quote: confirmed, or why no compensation is confirmed."""
        fresh = f"on fresh deals (seed {self.confirmation_seed}, {self.confirmation_games:,} games)"
        if self.confirmed and self.unchanged:
            return (f"No compensation needed: the table as it is ({self.knob} = {self._shown()}) balances the "
                    f"game within ±{points(self.verdict.margin)} points {fresh}.")
        if self.confirmed:
            return (f"Confirmed: {self.knob} = {self._shown()} balances the game within "
                    f"±{points(self.verdict.margin)} points {fresh}.")
        candidate = f"the best candidate, {self.knob} = {self._shown()},"
        if not self.found:
            why = (f"nothing in the searched range ({self.low_bound:g} to {self.high_bound:g} {self.unit} per "
                   f"seat) balances the game on the search deals; {candidate} is {self.verdict.kind} {fresh}")
        else:
            why = f"{candidate} is {self.verdict.kind} {fresh}"
        return f"No {self.knob} was confirmed within ±{points(self.verdict.margin)} points: {why}."

    def interval(self, seat):
        """Seat ``seat``'s interval in words, on the same basis as its value ("held" for seat 0)."""
        if seat == 0:
            return "held"
        if "none" in self.open_ends[seat]:
            return "none (no grid value)"
        lo = f"{self.low[seat]:g}" + (" or less" if "low" in self.open_ends[seat] else "")
        hi = f"{self.high[seat]:g}" + (" or more" if "high" in self.open_ends[seat] else "")
        return f"{lo} to {hi}"

    def rows(self):
        """One row per seat: seat, value, interval (words), edge on the confirmation deals with its
        simultaneous interval (words, points)."""
        edges = {e.seat: e for e in self.verdict.edges}
        return [{"seat": s, "value": f"{self.values[s]:g}", "interval": self.interval(s),
                 "edge": edges[s].short() if s in edges else "-"} for s in range(self.players)]

    def snippet(self):
        """The setup-table lines to paste."""
        values = ", ".join(repr(float(v)) if self.knob == "seat_bonus" else str(int(v)) for v in self.values)
        return f"[players.{self.players}]\n{self.knob} = [{values}]\n"

    def to_dict(self):
        return {"players": self.players, "knob": self.knob, self.knob: self.values, "unit": self.unit,
                "low": self.low, "high": self.high, "open_ends": self.open_ends, "found": self.found,
                "confirmed": self.confirmed, "unchanged": self.unchanged, "verdict": self.verdict.to_dict(),
                "confirmation_seed": self.confirmation_seed, "confirmation_games": self.confirmation_games,
                "search_seed": self.search_seed, "games_per_evaluation": self.games,
                "evaluations": self.evaluations, "searched_range": [self.low_bound, self.high_bound],
                "sentence": self.sentence(), "search_edges_points": self.search_edges}


class _Counted:
    """``evaluate`` with a count of its calls, a memory of the values already played on a seed and a
    ``progress(stage, values, games)`` call before each new evaluation."""

    def __init__(self, evaluate, progress=None):
        self.evaluate, self.progress, self.calls, self.seen = evaluate, progress, 0, {}
        self.stage = "search"

    def __call__(self, values, seed, games):
        key = (tuple(float(v) for v in values), seed, games)
        if key not in self.seen:
            self.calls += 1
            if self.progress is not None:
                self.progress(self.stage, [float(v) for v in values], games)
            self.seen[key] = self.evaluate([float(v) for v in values], seed, games)
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


def _confirm(play, values, seed, games, max_games, margin, confidence, labels):
    """The confirmation's ``(verdict, games)``: ``games`` on ``seed``, doubled while inconclusive up to
    ``max_games``."""
    while True:
        verdict = decide(play(values, seed, games), margin, confidence, **labels)
        if verdict.kind != "inconclusive" or games >= max_games:
            return verdict, games
        games = min(2 * games, max_games)


def compensate(evaluate, players, *, knob="seat_bonus", start=None, low=None, high=None, step=None, seed=0,
               margin=DEFAULT_MARGIN, confidence=0.95, rounds=ROUNDS, games=None, max_games=None, progress=None,
               labels=None):
    """Search the per-seat ``knob`` values that balance the game and confirm or refuse them on fresh deals
    (see the module docstring); return the ``Compensation``.

    ``start`` is the knob's starting row (zeros for ``seat_bonus``); ``low``,
    ``high`` and ``step`` default to ``KNOBS[knob]``. ``games`` per evaluation
    default to ``planned_games(margin, players)``; an inconclusive
    confirmation doubles up to ``max_games`` (default ``MAX_FACTOR`` times
    ``games``). ``progress(stage, values, games)`` is called before each
    evaluation (stage "search", "confirm" or "interval"); ``labels`` are the
    verdict's ``strategies``, ``subject`` and ``model`` (``analyses.verdict.decide``).
    """
    spec = KNOBS.get(knob, dict(step=1.0, low=0.0, high=20.0, unit=""))
    low = spec["low"] if low is None else low
    high = spec["high"] if high is None else high
    step = spec["step"] if step is None else step
    games = planned_games(margin, players) if games is None else int(games)
    max_games = max(games, MAX_FACTOR * games if max_games is None else int(max_games))
    grid = _grid(low, high, step)
    counted = _Counted(evaluate, progress)

    def search(values, run_seed):
        return counted(values, run_seed, games)

    start = [float(v) for v in (start if start is not None else [0.0] * players)]
    values = list(start)
    found = True
    for _ in range(rounds):
        for seat in range(1, players):
            values[seat], changed_sign = _solve_seat(search, values, seat, grid, seed)
            found = found and changed_sign
        edges = _edges(search(values, seed))
        if not found or np.abs(edges).max() < margin / 400:
            break
        found = True  # a later pass may find a sign change the first did not
    search_edges = [100 * float(e) for e in _edges(search(values, seed))]
    confirm = seed + CONFIRM_OFFSET
    counted.stage = "confirm"
    verdict, played = _confirm(counted, values, confirm, games, max_games, margin, confidence,
                               {} if labels is None else labels)
    lows, highs, ends = [None] * players, [None] * players, [[] for _ in range(players)]
    if found:
        counted.stage = "interval"

        def fresh(values, run_seed):
            return counted(values, run_seed, played)

        for seat in range(1, players):
            lo_i, lo_open = _bound_end(fresh, values, seat, grid, confirm, confidence, upper=False)
            if lo_i is None:
                ends[seat] = ["none"]
                continue
            hi_i, hi_open = _bound_end(fresh, values, seat, grid, confirm, confidence, upper=True)
            lows[seat], highs[seat] = float(grid[lo_i]), float(grid[hi_i])
            ends[seat] = ["low"] * lo_open + ["high"] * hi_open
    return Compensation(knob, spec["unit"], players, [float(v) for v in values], lows, highs, ends, verdict,
                        found, low, high, seed, confirm, counted.calls, games, played, search_edges, start)
