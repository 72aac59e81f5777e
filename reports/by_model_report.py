"""The report section of a study by player model (``playtest skill``): the skilled answer and its ladder.

It opens with ``analyses.by_model.answer`` (the strongest model's first-seat
edge and verdict, in one sentence), then the figure of the first seat's edge
against each model's strength, what was tested and what cannot be told, one
verdict sentence per model (each naming it), the ladder table, and the
provenance. Every edge carries the interval its verdict uses (simultaneous
over the seats); strengths carry their 95% interval over deals.
``markdown_table`` is the ladder table in Markdown for a README, one row per
model with the game named, so the tables of several games concatenate.
"""

from pathlib import Path

import numpy as np

from analyses import by_model
from analyses.runs import NotARun, open_run
from analyses.verdict import points
from reports import figures
from reports.section import Section, provenance, slug
from reports.tables import Table, pct

def duration(seconds):
    """Wall time for a person: ``"42 s"``, ``"3.5 min"``, ``"1.2 h"``."""
    if seconds < 90:
        return f"{seconds:.0f} s" if seconds >= 10 else f"{seconds:.1f} s"
    return f"{seconds / 60:.1f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


# the data files' names: the edges and differences are in points
EDGE_POINTS = {"first_seat_edge": "first_seat_edge_points", "low": "first_seat_edge_points_low",
               "high": "first_seat_edge_points_high", "strength": "strength_points",
               "strength_low": "strength_points_low", "strength_high": "strength_points_high"}


def edge_text(row, sep=" "):
    """``"+1.84 (+0.91 to +2.77)"``: a row's first-seat edge and the interval its verdict uses, in points
    (``sep`` between the figure and its interval: a newline for a narrow table cell)."""
    return f"{row['first_seat_edge']:+.2f}{sep}({row['low']:+.2f} to {row['high']:+.2f})"


def strength_text(row, sep=" "):
    """``"+24.92 (+24.61 to +25.00)"``: a row's strength in points per seat with its 95% interval (not
    symmetric: it stays within what the matches can reach; ``sep`` as in ``edge_text``); ``"0 (ref.)"`` for
    the reference model."""
    if row["strength"] == 0 and row["strength_low"] == row["strength_high"] == 0:
        return "0 (ref.)"
    return f"{row['strength']:+.2f}{sep}({row['strength_low']:+.2f} to {row['strength_high']:+.2f})"


def games_text(row):
    """The games played, marked ``(cap)`` when the run played the study's cap."""
    return f"{row['games']:,}" + (" (cap)" if row["capped"] else "")


def table_notes(manifest, edges, margin):
    """What the ladder table's figures are, in a few sentences (the terminal prints them under it)."""
    reference = edges["model"][0]
    players = manifest["players"]
    lines = [f"strength: points of win share per seat above `{reference}`, each model against the one below it "
             f"on {manifest['deals']:,} deals, seats rotated (95% exact intervals, the deal as the unit, within what the "
             f"matches can reach). first-seat edge: win share "
             f"minus the fair {pct(1 / players)}, with the simultaneous 95% interval (over the seats) that its verdict "
             f"at ±{points(margin)} uses. time (wall, compiling included): "
             + ", ".join(f"{r['model']} {duration(r['seconds'])}" for r in edges.iter_rows(named=True)) + "."]
    if manifest.get("sized"):
        lines.append(f"`{manifest['sized']}`, the strongest, played on until its verdict was conclusive or the cap "
                     f"of {manifest['max_games']:,} games, or its verdict planned more than {by_model.FUTILE} "
                     f"times the cap; the others until every seat's 95% interval was within "
                     f"±{points(manifest['precision'])} points or the cap.")
    return lines


def edge_strength_figure(name, edges, margin):
    """The first seat's edge (the verdict's intervals) against each model's strength (95% intervals), the
    ±``margin`` band shaded, each point named by its model."""
    fig, ax = figures.new_axes()
    ax.axhspan(-margin, margin, color=figures.GREY, alpha=0.15, lw=0, label=f"margin (±{margin:g} points)")
    ax.axhline(0, color="black", linewidth=0.9)
    x, xlo, xhi = (edges[c].to_numpy() for c in ("strength", "strength_low", "strength_high"))
    y, ylo, yhi = (edges[c].to_numpy() for c in ("first_seat_edge", "low", "high"))
    ax.errorbar(x, y, xerr=np.vstack([x - xlo, xhi - x]), yerr=np.vstack([y - ylo, yhi - y]), fmt="o",
                color=figures.BLUE, ecolor=figures.BLUE, capsize=3, markersize=6, label="model in every seat")
    for model, px, py in zip(edges["model"], x, y):
        ax.annotate(model, (px, py), textcoords="offset points", xytext=(6, 6), fontsize=8)
    ax.set_xlabel(f"strength: points of win share per seat above {edges['model'][0]}")
    ax.set_ylabel("first seat's edge (points)")
    ax.set_title("First-seat edge against strength")
    figures.legend_outside(ax)
    return figures.Figure(name, "The first seat's win share minus the fair share, in percentage points, with the "
                                "model named in every seat (seats not rotated; its verdict's simultaneous 95% "
                                "interval), against the model's strength (points of win share per seat gained "
                                "over the model below it, added up the ladder; 95% intervals over deals); the grey "
                                f"band is the ±{margin:g}-point margin. The answer is read at the right.",
                          fig, edges.select("model", "strength", "strength_low", "strength_high", "first_seat_edge",
                                            "low", "high").rename(EDGE_POINTS))


