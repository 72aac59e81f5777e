"""Heuristic strategies per game and the registry that names them."""
