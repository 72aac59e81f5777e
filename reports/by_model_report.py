"""The report section of a study by player model (``playtest skill``): the first-seat edge by model.

It opens with ``analyses.by_model.sentence`` (the edge with every model, and
a change from one model to the next only where the paired interval of that
step excludes zero), then the figure of the first seat's edge by model
against the ±margin band, one verdict sentence per model (each naming it),
what was tested and what cannot be told, the table by model, the table of
steps, and the provenance. ``markdown_table`` is the same table by model in
Markdown for a README, one row per model with the game named, so the tables
of several games concatenate.
"""

from pathlib import Path

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
               "high": "first_seat_edge_points_high"}
STEP_POINTS = {"difference": "difference_points", "low": "difference_points_low", "high": "difference_points_high"}


def edge_text(row):
    """``"+1.84 (+0.91 to +2.77)"``: a row's first-seat edge and 95% interval, in points."""
    return f"{row['first_seat_edge']:+.2f} ({row['low']:+.2f} to {row['high']:+.2f})"


def games_text(row):
    """The games played, marked ``(cap)`` when the cap stopped the run before the precision was reached."""
    return f"{row['games']:,}" + ("" if row["precise"] else " (cap)")


def first_seat_figure(name, edges, margin):
    """The first seat's edge with each model in every seat: points with 95% intervals around the zero line,
    the ±``margin`` band shaded, the models top to bottom as listed."""
    fig, ax = figures.new_axes(height=max(1.6, 0.42 * edges.height + 1.0))
    figures.edge_points(ax, edges["model"].to_list(), edges["first_seat_edge"], edges["low"], edges["high"],
                        margin)
    ax.set_xlabel("first seat's edge over the fair share (percentage points of games won)")
    ax.set_title("First-seat edge by player model (95% intervals)")
    figures.legend_outside(ax)
    return figures.Figure(name, "The first seat's win share minus the fair share, in percentage points, with "
                                "the model named on the left in every seat (seats not rotated), 95% intervals "
                                f"over games; 0 is a fair first seat, the grey band the ±{margin:g}-point margin.",
                          fig, edges.select("model", "first_seat_edge", "low", "high").rename(EDGE_POINTS))


def models_table(edges, margin, tag):
    """The table by model: first-seat edge (95%), seat verdict at ±``margin``, games and wall time."""
    table = Table.of("First-seat edge and seat verdict by player model", edges, f"{tag}by-model", {
        "Model (every seat)": lambda r: r["model"],
        "First-seat edge, points (95% interval)": edge_text,
        f"Seat verdict at ±{points(margin)} points": lambda r: r["verdict"],
        "Games": games_text,
        "Wall time (compiling included)": lambda r: duration(r["seconds"]) + (" (resumed part)" if r["resumed"]
                                                                             else ""),
        "Play alone": lambda r: duration(r["play_seconds"]),
    })
    table.data = edges.rename({k: v for k, v in EDGE_POINTS.items() if k in edges.columns})
    return table


def steps_table(changes, tag):
    """The table of steps: each pair of adjacent models, the paired difference of the first-seat edge and
    the word for the change."""
    interval = "95%" if changes.height == 1 else f"simultaneous 95% over {changes.height} steps"
    table = Table.of("From one model to the next: the paired difference of the first-seat edge", changes,
                    f"{tag}steps", {
                        "From": lambda r: r["before"], "To": lambda r: r["after"],
                        f"Difference, points ({interval})":
                            lambda r: f"{r['difference']:+.2f} ({r['low']:+.2f} to {r['high']:+.2f})",
                        "Games compared": lambda r: f"{r['games']:,}",
                        "Change": lambda r: ("the models agree within the intervals" if r["change"] == by_model.AGREE
                                             else r["change"]),
                    })
    table.data = changes.rename({k: v for k, v in STEP_POINTS.items() if k in changes.columns})
    return table


