"""What every command prints through: one width, tables that fit it, sentences wrapped to it.

The width is ``$COLUMNS`` when set, else the terminal's when output goes to
one, else 80 (a pipe, a log, a test's captured output). Every command
prints with ``console()`` (rich tables, live lines) or ``echo()`` (plain
sentences), so no line is wider than ``width()``.
"""

import os
import shutil
import sys
import textwrap

import click

__all__ = ["DEFAULT_WIDTH", "width", "console", "echo", "wrap"]

DEFAULT_WIDTH = 80


def width(stream=None):
    """The number of columns output may use: ``$COLUMNS``, else the terminal's, else 80 (never below 40)."""
    stream = sys.stdout if stream is None else stream
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return max(40, int(columns))
    if hasattr(stream, "isatty") and stream.isatty():
        return max(40, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)
    return DEFAULT_WIDTH


def console(err=False):
    """A rich ``Console`` on standard output (or error) at ``width()``, without syntax highlighting."""
    from rich.console import Console

    stream = sys.stderr if err else sys.stdout
    return Console(highlight=False, width=width(stream), stderr=err, soft_wrap=False)


def wrap(text, indent=""):
    """``text`` wrapped to ``width()``; lines already short enough and blank lines are kept as they are."""
    limit = width()
    out = []
    for line in str(text).split("\n"):
        if len(line) <= limit:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, limit, initial_indent="", subsequent_indent=lead + indent,
                                 break_long_words=True, break_on_hyphens=False) or [""])
    return "\n".join(out)


def echo(text="", err=False, nl=True):
    """``click.echo`` of ``text`` wrapped to ``width()``."""
    click.echo(wrap(text), err=err, nl=nl)
