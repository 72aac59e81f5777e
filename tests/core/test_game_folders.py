"""Everything about a game is in its own folders: no module outside ``simulator/<game>/`` and
``strategies/<game>/`` names a game in its code (a string that is a game's name, or an import of a game's
package), except the one registry line in ``simulator/games.py``."""

import ast
from pathlib import Path

from simulator import games

ROOT = Path(__file__).resolve().parents[2]
GAME_FOLDERS = {games.package(name).split(".")[1] for name in games.names(examples=True)}


def shared_modules():
    """The modules outside every game's folders."""
    for top in ("simulator", "strategies", "analyses", "reports", "playtest"):
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if top in ("simulator", "strategies") and len(parts) > 2 and parts[1] not in ("core",):
                continue   # a package of its own under simulator/ or strategies/: a game's folder (or its kin)
            yield path


def naming(path):
    """The lines of ``path`` whose code names a game: a string constant that is a game's name or folder, or an
    import from a game's package (docstrings and comments are prose, not code)."""
    names = set(games.names(examples=True)) | GAME_FOLDERS
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in names:
            found.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if set(node.module.split(".")[1:2]) & GAME_FOLDERS:
                found.append(node.lineno)
        elif isinstance(node, ast.Import):
            if any(set(a.name.split(".")[1:2]) & GAME_FOLDERS for a in node.names):
                found.append(node.lineno)
    return found


def test_no_module_outside_the_game_folders_names_a_game_but_the_registry():
    named = {str(p.relative_to(ROOT)): lines for p in shared_modules() if (lines := naming(p))}
    registry = named.pop("simulator/games.py")
    assert len(set(registry)) == len(games.names(examples=True))   # one line a game
    assert named == {}


def test_the_check_finds_a_game_named_in_code(tmp_path):
    module = tmp_path / "branchy.py"
    module.write_text('"""Docs may say forks."""\nfrom simulator.fool.engine import X\n\n'
                      'def f(game):\n    return game == "fair-enough"\n')
    assert naming(module) == [2, 5]