def read(path, margin):
    """``(manifest, edges, changes, first run's manifest)`` of a study, or ``NotARun`` naming what is wrong."""
    path = Path(path)
    try:
        manifest, edges = by_model.table(path, margin)
        changes = by_model.steps(path, edges)
        first = open_run(path / manifest["runs"][0]["run"]).manifest
    except (ValueError, KeyError, TypeError, IndexError) as exc:  # NotARun and JSONDecodeError are ValueErrors
        raise NotARun(f"{path} is not a complete study by player model ({exc})") from None
    return manifest, edges, changes, first


def by_model_section(path, margin):
    """A study by player model: the answer, the figure, a verdict sentence per model, what was tested, the
    two tables, provenance (folded)."""
    path = Path(path)
    manifest, edges, changes, first = read(path, margin)
    players = manifest["players"]
    tag = f"{slug(path.name)}-"
    notes = by_model.skilled_disagreement(changes) + by_model.verdict_sentences(edges) + [
        f"Tested: with one model in every seat, seats not rotated, the same seed (so the same deals) for every "
        f"model, each run played until every seat's 95% interval was within ±{points(manifest['precision'])} points "
        f"or {manifest['max_games']:,} games (marked \"cap\"). The first seat's edge is its win share minus the "
        f"fair share of {pct(1 / players)}, with a 95% interval over games. A change from one model to the next "
        "is claimed only when the paired difference over the games both played excludes zero, with intervals "
        "Bonferroni-corrected over the steps. The seat verdicts test every seat's edge against "
        f"±{points(margin)} points with simultaneous intervals, so they need more games than the first seat's "
        "edge alone; an inconclusive verdict says about how many.",
        "Cannot tell: whether the models are in order of skill (the list is read as given, weakest first; "
        "`playtest ladder` and `docs/skill.md` measure strength), changes smaller than the intervals (\"agree "
        "within the intervals\" is not \"equal\"), how people play, or other player counts and setups. The wall "
        "times include compiling the kernels where a run was the first to need them.",
    ]
    title = f"First-seat edge by player model: {first.get('title', manifest['game'])}, {players} players ({path.name})"
    return Section(title, "by-model", verdict=by_model.sentence(edges, changes),
                   figures=[first_seat_figure(f"{tag}first-seat", edges, margin)], text=notes,
                   tables=[models_table(edges, margin, tag)] + ([steps_table(changes, tag)] if changes.height else []),
                   subsections=[by_model_provenance(path, manifest, first)])


def by_model_provenance(path, manifest, first):
    """Game, seed, precision, cap, models and runs of a study, engine and git revision from its first run."""
    settings = {k: first[k] for k in ("game", "title", "players", "variant", "version", "engine_version",
                                      "git_revision", "setup") if k in first}
    settings |= {"seed": manifest["seed"]}
    extra = [("Precision (95% half-width of every seat, points)", f"±{points(manifest['precision'])}"),
             ("Game cap per model", f"{manifest['max_games']:,}"),
             ("Chunk size (games between two checks of the precision)", f"{manifest['chunk_size']:,}"),
             ("Runs", "; ".join(f"{e['run']}: {e['model']}" for e in manifest["runs"]))]
    return provenance(settings, Path(path).name, extra)


def markdown_table(path, margin, header=True):
    """The table by model in Markdown for a README: game, model, first-seat edge (95%), seat verdict, games
    and wall time (compiling included; play alone in brackets); ``header=False`` gives the rows alone, to append to another game's table."""
    manifest, edges, _, first = read(path, margin)
    game = f"{first.get('title', manifest['game'])} ({manifest['players']} players)"
    lines = ["| game | model (every seat) | first-seat edge, points (95%) | seat verdict at "
             f"±{points(margin)} | games | time (play alone) |", "|---|---|---|---|---|---|"] if header else []
    lines += [f"| {game} | `{r['model']}` | {edge_text(r)} | {r['verdict']} | {games_text(r)} | "
              f"{duration(r['seconds'])} ({duration(r['play_seconds'])}) |" for r in edges.iter_rows(named=True)]
    return "\n".join(lines) + "\n"

