"""A Fauch & Fertig game told turn by turn, from its kernel trace.

The trace is replayed (and so checked) by the reference engine; its event
log is put into words here: the deal, every purchase with the coins moved,
every egg placed and why, reshuffles, and the result.
"""

from simulator.fauch_fertig.reference import replay


def _coins(n):
    return f"{n} coin" + ("" if n == 1 else "s")


def _card(card):
    return "nothing" if card is None else f"{card} ({card.condition.text})"


def describe(event, names=None):
    """One event of the reference engine's log in words.

    Players are called by ``names[seat]`` if ``names`` is given, else "seat N".
    """
    kind, *a = event

    def who(seat):
        return names[seat] if names else f"seat {seat}"

    if kind == "deal":
        seat, cards = a
        return f"{who(seat)} is dealt " + ", ".join(map(_card, cards))
    if kind == "community":
        return "community cards: " + "; ".join(f"{text!r} between {who(l)} and {who(r)}" for text, l, r in a[0])
    if kind == "market":
        return "market: " + ", ".join(map(_card, a[0]))
    if kind == "round":
        return f"-- round {a[0] + 1}"
    if kind == "buy":
        seat, card, slot, paid_slots, taken, coins = a
        paid = f"pays 1 coin onto market slot{'s' if len(paid_slots) != 1 else ''} " + \
            ", ".join(str(s + 1) for s in paid_slots) + ", " if paid_slots else ""
        return (f"{who(seat)} buys {_card(card)} from market slot {slot + 1}: {paid}takes the "
                f"{_coins(taken)} on it; now {_coins(coins)}")
    if kind == "blind":
        seat, drawn, kept, paid, coins = a
        return (f"{who(seat)} buys blind: pays 1 coin onto each of {paid} market cards, draws "
                f"{', '.join(map(str, drawn))}, keeps {_card(kept)}; now {_coins(coins)}")
    if kind == "take":
        seat, amount, coins = a
        return f"{who(seat)} takes {_coins(amount)}; now {_coins(coins)}"
    if kind == "refill":
        slot, card = a
        return f"market slot {slot + 1} refilled with {_card(card)}" if card else f"market slot {slot + 1} stays empty"
    if kind == "reshuffle":
        return f"draw pile empty: the {a[0]} discarded cards are shuffled into a new pile"
    if kind == "egg":
        seat, card, reason, golden = a
        where = f"on {card}" if card is not None else "on the community card"
        return f"{who(seat)} places {'a golden egg' if golden else 'an egg'} {where}: {reason}"
    if kind == "bonus":
        seat, bonus, black, coins = a
        return f"{who(seat)}'s black-card bonus ({bonus}) rewards the black card bought: +{_coins(coins)}"
    if kind == "pay":
        seat, card, paid, cost = a
        return f"{who(seat)} {'pays' if paid else 'declines to pay'} {_coins(cost)} for the egg on {card}"
    if kind == "complete":
        k, text, completer, other = a
        return f"community card {text!r} is complete: {who(completer)} completed it, {who(other)} is the neighbour"
    if kind == "end":
        finished, rounds, winners = a
        if not finished:
            return f"stopped by the safety cap after {rounds} rounds: the game is recorded as unfinished"
        return f"game over after {rounds} rounds"
    raise ValueError(f"unknown event {kind!r}")


def narrate(config, trace, strategies):
    """Lines describing the traced game, replayed (and so checked) by the reference engine."""
    result = replay(config, trace)
    head = [f"Fauch & Fertig, {config.players} players; seats: " +
            ", ".join(f"{s}={name}" for s, name in enumerate(strategies))]
    lines = [describe(e) for e in result.events]
    eggs = config.info["eggs"]
    summary = [f"seat {s}: {result.placed[s]} eggs placed ({result.golden[s]} golden, needs {eggs}), "
               f"{_coins(result.coins[s])}, place {result.ranks[s]}" for s in range(config.players)]
    w = result.winners
    tail = [("winner: seat " if len(w) == 1 else "shared win: seats ") + ", ".join(map(str, w))]
    return head + lines + summary + tail
