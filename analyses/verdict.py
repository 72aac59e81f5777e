"""The balance verdict: is every seat's edge within a designer's margin?

A seat's *edge* is its win share minus the fair share ``1/players`` (shared
wins count 1/k). The verdict tests every seat at once against the margin
``M`` (percentage points, default 1.0) with simultaneous 95% intervals:
exact (Clopper-Pearson) intervals at a Bonferroni level over the seats (over
one seat with two players, whose edges are mirror images), on the games the
shares are worth (with rotated seats, the deals corrected by the spread of
their averages: ``analyses.intervals.effective_units``). They hold their
coverage from 20 games up at 2-8 players, and never have zero width:

- ``balanced``: every seat's interval lies inside ``(-M, +M)``. Read as an
  equivalence test (two one-sided tests per seat, Bonferroni-corrected), it
  declares a game balanced at most 5% of the time when some seat's true edge
  is at or beyond the margin;
- ``unbalanced``: some seat's interval lies wholly beyond ``+M`` or ``-M``;
- ``inconclusive``: neither; ``games_needed`` says roughly how many games in
  all would settle it if the shares stay where they are;
- ``unfinished``: most games did not finish (a ``finished`` column), so no
  seat table is meaningful.

The unit of inference is the deal (``analyses.moments``): with rotated seats
the rotations of a deal are one unit. When seats hold different strategies
and are not rotated, the edges belong to lineups (seat and strategy
together), and the verdict says so. A chi-square (Wald) test of equal shares
with the same unit-level covariance is kept as a secondary line.

Use ``seat_verdict(frame, margin)`` on a run's rows, or ``decide(moments,
margin)`` on ``SeatMoments``; the ``Verdict`` it returns has ``sentence()``
(the one quotable sentence), ``lines()`` (what the terminal prints) and
``to_dict()`` (the ``--json`` fields).
"""

import math
import dataclasses
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import special

from analyses.moments import family, is_rotated, seat_moments
from analyses import planning
from analyses.frames import as_lazy

DEFAULT_MARGIN = 1.0  # percentage points of win share
AFFORDABLE = 10 ** 10  # games: a plan beyond this says no affordable number settles the verdict
UNFINISHED_MAJORITY = 0.5  # more unfinished games than this share: the verdict is "unfinished"


@dataclass(frozen=True)
class SeatEdge:
    """One seat's edge (win share minus fair share) with its simultaneous interval, in points."""

    seat: int
    strategy: str
    share: float
    edge: float
    lo: float
    hi: float

    def to_dict(self):
        return {"seat": self.seat, "strategy": self.strategy, "share": self.share, "edge": self.edge,
                "lo": self.lo, "hi": self.hi}

    def short(self):
        """The edge and its interval for a table cell: "+1.22 ± 0.31" when the interval is symmetric to the
        second decimal (large samples), else "-25.00 (-25.00 to +21.97)" (exact intervals at small n are not)."""
        above, below = round(self.hi - self.edge, 2), round(self.edge - self.lo, 2)
        if above == below:
            return f"{self.edge:+.2f} ± {above:.2f}"
        return f"{self.edge:+.2f} ({self.lo:+.2f} to {self.hi:+.2f})"


@dataclass(frozen=True)
class SeatTest:
    """Wald chi-square test of equal seat shares (unit-level covariance)."""

    statistic: float
    df: int
    p: float

    def to_dict(self):
        return {"statistic": self.statistic, "df": self.df, "p": self.p}


