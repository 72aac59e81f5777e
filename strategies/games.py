"""Strategy packages per game: game name -> module exposing ``strategy_set()``."""

import importlib

PACKAGES = {
    "forks": "strategies.forks",
    "fool": "strategies.fool",
    "fauch-fertig": "strategies.fauch_fertig",
    "fair-enough": "strategies.fair_enough",
    "nim": "strategies.example",  # the hidden example game (simulator.games.EXAMPLES)
}


def strategy_set(game):
    """Return a fresh ``StrategySet`` for ``game`` (a registered game name)."""
    return importlib.import_module(PACKAGES[game]).strategy_set()
