"""Nim: a traced game as lines of text (``playtest replay``)."""

from simulator.example.reference import replay


def narrate(config, trace, strategies):
    """Lines describing the traced game, replayed (and so checked) by the reference engine."""
    result = replay(config, trace, log=True)
    head = [f"Nim, {config.players} players, take 1 to {config.info['take']}; starting pile {int(trace[0])}; "
            f"seats: " + ", ".join(f"{s}={name}" for s, name in enumerate(strategies))]
    return head + result.log + [f"winner: seat {result.scores.index(1)}"]
