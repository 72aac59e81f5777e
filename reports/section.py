"""The parts of a report: ``Section`` (what the templates render), provenance, names.

A section opens with its verdict (one sentence a designer can quote), then
its figures, paragraphs, tables and preformatted block, then subsections; a
``folded`` section is shown collapsed.
"""

import re
from dataclasses import dataclass, field

import tomli_w

from reports.tables import Table, label, text


@dataclass
class Section:
    """One part of a report: a title, its verdict sentence, figures, paragraphs, tables and a
    preformatted block, then subsections; a ``folded`` section is shown collapsed."""

    title: str
    kind: str
    verdict: str = ""
    figures: list = field(default_factory=list)
    text: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    code: str = ""
    code_title: str = "Setup table used"
    subsections: list = field(default_factory=list)
    folded: bool = False


def slug(words):
    """A file-safe lower-case name: ``"Run x/1" -> "run-x-1"``."""
    return "".join(c if c.isalnum() else "-" for c in words.lower()).strip("-")


def compact_toml(table):
    """``table`` as TOML with every list of plain values on one line."""
    toml = tomli_w.dumps(table)
    return re.sub(r"\[\n((?:    [^\[\]\n]*,\n)+)\]",
                  lambda m: "[" + ", ".join(v.strip().rstrip(",") for v in m.group(1).splitlines()) + "]", toml)


MANIFEST_KEYS = ["game", "title", "players", "games", "seed", "strategies", "strategy_params", "variant",
                 "rotate_seats", "until_ci", "version", "engine_version", "git_revision", "complete",
                 "wall_seconds", "games_per_second"]


# a rotated run counts game indices, each a deal played in every seat rotation
ROTATED_LABELS = {"games": "Deals (each played in every seat rotation)", "games_per_second": "Deals per second"}


def provenance(manifest, name, extra=()):
    """A folded section with a run's settings and provenance (manifest keys, then ``extra``
    ``(setting, value)`` pairs) and its setup table as TOML."""
    names = ROTATED_LABELS if manifest.get("rotate_seats") else {}
    rows = ([[names.get(k) or label(k), text(manifest[k])] for k in MANIFEST_KEYS if k in manifest]
            + [list(r) for r in extra])
    section = Section("Settings and provenance", "provenance", folded=True,
                      tables=[Table(f"Run {name}", ["Setting", "Value"], rows)])
    if manifest.get("setup"):
        section.code = compact_toml(manifest["setup"])
    return section
