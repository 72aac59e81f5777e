"""Build a report from run, sweep, tournament, skill-ladder and by-model (``playtest skill``) directories.

``write_report(paths, out)`` writes one self-contained HTML file (figures
embedded as base64 PNG at 200 dpi) or, with ``fmt="md"``, a Markdown file
with PNG files; either way the data behind every figure and table goes to CSV
files in ``<report name>-data/`` next to the report. ``render(parts, out)``
does the writing for any list of ``Section``s (the Unfair report in
``reports.unfair`` uses it too).

Every top-level section opens with its verdict (one sentence a designer can
quote), then the one figure that shows it; details follow, and provenance
comes last, folded. A report on a single directory takes that directory's
title as its own, so the verdict is the first text under the page title.
"""

import base64
import datetime
import struct
from importlib.metadata import version
from pathlib import Path

import jinja2

from analyses import by_model, ladder, survey, sweep, tournament, units
from analyses.runs import NotARun, is_run
from analyses.verdict import DEFAULT_MARGIN
from reports import by_model_report, ladder_report, run_report, survey_report, sweep_report, tournament_report

TEMPLATES = Path(__file__).with_name("templates")


def sections(paths, margin=DEFAULT_MARGIN):
    """One section per directory, recognised as a sweep, a tournament, a skill ladder (``ladder.json``), a
    study by player model (``by_model.json``) or a run."""
    out = []
    for path in map(Path, paths):
        if sweep.is_sweep(path):
            out.append(sweep_report.sweep_section(path))
        elif survey.is_survey(path):
            out.append(survey_report.survey_section(path))
        elif tournament.is_tournament(path):
            out.append(tournament_report.tournament_section(path, margin))
        elif ladder.is_ladder(path):
            out.append(ladder_report.ladder_section(path, margin))
        elif by_model.is_by_model(path):
            out.append(by_model_report.by_model_section(path, margin))
        elif is_run(path):
            out.append(run_report.run_section(path, margin))
        else:
            raise NotARun(f"{path} is neither a run, a sweep, a tournament nor a ladder directory")
    return out


def _walk(parts):
    for part in parts:
        yield part
        yield from _walk(part.subsections)


def write_report(paths, out, fmt="html", margin=DEFAULT_MARGIN):
    """Write the report for ``paths`` to ``out`` and return its path (see ``render``).

    ``margin`` (percentage points of win share) is what a run's verdict calls
    balanced. A single directory's section title becomes the page title; two
    runs of one game and player count open with "B against A" (the second
    against the first).
    """
    parts = sections(paths, margin)
    if len(paths) == 2 and all(is_run(p) for p in paths):  # two designs: open with B against A
        versus = run_report.comparison_section(*paths, margin)
        parts = [versus, *parts] if versus is not None else parts
    title = "playtest report"
    if len(parts) == 1:
        title, parts[0].title = parts[0].title, ""
    return render(parts, out, fmt, title=title, source=", ".join(map(str, paths)),
                  notes=["Percentages are shares of games; edges are in percentage points (points) of "
                         f"win share; intervals are 95%; a run's verdict calls edges within ±{margin:g} points "
                         "balanced."])


def _png_width(png):
    """The pixel width of PNG bytes (from the IHDR chunk)."""
    return struct.unpack(">I", png[16:20])[0]


def render(parts, out, fmt="html", *, title, source, notes=()):
    """Write ``parts`` (``Section``s) as a report to ``out`` and return its path.

    ``fmt="html"`` gives one self-contained file with every figure embedded as
    base64 PNG (200 dpi, shown at its natural size in CSS pixels); ``fmt="md"``
    gives Markdown with the figures as PNG files in ``<out stem>-data/``.
    Either way the data behind each figure and table goes to
    ``<out stem>-data/<name>.csv``. The page opens with ``title`` and the
    sections; a footer says which playtest version made it when, from
    ``source``, followed by ``notes``.
    """
    if fmt not in ("html", "md"):
        raise ValueError(f"unknown report format {fmt!r} (choose html or md)")
    out = Path(out)
    data_dir = out.with_name(f"{out.stem}-data")
    data_dir.mkdir(parents=True, exist_ok=True)
    images = {}
    for part in _walk(parts):
        for fig in part.figures:
            units.to_file(fig.data).write_csv(data_dir / f"{fig.name}.csv")
            png = fig.png()
            width = round(_png_width(png) * 96 / 200)
            if fmt == "md":
                (data_dir / f"{fig.name}.png").write_bytes(png)
                images[fig.name] = (f"{data_dir.name}/{fig.name}.png", width)
            else:
                images[fig.name] = ("data:image/png;base64," + base64.b64encode(png).decode("ascii"), width)
        for table in part.tables:
            if table.name and table.data is not None:
                units.to_file(table.data).write_csv(data_dir / f"{table.name}.csv")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=fmt == "html",
                             trim_blocks=True, lstrip_blocks=True)
    page = env.get_template(f"report.{fmt}.j2").render(
        sections=parts, images=images, data_dir=data_dir.name, version=version("playtest"),
        created=datetime.datetime.now().isoformat(timespec="seconds"), title=title, source=source,
        notes=list(notes))
    out.write_text(page)
    return out
