"""Skill ladders: does a game's seat advantage change as the players get stronger?

A ladder climbs the search player's budget, doubling it level by level
(``mcts@16``, ``mcts@32``, ...). At every level three runs are played on the
same deals (one seed):

* *against the level below*: one seat at this budget, the others at half of it
  (below the first level: ``random``), seats rotated, so the strength gained
  by doubling the budget is a paired win share over deals;
* *against the field*: one seat at this budget, the built-in field heuristic in
  the others, seats rotated;
* *the seat advantage*: this budget in every seat, not rotated, with the
  balance verdict of ``analyses.verdict`` (every seat's edge against the
  margin, simultaneous intervals) and the first seat's edge.

The win shares come from ``analyses.paired.effects`` (the deal is the unit).
``play`` writes one run directory per run and ``ladder.json``; ``table``
reads them back.
"""

import json
from pathlib import Path

import numpy as np
import polars as pl
from scipy import special

from analyses import paired
from analyses.runs import open_run
from analyses.verdict import seat_verdict

MANIFEST = "ladder.json"
LEVELS = (16, 32, 64, 128, 256)


def budgets(first, levels):
    """``levels`` budgets doubling from ``first``."""
    return [first * 2 ** i for i in range(levels)]


def play(simulate, game, out, *, players, levels, deals, seed, field, vector, horizon, on_run=None, **options):
    """Play the ladder's runs with ``simulate`` (``playtest.api.simulate``) into ``out``; return ``out``.

    ``levels`` are the budgets in increasing order; ``deals`` the deals per
    run (the seat-advantage run plays ``deals * players`` games, as many as a
    rotated run); ``vector(name)`` the parameter vector of the search player
    ``name`` (``mcts@N``) at the ladder's horizon, and ``horizon`` that
    horizon as a number (written to the manifest). The caller builds both from
    the game's strategies (``playtest.api.ladder``): analyses never imports them.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    below = "random"
    for budget in levels:
        me = f"mcts@{budget}"
        for kind, lineup, rotate, games in (("below", [me] + [below] * (players - 1), True, deals),
                                            ("field", [me] + [field] * (players - 1), True, deals),
                                            ("seats", [me], False, deals * players)):
            run_dir = out / f"{budget:05d}-{kind}"
            params = {n: vector(n) for n in set(lineup) if n.startswith("mcts@")}
            simulate(game, players=players, games=games, seed=seed, strategies=lineup, out=run_dir,
                     rotate_seats=rotate, params=params, **options)
            entries.append({"budget": budget, "kind": kind, "lineup": lineup, "run": run_dir.name})
            if on_run:
                on_run(len(entries), 3 * len(levels))
        below = me
    (out / MANIFEST).write_text(json.dumps({"game": game, "players": players, "deals": deals, "seed": seed,
                                            "field": field, "levels": list(levels),
                                            "horizon": int(horizon),
                                            "runs": entries},
                                           indent=2) + "\n")
    return out


def is_ladder(path):
    return (Path(path) / MANIFEST).is_file()


def _share(seats, strategy):
    row = paired.effects(seats, by="strategy").filter(pl.col("strategy").cast(pl.String) == strategy).row(
        0, named=True)
    return row["mean"], row["mean"] - row["half_paired"], row["mean"] + row["half_paired"]


def table(path, margin=1.0):
    """One row per level: the budget, its win share against the level below and against the field (with
    95% intervals over deals), and the seat advantage with all seats at this budget: the first seat's edge
    and the largest edge (points, simultaneous intervals) and the verdict at ``margin`` points."""
    path = Path(path)
    manifest = json.loads((path / MANIFEST).read_text())
    runs = {(e["budget"], e["kind"]): e for e in manifest["runs"]}
    rows = []
    for budget in manifest["levels"]:
        me = f"mcts@{budget}"
        row = {"budget": budget}
        for kind in ("below", "field"):
            share, lo, hi = _share(open_run(path / runs[budget, kind]["run"]).seats, me)
            row.update({f"{kind}_share": share, f"{kind}_lo": lo, f"{kind}_hi": hi})
        verdict = seat_verdict(open_run(path / runs[budget, "seats"]["run"]).seats, margin)
        first = next(e for e in verdict.edges if e.seat == 0)
        row.update(first_edge=first.edge, first_lo=first.lo, first_hi=first.hi,
                   largest_seat=verdict.largest.seat, largest_edge=verdict.largest.edge,
                   largest_lo=verdict.largest.lo, largest_hi=verdict.largest.hi, verdict=verdict.kind)
        rows.append(row)
    return manifest, pl.DataFrame(rows)


def seat_edges(path, margin=1.0):
    """Every seat's edge at every level, with this level's budget in every seat: one row per level and
    seat (budget, seat, strategy, share, edge, lo, hi; edges in points with the simultaneous 95% intervals
    of ``analyses.verdict``, the same numbers ``table`` reads its first and largest edge from)."""
    path = Path(path)
    manifest = json.loads((path / MANIFEST).read_text())
    rows = []
    for entry in manifest["runs"]:
        if entry["kind"] == "seats":
            verdict = seat_verdict(open_run(path / entry["run"]).seats, margin)
            rows += [{"budget": entry["budget"], **edge.to_dict()} for edge in verdict.edges]
    return pl.DataFrame(rows)


def paired_change(difference, confidence=0.95):
    """``(mean, lo, hi)`` of per-deal differences, deals on the last axis (a t interval, each deal one
    unit; works on batches); nan with fewer than two deals."""
    d = np.asarray(difference, dtype=float)
    n = d.shape[-1]
    if n < 2:
        nan = np.full(d.shape[:-1], np.nan)
        return nan, nan, nan
    mean = d.mean(axis=-1)
    half = special.stdtrit(n - 1, 0.5 + confidence / 2) * d.std(axis=-1, ddof=1) / np.sqrt(n)
    return mean, mean - half, mean + half


def first_edge_change(path, confidence=0.95):
    """The change in the first seat's edge from the lowest to the highest budget, in points, with its
    ``confidence`` interval: ``(change, lo, hi)``.

    Both seat-advantage runs played the same deals (one seed, game ``i`` the
    same cards at every level), so the change is the mean over deals of the
    first seat's win at the top budget minus its win at the bottom one, and
    its interval comes from the spread of those differences: a test of "no
    change" at level ``1 - confidence`` that cancels the luck the levels share.
    """
    path = Path(path)
    manifest = json.loads((path / MANIFEST).read_text())
    runs = {(e["budget"], e["kind"]): e for e in manifest["runs"]}

    def first_seat(budget):
        seats = open_run(path / runs[budget, "seats"]["run"]).seats
        return seats.filter(pl.col("seat") == 0).select("game", pl.col("win").cast(pl.Float64))

    both = first_seat(manifest["levels"][0]).join(first_seat(manifest["levels"][-1]), on="game", suffix="_top")
    change, lo, hi = paired_change((both["win_top"] - both["win"]).to_numpy(), confidence)
    return 100 * float(change), 100 * float(lo), 100 * float(hi)
