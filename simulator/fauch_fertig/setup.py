"""Validate a Fauch & Fertig setup table and compile it into the kernel's arrays.

Conditions are written in words in the table (see ``setup.toml``);
``parse_condition`` turns one into a ``Condition``, and ``compile_setup``
checks the whole table and builds the ``Config``.
"""

import re
from dataclasses import dataclass

import numpy as np

from simulator.core.game import Config
from simulator.core import seat_bonus
from simulator.core.setup import SetupError, player_row, require
from simulator.fauch_fertig import layout as L
from simulator.fauch_fertig.conditions import holds

VARIANTS = ("standard",)

# (pattern, kind, the captured numbers' meaning) in the order they are tried
_FORMS = (
    (r"(\d+) of its colour", "colour", ("n",)),
    (r"(\d+) of one colour", "colour", ("n",)),
    (r"(\d+) cards (\d+)-(\d+)", "range", ("n", "low", "high")),
    (r"(\d+) different numbers", "distinct", ("n",)),
    (r"(\d+) sets? of (\d+) colours", "colours", ("n", "size")),
    (r"(\d+) sets? of (\d+)", "sets", ("n", "size")),
    (r"(\d+) runs? of (\d+)", "runs", ("n", "size")),
    (r"(\d+) black cards?", "black", ("n",)),
    (r"free egg", "free", ()),
    (r"pay (\d+) coins?", "pay", ("n",)),
    (r"black-card bonus", "bonus", ()),
)
FORMS_HELP = ('"N of its colour", "N of one colour", "N cards A-B", "N different numbers", "M sets of S", '
              '"M runs of L", "M sets of K colours", "N black cards", "free egg", "pay N coins", "black-card bonus"')
_CODES = {"colour": L.C_COLOUR, "range": L.C_RANGE, "distinct": L.C_DISTINCT, "sets": L.C_SETS,
          "runs": L.C_RUNS, "colours": L.C_COLOURS, "black": L.C_BLACK, "free": L.C_FREE, "pay": L.C_PAY,
          "bonus": L.C_BONUS}
CARD_ONLY = ("free", "pay", "bonus")   # kinds that make sense only on a dragon card


@dataclass(frozen=True)
class Condition:
    """One parsed condition.

    ``kind`` is one of colour, range, distinct, sets, runs, colours, black,
    free, pay, bonus; ``n`` is the count (cards, sets, runs, coins to pay);
    ``size`` the set or run size; ``low``/``high`` a number range;
    ``colour`` the colour index a "of its colour" condition asks for (-1 any).
    """

    text: str
    kind: str
    n: int = 0
    size: int = 0
    low: int = 0
    high: int = 0
    colour: int = -1

    def code(self):
        """The ``(kind, a, b, c)`` integers of the kernels (see ``layout``)."""
        k = _CODES[self.kind]
        if self.kind == "colour":
            return (k, self.n, self.colour, 0)
        if self.kind == "range":
            return (k, self.n, self.low, self.high)
        return (k, self.n, self.size, 0)


def parse_condition(text, key, colour=None):
    """Parse the condition ``text`` found at ``key``; ``colour`` is the card's colour (None: a community card).

    Raises ``SetupError`` naming ``key`` for an unknown condition or numbers
    out of range.
    """
    if not isinstance(text, str):
        raise SetupError(key, f"must be exactly one condition written as a text, got {text!r}")
    words = " ".join(text.lower().split())
    for pattern, kind, names in _FORMS:
        match = re.fullmatch(pattern, words)
        if match:
            break
    else:
        raise SetupError(key, f"unknown condition {text!r} (known forms: {FORMS_HELP})")
    values = dict(zip(names, (int(g) for g in match.groups())))
    cond = Condition(text=words, kind=kind, **values)
    if kind in CARD_ONLY and colour is None:
        raise SetupError(key, f"{text!r} works only on a dragon card, not on a community card")
    if "of its colour" in words:
        if colour is None or colour == L.BLACK:
            raise SetupError(key, f"{text!r} needs a coloured card; black and community cards have no colour "
                                  f"of their own (use \"N of one colour\" or \"N black cards\")")
        cond = Condition(text=words, kind=kind, n=cond.n, colour=colour)
    if kind not in ("free", "bonus") and cond.n < 1:
        raise SetupError(key, f"{text!r}: the count must be at least 1")
    if kind == "range" and not 1 <= cond.low <= cond.high <= L.N_NUMBERS:
        raise SetupError(key, f"{text!r}: numbers run from 1 to {L.N_NUMBERS}")
    if kind in ("sets", "runs") and cond.size < 1:
        raise SetupError(key, f"{text!r}: the size must be at least 1")
    if kind == "colours" and not 1 <= cond.size <= L.N_COLOURS:
        raise SetupError(key, f"{text!r}: a set can hold 1 to {L.N_COLOURS} different colours")
    if kind not in CARD_ONLY:
        colours, numbers = _whole_deck_counts()
        k, a, b, c = cond.code()
        if not holds(k, a, b, c, colours, numbers, 0):
            raise SetupError(key, f"{text!r} can never be met: not even all 72 cards together meet it")
    return cond


