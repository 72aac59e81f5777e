"""The leader after each round, packed into two game columns: the input of the comeback curve.

The game loop (``simulator.core.kernels.play_game``) asks the engine for
the standing (its optional verb ``standing``, else its ``result``) whenever
a round ends before the game does (the
engine's ``round_mark`` changes, by default its ``horizon_mark``) and records
who leads there: ``1 + seat`` for a sole leader, ``SHARED`` for a shared
lead, 0 for no round. Four bits a round, eight rounds to a column:
``leaders_1_8`` holds rounds 1-8 (round 1 in the lowest bits),
``leaders_9_16`` rounds 9-16; later rounds are not recorded. The standing is
the one ranking uses, seat bonus included, so a leader is the seat that would
win if the game ended there. The last round's "leader" is the winner and is
not recorded.
"""

import numba as nb

COLUMNS = ("leaders_1_8", "leaders_9_16")
SHARED = 15
ROUNDS = 16          # rounds recorded at most
PER_COLUMN = 8


@nb.njit(cache=True, nogil=True, inline="always")
def leader_code(standing):
    """``1 + seat`` of the sole highest standing, or ``SHARED``. Jit-compiled."""
    best, count = 0, 0
    for p in range(standing.size):
        if p == 0 or standing[p] > standing[best]:
            best, count = p, 1
        elif standing[p] == standing[best]:
            count += 1
    return best + 1 if count == 1 else SHARED


@nb.njit(cache=True, nogil=True, inline="always")
def as_int32(bits):
    """32 bits held in an int64 as the int32 with the same bits (the game columns are int32). Jit-compiled."""
    return bits - (1 << 32) if bits >= (1 << 31) else bits


def pack(codes):
    """The two column values (int32) of a list of per-round leader codes (the reference engines' side)."""
    out = []
    for c in range(2):
        bits = 0
        for k, code in enumerate(codes[c * PER_COLUMN:(c + 1) * PER_COLUMN]):
            bits |= int(code) << (4 * k)
        out.append(bits - (1 << 32) if bits >= (1 << 31) else bits)
    return out


def code_of(key):
    """``1 + seat`` of the sole highest ``key`` (any comparable values per seat), or ``SHARED``."""
    top = max(key)
    leaders = [s for s, k in enumerate(key) if k == top]
    return leaders[0] + 1 if len(leaders) == 1 else SHARED

