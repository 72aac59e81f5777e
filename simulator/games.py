"""The registry of games: name on the command line -> engine package.

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


class UnknownGame(KeyError):
    def __str__(self):
        return self.args[0]


def names():
    """The names of all games, in the order they were added."""
    return list(PACKAGES)


def get(name):
    """Return the ``Game`` registered as ``name``, validated (``Game.validate``) the first time it is loaded."""
    if name not in PACKAGES:
        raise UnknownGame(f"unknown game {name!r} (choose from {', '.join(PACKAGES)})")
    return _loaded(PACKAGES[name])


@functools.cache
def _loaded(package):
    return importlib.import_module(package).GAME.validate()