@dataclass(frozen=True)
class Verdict:
    """A balance verdict and everything needed to quote it.

    ``kind``: "balanced" | "unbalanced" | "inconclusive" | "unfinished".
    Edges, intervals and the margin are in percentage points of win share.
    ``subject`` is "seats" or "lineups" (strategies differ by seat, seats not
    rotated). ``games_needed`` (inconclusive only) is the rough total number of
    games that would settle the verdict; ``deals`` and ``rotations`` describe
    the unit of inference; ``unfinished`` counts games left out; ``model`` names
    the players the verdict rests on ("with `random` in every seat", from
    ``player_model``; empty when unknown); ``caveats`` are further things it
    cannot tell, one sentence each (a model played on a table it was not
    trained for).
    """

    kind: str
    margin: float
    confidence: float
    subject: str
    players: int
    games: int
    deals: int
    rotations: int
    edges: tuple
    largest: SeatEdge | None
    seat_test: SeatTest | None
    games_needed: int | None
    unfinished: int = 0
    unfinished_reason: str = "did not finish"
    model: str = ""
    lineups: int = 1
    caveats: tuple = ()

    @property
    def tested(self):
        """What the verdict tested, in words."""
        what = "every seat's edge (win share minus fair share)" if self.subject == "seats" else \
            "every lineup's edge (a seat together with the strategy in it, against the fair share)"
        unit = f"deals ({self.rotations} rotations each) as the unit" if self.rotations > 1 else "games as the unit"
        over = f"one {round(100 * self.confidence)}% exact interval (two seats' edges are mirror images)" \
            if self.players == 2 else \
            f"simultaneous {round(100 * self.confidence)}% exact intervals over {self.players} seats (Bonferroni)"
        return f"{what} against ±{points(self.margin)} points, with {over}, {unit}"

    @property
    def cannot_tell(self):
        """What the verdict cannot tell, in words."""
        if self.subject == "lineups":
            return ("seat advantage apart from strategy strength: the seats hold different strategies; use "
                    "--rotate-seats or `playtest tournament` to measure seat advantage under mixed strategies")
        return ("whether the game is balanced for other strategies, player counts or setups than the ones "
                "played, or for edges smaller than the margin")

    def counts(self):
        """"N games", or "N deals × R rotations = M games" when the deal is the unit ("N deals × L lineups ×
        R rotations = M games" in a tournament, whose lineups all play every deal)."""
        if self.lineups > 1:
            return (f"{self.deals:,} deals × {self.lineups} lineups × {self.rotations // self.lineups} rotations = "
                    f"{self.games:,} games")
        if self.rotations > 1:
            return f"{self.deals:,} deals × {self.rotations} rotations = {self.games:,} games"
        return f"{self.games:,} game{'s' if self.games != 1 else ''}"

    def unfinished_line(self):
        """The first line of the output when games were left out (else None)."""
        if not self.unfinished:
            return None
        total = self.games + self.unfinished
        return f"{self.unfinished:,} of {total:,} games {self.unfinished_reason} and are left out"

    def beyond(self):
        """The seats (or lineups) whose interval lies wholly beyond the margin, furthest first."""
        far = [e for e in self.edges if e.lo > self.margin or e.hi < -self.margin]
        return sorted(far, key=lambda e: -(e.lo - self.margin if e.lo > self.margin else -self.margin - e.hi))

    def sentence(self):
        """The one quotable sentence of the verdict, naming the players it rests on."""
        who = "seat" if self.subject == "seats" else "lineup"
        model = f" {self.model}" if self.model else ""
        if self.kind == "unfinished":
            return (f"Not a balance question: {self.unfinished:,} of {self.games + self.unfinished:,} games "
                    f"{self.unfinished_reason}, so no seat table is shown.")
        big = self.largest
        if big is None:
            return f"Inconclusive{model}: {self.counts()} are too few to estimate any edge."

        def where(e):
            return f"{who} {e.seat}" + (f" ({e.strategy})" if self.subject == "lineups" else "")

        def interval(e, unit=" points"):
            return f"{e.edge:+.2f}{unit} ({e.lo:+.2f} to {e.hi:+.2f})"
        confidence = f"{round(100 * self.confidence)}% {'' if self.players == 2 else 'simultaneous '}confidence"
        if self.kind == "balanced":
            return (f"Balanced within ±{points(self.margin)} points{model}: every {who}'s edge lies inside the "
                    f"margin with {confidence} (largest: {where(big)}, {interval(big)}; {self.counts()}).")
        if self.kind == "unbalanced":
            far = self.beyond()
            named = [f"{where(far[0])} has an edge of {interval(far[0])}"] + \
                [f"{where(e)} {interval(e, '')}" for e in far[1:]]
            named = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
            return (f"Unbalanced{model}: {named}, beyond ±{points(self.margin)} points with {confidence} "
                    f"({self.counts()}).")
        unit = "deals" if self.rotations > 1 else "games"
        need = (f"about {self.games_needed:,} games in all would settle it about 2 times in 3 or more (planned "
                "for 4 in 5 as if these edges were exact)") if self.games_needed else \
            f"too few {unit} to plan from: play at least {planning.MIN_UNITS} {unit}" \
            if self.deals < planning.MIN_UNITS else \
            "the largest edge sits at the margin, so no affordable number of games settles it"
        return (f"Inconclusive at ±{points(self.margin)} points{model}: the largest edge is {where(big)}, "
                f"{interval(big)}, which straddles the margin; {need} ({self.counts()}).")

    def lines(self):
        """The lines the terminal prints: unfinished games, the sentence, the chi-square, the caveats."""
        out = [line for line in [self.unfinished_line()] if line]
        out.append(self.sentence())
        if self.kind == "unfinished":
            return out
        if self.seat_test is not None and not math.isnan(self.seat_test.p):
            p = self.seat_test.p
            p_text = f"p = {p:.3g}" if p > 0 else "p < 1e-300"
            out.append(f"  chi-square test of equal shares (any difference, however small): "
                       f"chi2 = {self.seat_test.statistic:.2f}, {self.seat_test.df} df, {p_text}")
        elif self.seat_test is not None:
            out.append(f"  chi-square test of equal shares: not computed, some seat's wins did not vary over the "
                       f"{self.deals:,} {'deals' if self.rotations > 1 else 'games'}")
        out.append(f"  tested: {self.tested}")
        out.append(f"  cannot tell: {self.cannot_tell}")
        out += [f"  cannot tell: {c}" for c in self.caveats]
        return out

    def to_dict(self):
        """The ``--json`` fields: verdict, margin, largest_edge, seat_test, games_needed and the rest."""
        return {
            "verdict": self.kind, "sentence": self.sentence(), "margin": self.margin,
            "units": "percentage points of win share", "confidence": self.confidence, "subject": self.subject,
            "largest_edge": self.largest.to_dict() if self.largest else None,
            "seat_test": self.seat_test.to_dict() if self.seat_test else None,
            "games_needed": self.games_needed, "games": self.games, "deals": self.deals,
            "rotations": self.rotations, "unfinished": self.unfinished, "tested": self.tested,
            "cannot_tell": "; ".join([self.cannot_tell, *self.caveats]), "edges": [e.to_dict() for e in self.edges],
            "beyond_margin": [e.seat for e in self.beyond()], "players_model": self.model,
        }