def models_table(edges, margin, tag):
    """The ladder table: strength, first-seat edge (its verdict's interval), seat verdict, games, times."""
    table = Table.of("The ladder: strength, first-seat edge and seat verdict by player model", edges,
                    f"{tag}by-model", {
                        "Model (every seat)": lambda r: r["model"],
                        "Strength, points per seat (95% interval)": strength_text,
                        "First-seat edge, points (the verdict's simultaneous 95% interval)": edge_text,
                        f"Seat verdict at ±{points(margin)} points": lambda r: r["verdict"],
                        "Games": games_text,
                        "Wall time (compiling included)": lambda r: duration(r["seconds"]) + (
                            " (resumed part)" if r["resumed"] else ""),
                        "Play alone": lambda r: duration(r["play_seconds"]),
                    })
    table.data = edges.rename({k: v for k, v in EDGE_POINTS.items() if k in edges.columns})
    return table


def read(path, margin):
    """``(manifest, edges, answer, first run's manifest)`` of a study, or ``NotARun`` naming what is wrong."""
    path = Path(path)
    try:
        manifest, edges = by_model.table(path, margin)
        found = by_model.answer(path, edges, margin)
        first = open_run(path / manifest["runs"][0]["run"]).manifest
    except (ValueError, KeyError, TypeError, IndexError) as exc:  # NotARun and JSONDecodeError are ValueErrors
        raise NotARun(f"{path} is not a complete study by player model ({exc})") from None
    return manifest, edges, found, first


def by_model_section(path, margin):
    """A study by player model: the answer, the figure, what was tested, a verdict sentence per model, the
    ladder table, provenance (folded)."""
    path = Path(path)
    manifest, edges, found, first = read(path, margin)
    tag = f"{slug(path.name)}-"
    notes = table_notes(manifest, edges, margin) + [
        "Tested: each model in every seat, seats not rotated, the same seed (so the same deals) for every run. "
        "The first seat's edge is shown with the interval of the seat verdict, which tests every seat's edge "
        f"against ±{points(margin)} points with simultaneous exact intervals. The two strongest models' edges are "
        "compared paired over the games both played (a 95% t interval); they are called level in strength when "
        "the interval of their strength difference holds 0.",
        "Cannot tell: how people play, strength beyond the strongest model measured, whether the strongest model "
        "is the best play there is, edges smaller than the intervals, or other player counts and setups. The "
        "strongest model's verdict was looked at after each extension of its run, a few looks whose 5% error "
        "each is not corrected for the looks. Strength adds up the steps between neighbours on the ladder; "
        "models far apart are not played against each other.",
    ] + [f"Cannot tell: {c}." for c in found["cannot_tell"]] + by_model.verdict_sentences(edges)
    title = (f"The skilled answer: {first.get('title', manifest['game'])}, {manifest['players']} players "
             f"({path.name})")
    return Section(title, "by-model", verdict=found["sentence"],
                   figures=[edge_strength_figure(f"{tag}edge-strength", edges, margin)], text=notes,
                   tables=[models_table(edges, margin, tag)],
                   subsections=[by_model_provenance(path, manifest, first)])


def by_model_provenance(path, manifest, first):
    """Game, seed, precision, cap, deals, models and runs of a study, engine and git revision from its first
    run."""
    settings = {k: first[k] for k in ("game", "title", "players", "variant", "version", "engine_version",
                                      "git_revision", "setup") if k in first}
    settings |= {"seed": manifest["seed"]}
    extra = [("Precision (95% half-width of every seat, points)", f"±{points(manifest['precision'])}"),
             ("Game cap per model", f"{manifest['max_games']:,}"),
             ("Deals per cross-play match", f"{manifest['deals']:,}"),
             ("Chunk size (games between two checks of the precision)", f"{manifest['chunk_size']:,}"),
             ("Runs", "; ".join(f"{e['run']}: {e['model']}" for e in manifest["runs"])
              + "".join(f"; {m['run']}: {m['pair'][1]} against {m['pair'][0]}" for m in manifest["matches"]))]
    return provenance(settings, Path(path).name, extra)


def markdown_table(path, margin, header=True):
    """The ladder table in Markdown for a README: game, model, strength (95%), first-seat edge (its verdict's
    interval), seat verdict, games and wall time (compiling included; play alone in brackets);
    ``header=False`` gives the rows alone, to append to another game's table."""
    manifest, edges, _, first = read(path, margin)
    game = f"{first.get('title', manifest['game'])} ({manifest['players']} players)"
    lines = ["| game | model (every seat) | strength, points per seat (95%) | first-seat edge, points (verdict's "
             f"interval) | seat verdict at ±{points(margin)} | games | time (play alone) |",
             "|---|---|---|---|---|---|---|"] if header else []
    lines += [f"| {game} | `{r['model']}` | {strength_text(r)} | {edge_text(r)} | {r['verdict']} | {games_text(r)} | "
              f"{duration(r['seconds'])} ({duration(r['play_seconds'])}) |" for r in edges.iter_rows(named=True)]
    return "\n".join(lines) + "\n"
