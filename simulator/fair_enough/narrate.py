"""A Fair Enough game told round by round, from its kernel trace."""

from simulator.fair_enough.layout import SPECIAL_NAMES
from simulator.fair_enough.reference import replay


def cards(cs):
    """Cards as text, e.g. ``A7, C3, Queue`` (kinds are letters A, B, ...; ``-`` for none)."""
    return ", ".join(str(c) for c in cs) or "-"


def describe(event):
    """One line for one event of the reference engine's log (``None`` for events told elsewhere)."""
    tag = event[0]
    if tag == "setup":
        _, hands, row = event
        return ("deal: " + "; ".join(f"seat {p} {cards(h)}" for p, h in enumerate(hands))
                + f"\nface-up row: {cards(row)}")
    if tag == "round":
        return f"Round {event[1] + 1}: research"
    if tag == "take":
        _, seat, taken, row = event
        what = f"takes {cards(taken)}" if taken else "takes nothing"
        return f"  seat {seat} {what}; row {cards(row)}"
    if tag == "reshuffle":
        return f"  the deck ran out: the discard pile ({event[1]} cards) is shuffled into a new deck"
    if tag == "time":
        return f"Round {event[1] + 1}: collecting, time card {event[2]}"
    if tag == "place":
        _, seat, move, owner, before, after = event
        how = ""
        if move.special is not None:
            how = f" with {SPECIAL_NAMES[move.special.special]}"
        if move.target is not None:
            how += f" (removes seat {owner}'s {move.target}, +{move.target.value})"
        return f"  seat {seat} places {move.card}{how}: time {before} -> {after}"
    if tag == "secure":
        _, seat, pile, first = event
        return f"  seat {seat} secures {cards(pile)}" + (" and takes the Starting Player Card" if first else "")
    if tag == "zero":
        _, seat, pile, first = event
        return (f"  time 0: the fair closes; seat {seat} secures {cards(pile)}"
                + (" and takes the Starting Player Card" if first else ""))
    if tag == "lost":
        return f"  seat {event[1]} loses {cards(event[2])} to the closing fair"
    if tag == "start":
        return f"  seat {event[1]} holds the Starting Player Card"
    return None


def narrate(config, trace, strategies):
    """Lines describing the traced game, replayed (and so checked) by the reference engine."""
    result = replay(config, trace)
    times = ", ".join(str(t) for t in config.info["time_cards"])
    lines = [f"Fair Enough, {config.players} players, {config.variant} rules (time cards {times}); seats: "
             + ", ".join(f"{s}={name}" for s, name in enumerate(strategies))]
    for event in result.events:
        text = describe(event)
        if text is not None:
            lines += text.split("\n")
    lines.append("Scoring (collected values + set bonus - hand penalty = score; largest set):")
    for p, s in enumerate(result.seats):
        lines.append(f"  seat {p}: {s.collected_value} + {s.set_bonus} - {s.hand_penalty} = {s.score}"
                     f" ({s.collected} cards collected; largest set {s.largest_set})")
    best = max(result.standing)
    winners = [p for p, v in enumerate(result.standing) if v == best]
    lines.append(("winner: seat " if len(winners) == 1 else "shared win: seats ") + ", ".join(map(str, winners)))
    return lines