def points(value):
    """A margin in points as the designer wrote it: 1.0 stays "1.0", 0.25 stays "0.25"."""
    return f"{value:.1f}" if round(value, 1) == value else f"{value:g}"


def simultaneous_edges(moments, confidence=0.95):
    """``(edge, lo, hi)`` arrays (shares, not points): each seat's edge and its simultaneous interval
    (``SeatMoments.intervals``: exact intervals on the effective games, Bonferroni over ``family`` seats)."""
    fair = 1.0 / moments.players
    lo, hi = moments.intervals(confidence, family(moments.players))
    return moments.mean - fair, lo - fair, hi - fair


def wald_test(moments):
    """Wald chi-square test that every seat's share is the fair share, with the unit-level covariance.

    Shares sum to one, so the last seat is dropped (df = players - 1). On
    batched moments returns ``(statistic, p)`` arrays; on one run a
    ``SeatTest``, not computed (nan) when the covariance is singular: a few
    games in which some seat's wins did not vary say nothing of its spread.
    """
    df = moments.players - 1
    if moments.n < 2:
        return SeatTest(float("nan"), df, float("nan"))
    edge = (moments.mean - 1.0 / moments.players)[..., :-1]
    cov = moments.cov[..., :-1, :-1] / moments.n
    if edge.ndim > 1:
        stat = np.einsum("...i,...i->...", edge, np.linalg.solve(cov, edge[..., None])[..., 0])
        return stat, special.chdtrc(df, stat)
    rank = int(np.linalg.matrix_rank(cov)) if np.isfinite(cov).all() else 0
    if rank < df:  # some seat's wins did not vary: no covariance to test with
        return SeatTest(float("nan"), df, float("nan"))
    stat = float(edge @ np.linalg.solve(cov, edge))
    return SeatTest(stat, df, float(special.chdtrc(df, stat)))


