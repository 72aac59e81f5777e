"""The report section of a player-count survey: which player counts are balanced, which are not and by how much.

The verdict is ``analyses.survey.recommendation``; the figure draws each
count's first-seat edge and largest seat edge with their simultaneous 95%
intervals against the margin band; the table has every count's figures.
"""

from pathlib import Path

import numpy as np
import polars as pl

from analyses import survey
from analyses.runs import open_run
from reports import figures
from reports.section import Section, provenance, slug
from reports.tables import Table, pct, pct_interval, points, points_interval, text


def edges_figure(name, summary, margin):
    """First seat's edge and the largest seat edge per player count (points, simultaneous 95% intervals)."""
    played = summary.filter(pl.col("max_edge").is_not_null())
    fig, ax = figures.new_axes(height=max(2.0, 0.55 * played.height + 1.2))
    labels = [f"{n} players" for n in played["players"]]
    y = np.arange(played.height)[::-1]
    ax.axvspan(-margin, margin, color=figures.GREY, alpha=0.15, lw=0, label=f"margin (±{margin:g} points)")
    ax.axvline(0, color="black", linewidth=0.9)
    for offset, column, colour, what in ((0.12, "first_seat_edge", figures.BLUE, "first seat's edge"),
                                         (-0.12, "max_edge", figures.RED, "largest edge (size)")):
        edge, lo, hi = (100 * played[c].to_numpy() for c in (column, f"{column}_lo", f"{column}_hi"))
        ax.errorbar(edge, y + offset, xerr=np.vstack([edge - lo, hi - edge]), fmt="o", color=colour, capsize=3,
                    markersize=5, label=what)
    ax.set_yticks(y, labels)
    ax.set_xlabel("percentage points of win share over the fair share")
    ax.set_title("Seat edge by player count (simultaneous 95% intervals)")
    figures.legend_outside(ax)
    data = played.select("players", "first_seat_edge", "first_seat_edge_lo", "first_seat_edge_hi", "max_edge",
                         "max_edge_lo", "max_edge_hi")
    return figures.Figure(name, "For each player count, the first seat's edge (blue) and the size of the largest "
                                "seat edge (red), in percentage points, with simultaneous 95% intervals; the grey "
                                f"band is the ±{margin:g}-point margin.", fig, data)


def _feel(r, name, as_pct=False):
    if r.get(name) is None:
        return ""
    if as_pct:
        return f"{pct(r[name])} ({pct_interval(r[f'{name}_lo'], r[f'{name}_hi'])})"
    return f"{r[name]:.2f} ({r[f'{name}_lo']:.2f} to {r[f'{name}_hi']:.2f})"


def survey_table(summary, tag):
    lead = {"Lead changes (95%)": lambda r: _feel(r, "mean_lead_changes")} \
        if "mean_lead_changes" in summary.columns else {}
    return Table.of("Every player count (edges: simultaneous 95% intervals; feel: 95% intervals)", summary,
                    f"{tag}counts", {
                        "Players": lambda r: str(r["players"]),
                        "Games": lambda r: text(r["games"]),
                        "Verdict": lambda r: r["verdict"],
                        "First seat's edge (points)": lambda r: "" if r.get("first_seat_edge_lo") is None else
                        f"{points(r['first_seat_edge'])} ({points_interval(r['first_seat_edge_lo'], r['first_seat_edge_hi'])})",
                        "Largest edge (points)": lambda r: "" if r.get("max_edge") is None else
                        f"{points(r['max_edge'], False)} ({points(r['max_edge_lo'], False)} to "
                        f"{points(r['max_edge_hi'], False)})",
                        "Mean rounds": lambda r: _feel(r, "mean_rounds"),
                        "Close games": lambda r: _feel(r, "close_games", True),
                        "Tie rate": lambda r: _feel(r, "tie_rate", True),
                        **lead,
                    })


def survey_section(path):
    """A survey: the recommendation, the edges figure, the table, each count's verdict, provenance."""
    manifest, summary = survey.load(path)
    name = Path(path).name
    tag = f"{slug(name)}-"
    margin = manifest["margin"]
    notes = [f"{r['players']} players: {r['sentence']}" for r in summary.iter_rows(named=True)]
    notes.append("Tested: at each player count separately, every seat's edge against the margin with simultaneous "
                 "95% intervals over its seats. Cannot tell: how the counts play for other strategies or setups.")
    first = open_run(Path(path) / summary["run"][0]).manifest
    settings = {k: first[k] for k in ("game", "title", "variant", "version", "engine_version", "git_revision")
                if k in first}
    settings |= {"games": manifest["games"], **{k: manifest["options"][k] for k in ("seed", "strategies",
                                                                                     "rotate_seats")
                                                 if k in manifest["options"]}}
    extra = [("Player counts", ", ".join(map(str, manifest["counts"]))), ("Verdict margin", f"±{margin:g} points")]
    return Section(f"{first.get('title', manifest['game'])}: player-count survey ({name})", "survey",
                   verdict=manifest["recommendation"], figures=[edges_figure(f"{tag}edges", summary, margin)],
                   text=notes, tables=[survey_table(summary, tag)],
                   subsections=[provenance(settings, name, extra)])
