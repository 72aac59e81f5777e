"""The report section of a skill ladder (``playtest ladder``): does the first-seat edge change with skill?

The verdict compares the first seat's edge at the lowest and the highest
budget of the ladder. The seat-advantage runs of every level play the same
deals, so the change is tested on its own: a paired difference over the
deals (``analyses.ladder.first_edge_change``: the top budget's first-seat
win minus the bottom one's, deal by deal, with a 95% t interval), which
claims a change 5% of the time when there is none and cancels the luck the
levels share. (Comparing the two levels' simultaneous intervals for overlap,
as before, claimed one in 0.00-0.03% of runs without a change, and so almost
never saw a real one.) ``trend`` names a change only when that interval
excludes zero, using the levels' own simultaneous intervals for its kind:

* ``reverses``: one end's interval lies wholly above zero, the other's
  wholly below;
* ``grows`` / ``shrinks``: the edge's size (its absolute value) changes for
  sure: the edge keeps its sign while it moves away from or towards zero, or
  the intervals of the size do not overlap;
* ``rises`` / ``falls``: the edge changes, but its size cannot be said to (an
  edge crossing into or out of zero);
* ``no clear change``: the change's interval holds zero.

Then the figures (every seat's edge by budget against the ±margin band; the
search player's win share against the level below and against the field,
with the fair-share line), the table and the provenance.
"""

from pathlib import Path

import numpy as np

from analyses import ladder
from analyses.runs import NotARun, open_run
from analyses.verdict import points
from reports import figures
from reports.section import Section, provenance, slug
from reports.tables import Table, pct, pct_interval

NO_CHANGE = "no clear change"


def _size(lo, hi):
    """The interval of ``|x|`` for ``x`` in ``[lo, hi]``."""
    return np.where(lo > 0, lo, np.where(hi < 0, -hi, 0.0)), np.maximum(np.abs(lo), np.abs(hi))


def trend(lo0, hi0, lo1, hi1, change_lo, change_hi):
    """How an edge changes from an interval ``[lo0, hi0]`` to ``[lo1, hi1]`` when the change itself lies in
    ``[change_lo, change_hi]`` (numpy, element-wise): an array of "reverses", "grows", "shrinks", "rises",
    "falls" or ``NO_CHANGE`` (see the module docstring). Only a change interval that excludes zero counts as
    a change, so the claim has the size of the change's test."""
    lo0, hi0, lo1, hi1, clo, chi = np.broadcast_arrays(
        *(np.asarray(v, dtype=float) for v in (lo0, hi0, lo1, hi1, change_lo, change_hi)))
    rises, falls = clo > 0, chi < 0
    changed = rises | falls
    size_lo0, size_hi0 = _size(lo0, hi0)
    size_lo1, size_hi1 = _size(lo1, hi1)
    reverses = ((lo0 > 0) & (hi1 < 0)) | ((hi0 < 0) & (lo1 > 0))
    grows = (size_lo1 > size_hi0) | (rises & (lo0 >= 0)) | (falls & (hi0 <= 0))
    shrinks = (size_hi1 < size_lo0) | (falls & (lo1 >= 0)) | (rises & (hi1 <= 0))
    return np.select([changed & reverses, changed & grows, changed & shrinks, rises, falls],
                     ["reverses", "grows", "shrinks", "rises", "falls"], NO_CHANGE)


def _edge(row, unit=" points"):
    return f"{row['first_edge']:+.2f}{unit} ({row['first_lo']:+.2f} to {row['first_hi']:+.2f})"


