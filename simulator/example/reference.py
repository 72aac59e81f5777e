"""Nim's reference engine: the rules in plain Python, which replays (and so checks) a kernel trace.

The referee tests and the engine contract (tests/contract) replay the
kernels' traces here: any move the rules do not allow raises
``RefereeError``, and the scores must be the kernel's.
"""

import random
from dataclasses import dataclass, field



class RefereeError(ValueError):
    """A trace that the rules do not allow."""


@dataclass
class Result:
    scores: list
    taken: list
    rounds: int
    log: list = field(default_factory=list)


def play(players, take, pile, strategies, log=False):
    """Play one game from ``pile`` counters; ``strategies[seat](pile, legal)`` returns how many to take."""
    taken, lines, seat, moves = [0] * players, [], 0, 0
    while True:
        legal = list(range(1, min(take, pile) + 1))
        n = strategies[seat](pile, legal)
        if n not in legal:
            raise RefereeError(f"move {moves}: seat {seat} takes {n} of {pile} counters; the rules allow "
                               f"{legal[0]} to {legal[-1]}")
        pile -= n
        taken[seat] += n
        moves += 1
        if log:
            lines.append(f"seat {seat} takes {n}, {pile} left")
        if pile == 0:
            scores = [1 if p == seat else 0 for p in range(players)]
            return Result(scores, taken, (moves + players - 1) // players, lines)
        seat = (seat + 1) % players


def rules_of(config):
    """``(players, take, pile_min, pile_max)`` of a compiled config's setup table."""
    return (config.players, config.setup["turn"]["take"], config.setup["pile"]["min"], config.setup["pile"]["max"])


def replay(config, trace, log=False):
    """Replay a kernel trace (``simulator.example.layout``: the starting pile, then one action per move) and
    return the reference ``Result``; ``RefereeError`` if the pile is outside the table's range, a move is
    illegal or the trace ends before the game does."""
    players, take, low, high = rules_of(config)
    pile = int(trace[0])
    if not low <= pile <= high:
        raise RefereeError(f"the starting pile {pile} is outside the table's {low} to {high}")
    moves = iter(int(a) + 1 for a in trace[1:])

    def scripted(left, legal):
        try:
            return next(moves)
        except StopIteration:
            raise RefereeError(f"the trace ends with {left} counters left") from None

    result = play(players, take, pile, [scripted] * players, log)
    if next(moves, None) is not None:
        raise RefereeError("the trace goes on after the last counter was taken")
    return result


def play_random(config, seed):
    """One game with ``random`` in every seat (the benchmark's pure-Python baseline)."""
    rng = random.Random(seed)
    players, take, low, high = rules_of(config)
    return play(players, take, rng.randint(low, high), [lambda pile, legal: rng.choice(legal)] * players)
