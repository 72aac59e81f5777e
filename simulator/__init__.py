"""Game engines: one subpackage per game plus ``core`` (random streams, cards, batch runner, output).

The simulator never imports strategies, analyses or reports.
"""

from simulator.core import compile_cache, numba_ids  # noqa: F401,E402 (before anything is compiled: see their docstrings)

compile_cache.use()

__all__ = ["core", "games"]  # the registry of games and the engine pieces they share
