"""The ``console`` blocks of the user-facing pages: each ``$ playtest ...`` command with the output shown under it.

A block is fenced with three backticks and ``console``. A line starting with ``$ `` is a command (a trailing
backslash continues it on the next line); the lines after it, up to the next command, are the output the
page shows. A line of the output that is ``...`` stands for lines left out, and ``...`` inside a line for
text left out.
"""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```console\n(.*?)^```", re.DOTALL | re.MULTILINE)


@dataclass
class Example:
    """One command of a page and the output lines the page shows for it."""

    page: str
    command: str
    shown: list

    def first_line(self):
        """The first line of output the page shows, or None when it shows none (or only ``...``)."""
        lines = [line.rstrip() for line in self.shown if line.strip()]
        return lines[0] if lines and lines[0] != "..." else None


def examples(path, root=ROOT):
    """Every command of ``path``'s console blocks, in page order (the page named relative to ``root``)."""
    found = []
    for block in BLOCK.findall(Path(path).read_text()):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            if not lines[i].startswith("$ "):
                i += 1
                continue
            command = lines[i][2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + lines[i].strip()
            i += 1
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            found.append(Example(str(Path(path).relative_to(root)), command.strip(), shown))
    return found


def matches(shown, actual):
    """Whether ``actual`` is the line ``shown``, where ``...`` in ``shown`` stands for any text."""
    pattern = ".*".join(re.escape(part.strip()) for part in shown.split("..."))
    return re.fullmatch(pattern, actual.strip()) is not None
