"""Build a report from run, sweep and tournament directories.

``write_report(paths, out)`` writes one self-contained HTML file (figures
embedded as base64 PNG) or, with ``fmt="md"``, a Markdown file with PNG files;
either way the data behind every figure goes to CSV files in
``<report name>-data/`` next to the report. ``render(parts, out)`` does the
writing for any list of ``Section``s (the Unfair report in ``reports.unfair``
uses it too).
"""

import base64
import re
import datetime
from dataclasses import dataclass, field
from pathlib import Path

from importlib.metadata import version

import jinja2
import polars as pl
import tomli_w

from analyses import feel, paired, planning, sweep, tournament
from analyses.runs import NotARun, is_run, open_run
from analyses.seat_summary import seat_summary
from analyses.seats import describe
from analyses.verdict import DEFAULT_MARGIN, points
from reports import figures

TEMPLATES = Path(__file__).with_name("templates")


@dataclass
class Table:
    """A captioned table: header row and formatted cell rows."""

    caption: str
    header: list
    rows: list

    @classmethod
    def of(cls, caption, frame, limit=60):
        frame = frame.head(limit)
        return cls(caption, list(frame.columns), [[_cell(v) for v in row] for row in frame.iter_rows()])


@dataclass
class Section:
    """One part of a report: a title, paragraphs of text, tables, figures and a preformatted block."""

    title: str
    kind: str
    text: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    code: str = ""
    subsections: list = field(default_factory=list)


def _cell(value):
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e5 else f"{value:,.0f}"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return "" if value is None else str(value)


def _slug(text):
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")


def compact_toml(table):
    """``table`` as TOML with every list of plain values on one line."""
    text = tomli_w.dumps(table)
    return re.sub(r"\[\n((?:    [^\[\]\n]*,\n)+)\]",
                  lambda m: "[" + ", ".join(v.strip().rstrip(",") for v in m.group(1).splitlines()) + "]", text)


def provenance(manifest, name):
    """The configuration and provenance of a run as a table plus its setup table as TOML."""
    keys = ["game", "title", "players", "games", "seed", "strategies", "strategy_params", "variant",
            "rotate_seats", "version", "engine_version", "git_revision", "wall_seconds", "games_per_second",
            "complete", "until_ci"]
    rows = [[k, _cell(manifest[k])] for k in keys if k in manifest]
    section = Section("Configuration and provenance", "provenance",
                      tables=[Table(f"Run {name}", ["setting", "value"], rows)])
    if manifest.get("setup"):
        section.code = compact_toml(manifest["setup"])
    return section


def seat_section(seats, tag, manifest=None, margin=DEFAULT_MARGIN):
    """Seat advantage: the verdict at ``margin`` points, the shares in words, the plot, the table and the
    planning (from the tests the verdict and the chi-square actually run)."""
    summary = seat_summary(seats, manifest, margin=margin)
    verdict, table = summary.verdict, summary.table
    if verdict.kind == "unfinished":
        return Section("Seat advantage", "seats", text=verdict.lines())
    players = verdict.players
    text = verdict.lines() + [describe(row) + "." for row in table.iter_rows(named=True)]
    per_game = summary.moments.rotations
    text.append(f"Planning: with equal seats, the verdict reads \"balanced within ±{points(margin)} points\" with "
                f"probability 0.8 after about {planning.games_for_verdict(margin, players) * per_game:,} games; the "
                f"chi-square test detects a first-seat edge of 1 point with power 0.8 after "
                f"{planning.games_for_seat_test(1.0, players):,} games (at {players} players, independent games); "
                f"narrowing every seat interval to ± 0.5 points takes about "
                f"{planning.games_for_half_width(summary.moments, 0.005):,} games.")
    return Section("Seat advantage", "seats", text=text,
                   tables=[Table.of("Win share and mean score per seat (95% intervals; deals as the unit in a "
                                    "rotated run)", table)],
                   figures=[figures.seat_advantage(f"{tag}seat-advantage", table)])