def _whole_deck_counts():
    colours = np.array([[L.N_NUMBERS * L.COPIES] * L.N_COLOURS + [L.N_BLACK]], dtype=np.int64)
    numbers = np.array([[0] + [L.N_COLOURS * L.COPIES] * L.N_NUMBERS], dtype=np.int64)
    return colours, numbers


def _condition_list(table, key, length, colour_of):
    """Parse the list ``conditions.<key>``: exactly ``length`` conditions, entry i for card ``colour_of(i)``."""
    where = f"conditions.{key}"
    values = require(table, key, list, "conditions")
    if len(values) != length:
        raise SetupError(where, f"must give exactly one condition per card: {length} cards, got {len(values)} "
                                f"conditions")
    return [parse_condition(v, f"{where}[{i}]", colour_of(i)) for i, v in enumerate(values)]


def card_conditions(setup):
    """Return the ``Condition`` of each of the 72 card ids (see ``layout``)."""
    table = require(setup, "conditions", dict, "")
    unknown = set(table) - {"first_copy", "second_copy", "black"}
    if unknown:
        raise SetupError("conditions", f"unknown keys {', '.join(sorted(unknown))} (expected first_copy, "
                                       f"second_copy, black)")
    # parse once per colour so "of its colour" resolves to that colour
    copies = [[_condition_list(table, key, L.N_NUMBERS, lambda i, c=colour: c) for colour in range(L.N_COLOURS)]
              for key in ("first_copy", "second_copy")]
    black = _condition_list(table, "black", L.N_BLACK, lambda i: L.BLACK)
    conds = []
    for card in range(L.N_CARDS):
        colour = L.card_colour(card)
        if colour == L.BLACK:
            conds.append(black[L.card_copy(card)])
        else:
            conds.append(copies[L.card_copy(card)][colour][L.card_number(card) - 1])
    return conds


def card_kinds(cards):
    """The kinds of card of a table: its distinct conditions (normalised text) in the order the table first
    names them (first_copy, second_copy, black); returns ``(kinds, kind index per card id)``."""
    order = sorted(range(L.N_CARDS), key=lambda card: (L.card_colour(card) == L.BLACK, L.card_copy(card),
                                                        L.card_number(card), L.card_colour(card)))
    kinds = list(dict.fromkeys(cards[card].text for card in order))
    return kinds, [kinds.index(c.text) for c in cards]


def _coin_supply(game, starts, market_coin):
    supply = game.get("coin_supply", "unlimited")
    if supply == "unlimited":
        return L.UNLIMITED
    if isinstance(supply, bool) or not isinstance(supply, int):
        raise SetupError("game.coin_supply", f'must be "unlimited" or a whole number, got {supply!r}')
    needed = sum(starts) + L.MARKET * market_coin
    if supply < needed:
        raise SetupError("game.coin_supply", f"{supply} coins cannot pay the start coins and the market coins "
                                             f"({needed})")
    return supply - needed


