"""Forks's cards for ``playtest cards`` (the descriptor's ``card_candidates`` and ``card_holdings``).

Removing: the deck must deal out evenly (three cards to each seat a round, the
deck emptied by the last deal), and without any one value it no longer does
at any printed player count (4 players: 55 - 4 removed - 3 marketed = 48
cards, 12 a round; without the 5 cards of a value, 43). So ``value V`` is
replaced, not taken out: every card of value V in play (one a destination,
and a destination's extra card of that value) becomes a card of the
neighbouring value in play nearer the deck's mean card value: a value below
the mean takes the next higher value, any other the next lower (4 players,
mean 405 / 55 = 7.4: 3 -> 4, ..., 7 -> 8, 8 -> 7, ..., 12 -> 11; ``deck.values``
and ``deck.extra`` with V replaced). The deck keeps its size, its
destinations and each destination's card count, so only the value changes,
by the smallest step the printed values allow, towards an average card; the
effect is that of the V cards against their neighbours. (A destination may
then hold two cards of one value, as the printed extra cards already do.)

Who holds it: ``value V (dealt)`` (causal: a card of value V among the seat's
first three cards, round 1; bits of ``dealt_values``) and ``value V
(invested)`` (observational: a card of value V in the seat's hand at the end,
``invested_values``); values of 31 and more are not recorded.
"""

from simulator.core.card_rows import Holding
from simulator.forks.engine import VALUE_BITS


def candidates(table, players):
    """``{card name: (what removing it means, setup override)}`` from the merged setup ``table`` at ``players``."""
    out = {}
    deck = table["deck"]
    values, extra = list(deck["values"]), dict(deck.get("extra", {}))
    removed = set(table["players"][str(players)].get("remove_values", []))
    cards = [v for v in values for _ in deck["destinations"]] + list(extra.values())
    cards = [v for v in cards if v not in removed]
    in_play = sorted(set(cards))
    mean = sum(cards) / max(1, len(cards))
    for v in dict.fromkeys(values):
        if v in removed:
            continue
        new = neighbour(v, in_play, mean)
        if new is None:
            continue
        extras = sorted(name for name, x in extra.items() if x == v)
        count = len(deck["destinations"]) * values.count(v) + len(extras)
        also = f", {' and '.join(extras)}'s extra card included" if extras else ""
        change = {"values": [new if x == v else x for x in values]}
        if extras:
            change["extra"] = {name: new for name in extras}
        out[f"value {v}"] = (f"the {count} cards of value {v} become {new}s (one a destination{also}; the deck "
                             f"keeps its {len(cards)} cards)", {"deck": change})
    return out


def neighbour(value, in_play, mean):
    """The neutral replacement of ``value``: the next value of ``in_play`` (the sorted values in play) towards
    the deck's ``mean`` card value (the next higher below the mean, else the next lower; None: no other value)."""
    k = in_play.index(value)
    higher = in_play[k + 1] if k + 1 < len(in_play) else None
    lower = in_play[k - 1] if k > 0 else None
    return (higher if higher is not None else lower) if value < mean else (lower if lower is not None else higher)


def holdings(table, players):
    """The "who holds it" rows from the merged setup ``table`` at ``players``."""
    removed = set(table["players"][str(players)].get("remove_values", []))
    rows = []
    for v in sorted(set(table["deck"]["values"]) - removed):
        if v < VALUE_BITS:
            rows.append(Holding(f"value {v} (dealt)", "dealt_values", v, "causal",
                                f"causal: the seats dealt a {v} among their first three cards against the others "
                                f"(the deal is random)"))
            rows.append(Holding(f"value {v} (invested)", "invested_values", v, "observational",
                                f"observational: the seats that invested in a {v} against those that did not"))
    return rows