def paired_section(seats):
    """Duplicate deals: seat and strategy effects with the deal's luck cancelled."""
    by_seat = paired.effects(seats, by="seat")
    by_strategy = paired.effects(seats, by="strategy")
    text = ["Every deal was played once per rotation of the strategies over the seats, so each estimate "
            "below averages a deal's games before comparing deals. 'narrower' compares the interval "
            "with the one as many independent deals would give (negative: wider)."]
    tables = [Table.of("Win share per seat on duplicate deals", by_seat),
              Table.of("Win share per strategy on duplicate deals", by_strategy)]
    if by_strategy.height > 1:
        diffs = paired.strategy_differences(seats)
        tables.append(Table.of("Strategy against strategy on the same deals", diffs))
        best = diffs.row(int(diffs["narrower"].arg_max()), named=True)
        text.append(f"Comparing {best['a']} with {best['b']}, the paired interval is "
                    f"{100 * abs(best['narrower']):.0f}% {'narrower' if best['narrower'] >= 0 else 'wider'} "
                    f"than with independent deals (worth about {best['equivalent_games']:,.0f} independent "
                    f"games instead of {best['games']:,}).")
    return Section("Duplicate deals (rotated seats)", "paired", text=text, tables=tables)


def feel_section(seats, tag):
    """Score distributions, game length and the game-feel summary."""
    dist = feel.length_distribution(seats)
    return Section("Game feel", "feel", tables=[Table.of("Game-feel summary", feel.summary(seats))],
                   figures=[figures.score_distributions(f"{tag}score-distributions", seats),
                            figures.game_length(f"{tag}game-length", dist)])


def run_section(path, margin=DEFAULT_MARGIN):
    """All sections for one run directory."""
    run = open_run(path)
    manifest, seats = run.manifest, run.seats
    tag = f"{_slug(run.name)}-"
    played = len(seats) // max(1, seats["seat"].n_unique())
    deals = f" ({seats['game'].n_unique():,} deals x {played // seats['game'].n_unique()} rotations)" \
        if "rotation" in seats.columns else ""
    title = f"{manifest.get('title', manifest.get('game', 'game'))}: {manifest.get('players')} players, " \
            f"{played:,} games{deals} ({run.name})"
    parts = [provenance(manifest, run.name), seat_section(seats, tag, manifest, margin)]
    if "rotation" in seats.columns:
        parts.append(paired_section(seats))
    parts.append(feel_section(seats, tag))
    return Section(title, "run", subsections=parts)


METRICS = [("max_edge", "Largest seat edge"), ("tie_rate", "Tie rate"), ("mean_spread", "Mean score spread")]


def sweep_section(path):
    """A sweep: its best configuration, heatmaps of balance over the grid and the summary table."""
    manifest, summary = sweep.load(path)
    tag = f"{_slug(Path(path).name)}-"
    axes = [a["label"] for a in manifest["axes"] if len(a["values"]) > 1]
    best = sweep.best(summary)
    text = [f"{manifest['game']}: {summary['config'].n_unique()} configurations "
            f"({'successive-halving search' if manifest['mode'] == 'search' else 'full grid'}).",
            "Best configuration (smallest largest seat edge): "
            + ", ".join(f"{a} = {best[a]}" for a in axes)
            + f", largest seat edge {100 * best['max_edge']:.2f} points (± {100 * best['half_width']:.2f}) "
              f"over {best['games']:,} games."]
    shown = summary.filter(pl.col("unplayable").is_null())
    shown = shown.filter(pl.col("stage") == 0) if "stage" in shown.columns else shown
    skipped = summary.filter(pl.col("unplayable").is_not_null())
    if skipped.height:
        text.append(f"{skipped.height} configuration(s) could not be played (reasons in the table); their "
                    "cells are empty.")
    figs = []
    for metric, title in METRICS:
        if len(axes) >= 2:
            figs.append(figures.sweep_heatmap(f"{tag}{metric}", shown, axes, metric, title))
        elif len(axes) == 1:
            figs.append(figures.sweep_line(f"{tag}{metric}", shown, axes[0], metric, title))
    return Section(f"Setup-table sweep ({Path(path).name})", "sweep", text=text, figures=figs,
                   tables=[Table.of("One row per configuration",
                                    summary.select(pl.exclude("unplayable", "run"), "unplayable"))])