def compile_setup(setup, players, variant):
    """Check a merged Fauch & Fertig table for ``players`` and build its ``Config``.

    Raises ``SetupError`` naming the offending key when the table cannot be
    played: not exactly one condition per card, an unknown or impossible
    condition, fewer community cards than the players need, start coins that
    do not match the player count, or a coin supply too small to start.
    """
    if variant not in VARIANTS:
        raise SetupError("variant", f"unknown variant {variant!r} for fauch-fertig (choose from "
                                    f"{', '.join(VARIANTS)})")
    if not 2 <= players <= L.MAX_PLAYERS:
        raise SetupError("players", f"Fauch & Fertig is for 2 to {L.MAX_PLAYERS} players, got {players}")
    game = require(setup, "game", dict, "")
    eggs = require(game, "eggs", int, "game", minimum=1)
    display = require(game, "display_cards", int, "game", minimum=0)
    market_coin = require(game, "market_coin", int, "game", minimum=0)
    take = require(game, "take_coins", int, "game", minimum=1)
    blind = require(game, "blind_draw", int, "game", minimum=1)
    bonus_blacks = require(game, "bonus_blacks", int, "game", minimum=0)
    bonus_coins = require(game, "bonus_coins", int, "game", minimum=0)
    max_rounds = require(game, "max_rounds", int, "game", minimum=1)
    if max_rounds > 10_000:
        raise SetupError("game.max_rounds", f"must be at most 10000, got {max_rounds}")

    cards = card_conditions(setup)
    if sum(c.kind != "pay" for c in cards) < players * display + L.MARKET:
        raise SetupError("conditions", f"too few cards without a pay condition to deal {display} to each of "
                                       f"{players} players")

    community = require(setup, "community", dict, "")
    pool_text = require(community, "cards", list, "community")
    pool = [parse_condition(t, f"community.cards[{i}]") for i, t in enumerate(pool_text)]
    needed = 1 if players == 2 else players
    if len(pool) < needed:
        raise SetupError("community.cards", f"{players} players need {needed} community cards (one between each "
                                            f"pair of neighbours), the table has {len(pool)}")
    draw = require(community, "draw", str, "community")
    if draw not in ("random", "in order"):
        raise SetupError("community.draw", f'must be "random" or "in order", got {draw!r}')
    completer = require(community, "completer_eggs", int, "community", minimum=0)
    neighbour = require(community, "neighbour_eggs", int, "community", minimum=0)

    row = player_row(setup, players)
    starts = require(row, "start_coins", list, f"players.{players}")
    if len(starts) != players or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in starts):
        raise SetupError(f"players.{players}.start_coins", f"must give {players} whole numbers (one per seat, "
                                                           f"at least 0), got {starts!r}")
    supply = _coin_supply(game, starts, market_coin)

    rules = np.zeros(L.R_SIZE, dtype=np.int64)
    rules[[L.R_PLAYERS, L.R_EGGS, L.R_DISPLAY, L.R_MARKET_COIN, L.R_TAKE, L.R_BLIND_DRAW, L.R_BONUS_BLACKS,
           L.R_BONUS_COINS, L.R_SUPPLY, L.R_MAX_ROUNDS, L.R_COMMUNITY_N, L.R_COMMUNITY_RANDOM,
           L.R_COMPLETER_EGGS, L.R_NEIGHBOUR_EGGS]] = (
        players, eggs, display, market_coin, take, blind, bonus_blacks, bonus_coins, supply, max_rounds, needed,
        int(draw == "random"), completer, neighbour)
    rules[L.R_START_COINS:L.R_START_COINS + players] = starts
    kinds, kind_of = card_kinds(cards)
    rules[L.R_CARD_KIND:L.R_CARD_KIND + L.N_CARDS] = [k if k < L.MAX_KINDS else -1 for k in kind_of]
    colour = np.array([L.card_colour(c) for c in range(L.N_CARDS)], dtype=np.int64)
    number = np.array([L.card_number(c) for c in range(L.N_CARDS)], dtype=np.int64)
    card_cond = np.array([c.code() for c in cards], dtype=np.int64)
    pool_cond = np.array([c.code() for c in pool], dtype=np.int64).reshape(len(pool), 4)
    # header: two shuffles (a count and the cards each) and the community draw; per turn at most an action,
    # a kept card, a pay choice and one reshuffle
    shuffle = 1 + L.N_CARDS
    trace_len = 2 * shuffle + L.MAX_PLAYERS + max_rounds * players * (3 + shuffle)
    return seat_bonus.attach(Config(game="fauch-fertig", players=players, variant=variant, setup=setup,
                                    arrays=(colour, number, card_cond, pool_cond, rules), trace_len=trace_len,
                                    info={"cards": cards, "card_kinds": kinds, "community": pool, "eggs": eggs, "start_coins": list(starts),
                                          "coin_supply": None if supply == L.UNLIMITED else game["coin_supply"], "community_needed": needed,
                                          "community_random": draw == "random", "display_cards": display,
                                          "market_coin": market_coin, "take_coins": take, "blind_draw": blind,
                                          "bonus_blacks": bonus_blacks, "bonus_coins": bonus_coins, "max_rounds": max_rounds,
                                          "completer_eggs": completer, "neighbour_eggs": neighbour}))
