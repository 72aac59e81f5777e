"""A Fool! game told trick by trick, from its kernel trace."""

from simulator.fool.reference import replay


def narrate(config, trace, strategies):
    """Lines describing the traced game, replayed (and so checked) by the reference engine.

    Per deal: who starts, every hand, then each trick (every card in playing
    order, who passes, the winner and who is befooled), the deal's scores and
    the running totals; at the end the winner(s).
    """
    names = [f"seat {s}" for s in range(config.players)]
    result = replay(config, trace, log=True, names=names)
    discs = config.info["discs"]
    head = [f"Fool!, {config.players} players, {config.info['cards']} cards, {config.info['hand']} each, "
            f"{discs} Fool! disc{'s' if discs > 1 else ''}; seats: "
            + ", ".join(f"{s}={name}" for s, name in enumerate(strategies))]
    best = max(result.totals)
    winners = [names[s] for s, v in enumerate(result.totals) if v == best]
    end = "game over" if result.finished else "game stopped unfinished"
    tail = [f"{end} after {result.deals} deals and {result.trick_count} tricks; "
            + ("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners) + f" with {best}"]
    return head + result.log + tail
