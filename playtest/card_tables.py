"""The cards of each game's setup table that ``playtest cards`` asks about: removals and "who holds it" rows.

What "removing" means, per game (the setup table's own keys):

- Fair Enough: one ``queue``, ``preorder`` or ``sold_out`` special card fewer
  (``deck.<special>`` minus one); ``value V``: every kind's card of value V
  left out of ``deck.values``.
- Forks: the deck must deal out evenly (three cards to each seat a round, the
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
- Fool!: the cards must deal out evenly, so a card is replaced, not just
  taken out. ``wild``: one wild "1" fewer and the longest colour one card
  longer (``players.N.wilds`` minus one, the colour's highest plus one);
  ``<colour>``: that colour one card shorter (its top card out) and the
  longest other colour one card longer. The ``discs`` are a rule, not a card.
- Fauch & Fertig: the deck is always the printed 72 cards, so a kind of card
  (a distinct condition of ``[conditions]``, e.g. ``pay 5 coins``) is made
  neutral: every card of that kind becomes a dead card (condition
  ``pay 1000000 coins``: it is still bought for its colour and number, its own
  egg can never be placed and, like every pay card, it is not dealt to an
  opening display). ``community: <condition>``: that white card taken out of
  ``community.cards`` (offered when more cards remain than the players need).

Who holds it (``holdings``): the seat columns that say which seats held a
card, and whether holding it was assigned at random (``analyses.cards.held_effects``
turns them into effects with their intervals).

- Dealt in the opening hand (kind ``causal``): the deal is random, so being
  dealt the card is assigned at random and the difference is its effect.
  Fool!: ``wild (dealt)`` (a wild "1" in the first deal's hand, seat column
  ``wilds_dealt``) and ``colour top (dealt)`` (the highest card of a colour,
  ``tops_dealt``); Fauch & Fertig: ``<kind> (dealt)`` (a card of that kind in
  the opening display, bits of ``dealt_kinds``).
- Played or bought (kind ``observational``): an association, not an effect: a
  seat that is ahead may simply get to play or buy more cards; the output
  marks these rows. Fair Enough: ``<special> (played)`` (``queue_played``,
  ``preorder_played``, ``sold_out_played``); Fool!: ``wild (played)``
  (``wilds_played``); Fauch & Fertig: ``<kind> (bought)`` (``bought_kinds``);
  Forks, below.

Forks: ``value V (dealt)`` (causal: a card of value V among the seat's first
three cards, round 1; bits of ``dealt_values``) and ``value V (invested)``
(observational: a card of value V in the seat's hand at the end,
``invested_values``); values of 31 and more are not recorded.
"""

from dataclasses import dataclass

from analyses.cards import CardError
from simulator.fauch_fertig.layout import MAX_KINDS
from simulator.fauch_fertig.setup import card_conditions, card_kinds as kinds_of
from simulator.forks.engine import VALUE_BITS

__all__ = ["GAMES", "Holding", "candidates", "card_kinds", "holdings", "neighbour"]

DEAD = "pay 1000000 coins"   # Fauch & Fertig's neutral condition: a card whose egg can never be placed
GAMES = ("fair-enough", "forks", "fool", "fauch-fertig")


def candidates(game, table, players):
    """``{card name: (what removing it means, setup override)}`` for ``game`` (its name) from its merged setup
    ``table`` at ``players`` (see the module docstring)."""
    if game == "fair-enough":
        return _fair_enough(table)
    if game == "forks":
        return _forks(table, players)
    if game == "fool":
        return _fool(table, players)
    if game == "fauch-fertig":
        return _fauch_fertig(table, players)
    raise CardError(f"playtest cards does not know the cards of {game} yet (it knows {', '.join(GAMES)})")


def _fair_enough(table):
    out = {}
    deck = table["deck"]
    for special in ("queue", "preorder", "sold_out"):
        if deck.get(special, 0) > 0:
            out[special] = (f"one {special.replace('_', ' ')} card fewer ({deck[special]} -> {deck[special] - 1})",
                            {"deck": {special: deck[special] - 1}})
    values = list(deck["values"])
    if len(values) > 1:
        for v in sorted(set(values)):
            out[f"value {v}"] = (f"the {v}s of every kind left out", {"deck": {"values": [x for x in values
                                                                                       if x != v]}})
    return out


def _forks(table, players):
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
    """Forks's neutral replacement of ``value``: the next value of ``in_play`` (the sorted values in play) towards
    the deck's ``mean`` card value (the next higher below the mean, else the next lower; None: no other value)."""
    k = in_play.index(value)
    higher = in_play[k + 1] if k + 1 < len(in_play) else None
    lower = in_play[k - 1] if k > 0 else None
    return (higher if higher is not None else lower) if value < mean else (lower if lower is not None else higher)


def _fool(table, players):
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


def card_kinds(table):
    """Fauch & Fertig's kinds of card in ``table``: its distinct conditions, in the order the table names them."""
    return kinds_of(card_conditions(table))[0]


def _fauch_fertig(table, players):
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


def _normal(text):
    return " ".join(str(text).lower().split())


@dataclass(frozen=True)
class Holding:
    """One "who holds it" row: the seats whose seat column ``column`` (its bit ``bit``, if given) is not 0
    against the others; ``kind`` is causal (dealt at random) or observational."""

    card: str
    column: str
    bit: int | None
    kind: str
    meaning: str


def holdings(game, table, players):
    """The "who holds it" rows of ``game`` at ``players`` from its merged setup ``table`` (module docstring)."""
    if game == "fair-enough":
        return [Holding(f"{s} (played)", f"{s}_played", None, "observational",
                        "observational: the seats that played one against those that did not")
                for s in ("queue", "preorder", "sold_out") if table["deck"].get(s, 0) > 0]
    if game == "fool":
        dealt = "causal: the seats dealt one in the opening hand against the others (the deal is random)"
        return [Holding("wild (dealt)", "wilds_dealt", None, "causal", dealt),
                Holding("colour top (dealt)", "tops_dealt", None, "causal",
                        dealt.replace("dealt one", "dealt the highest card of a colour")),
                Holding("wild (played)", "wilds_played", None, "observational",
                        "observational: the seats that played a wild \"1\" against those that did not")]
    if game == "fauch-fertig":
        rows = []
        for k, kind in enumerate(card_kinds(table)[:MAX_KINDS]):
            rows.append(Holding(f"{kind} (dealt)", "dealt_kinds", k, "causal",
                                "causal: the seats dealt one to their opening display against the others (the deal "
                                "is random)"))
            rows.append(Holding(f"{kind} (bought)", "bought_kinds", k, "observational",
                                "observational: the seats that bought one against those that did not"))
        return rows
    if game == "forks":
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
    return []
