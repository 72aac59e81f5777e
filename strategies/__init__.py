"""Heuristic strategies per game and the registry that names them."""

from simulator.core import compile_cache

compile_cache.use()  # before any strategy is compiled (see its docstring)

__all__ = ["games", "registry", "search", "strategy", "user_files"]
