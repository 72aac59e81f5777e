"""Unfair (FLSU expansion) mechanics lab: one study per mechanic, not a whole-game engine.

Modules: ``setup`` (the setup table and its checks), ``dice``,
``wishing_well``, ``fame``, ``gems``, ``panoramas`` (each a jit-compiled
kernel and a function returning polars DataFrames) and ``report`` (Markdown
and HTML fragments with figures). See docs/rules/unfair.md.
"""

__all__ = ["dice", "fame", "gems", "panoramas", "setup", "wishing_well"]
