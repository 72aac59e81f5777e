"""Validate a Forks setup table and compile it into the kernel's arrays."""

import numpy as np

from simulator.core.game import Config
from simulator.core import seat_bonus
from simulator.core.setup import SetupError, player_row, require, require_ints
from simulator.forks.layout import MAX_ROUNDS, MAX_VALUE

MAX_DESTINATIONS = 8
VARIANTS = ("standard", "merge")


def count_rounds(cards_left, players, reveal):
    """Rounds a deck of ``cards_left`` lasts: deal 3 each, then reveal ``reveal`` cards (if any).

    The game ends after the round that empties the deck, so a deck that runs
    short in the middle of a deal cannot be played; that returns ``None``.
    """
    rounds = 0
    while cards_left > 0:
        if cards_left < 3 * players:
            return None
        cards_left -= 3 * players
        cards_left -= min(reveal, cards_left)
        rounds += 1
    return rounds


def deck_cards(setup, players):
    """Return the (destination index, value) pairs of the deck for ``players`` players."""
    deck = require(setup, "deck", dict, "")
    names = require(deck, "destinations", list, "deck")
    values = require_ints(deck, "values", "deck", minimum=0)
    extra = require(deck, "extra", dict, "deck")
    removed = set(require_ints(player_row(setup, players), "remove_values", f"players.{players}"))
    printed = []
    for d, name in enumerate(names):
        printed += [(d, v) for v in values]
        if name in extra:
            printed.append((d, require(extra, name, int, "deck.extra", minimum=0)))
    on_cards = {v for _, v in printed}
    if max(on_cards, default=0) > MAX_VALUE:
        raise SetupError("deck.values" if max(values, default=0) > MAX_VALUE else "deck.extra",
                         f"card values must be at most {MAX_VALUE} (a card's code is 100 * destination + value), "
                         f"got {max(on_cards)}")
    if removed - on_cards:
        raise SetupError(f"players.{players}.remove_values", f"no card has the value(s) "
                         f"{', '.join(map(str, sorted(removed - on_cards)))} (the deck has {sorted(on_cards)})")
    return [(d, v) for d, v in printed if v not in removed]


def compile_setup(setup, players, variant):
    """Check a merged Forks table for ``players`` and ``variant`` and build its ``Config``.

    Raises ``SetupError`` naming the offending key when the table cannot be
    played: unknown destinations, a tiebreak order that is not a permutation,
    more cards removed than exist, or a deck that runs out in mid-deal.
    """
    if variant not in VARIANTS:
        raise SetupError("variant", f"unknown variant {variant!r} for forks (choose from {', '.join(VARIANTS)})")
    deck = require(setup, "deck", dict, "")
    names = require(deck, "destinations", list, "deck")
    if not 2 <= len(names) <= MAX_DESTINATIONS or len(set(names)) != len(names):
        raise SetupError("deck.destinations", f"must name 2 to {MAX_DESTINATIONS} different destinations, got {names!r}")
    top = require(deck, "top", int, "deck", minimum=1)
    if top >= len(names):
        raise SetupError("deck.top", f"must be smaller than the number of destinations ({len(names)}), got {top}")
    unknown = set(require(deck, "extra", dict, "deck")) - set(names)
    if unknown:
        raise SetupError("deck.extra", f"names unknown destinations: {', '.join(sorted(unknown))}")
    order = require(require(setup, "tiebreak", dict, ""), "order", list, "tiebreak")
    if sorted(order) != sorted(names):
        raise SetupError("tiebreak.order", f"must list each destination exactly once ({', '.join(names)}), got {order!r}")

    row = player_row(setup, players)
    path = f"players.{players}"
    remove = require(row, "remove", int, path, minimum=0)
    initial = require(row, "initial_marketing", int, path, minimum=0)
    reveal = require(row, "reveal_after_round", int, path, minimum=0)
    cards = deck_cards(setup, players)
    if remove + initial > len(cards):
        raise SetupError(f"{path}.remove", f"removing {remove} and marketing {initial} needs {remove + initial} cards, "
                         f"but the deck for {players} players has only {len(cards)}")
    left = len(cards) - remove - initial
    rounds = count_rounds(left, players, reveal)
    if not rounds:
        raise SetupError(path, f"{left} cards are left to deal after removing {remove} and marketing {initial}; "
                         f"dealing 3 cards to each of {players} players (and revealing {reveal} per round) "
                         f"does not come out even, so the deck would run out in mid-deal")
    if rounds > MAX_ROUNDS:
        raise SetupError(path, f"the deck lasts {rounds} rounds; the engine plays at most {MAX_ROUNDS}")

    card_dest = np.array([d for d, _ in cards], dtype=np.int64)
    card_value = np.array([v for _, v in cards], dtype=np.int64)
    tiebreak_rank = np.array([order.index(n) for n in names], dtype=np.int64)
    rules = np.array([players, remove, initial, reveal, int(variant == "merge"), len(names), top, rounds],
                     dtype=np.int64)
    return seat_bonus.attach(Config(game="forks", players=players, variant=variant, setup=setup,
                                    arrays=(card_dest, card_value, tiebreak_rank, rules),
                                    trace_len=1 + len(cards) + 2 * players * rounds,
                                    info={"rounds": rounds, "destinations": list(names), "cards": len(cards)}))
