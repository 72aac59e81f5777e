"""Validate a Fool! setup table and compile it into the kernel's arrays.

Card encoding shared by the kernel, the trace and the reference engine: colour
0 is the wild "1" (value 1); colours 1..n are ``deck.colours`` in order. A
card's trace code is ``100 * colour + value`` (so every wild is code 1).
"""

from pathlib import Path

import numpy as np

from simulator.core.game import Config
from simulator.core import seat_bonus
from simulator.core.setup import SetupError, player_row, require, require_ints
from simulator.fool.layout import (MAX_COLOURS, MAX_HAND, MAX_PLAYERS, MAX_VALUE, R_CARDS, R_COLOURS, R_DISCS, R_EMPTY_HAND,
                                   R_HAND, R_LOSS_LIMIT, R_MAX_DEALS, R_PLAYERS, R_SIZE, R_TALLY_LIMIT,
                                   R_WILD_PENALTY, WILD_VALUE)

SETUP_PATH = Path(__file__).with_name("setup.toml")
VARIANTS = ("standard",)
ROW_KEYS = ("wilds", "discs", "hand", "seat_bonus")
SCORING_KEYS = (("empty_hand", 0), ("wild_penalty", 1), ("loss_limit", 1), ("tally_limit", 1))
MAX_DEALS_LIMIT = 10_000   # highest accepted game.max_deals (it sizes the game trace)


def colour_ranges(setup, players):
    """Return ``(colour names, [(lowest, highest)] per colour)`` for ``players``, validated."""
    names = require(require(setup, "deck", dict, ""), "colours", list, "deck")
    if not 1 <= len(names) <= MAX_COLOURS or len(set(names)) != len(names) or \
            not all(isinstance(n, str) and n for n in names):
        raise SetupError("deck.colours", f"must name 1 to {MAX_COLOURS} different colours, got {names!r}")
    row = player_row(setup, players)
    path = f"players.{players}"
    unknown = sorted(set(row) - set(names) - set(ROW_KEYS))
    if unknown:
        raise SetupError(f"{path}.{unknown[0]}", f"is not a colour of deck.colours ({', '.join(names)}) "
                         f"nor one of {', '.join(ROW_KEYS)}")
    ranges = []
    for name in names:
        lo_hi = require_ints(row, name, path)
        if len(lo_hi) != 2 or not 2 <= lo_hi[0] <= lo_hi[1] <= MAX_VALUE:
            raise SetupError(f"{path}.{name}", f"must be [lowest, highest] with 2 <= lowest <= highest <= "
                             f"{MAX_VALUE} (1 is the wild), got {lo_hi!r}")
        ranges.append((lo_hi[0], lo_hi[1]))
    return names, ranges


def compile_setup(setup, players, variant):
    """Check a merged Fool! table for ``players`` and build its ``Config``.

    Raises ``SetupError`` naming the offending key when the table cannot be
    played: a colour range that is not ``[lowest, highest]``, a row key that
    is not a colour, so many discs that the trick winner could be befooled,
    or cards that do not deal out evenly into hands of the row's size, a hand
    of more than ``MAX_HAND`` cards, or a safety cap ``game.max_deals`` outside
    1..``MAX_DEALS_LIMIT``.
    """
    if variant not in VARIANTS:
        raise SetupError("variant", f"unknown variant {variant!r} for fool (choose from {', '.join(VARIANTS)})")
    if not 2 <= players <= MAX_PLAYERS:
        raise SetupError(f"players.{players}", f"Fool! is simulated for 2 to {MAX_PLAYERS} players, got {players}")
    names, ranges = colour_ranges(setup, players)
    row = player_row(setup, players)
    path = f"players.{players}"
    wilds = require(row, "wilds", int, path, minimum=0)
    discs = require(row, "discs", int, path, minimum=1)
    hand = require(row, "hand", int, path, minimum=2)
    if hand > MAX_HAND:
        raise SetupError(f"{path}.hand", f"must be at most {MAX_HAND} cards, got {hand}")
    if players < 2 * discs + 1:
        raise SetupError(f"{path}.discs", f"{discs} discs need at least {2 * discs + 1} players (the players "
                         f"still in a trick must outnumber the discs), got {players}")
    scoring = require(setup, "scoring", dict, "")
    points = {key: require(scoring, key, int, "scoring", minimum=low) for key, low in SCORING_KEYS}
    cap = require(require(setup, "game", dict, ""), "max_deals", int, "game", minimum=1)
    if cap > MAX_DEALS_LIMIT:
        raise SetupError("game.max_deals", f"must be at most {MAX_DEALS_LIMIT}, got {cap}")

    numbered = sum(hi - lo + 1 for lo, hi in ranges)
    if numbered + wilds != players * hand:
        raise SetupError(path, f"the cards for {players} players cannot be dealt evenly: {numbered} numbered "
                         f"cards + {wilds} wilds = {numbered + wilds} cards, but {players} players x {hand} "
                         f"cards each = {players * hand}")

    colours = [0] * wilds
    values = [WILD_VALUE] * wilds
    for c, (lo, hi) in enumerate(ranges, start=1):
        for v in range(lo, hi + 1):
            colours.append(c)
            values.append(v)
    n_cards = len(colours)
    min_penalty = min([lo for lo, _ in ranges] + ([points["wild_penalty"]] if wilds else []))
    # Every deal leaves at least one player holding cards (see docs/rules/fool.md), so the
    # totals' sum falls by min_penalty per deal apart from the tallies: no game lasts longer
    # than `bound` deals, and the safety cap is only reached below it.
    bound = ((points["tally_limit"] - 1) * points["empty_hand"]
             + (points["loss_limit"] - 1) * players) // min_penalty + 1
    max_deals = min(cap, bound)
    rules = np.zeros(R_SIZE, dtype=np.int64)
    for index, value in ((R_PLAYERS, players), (R_COLOURS, len(names)), (R_DISCS, discs), (R_HAND, hand),
                         (R_CARDS, n_cards), (R_EMPTY_HAND, points["empty_hand"]),
                         (R_WILD_PENALTY, points["wild_penalty"]), (R_LOSS_LIMIT, points["loss_limit"]),
                         (R_TALLY_LIMIT, points["tally_limit"]), (R_MAX_DEALS, max_deals)):
        rules[index] = value
    return seat_bonus.attach(Config(game="fool", players=players, variant=variant, setup=setup,
                                    arrays=(np.array(colours, dtype=np.int64), np.array(values, dtype=np.int64), rules),
                                    trace_len=1 + max_deals * (2 + 2 * n_cards),
                                    info={"colours": list(names), "cards": n_cards, "hand": hand, "discs": discs,
                                          "max_deals": max_deals}))
