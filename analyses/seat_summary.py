"""Everything ``playtest simulate`` says about one run: seat table, verdict, strategies, ``--until-ci``.

``seat_summary(seats, manifest, margin)`` gathers it once; the terminal
prints ``SeatSummary`` line by line and ``--json`` is ``to_dict()``, so both
always say the same thing.
"""

from dataclasses import dataclass

import polars as pl

from analyses import planning
from analyses.frames import as_lazy
from analyses.intervals import SPREAD_UNITS
from analyses.moments import SeatMoments, finished_filter, is_rotated, seat_moments
from analyses.seats import seat_advantage
from analyses.verdict import DEFAULT_MARGIN, Verdict, decide, lineup, player_model, unfinished_reason, with_model_caveats


@dataclass(frozen=True)
class SeatSummary:
    """A run's seat table (``analyses.seats.seat_advantage``), its ``Verdict``, the per-strategy tables
    of a rotated run with several strategies (``analyses.paired``, else None) and the ``--until-ci``
    target (None when not used)."""

    table: pl.DataFrame
    verdict: Verdict
    moments: SeatMoments
    strategies: pl.DataFrame | None = None
    differences: pl.DataFrame | None = None
    until_ci: float | None = None

    def strategy_lines(self):
        """The per-strategy table and pairwise differences of a rotated run, as lines."""
        if self.strategies is None:
            return []
        if self.moments.n < SPREAD_UNITS:  # the spread of a few deal averages can be zero: no interval from it
            lines = [f"per strategy, over the same deals (no intervals: fewer than {SPREAD_UNITS} deals):"]
            lines += [f"  {r['strategy']}: wins {100 * r['mean']:.2f}% ({r['games']:,} games)"
                      for r in self.strategies.iter_rows(named=True)]
            return lines + [f"  {r['a']} minus {r['b']}: {100 * r['difference']:+.2f} points"
                            for r in self.differences.iter_rows(named=True)]
        lines = ["per strategy, over the same deals (95% intervals, deals as the unit):"]
        for r in self.strategies.iter_rows(named=True):
            lines.append(f"  {r['strategy']}: wins {100 * r['mean']:.2f}% ± {100 * r['half_paired']:.2f} "
                         f"({r['games']:,} games)")
        for r in self.differences.iter_rows(named=True):
            lines.append(f"  {r['a']} minus {r['b']}: {100 * r['difference']:+.2f} points "
                         f"({100 * r['low']:+.2f} to {100 * r['high']:+.2f})")
        return lines

    def until_ci_status(self):
        """``{target, reached, half_width, games_needed}`` of ``--until-ci`` (shares), or None."""
        if self.until_ci is None:
            return None
        width = planning.max_half_width(self.moments)
        reached = width < self.until_ci
        needed = None if reached or self.moments.n < 2 else \
            planning.games_for_half_width(self.moments, self.until_ci)
        return {"target": self.until_ci, "reached": reached, "half_width": width, "games_needed": needed}

    def until_ci_lines(self):
        status = self.until_ci_status()
        if status is None:
            return []
        target, width = 100 * status["target"], 100 * status["half_width"]
        if status["reached"]:
            return [f"--until-ci: every seat's 95% interval is within ± {width:.2f} points (target ± {target:g}) "
                    f"after {self.verdict.games:,} games"]
        return [f"--until-ci: --games ran out before the target: the widest seat interval is ± {width:.2f} "
                f"points, not ± {target:g}; about {status['games_needed']:,} games in all would reach it"]

    def to_dict(self):
        """The ``--json`` report: seats, the verdict's fields, strategies and ``until_ci``."""
        out = {"seats": self.table.to_dicts(), **self.verdict.to_dict(), "counts": self.verdict.counts()}
        if self.strategies is not None:
            out["strategies"] = self.strategies.to_dicts()
            out["strategy_differences"] = self.differences.to_dicts()
        if self.until_ci is not None:
            out["until_ci"] = self.until_ci_status()
        return out


def seat_summary(seats, manifest=None, margin=DEFAULT_MARGIN, confidence=0.95, until_ci=None):
    """The ``SeatSummary`` of a run's rows (lazy or eager polars, or pandas) at ``margin`` points."""
    seats = as_lazy(seats)
    moments = seat_moments(seats)
    names, subject = lineup(seats)
    verdict = with_model_caveats(decide(moments, margin, confidence, names, subject, unfinished_reason(manifest),
                                        player_model(seats)), manifest)
    strategies = differences = None
    if is_rotated(seats) and verdict.kind != "unfinished":
        from analyses import paired  # and scipy.stats with it: see analyses.planning

        finished = finished_filter(seats)[0].collect()
        if finished["strategy"].n_unique() > 1:
            strategies = paired.effects(finished, by="strategy", confidence=confidence)
            differences = paired.strategy_differences(finished, confidence=confidence)
    return SeatSummary(seat_advantage(seats, confidence), verdict, moments, strategies, differences, until_ci)