def tournament_section(path, margin=DEFAULT_MARGIN):
    """A tournament: standings with win shares and Bradley-Terry ratings."""
    manifest, seats = tournament.load(path)
    tag = f"{_slug(Path(path).name)}-"
    table = tournament.standings(seats)
    text = [f"{manifest['game']}, {manifest['players']} players: {len(manifest['runs'])} lineups of "
            f"{', '.join(manifest['strategies'])}, {manifest['games']:,} deals each, every deal played once "
            f"per seat rotation. Win shares count games a strategy took part in; intervals are per deal."]
    return Section(f"Strategy tournament ({Path(path).name})", "tournament", text=text,
                   tables=[Table.of("Standings", table)],
                   figures=[figures.ratings(f"{tag}ratings", table)])


def sections(paths, margin=DEFAULT_MARGIN):
    """One section per directory, recognised as a sweep, a tournament or a run; verdicts at ``margin``."""
    out = []
    for path in map(Path, paths):
        if sweep.is_sweep(path):
            out.append(sweep_section(path))
        elif tournament.is_tournament(path):
            out.append(tournament_section(path, margin))
        elif is_run(path):
            out.append(run_section(path, margin))
        else:
            raise NotARun(f"{path} is neither a run, a sweep nor a tournament directory")
    return out


def _all_figures(parts):
    for part in parts:
        yield from part.figures
        yield from _all_figures(part.subsections)


def write_report(paths, out, fmt="html", margin=DEFAULT_MARGIN):
    """Write the report for ``paths`` to ``out`` (verdicts at ``margin`` points) and return its path
    (see ``render``)."""
    return render(sections(paths, margin), out, fmt, title="playtest report", source=", ".join(map(str, paths)),
                  intro=["Percentages are shares of games; intervals are 95%; a verdict's margin is in "
                         f"percentage points of win share (here ±{points(margin)})."])


def render(parts, out, fmt="html", *, title, source, intro=()):
    """Write ``parts`` (``Section``s) as a report to ``out`` and return its path.

    ``fmt="html"`` gives one self-contained file with every figure embedded as
    base64 PNG; ``fmt="md"`` gives Markdown with the figures as PNG files in
    ``<out stem>-data/``. Either way the data behind each figure goes to
    ``<out stem>-data/<figure>.csv``. The report opens with ``title``, a line
    saying which playtest version made it when and from ``source``, and the
    paragraphs of ``intro``.
    """
    if fmt not in ("html", "md"):
        raise ValueError(f"unknown report format {fmt!r} (choose html or md)")
    out = Path(out)
    data_dir = out.with_name(f"{out.stem}-data")
    data_dir.mkdir(parents=True, exist_ok=True)
    images = {}
    for fig in _all_figures(parts):
        fig.data.write_csv(data_dir / f"{fig.name}.csv")
        png = fig.png()
        if fmt == "md":
            (data_dir / f"{fig.name}.png").write_bytes(png)
            images[fig.name] = f"{data_dir.name}/{fig.name}.png"
        else:
            images[fig.name] = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=fmt == "html",
                             trim_blocks=True, lstrip_blocks=True)
    text = env.get_template(f"report.{fmt}.j2").render(
        sections=parts, images=images, data_dir=data_dir.name, version=version("playtest"),
        created=datetime.datetime.now().isoformat(timespec="seconds"), title=title, source=source,
        intro=list(intro))
    out.write_text(text)
    return out
