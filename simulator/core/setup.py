"""Setup tables: TOML files shipped with each game, overridable by the user.

A user's ``--setup FILE`` is merged over the game's default table: every key
the file gives replaces the default, tables are merged key by key, and lists
are replaced whole. Validation errors are ``SetupError`` and name the key.
"""

import copy
import tomllib
from pathlib import Path


class SetupError(ValueError):
    """A setup table that cannot be played. The message names the key and the rule broken."""

    def __init__(self, key, message):
        self.key = key
        super().__init__(f"setup table: {key}: {message}" if key else f"setup table: {message}")


def read_toml(path):
    """Read a TOML file into a dict, turning I/O and syntax errors into ``SetupError``."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise SetupError("", f"file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupError("", f"cannot read {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SetupError("", f"{path} is not valid TOML: {exc}") from None


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
            raise SetupError(where, f"is not a key of the setup table (known here: {known})")
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
    """Return the ``players.N`` row of a table, or refuse a player count that has no row."""
    rows = require(setup, "players", dict, "")
    row = rows.get(str(players))
    if row is None:
        have = ", ".join(sorted(rows, key=lambda k: int(k) if k.isdigit() else 0))
        raise SetupError(f"players.{players}", f"the table has no row for {players} players (it has rows for "
                         f"{have}); add a [players.{players}] row with --setup to try {players} players")
    if not isinstance(row, dict):
        raise SetupError(f"players.{players}", f"must be a table, got {row!r}")
    return row
