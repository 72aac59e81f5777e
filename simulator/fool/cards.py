"""Fool!'s cards for ``playtest cards`` (the descriptor's ``card_candidates`` and ``card_holdings``).

Removing: the cards must deal out evenly, so a card is replaced, not just
taken out. ``wild``: one wild "1" fewer and the longest colour one card
longer (``players.N.wilds`` minus one, the colour's highest plus one);
``<colour>``: that colour one card shorter (its top card out) and the
longest other colour one card longer. The ``discs`` are a rule, not a card.

Who holds it: ``wild (dealt)`` (causal: a wild "1" in the first deal's hand,
seat column ``wilds_dealt``), ``colour top (dealt)`` (causal: the highest card
of a colour, ``tops_dealt``) and ``wild (played)`` (observational, an
association: a seat that is ahead may simply get to play more cards;
``wilds_played``).
"""

from simulator.core.card_rows import Holding


def candidates(table, players):
    """``{card name: (what removing it means, setup override)}`` from the merged setup ``table`` at ``players``."""
    out = {}
    row = table["players"][str(players)]
    colours = list(table["deck"]["colours"])
    size = {c: row[c][1] - row[c][0] + 1 for c in colours}

    def longest(other_than=None):
        return max((c for c in colours if c != other_than), key=lambda c: size[c], default=None)

    def longer(colour):
        return {colour: [row[colour][0], row[colour][1] + 1]}

    if row.get("wilds", 0) > 0 and colours:
        c = longest()
        out["wild"] = (f'one wild "1" fewer ({row["wilds"]} -> {row["wilds"] - 1}), {c} {row[c][1] + 1} added',
                       {"players": {str(players): {"wilds": row["wilds"] - 1, **longer(c)}}})
    for colour in colours:
        other = longest(colour)
        if size[colour] > 1 and other is not None:
            low, high = row[colour]
            out[colour] = (f"{colour} {high} out, {other} {row[other][1] + 1} added",
                           {"players": {str(players): {colour: [low, high - 1], **longer(other)}}})
    return out


def holdings(table, players):
    """The "who holds it" rows (the same for every table)."""
    dealt = "causal: the seats dealt one in the opening hand against the others (the deal is random)"
    return [Holding("wild (dealt)", "wilds_dealt", None, "causal", dealt),
            Holding("colour top (dealt)", "tops_dealt", None, "causal",
                    dealt.replace("dealt one", "dealt the highest card of a colour")),
            Holding("wild (played)", "wilds_played", None, "observational",
                    "observational: the seats that played a wild \"1\" against those that did not")]
