"""Validate a Fair Enough setup table and compile it into the kernel's arrays."""

import numpy as np

from simulator.core.game import Config
from simulator.core import seat_bonus
from simulator.core.setup import SetupError, player_row, require, require_ints
from simulator.fair_enough.layout import (HAND_MAX, MAX_KINDS, MAX_PLAYERS, MAX_VALUES, MIN_PLAYERS, N_RULES, QUEUE,
                                          PREORDER, R_HAND_MAX, R_KINDS, R_N_TIMES, R_PLAYERS, R_ROUNDS, ROUNDS,
                                          SOLD_OUT, SPECIAL_NAMES)

VARIANTS = ("standard", "variante")


def time_cards(setup, players):
    """Return the six time cards of ``players`` players, refusing a row that is not six times >= 1."""
    row = player_row(setup, players)
    path = f"players.{players}"
    times = require_ints(row, "time_cards", path)
    if len(times) != ROUNDS:
        raise SetupError(f"{path}.time_cards", f"must list exactly {ROUNDS} time cards (one per round), "
                         f"got {len(times)}: {times!r}")
    for i, t in enumerate(times):
        if t <= 0:
            raise SetupError(f"{path}.time_cards[{i}]", f"a time card must be at least 1, got {t}")
    return times


def deck_cards(setup):
    """Return the deck as ``(kind, value, special)`` triples: collection cards first, then specials.

    A collection card has ``special = 0``; a special card has ``kind = -1``,
    ``value = 0`` and ``special`` one of ``QUEUE``, ``PREORDER``, ``SOLD_OUT``.
    """
    deck = require(setup, "deck", dict, "")
    kinds = require(deck, "kinds", int, "deck", minimum=1)
    if kinds > MAX_KINDS:
        raise SetupError("deck.kinds", f"at most {MAX_KINDS} kinds are supported, got {kinds}")
    values = require_ints(deck, "values", "deck", minimum=1)
    if not 1 <= len(values) <= MAX_VALUES:
        raise SetupError("deck.values", f"must list 1 to {MAX_VALUES} card values, got {len(values)}")
    cards = [(k, v, 0) for k in range(kinds) for v in values]
    for special, key in ((QUEUE, "queue"), (PREORDER, "preorder"), (SOLD_OUT, "sold_out")):
        cards += [(-1, 0, special)] * require(deck, key, int, "deck", minimum=0)
    return cards


def compile_setup(setup, players, variant):
    """Check a merged Fair Enough table for ``players`` and ``variant`` and build its ``Config``.

    Every player-count row of the table is checked (six time cards, each at
    least 1), not only the one played, so a broken table is refused whatever
    the player count. Raises ``SetupError`` naming the offending key.
    """
    if variant not in VARIANTS:
        raise SetupError("variant", f"unknown variant {variant!r} for fair-enough (choose from {', '.join(VARIANTS)})")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("players", f"Fair Enough is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    rows = require(setup, "players", dict, "")
    for name in rows:
        if not name.isdigit() or not MIN_PLAYERS <= int(name) <= MAX_PLAYERS:
            raise SetupError(f"players.{name}", f"names a player count outside {MIN_PLAYERS}-{MAX_PLAYERS}")
        time_cards(setup, int(name))
    times = time_cards(setup, players)
    variante = require(require(setup, "time_cards", dict, ""), "variante", int, "time_cards", minimum=1)
    if variant == "variante":
        times = times + [variante]
    cards = deck_cards(setup)
    if len(cards) < 3 * players + 3:
        raise SetupError("deck", f"{len(cards)} cards cannot deal three to each of {players} players "
                         f"and a face-up row of three")

    rules = np.zeros(N_RULES, dtype=np.int64)
    rules[R_PLAYERS] = players
    rules[R_ROUNDS] = ROUNDS
    rules[R_N_TIMES] = len(times)
    rules[R_KINDS] = setup["deck"]["kinds"]
    rules[R_HAND_MAX] = HAND_MAX
    arrays = (np.array([c[0] for c in cards], dtype=np.int64),
              np.array([c[1] for c in cards], dtype=np.int64),
              np.array([c[2] for c in cards], dtype=np.int64),
              np.array(times, dtype=np.int64),
              rules)
    n = len(cards)
    trace_len = (2 + n + len(times)                       # header: deck order, time deck order
                 + ROUNDS * 2 * players * 3               # research takes
                 + ROUNDS * (n + 2)                       # at most one reshuffle per research phase
                 + 4 * players * rules[R_HAND_MAX]        # places: each uses a card that entered a hand
                 + ROUNDS * players)                      # secures
    return seat_bonus.attach(Config(game="fair-enough", players=players, variant=variant, setup=setup, arrays=arrays,
                                    trace_len=trace_len,
                                    info={"rounds": ROUNDS, "time_cards": list(times), "cards": n,
                                          "specials": {SPECIAL_NAMES[s]: sum(1 for c in cards if c[2] == s)
                                                       for s in (QUEUE, PREORDER, SOLD_OUT)}}))