def kinds(lo, hi, margin):
    """The verdict of simultaneous intervals ``lo``, ``hi`` (shares, seats on the last axis) at ``margin``
    (a share): "unbalanced" if some interval lies beyond it, "balanced" if all lie inside, else
    "inconclusive". Works on batches."""
    beyond = ((lo > margin) | (hi < -margin)).any(axis=-1)
    inside = ((lo > -margin) & (hi < margin)).all(axis=-1)
    return np.where(beyond, "unbalanced", np.where(inside, "balanced", "inconclusive"))


def units_to_settle(moments, margin, confidence=0.95, power=0.8):
    """Roughly how many units would settle an inconclusive verdict, taking the estimated edges as true.

    ``analyses.planning``: the units for "balanced" with probability ``power``
    when every estimated edge is inside the margin, else the fewest units for
    some seat beyond it to read "unbalanced". None when no edge is far enough
    from the margin for a finite answer.
    """
    edge = 100 * (moments.mean - 1.0 / moments.players)
    # one unit's spread as the intervals see it: binomial, scaled by the games a unit is worth
    sd = np.sqrt(np.clip(moments.mean * (1 - moments.mean) * moments.n / moments.effective_games, 1e-12, None))
    try:
        if (np.abs(edge) < margin).all():
            return planning.games_for_verdict(margin, moments.players, edge, power, confidence, sd)
        return min(planning.units_to_show_beyond(e, s, margin, moments.players, power, confidence)
                   for e, s in zip(edge, sd) if abs(e) > margin)
    except ValueError:
        return None


def decide(moments, margin=DEFAULT_MARGIN, confidence=0.95, strategies=None, subject="seats",
           unfinished_reason="did not finish", model="", lineups=1):
    """The ``Verdict`` of ``SeatMoments`` at ``margin`` percentage points.

    ``strategies`` names the strategy per seat ("(rotated)" in a rotated run);
    ``subject`` is "seats" or "lineups"; ``model`` the players in words
    (``player_model``); ``lineups`` how many lineups played every deal (a
    tournament's, stacked).
    """
    if margin <= 0:
        raise ValueError(f"the margin must be positive (percentage points), got {margin}")
    players = moments.players
    strategies = list(strategies or ["?"] * players)
    common = dict(margin=float(margin), confidence=confidence, subject=subject, players=players,
                  games=moments.games, deals=moments.n, rotations=moments.rotations,
                  unfinished=moments.unfinished, unfinished_reason=unfinished_reason, model=model, lineups=lineups)
    if moments.n < 2 or moments.unfinished > UNFINISHED_MAJORITY * (moments.games + moments.unfinished):
        return Verdict("unfinished" if moments.unfinished else "inconclusive", edges=(), largest=None,
                       seat_test=None, games_needed=None, **common)
    m = margin / 100
    edge, lo, hi = simultaneous_edges(moments, confidence)
    edges = tuple(SeatEdge(s, str(strategies[s]), 100 * float(moments.mean[s]), 100 * float(edge[s]),
                           100 * float(lo[s]), 100 * float(hi[s])) for s in range(players))
    kind = str(kinds(lo, hi, m))
    if kind == "unbalanced":
        # the seat shown is the one furthest beyond the margin by its near bound
        beyond = (lo > m) | (hi < -m)
        worst = int(np.where(beyond, np.where(lo > m, lo - m, -m - hi), -np.inf).argmax())
    else:
        worst = int(np.abs(edge).argmax())
    needed = None
    if kind == "inconclusive":
        units = units_to_settle(moments, margin, confidence) if moments.n >= planning.MIN_UNITS else None
        needed = None if units is None else max(units, moments.n + 1) * moments.rotations
        needed = None if needed is not None and needed > AFFORDABLE else needed
    return Verdict(kind, edges=edges, largest=edges[worst], seat_test=wald_test(moments), games_needed=needed,
                   **common)


