"""The registry of games: name on the command line -> engine package.

Packages are imported on first use, so listing games stays fast and a game
that fails to import does not take the others down.
"""

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
    """Return the ``Game`` registered as ``name``."""
    if name not in PACKAGES:
        raise UnknownGame(f"unknown game {name!r} (choose from {', '.join(PACKAGES)})")
    return importlib.import_module(PACKAGES[name]).GAME
