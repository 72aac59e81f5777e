"""Strategy packages per game, derived from the one registry (``simulator.games``): the engine package
``simulator.<folder>`` plays with the strategies of ``strategies.<folder>``, a module exposing ``strategy_set()``."""

import importlib

from simulator import games


def package(game):
    """The strategy package of ``game`` (a registered game name, a hidden example game too)."""
    return "strategies." + games.package(game).rsplit(".", 1)[1]


# game name -> strategy package, every registered game's (the hidden example games' too)
PACKAGES = {name: package(name) for name in games.names(examples=True)}


def strategy_set(game):
    """Return a fresh ``StrategySet`` for ``game`` (a registered game name)."""
    return importlib.import_module(package(game)).strategy_set()
