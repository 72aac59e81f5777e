"""Setup tables: TOML files shipped with each game, overridable by the user.

A user's ``--setup FILE`` is merged over the game's default table: every key
the file gives replaces the default, tables are merged key by key, and lists
are replaced whole. Validation errors are ``SetupError`` and name the key.
"""

import copy
import difflib
import os
import stat
import tomllib
from pathlib import Path


class SetupError(ValueError):
    """A setup table that cannot be played. The message names the key and the rule broken."""

    def __init__(self, key, message):
        self.key = key
        super().__init__(f"setup table: {key}: {message}" if key else f"setup table: {message}")


def did_you_mean(word, known):
    """``"; did you mean 'forks'?"`` when ``known`` holds names close to ``word`` (``difflib``), else ``""``."""
    close = difflib.get_close_matches(str(word), [str(k) for k in known], n=3)
    return f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


MAX_BYTES = 1_000_000  # a setup, scenario or parameter file is a few kilobytes; the shipped tables under 10 KB
MAX_PLAYERS = 127      # seats and ranks are stored as 8-bit numbers
MAX_DEPTH = 16         # tables and arrays inside one another; the shipped tables nest at most 6 deep


def read_toml(path):
    """Read a small TOML file into a dict; anything else is a ``SetupError`` naming the file.

    Only a regular file of at most ``MAX_BYTES`` is read (a FIFO or a device
    is refused without blocking on it), and tables and arrays may nest at
    most ``MAX_DEPTH`` deep, so no input hangs, fills memory or overflows the
    parser's recursion.
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens without waiting for a writer
    except FileNotFoundError:
        raise SetupError("", f"file not found: {path}") from None
    except OSError as exc:
        raise SetupError("", f"cannot read {path}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SetupError("", f"{path} is not a regular file")
        try:
            data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise SetupError("", f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise SetupError("", f"{path} is larger than {MAX_BYTES:,} bytes; a setup table is a few kilobytes")
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SetupError("", f"cannot read {path}: it is not UTF-8 text ({exc.reason})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SetupError("", f"{path} is not valid TOML: {exc}") from None
    except RecursionError:
        raise SetupError("", f"{path} nests tables or arrays more than {MAX_DEPTH} deep") from None
    if nesting(table) > MAX_DEPTH:
        raise SetupError("", f"{path} nests tables or arrays more than {MAX_DEPTH} deep")
    return table


def nesting(value):
    """How deep tables and lists nest in ``value`` (0 for a number or a text), counted without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is not None:
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in children)
    return deepest


def merge(base, override, open_tables=("players",), _path=""):
    """Return ``base`` with ``override`` merged in (tables key by key, everything else replaced).

    A key the base table does not have is refused (a misspelt key would
    otherwise be ignored without a word), except inside ``open_tables``,
    dotted paths of tables whose keys are data, such as ``players`` (a row
    per player count: a new row adds a player count).
    """
    out = copy.deepcopy(base)
    for key, value in override.items():
        where = f"{_path}.{key}" if _path else str(key)
        if key not in out and _path not in open_tables:
            known = ", ".join(sorted(map(str, out))) or "none"
            raise SetupError(where, f"is not a key of the setup table{did_you_mean(key, out)} (known here: {known})")
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value, open_tables, where)
        else:
            out[key] = copy.deepcopy(value)
    return out


def require(table, key, kind, path, *, minimum=None):
    """Return ``table[key]`` checked to be of ``kind`` (int, str, list, dict) and at least ``minimum``.

    ``path`` is the dotted location of ``table`` used in the error message.
    """
    where = f"{path}.{key}" if path else key
    if key not in table:
        raise SetupError(where, "is missing")
    value = table[key]
    names = {int: "a whole number", str: "a text", list: "a list", dict: "a table"}
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise SetupError(where, f"must be {names[int]}, got {value!r}")
    if not isinstance(value, kind):
        raise SetupError(where, f"must be {names[kind]}, got {value!r}")
    if minimum is not None and value < minimum:
        raise SetupError(where, f"must be at least {minimum}, got {value}")
    return value


def require_ints(table, key, path, *, minimum=None):
    """Return ``table[key]`` checked to be a list of whole numbers (each at least ``minimum``)."""
    values = require(table, key, list, path)
    where = f"{path}.{key}" if path else key
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int):
            raise SetupError(f"{where}[{i}]", f"must be a whole number, got {v!r}")
        if minimum is not None and v < minimum:
            raise SetupError(f"{where}[{i}]", f"must be at least {minimum}, got {v}")
    return values


def player_row(setup, players):
    """Return the ``players.N`` row of a table, or refuse a player count that has no row.

    A count outside 2 to ``MAX_PLAYERS`` is refused even when the table has a
    row for it: the engines' loops assume at least two seats, and the seat
    and rank columns are 8-bit.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= MAX_PLAYERS:
        raise SetupError(f"players.{players}", f"a game needs a whole number of players from 2 to {MAX_PLAYERS}, "
                                               f"got {players!r}")
    rows = require(setup, "players", dict, "")
    row = rows.get(str(players))
    if row is None:
        have = ", ".join(sorted(rows, key=lambda k: int(k) if k.isdigit() else 0))
        raise SetupError(f"players.{players}", f"the table has no row for {players} players (it has rows for "
                         f"{have}); add a [players.{players}] row with --setup to try {players} players")
    if not isinstance(row, dict):
        raise SetupError(f"players.{players}", f"must be a table, got {row!r}")
    return row
