"""The registry of games: name on the command line -> engine package, the one place a game is registered.

A game's strategies live in the package of the same folder name under
``strategies`` (``simulator.forks`` -> ``strategies.forks``), which
``strategies.games`` derives from here.

Packages are imported on first use, so listing games stays fast and a game
that fails to import does not take the others down.
"""

import functools
import importlib

# command-line name -> package (each package exposes GAME, a simulator.core.game.Game)
PACKAGES = {
    "forks": "simulator.forks",
    "fool": "simulator.fool",
    "fauch-fertig": "simulator.fauch_fertig",
    "fair-enough": "simulator.fair_enough",
}
# hidden games: playable by name and covered by the engine contract, but not listed to users
EXAMPLES = {
    "nim": "simulator.example",  # the example game a new game copies (docs/CONTRIBUTING-GAMES.md)
}


class UnknownGame(KeyError):
    def __str__(self):
        return self.args[0]


def names(examples=False):
    """The names of the games, in the order they were added; with ``examples`` the hidden ones too."""
    return list(PACKAGES) + (list(EXAMPLES) if examples else [])


def package(name):
    """The engine package of the game registered as ``name`` (a hidden example game too), e.g.
    ``simulator.example``; its strategies are the package of the same folder name under ``strategies``."""
    found = PACKAGES.get(name) or EXAMPLES.get(name)
    if found is None:
        raise UnknownGame(f"unknown game {name!r} (choose from {', '.join(PACKAGES)})")
    return found


def get(name):
    """Return the ``Game`` registered as ``name`` (a hidden example game too), validated (``Game.validate``)
    the first time it is loaded."""
    return _loaded(package(name))


@functools.cache
def _loaded(package):
    return importlib.import_module(package).GAME.validate()