def lineup(seats):
    """``(strategy per seat, subject)``: "(rotated)" for seats several strategies played; the subject is
    "lineups" when unrotated seats hold different strategies, else "seats"."""
    seats = as_lazy(seats)
    table = (seats.group_by("seat", pl.col("strategy").cast(pl.String)).agg(pl.len())
             .group_by("seat").agg(pl.col("strategy").sort().first(), pl.len().alias("kinds"))
             .sort("seat").collect(engine="streaming"))
    rotated = is_rotated(seats)
    names = [s if k == 1 else "(rotated)" for s, k in zip(table["strategy"], table["kinds"])]
    subject = "lineups" if not rotated and len(set(names)) > 1 else "seats"
    return names, subject


def _names(strategies):
    """`a`, `b` and `c`."""
    quoted = [f"`{s}`" for s in strategies]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _seats(seats):
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}"


def player_model(seats):
    """The players a verdict on these seat rows rests on, in words: "with `random` in every seat", "with
    `greedy` in seat 0 and `random` elsewhere", "with `greedy` and 3 `random` rotated through the seats",
    or, for a tournament's stacked lineups, "pooled over the lineups of `a`, `b` and `c`, rotated through
    the seats"."""
    seats = as_lazy(seats)
    columns = seats.collect_schema().names()
    if "lineup" in columns:
        names = seats.select(pl.col("strategy").cast(pl.String).unique().sort()).collect(engine="streaming")
        return f"pooled over the lineups of {_names(names['strategy'].to_list())}, rotated through the seats"
    if "rotation" in columns:
        seats = seats.filter(pl.col("rotation") == 0)
    # first() of the categorical, cast afterwards: a cast before the aggregation held every row as a string in
    # memory (a summary of 10M games held them all: bench/journal/2026-12-06-house2.md)
    table = (seats.group_by("seat").agg(pl.col("strategy").first()).sort("seat")
             .collect(engine="streaming").with_columns(pl.col("strategy").cast(pl.String)))
    by_strategy = {}
    for seat, strategy in zip(table["seat"], table["strategy"]):
        by_strategy.setdefault(strategy, []).append(seat)
    if len(by_strategy) == 1:
        return f"with `{table['strategy'][0]}` in every seat"
    if "rotation" in columns:
        counts = [f"{len(s)} `{name}`" if len(s) > 1 else f"`{name}`" for name, s in by_strategy.items()]
        return f"with {' and '.join([', '.join(counts[:-1]), counts[-1]])} rotated through the seats"
    common = max(by_strategy, key=lambda name: len(by_strategy[name]))
    elsewhere = 2 * len(by_strategy[common]) > len(table)  # most seats: named last, as "elsewhere"
    named = [f"`{name}` in {_seats(s)}" for name, s in by_strategy.items() if name != common or not elsewhere]
    if elsewhere:
        named.append(f"`{common}` elsewhere")
    return "with " + (named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1])


def unfinished_reason(manifest):
    """Why games did not finish, from the run's setup table where it says so (a ``max_rounds`` cap)."""
    def find(table):
        for key, value in (table or {}).items():
            if key == "max_rounds" and isinstance(value, int):
                return value
            if isinstance(value, dict) and (found := find(value)) is not None:
                return found
        return None

    cap = find((manifest or {}).get("setup"))
    return f"hit the {cap}-round cap" if cap is not None else "did not finish"


def seat_verdict(seats, margin=DEFAULT_MARGIN, confidence=0.95, manifest=None):
    """The ``Verdict`` of a run's seat rows (polars, lazy or pandas) at ``margin`` percentage points.

    ``manifest`` (optional) supplies the reason unfinished games stopped, and the ``model_caveats`` (learned
    models trained for another table or player count) that the verdict adds to what it cannot tell.
    """
    names, subject = lineup(seats)
    seats = as_lazy(seats)
    lineups = seats.select(pl.col("lineup").n_unique()).collect().item() \
        if "lineup" in seats.collect_schema().names() else 1
    verdict = decide(seat_moments(seats), margin, confidence, names, subject, unfinished_reason(manifest),
                     player_model(seats), lineups)
    return with_model_caveats(verdict, manifest)


def with_model_caveats(verdict, manifest):
    """``verdict`` with the run ``manifest``'s ``model_caveats`` (models trained for another table, variant or
    player count) among what it cannot tell."""
    caveats = tuple((manifest or {}).get("model_caveats", ()))
    return dataclasses.replace(verdict, caveats=caveats) if caveats else verdict
