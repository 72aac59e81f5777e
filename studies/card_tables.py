"""The cards of a game's setup table that ``playtest cards`` asks about, from the game's descriptor.

Each game says, in its own ``cards`` module, what removing a card means and
which seat columns say who held one (``card_candidates`` and
``card_holdings`` of its ``GAME``; ``simulator.core.card_rows``). A game that
names neither has no cards to ask about, and ``cards`` says so in one line.
"""

from analyses.cards import CardError
from simulator import games
from simulator.core.card_rows import Holding

__all__ = ["Holding", "candidates", "holdings"]


def candidates(game, table, players):
    """``{card name: (what removing it means, setup override)}`` for ``game`` (its name) from its merged setup
    ``table`` at ``players``; a ``CardError`` for a game without cards."""
    hook = games.get(game).card_candidates
    if hook is None:
        raise CardError(f"{game} has no cards for playtest cards to take out (its descriptor names no "
                        f"card_candidates)")
    return hook(table, players)


def holdings(game, table, players):
    """The "who holds it" rows (``Holding``) of ``game`` at ``players`` from its merged setup ``table``; none for a
    game without cards."""
    hook = games.get(game).card_holdings
    return [] if hook is None else hook(table, players)