def verdict_sentence(table, margin, change=None):
    """The ladder's answer in one sentence: how the first-seat edge changes from the lowest to the highest
    budget (``trend``), the change with its 95% interval over shared deals (``change``: ``(change, lo, hi)``
    in points, from ``analyses.ladder.first_edge_change``), both edges with their simultaneous intervals,
    and the seat verdict at ±``margin`` points at both ends. ``table`` is ``analyses.ladder.table``'s frame."""
    low, high = table.row(0, named=True), table.row(-1, named=True)
    if table.height == 1:
        return (f"One level only, so no trend: with {low['budget']:,} iterations in every seat the first-seat "
                f"edge is {_edge(low)} (simultaneous 95% interval), and the seat verdict at ±{points(margin)} points "
                f"is {low['verdict']}.")
    d, dlo, dhi = change
    kind = str(trend(low["first_lo"], low["first_hi"], high["first_lo"], high["first_hi"], dlo, dhi))
    lead = ("No clear change in the first-seat edge with skill" if kind == NO_CHANGE
            else f"The first-seat edge {kind} with skill")
    ends = (f"it changes by {d:+.2f} points ({dlo:+.2f} to {dhi:+.2f}, 95% over the shared deals) from "
            f"{_edge(low, '')} at {low['budget']:,} iterations to {_edge(high, '')} at {high['budget']:,} "
            "(simultaneous 95% intervals; the search player at that budget in every seat)")
    if low["verdict"] == high["verdict"]:
        seats = f"the seat verdict at ±{points(margin)} points is {low['verdict']} at both ends"
    else:
        seats = (f"the seat verdict at ±{points(margin)} points is {low['verdict']} at {low['budget']:,} iterations "
                 f"and {high['verdict']} at {high['budget']:,}")
    return f"{lead}: {ends}; {seats}."


def strength_sentence(table, fair, field):
    """Whether the ladder climbs: at which budgets the search beats the level below (95% interval over deals
    above the fair share ``fair``), and how the top budget does against ``field``."""
    above = table.filter(table["below_lo"] > fair)["budget"].to_list()
    level = table.filter((table["below_lo"] <= fair) & (table["below_hi"] >= fair))["budget"].to_list()
    below = table.filter(table["below_hi"] < fair)["budget"].to_list()
    parts = [f"{len(b)} of {table.height} levels ({', '.join(map(str, b))} iterations) {what}"
             for b, what in ((above, "beat the level below (95% interval above the fair share)"),
                             (level, "cannot be told apart from the level below"),
                             (below, "lose to the level below")) if b]
    top = table.row(-1, named=True)
    against = ("above" if top["field_lo"] > fair else "below" if top["field_hi"] < fair else
               "not distinguishable from")
    words = (f"Does the ladder climb? {'; '.join(parts)} (below the first level: random players). At "
             f"{top['budget']:,} iterations the search wins {pct(top['field_share'])} of its games against "
             f"{field} ({pct_interval(top['field_lo'], top['field_hi'])}), {against} the fair share of {pct(fair)}.")
    if level or below:
        words += (" Where doubling the budget does not beat the level below, more budget is not clearly more "
                  "skill, and a change in the edge there is a change with budget, not with skill.")
    return words


def ladder_table(table, field, margin, tag):
    """The ladder's table: win shares against the level below and the field (95% intervals over deals), the
    first and largest seat edges (points, simultaneous 95% intervals), and the seat verdict at ±``margin``."""
    def share(kind):
        return lambda r: f"{pct(r[f'{kind}_share'])} ({pct_interval(r[f'{kind}_lo'], r[f'{kind}_hi'])})"

    def edge(kind):
        return lambda r: f"{r[f'{kind}_edge']:+.2f} ({r[f'{kind}_lo']:+.2f} to {r[f'{kind}_hi']:+.2f})"
    shown = Table.of("The ladder, one row per level", table, f"{tag}ladder", {
        "Budget (iterations)": lambda r: f"{r['budget']:,}",
        "Win share against the level below (95% interval)": share("below"),
        f"Win share against {field} (95% interval)": share("field"),
        "First-seat edge, points (simultaneous 95% interval)": edge("first"),
        "Largest seat edge, points (simultaneous 95% interval)": lambda r: f"seat {r['largest_seat']}: "
                                                                          + edge("largest")(r),
        f"Seat verdict at ±{points(margin)} points": lambda r: r["verdict"],
    })
    shown.data = table.rename(ladder_units(table.columns))  # the data file says each column's unit
    return shown


