"""A Forks game told pick by pick, from its kernel trace."""

from simulator.forks.reference import replay


def narrate(config, trace, strategies):
    """Lines describing the traced game, replayed (and so checked) by the reference engine."""
    result = replay(config, trace, log=True)
    head = [f"Forks, {config.players} players, {config.variant} rules; seats: " +
            ", ".join(f"{s}={name}" for s, name in enumerate(strategies))]
    best = max(result.scores)
    winners = [s for s, v in enumerate(result.scores) if v == best]
    tail = [("winner: seat " if len(winners) == 1 else "shared win: seats ") + ", ".join(map(str, winners))]
    return head + result.log + tail
