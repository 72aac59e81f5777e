"""Click parameter types and checks shared by the commands: values refused where they enter; and
``HelpGroup``, the command group whose help lays out at the terminal's width and cuts no summary.

``click.FloatRange`` lets ``nan`` through (it fails no comparison) and
``inf`` through an open upper end; ``FiniteRange`` refuses both, so a
margin, an interval target or a step size is always a real number.
"""

import math
import os
from pathlib import Path

import click

from playtest import terminal
from simulator.core.rundir import REPORT as REPORT_NAMES
from simulator.core.setup import did_you_mean

MAX_MARGIN = 100.0   # percentage points of win share: a wider margin calls every table balanced


class HelpGroup(click.Group):
    """A ``click.Group`` whose help pages use ``terminal.width()`` (its commands' too) and list every command's
    summary whole, wrapped (click cuts one too long for its line with "...")."""

    def make_context(self, info_name, args, parent=None, **extra):
        return super().make_context(info_name, args, parent, **{**terminal.help_settings(), **extra})

    def format_commands(self, ctx, formatter):
        rows = [(name, command.get_short_help_str(limit=10 ** 6)) for name in self.list_commands(ctx)
                if not (command := self.get_command(ctx, name)).hidden]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class FiniteRange(click.FloatRange):
    """A ``click.FloatRange`` that also refuses ``nan`` and infinities."""

    name = "finite float range"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class OutputPath(click.Path):
    """A ``click.Path`` for something a command writes; it refuses an empty name and ``-``.

    Without this, ``--out ''`` would quietly write nothing (or the current
    folder), and ``--out -``, which elsewhere means standard output, a folder
    named "-".
    """

    def convert(self, value, param, ctx):
        if isinstance(value, str) and value.strip() in ("", "-"):
            self.fail(f"{value!r} is not a name to write to; give a path", param, ctx)
        return super().convert(value, param, ctx)


# names a user may take for a game that playtest studies with another command
STUDIED_ELSEWHERE = {"unfair": "Unfair is not played as whole games: its mechanics are studied one by one with "
                               "`playtest unfair` (see `playtest unfair --help`)"}


class GameChoice(click.Choice):
    """A ``click.Choice`` of game names whose refusal of a misspelt name says which game was probably meant."""

    name = "game"

    def convert(self, value, param, ctx):
        if value in self.choices:
            return value
        if value in STUDIED_ELSEWHERE:
            self.fail(STUDIED_ELSEWHERE[value], param, ctx)
        self.fail(f"{value!r} is not a game playtest knows{did_you_mean(value, self.choices)} (games: "
                  f"{', '.join(self.choices)})", param, ctx)


def margin_type():
    """Percentage points of win share: more than 0, at most ``MAX_MARGIN``."""
    return FiniteRange(0, MAX_MARGIN, min_open=True)


OLD_UNTIL_CI = 0.1  # an --until-ci below this is the former fraction form (0.005 = ± 0.5 points)


class UntilCi(FiniteRange):
    """``--until-ci`` in percentage points of win share, like ``--margin``; a value below ``OLD_UNTIL_CI``
    is read in the former form, a fraction of one, with a one-line deprecation note."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number < OLD_UNTIL_CI:
            click.echo(f"note: --until-ci now takes points of win share; {value} is read as a fraction, "
                       f"± {100 * number:g} points (write --until-ci {100 * number:g})", err=True)
            return 100 * number
        return number


def until_ci_type():
    """``--until-ci``: a half-width in points, more than 0 and at most ``MAX_MARGIN`` (``UntilCi``)."""
    return UntilCi(0, MAX_MARGIN, min_open=True)


def local_workers_type():
    """Local Dask worker processes: 1 to the machine's cores (more processes than cores only wait)."""
    return click.IntRange(1, os.cpu_count() or 1)


REPORT_FORMATS = {".html": "html", ".md": "md"}


def check_report_out(out, fmt=None, inputs=()):
    """Refuse a report path that cannot be written cleanly, before any study or figure is computed; return the
    report's format: ``fmt``, or without it the one the file's suffix names.

    The file must end in ``.html`` or ``.md`` (as ``fmt``, when given), sit in
    an existing folder, not be a folder, and not put itself or its
    ``<name>-data`` folder over a file; inside an input directory only that
    directory's own ``report.html``/``report.md`` is allowed (playtest's
    layout keeps it).
    """
    out = Path(out)
    fmt = fmt or REPORT_FORMATS.get(out.suffix)
    if fmt is None or not out.stem:
        raise click.BadParameter(f"{str(out)!r} must be a file name ending in .html or .md", param_hint="--out")
    suffix = ".html" if fmt == "html" else ".md"
    if out.suffix != suffix:
        raise click.BadParameter(f"{str(out)!r} must be a file name ending in {suffix} (--format {fmt})",
                                 param_hint="--out")
    if out.is_dir():
        raise click.BadParameter(f"{out} is a folder; give a file name", param_hint="--out")
    if not out.absolute().parent.is_dir():
        raise click.BadParameter(f"the folder of {out} does not exist", param_hint="--out")
    data = out.with_name(f"{out.stem}-data")
    if data.exists() and not data.is_dir():
        raise click.BadParameter(f"{data}, where the report's data would go, is a file", param_hint="--out")
    for d in map(Path, inputs):
        inside = out.absolute().parent.resolve()
        if inside == d.resolve() and out.name in REPORT_NAMES:
            continue
        if inside == d.resolve() or d.resolve() in inside.parents:
            raise click.BadParameter(f"{out} is inside the input directory {d}; only {d}/report{suffix} may be "
                                     f"written there", param_hint="--out")
    return fmt
