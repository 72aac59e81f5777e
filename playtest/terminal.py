"""What every command prints through: one width, tables that fit it, sentences wrapped to it.

The width is ``$COLUMNS`` when set, else the terminal's when output goes to
one, else 80 (a pipe, a log, a test's captured output). Every command
prints with ``console()`` (rich tables, live lines) or ``echo()`` (plain
sentences) or ``table()`` (rows of cells), so no line is wider than
``width()``. Click's help pages use the same width (``help_settings``).
"""

import os
import shutil
import sys
import textwrap

import click

__all__ = ["DEFAULT_WIDTH", "width", "console", "echo", "wrap", "show", "table", "toml", "help_settings"]

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


def help_settings():
    """Click ``context_settings`` that lay out ``--help`` pages at ``width()`` (children inherit them)."""
    return {"terminal_width": width(), "max_content_width": width()}


def wrap(text, indent=""):
    """``text`` wrapped to ``width()``; lines already short enough and blank lines are kept as they are.

    A wrapped line's continuation lines keep its leading spaces plus ``indent``.
    """
    limit = width()
    out = []
    for line in str(text).split("\n"):
        if len(line) <= limit:
            out.append(line)
            continue
        lead = line[:len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, limit, initial_indent="", subsequent_indent=lead + indent,
                                 break_long_words=False, break_on_hyphens=False) or [""])
    return "\n".join(out)


def echo(text="", err=False, nl=True, indent=""):
    """``click.echo`` of ``text`` wrapped to ``width()`` (continuation lines indented by ``indent``)."""
    click.echo(wrap(text, indent), err=err, nl=nl)


def show(renderable):
    """Print a rich ``renderable`` (a table) at ``width()``, without trailing spaces."""
    out = console()
    with out.capture() as captured:
        out.print(renderable)
    for line in captured.get().splitlines():
        click.echo(line.rstrip())


GAP = 3  # spaces between two columns of a table


def table(header, rows, title=None, keys=1):
    """Print rows of text cells under ``header`` so that no line is wider than ``width()``.

    The table is printed whole when it fits with its cells wrapped at spaces
    (a ``\\n`` in a header or cell breaks its line); else its columns are split
    over several tables that each repeat the first ``keys`` columns (the ones
    that name a row); else, when even one column beside those does not fit,
    each row is printed as a block of ``header: cell`` lines. No word is ever
    cut. A column is aligned left when at least half of its filled cells begin
    with a letter, else right (figures).
    """
    header, rows = [str(h) for h in header], [[str(c) for c in r] for r in rows]
    limit = width()
    keys = min(keys, len(header))
    groups, current = [], []
    for column in range(keys, len(header)):
        if current and not _fits(header, rows, [*range(keys), *current, column], limit):
            groups.append(current)
            current = []
        current.append(column)
    groups.append(current)
    if any(not _fits(header, rows, [*range(keys), *group], limit) for group in groups):
        _blocks(header, rows, title)
        return
    for i, group in enumerate(groups):
        if i:
            click.echo()
        part = title if len(groups) == 1 or title is None else f"{title} ({i + 1} of {len(groups)})"
        show(_rich_table(header, rows, [*range(keys), *group], part, limit))


def _sizes(header, rows, i):
    """``(longest word, longest line)`` of column ``i``: the narrowest and the widest it needs."""
    texts = [header[i], *(r[i] for r in rows)]
    words = [len(w) for t in texts for w in t.split()] or [0]
    lines = [len(line) for t in texts for line in t.split("\n")]
    return max(words), max(lines)


def _fits(header, rows, columns, limit):
    """Whether ``columns`` fit side by side in ``limit`` columns with every cell wrapped at spaces only."""
    return sum(_sizes(header, rows, i)[0] for i in columns) + GAP * (len(columns) - 1) <= limit


def _widths(header, rows, columns, limit):
    """Each column's width: as wide as its longest line, the widest narrowed first until the table fits,
    none below its longest word (``_fits`` holds)."""
    sizes = [_sizes(header, rows, i) for i in columns]
    widths = [most for _, most in sizes]
    room = limit - GAP * (len(columns) - 1)
    while sum(widths) > room:
        j = max((k for k in range(len(widths)) if widths[k] > sizes[k][0]), key=lambda k: widths[k])
        widths[j] -= 1
    return widths


def _rich_table(header, rows, columns, title, limit):
    from rich import box
    from rich.table import Table

    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for i, size in zip(columns, _widths(header, rows, columns, limit)):
        cells = [r[i] for r in rows if r[i]]
        text = 2 * sum(c[:1].isalpha() for c in cells) >= len(cells) > 0
        t.add_column(header[i], justify="left" if text else "right", width=size, overflow="fold")
    for r in rows:
        t.add_row(*(r[i] for i in columns))
    return t


def _blocks(header, rows, title):
    if title:
        echo(title)
    for r in rows:
        echo()
        for h, cell in zip(header, r):
            echo(f"  {h}: {cell}", indent="    ")


def toml(text):
    """TOML ``text`` with its long lines refitted to ``width()``, meaning unchanged.

    A comment is rewrapped as comment lines with the same lead; an inline
    comment that makes its line too long moves to its own lines above it;
    inside an array a line breaks after a comma (not within a string). A
    line that has no such place to break is kept whole.
    """
    limit = width()
    out = []
    depth = 0
    for line in text.splitlines():
        lead = line[:len(line) - len(line.lstrip())]
        code, comment, breaks, after = _toml_scan(line, depth)
        if len(line) > limit and comment is not None and code.strip():
            out.extend(_comment_lines(lead + comment, limit))
            line = code.rstrip()
        elif len(line) > limit and comment is not None:
            out.extend(_comment_lines(line, limit))
            depth = after
            continue
        if len(line) > limit and breaks:
            out.extend(_break_at(line, [b for b in breaks if b < len(line)], lead + "    ", limit))
        else:
            out.append(line)
        depth = after
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _toml_scan(line, depth):
    """``(code, comment or None, break points, depth after)``: the points are just after a comma inside an
    array (``depth`` arrays are open when the line starts); strings are skipped."""
    breaks, quote, i = [], None, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i], line[i:], breaks, depth
        elif c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
        elif c == "," and depth > 0:
            breaks.append(i + 1)
        i += 1
    return line, None, breaks, depth


def _comment_lines(line, limit):
    """A comment line (``lead`` ``#`` text) wrapped to ``limit``, every piece a comment with the same lead."""
    lead = line[:len(line) - len(line.lstrip())]
    body = line.lstrip()[1:]
    prefix = lead + "#" + body[:len(body) - len(body.lstrip())]
    return textwrap.wrap(body.strip(), limit, initial_indent=prefix, subsequent_indent=prefix,
                         break_long_words=False, break_on_hyphens=False) or [line]


def _break_at(line, breaks, indent, limit):
    """``line`` cut at some of ``breaks`` (character positions) into pieces of at most ``limit`` where it can;
    every piece after the first starts with ``indent``."""
    pieces, start, last = [], 0, None
    for b in [*breaks, len(line)]:
        width_so_far = (len(indent) if pieces else 0) + len(line[start:b].lstrip() if pieces else line[start:b])
        if width_so_far > limit and last is not None:
            pieces.append(line[start:last])
            start = last
        last = b
    pieces.append(line[start:])
    return [pieces[0].rstrip()] + [indent + p.strip() for p in pieces[1:]]
