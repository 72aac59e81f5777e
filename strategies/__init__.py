"""Heuristic strategies per game and the registry that names them."""

__all__ = ["games", "registry", "search", "strategy", "user_files"]