def ladder_units(columns):
    """The data file's names of the ladder table: shares (``below_lo`` -> ``below_share_lo``) and edges in
    points (``first_edge`` -> ``first_edge_points``, ``first_lo`` -> ``first_edge_points_lo``)."""
    names = {}
    for kind, unit in (("below", "share"), ("field", "share"), ("first", "edge_points"),
                       ("largest", "edge_points")):
        whole = f"{kind}_share" if unit == "share" else f"{kind}_edge"
        names |= {whole: f"{kind}_{unit}", f"{kind}_lo": f"{kind}_{unit}_lo", f"{kind}_hi": f"{kind}_{unit}_hi"}
    return {k: v for k, v in names.items() if k in columns}


def ladder_section(path, margin):
    """A skill ladder: the verdict on the first-seat edge, the edge and strength figures, what was tested,
    the table, provenance (folded)."""
    path = Path(path)
    try:
        manifest, table = ladder.table(path, margin)
        edges = ladder.seat_edges(path, margin)
    except (ValueError, KeyError, TypeError) as exc:  # NotARun and JSONDecodeError are ValueErrors
        raise NotARun(f"{path} is not a complete skill ladder ({exc})") from None
    name = path.name
    tag = f"{slug(name)}-"
    players, field = manifest["players"], manifest["field"]
    fair = 1 / players
    first = open_run(path / manifest["runs"][0]["run"]).manifest
    budgets = manifest["levels"]
    notes = [
        f"Tested: the first seat's edge (win share minus the fair share of {pct(fair)}) with the search player "
        f"at the same budget in every seat, seats not rotated, {manifest['deals'] * players:,} games per level, "
        "the same deals at every level. A change is claimed only when the 95% interval of the change from the "
        "lowest to the highest budget, a paired difference over the shared deals, excludes zero: a test that "
        "claims a change 5% of the time when there is none (the benchmark journal gives its power). The seat verdict "
        f"at each level tests every seat's edge against ±{points(margin)} points.",
        "Cannot tell: changes smaller than the change's interval (\"no clear change\" is not \"no change\"), what "
        "happens between the two ends (the figure shows every level) or beyond the top budget, how people play "
        "(the search judges positions by random rollouts), or other player counts and setups.",
        strength_sentence(table, fair, field),
    ]
    title = (f"Skill ladder: {first.get('title', manifest['game'])}, {players} players, "
             f"{budgets[0]:,} to {budgets[-1]:,} iterations ({name})")
    return Section(title, "ladder", verdict=verdict_sentence(table, margin, ladder.first_edge_change(path)),
                   figures=[figures.ladder_edges(f"{tag}seat-edges", edges, margin),
                            figures.ladder_shares(f"{tag}win-shares", table, fair, field)],
                   text=notes, tables=[ladder_table(table, field, margin, tag)],
                   subsections=[ladder_provenance(path, manifest, first)])


def ladder_provenance(path, manifest, first):
    """Game, seed, deals, budgets, field, lineups, engine and git revision of a ladder (engine and revision
    from its first run)."""
    settings = {k: first[k] for k in ("game", "title", "players", "variant", "version", "engine_version",
                                      "git_revision", "setup") if k in first}
    settings |= {"seed": manifest["seed"]}
    players = manifest["players"]
    extra = [("Budgets (iterations per decision)", ", ".join(f"{b:,}" for b in manifest["levels"])),
             ("Field", manifest["field"]),
             ("Deals", f"{manifest['deals']:,} per run; the rotated runs play each deal from every seat, the "
                       f"seat-advantage runs play {manifest['deals'] * players:,} games"),
             ("Runs", "; ".join(f"{e['run']}: {', '.join(e['lineup'])}" for e in manifest["runs"]))]
    return provenance(settings, Path(path).name, extra)

