"""Validate a Nim setup table and compile it into the kernels' arrays."""

import numpy as np

from simulator.core import seat_bonus
from simulator.core.game import Config
from simulator.core.setup import SetupError, player_row, require
from simulator.example.layout import MAX_PILE, MAX_TAKE

VARIANTS = ("standard",)


def compile_setup(setup, players, variant):
    """Check a merged Nim table for ``players`` and build its ``Config``.

    Raises ``SetupError`` naming the offending key: an unknown variant, a
    missing player row, a ``take`` outside 1..``MAX_TAKE``, or a pile range
    that is empty or outside 1..``MAX_PILE``.
    """
    if variant not in VARIANTS:
        raise SetupError("variant", f"unknown variant {variant!r} for nim (choose from {', '.join(VARIANTS)})")
    pile = require(setup, "pile", dict, "")
    low = require(pile, "min", int, "pile", minimum=1)
    high = require(pile, "max", int, "pile", minimum=1)
    if not low <= high <= MAX_PILE:
        raise SetupError("pile", f"must satisfy 1 <= min <= max <= {MAX_PILE}, got min {low}, max {high}")
    take = require(require(setup, "turn", dict, ""), "take", int, "turn", minimum=1)
    if take > MAX_TAKE:
        raise SetupError("turn.take", f"must be at most {MAX_TAKE}, got {take}")
    player_row(setup, players)  # refuses a player count the table has no row for
    rules = np.array([players, take, low, high], dtype=np.int64)
    return seat_bonus.attach(Config(game="nim", players=players, variant=variant, setup=setup, arrays=(rules,),
                                    trace_len=1 + high, info={"take": take, "pile": (low, high)}))
