"""``Strategy``: one named decision function, the unit the registry and the search player both build."""

from dataclasses import dataclass

__all__ = ["Strategy"]


@dataclass(frozen=True)
class Strategy:
    """A named decision function with its default parameter vector (``file``: the user file it came from)."""

    name: str
    decide: object
    params: tuple = ()
    summary: str = ""
    file: object = None  # strategies.user_files.UserFile, or None for a built-in
