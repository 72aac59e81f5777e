"""Heuristic strategies per game and the registry that names them."""

import simulator  # noqa: F401 (first: it points numba's cache at this version's folder, simulator.core.compile_cache)

__all__ = ["games", "registry", "search", "strategy", "user_files"]
