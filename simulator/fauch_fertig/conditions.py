"""Condition tests over display summaries (the hot loop of Fauch & Fertig).

A display is summarised by two count vectors: ``colours[row, 0..4]`` (cards
per colour, index 4 = black) and ``numbers[row, 0..8]`` (cards per number;
index 0 is unused because black cards have no number). The functions take the
2-D arrays and a row (one row per seat, plus spare rows for two displays
together) because slicing out a row in the hot loop costs more than the test. Every condition of the game
depends only on these counts, so a turn never rescans a display: the engine
adds the bought card to the counts and re-tests the open conditions.

All functions are jit-compiled with ``numba.njit(cache=True)`` and allocate
nothing.
"""

import numba as nb

from simulator.fauch_fertig.layout import (BLACK, C_BLACK, C_COLOUR, C_COLOURS, C_DISTINCT, C_FREE, C_RANGE,
                                           C_RUNS, C_SETS, N_COLOURS, N_NUMBERS)


@nb.njit(cache=True)
def runs_fit(numbers, row, m, length):
    """True if ``m`` disjoint runs of ``length`` consecutive numbers can be formed. Jit-compiled.

    Exact: runs have equal length, so taking as many runs as possible at the
    lowest possible start, then moving up, never does worse than any other
    choice (the classic earliest-end greedy for equal intervals). Runs taken
    per start are packed 4 bits each into one integer (at most 8 cards share
    a number), so nothing is allocated.
    """
    taken = 0
    total = 0
    for s in range(1, N_NUMBERS + 2 - length):
        t = 1 << 30
        for j in range(s, s + length):
            used = 0
            for s2 in range(max(1, j - length + 1), s):
                used += (taken >> (4 * s2)) & 15
            left = numbers[row, j] - used
            if left < t:
                t = left
        if t > 15:
            t = 15
        taken |= t << (4 * s)
        total += t
        if total >= m:
            return True
    return False


@nb.njit(cache=True)
def colour_sets_fit(colours, row, m, k):
    """True if ``m`` disjoint sets of ``k`` different colours can be formed (black never counts). Jit-compiled.

    Exact: each colour serves at most once per set, so it contributes at most
    ``min(count, m)`` cards, and ``m * k`` such cards always split into ``m``
    sets of ``k`` different colours (deal them round-robin, colour by colour).
    """
    total = 0
    for c in range(N_COLOURS):
        total += min(colours[row, c], m)
    return total >= m * k


@nb.njit(cache=True, inline="always")
def numbered(numbers, row):
    """How many numbered cards the counts of ``row`` hold. Jit-compiled.

    Sets and runs need at least this many, which is cheaper to check than
    the sets (an integer division per number) or the runs (a nested loop).
    """
    total = 0
    for n in range(1, N_NUMBERS + 1):
        total += numbers[row, n]
    return total


@nb.njit(cache=True)
def holds(kind, a, b, c, colours, numbers, row):
    """True if the condition ``(kind, a, b, c)`` (see ``layout``) holds for the counts in ``row``. Jit-compiled.

    ``C_FREE`` always holds; ``C_PAY`` and ``C_BONUS`` are never met by a
    display (they are actions, handled by the engine) and return False.
    """
    if kind == C_COLOUR:
        if b >= 0:
            return colours[row, b] >= a
        for col in range(N_COLOURS):
            if colours[row, col] >= a:
                return True
        return False
    if kind == C_RANGE:
        total = 0
        for n in range(b, c + 1):
            total += numbers[row, n]
        return total >= a
    if kind == C_DISTINCT:
        total = 0
        for n in range(1, N_NUMBERS + 1):
            if numbers[row, n] > 0:
                total += 1
        return total >= a
    if kind == C_SETS or kind == C_RUNS:
        if numbered(numbers, row) < a * b:  # a groups of b numbered cards, no card used twice
            return False
        if kind == C_RUNS:
            return runs_fit(numbers, row, a, b)
        total = 0
        for n in range(1, N_NUMBERS + 1):
            total += numbers[row, n] // b
        return total >= a
    if kind == C_COLOURS:
        return colour_sets_fit(colours, row, a, b)
    if kind == C_BLACK:
        return colours[row, BLACK] >= a
    return kind == C_FREE
