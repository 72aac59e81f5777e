"""The rows ``playtest cards`` asks about, as a game's descriptor gives them.

A game that has cards names two hooks in its ``GAME`` (``card_candidates`` and
``card_holdings``, each ``(table, players)`` of its merged setup table); its
own ``cards`` module says what removing a card means there. A game without
them (a game of counters, say) has no cards to ask about.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Holding:
    """One "who holds it" row: the seats whose seat column ``column`` (its bit ``bit``, if given) is not 0
    against the others; ``kind`` is causal (dealt at random) or observational."""

    card: str
    column: str
    bit: int | None
    kind: str
    meaning: str

