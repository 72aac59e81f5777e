"""Fauch & Fertig's cards for ``playtest cards`` (the descriptor's ``card_candidates`` and ``card_holdings``).

Removing: the deck is always the printed 72 cards, so a kind of card (a
distinct condition of ``[conditions]``, e.g. ``pay 5 coins``) is made
neutral: every card of that kind becomes a dead card (condition ``pay 1000000
coins``: it is still bought for its colour and number, its own egg can never
be placed and, like every pay card, it is not dealt to an opening display).
``community: <condition>``: that white card taken out of ``community.cards``
(offered when more cards remain than the players need).

Who holds it: ``<kind> (dealt)`` (causal: a card of that kind in the opening
display, bits of ``dealt_kinds``) and ``<kind> (bought)`` (observational, an
association: a seat that is ahead may simply get to buy more cards; bits of
``bought_kinds``).
"""

from simulator.core.card_rows import Holding
from simulator.fauch_fertig.layout import MAX_KINDS
from simulator.fauch_fertig.setup import card_conditions, card_kinds as kinds_of

DEAD = "pay 1000000 coins"   # the neutral condition: a card whose egg can never be placed


def card_kinds(table):
    """The kinds of card in ``table``: its distinct conditions, in the order the table names them."""
    return kinds_of(card_conditions(table))[0]


def candidates(table, players):
    """``{card name: (what removing it means, setup override)}`` from the merged setup ``table`` at ``players``."""
    out = {}
    conditions = table["conditions"]
    for kind in card_kinds(table):
        dead = {key: [DEAD if _normal(text) == kind else text for text in conditions[key]]
                for key in ("first_copy", "second_copy", "black")}
        cards = 4 * sum(_normal(text) == kind for key in ("first_copy", "second_copy") for text in conditions[key]) \
            + sum(_normal(text) == kind for text in conditions["black"])  # a copy list's entry is one card a colour
        what = f"the {cards} {kind!r} cards made dead ({DEAD})"
        out[kind] = (what, {"conditions": dead})
    pool = list(table["community"]["cards"])
    needed = 1 if players == 2 else players
    if len(pool) > needed:
        for k, text in enumerate(pool):
            name = f"community: {_normal(text)}"
            if name not in out:
                out[name] = (f"the community card {text!r} taken out ({len(pool)} -> {len(pool) - 1} cards)",
                             {"community": {"cards": pool[:k] + pool[k + 1:]}})
    return out


def holdings(table, players):
    """The "who holds it" rows from the merged setup ``table`` (any ``players``)."""
    rows = []
    for k, kind in enumerate(card_kinds(table)[:MAX_KINDS]):
        rows.append(Holding(f"{kind} (dealt)", "dealt_kinds", k, "causal",
                            "causal: the seats dealt one to their opening display against the others (the deal "
                            "is random)"))
        rows.append(Holding(f"{kind} (bought)", "bought_kinds", k, "observational",
                            "observational: the seats that bought one against those that did not"))
    return rows


def _normal(text):
    return " ".join(str(text).lower().split())
