"""Fair Enough's cards for ``playtest cards`` (the descriptor's ``card_candidates`` and ``card_holdings``).

Removing: one ``queue``, ``preorder`` or ``sold_out`` special card fewer
(``deck.<special>`` minus one); ``value V``: every kind's card of value V left
out of ``deck.values``.

Who holds it: ``<special> (played)`` (observational: an association, not an
effect; a seat that is ahead may simply get to play more cards), from the
seat columns ``queue_played``, ``preorder_played`` and ``sold_out_played``.
"""

from simulator.core.card_rows import Holding

SPECIALS = ("queue", "preorder", "sold_out")


def candidates(table, players):
    """``{card name: (what removing it means, setup override)}`` from the merged setup ``table`` (any
    ``players``)."""
    out = {}
    deck = table["deck"]
    for special in SPECIALS:
        if deck.get(special, 0) > 0:
            out[special] = (f"one {special.replace('_', ' ')} card fewer ({deck[special]} -> {deck[special] - 1})",
                            {"deck": {special: deck[special] - 1}})
    values = list(deck["values"])
    if len(values) > 1:
        for v in sorted(set(values)):
            out[f"value {v}"] = (f"the {v}s of every kind left out", {"deck": {"values": [x for x in values
                                                                                       if x != v]}})
    return out


def holdings(table, players):
    """The "who holds it" rows from the merged setup ``table`` (any ``players``)."""
    return [Holding(f"{s} (played)", f"{s}_played", None, "observational",
                    "observational: the seats that played one against those that did not")
            for s in SPECIALS if table["deck"].get(s, 0) > 0]
