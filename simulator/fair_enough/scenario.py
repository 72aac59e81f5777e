"""Scenario files for Fair Enough: set up a Collecting-phase position, play moves, see what happens.

A scenario file (TOML) looks like::

    game = "fair-enough"
    players = 3
    time = 12          # remaining time of the Collecting phase
    turn = 0           # the seat to move first
    moves = ["C4 + Sold Out A7", "secure", "B2 + Queue"]

    [[seats]]          # one table per seat, in seat order
    hand = ["C4", "B9", "Sold Out"]
    placed = []        # placed, unsecured cards
    secured = false    # true if the seat has already secured this round

Cards are written as a kind letter and a value (``A7`` is the 7 of the first
kind), or ``Queue``, ``Pre-order``, ``Sold Out``. A move is ``secure``,
``<card>``, ``<card> + Queue``, ``<card> + Pre-order`` or ``<card> + Sold Out
<target>``. Moves are played in turn order by the reference engine; the
hook reports each move, stops at the first illegal one, and ends with the
legal moves of the seat to move.
"""

from pathlib import Path

from simulator.core.setup import SetupError, read_toml, require
from simulator.fair_enough.layout import SOLD_OUT, SPECIAL_NAMES
from simulator.fair_enough.narrate import cards, describe
from simulator.fair_enough.reference import SECURE, IllegalMove, Place, Table
from simulator.fair_enough.setup import compile_setup

SPECIAL_BY_NAME = {name.lower(): s for s, name in SPECIAL_NAMES.items() if s}


def _card_face(text, key):
    """``(kind, value, special)`` of a card written like ``A7`` or ``Sold Out``."""
    t = text.strip()
    if t.lower() in SPECIAL_BY_NAME:
        return (-1, 0, SPECIAL_BY_NAME[t.lower()])
    if len(t) >= 2 and t[0].isalpha() and t[1:].isdigit():
        return (ord(t[0].upper()) - ord("A"), int(t[1:]), 0)
    raise SetupError(key, f"{text!r} is not a card (write e.g. A7, Queue, Pre-order or Sold Out)")


class _Cards:
    """Hands out the deck's cards by face, each at most once."""

    def __init__(self, table):
        self.free = list(table.cards)

    def take(self, text, key):
        face = _card_face(text, key)
        for c in self.free:
            if (c.kind, c.value, c.special) == face:
                self.free.remove(c)
                return c
        raise SetupError(key, f"{text!r} is not in the deck, or is used twice in the scenario")


def _find(cards_, text, key):
    face = _card_face(text, key)
    for c in cards_:
        if (c.kind, c.value, c.special) == face:
            return c
    return None


def _parse_move(table, seat, text, key):
    t = text.strip()
    if t.lower() == "secure":
        return SECURE
    parts = [x.strip() for x in t.split("+")]
    card = _find(table.hands[seat], parts[0], key)
    if card is None:
        raise IllegalMove(f"seat {seat} has no {parts[0]} in hand")
    if len(parts) == 1:
        return Place(card)
    for name, sp in SPECIAL_BY_NAME.items():
        if parts[1].lower().startswith(name):
            special = table.special_in_hand(seat, sp)
            if special is None:
                raise IllegalMove(f"seat {seat} has no {SPECIAL_NAMES[sp]} in hand")
            target = None
            if sp == SOLD_OUT:
                rest = parts[1].split()[2:]
                if not rest:
                    raise SetupError(key, f"{text!r}: Sold Out needs a target, e.g. '+ Sold Out A7'")
                target = _find(table.unsecured_placed(), rest[0], key)
                if target is None:
                    raise IllegalMove(f"no placed, unsecured {rest[0]} to remove")
            return Place(card, special, target)
    raise SetupError(key, f"{text!r}: the special after '+' must be Queue, Pre-order or Sold Out")


def scenario(spec, strategies=None):
    """Play a scenario table (see the module docstring); return ``(lines, result)``.

    Every move is scripted, so ``strategies`` (the game's ``StrategySet``) is not used.
    """
    players = require(spec, "players", int, "", minimum=2)
    config = compile_setup(read_toml(Path(__file__).with_name("setup.toml")), players, "standard")
    table = Table(config)
    table.time = require(spec, "time", int, "", minimum=1)
    seat = require(spec, "turn", int, "", minimum=0)
    if seat >= players:
        raise SetupError("turn", f"must be a seat from 0 to {players - 1}, got {seat}")
    seats = require(spec, "seats", list, "")
    if len(seats) != players:
        raise SetupError("seats", f"must describe each of the {players} seats, got {len(seats)}")
    pool = _Cards(table)
    for p, row in enumerate(seats):
        table.hands[p] = [pool.take(c, f"seats[{p}].hand") for c in row.get("hand", [])]
        table.placed[p] = [pool.take(c, f"seats[{p}].placed") for c in row.get("placed", [])]
        table.secured[p] = bool(row.get("secured", False))
    if table.secured[seat]:
        raise SetupError("turn", f"seat {seat} has already secured and cannot move")
    lines = [f"Fair Enough scenario, {players} players, time {table.time}, seat {seat} to move"]
    for p in range(players):
        state = "secured" if table.secured[p] else f"placed {cards(table.placed[p])}"
        lines.append(f"  seat {p}: hand {cards(table.hands[p])}; {state}")
    outcome, illegal = None, None
    for i, text in enumerate(require(spec, "moves", list, "") if "moves" in spec else []):
        try:
            over = table.turn(seat, _parse_move(table, seat, text, f"moves[{i}]"))
        except IllegalMove as exc:
            illegal = f"move {i + 1} ({text!r}) is illegal: {exc}"
            lines.append("  " + illegal)
            break
        for event in table.log:
            if describe(event):
                lines.append(describe(event))
        table.log.clear()
        if over:
            outcome = "the fair closed at time 0" if table.time == 0 else "everyone has secured"
            lines.append(f"the Collecting phase ends: {outcome}")
            break
        seat = table.next_seat(seat)
    legal = []
    if outcome is None:
        legal = [_move_text(m, table) for m in table.legal_moves(seat)]
        lines.append(f"seat {seat} to move, time {table.time}; legal: " + "; ".join(legal))
    result = {"time": table.time, "ended": outcome, "illegal": illegal,
              "to_move": None if outcome else seat, "legal_moves": legal,
              "first_to_secure": table.first,
              "collections": [[str(c) for c in col] for col in table.collections],
              "placed": [[str(c) for c in pl] for pl in table.placed],
              "lost_at_close": [r.lost_at_close for r in table.records]}
    return lines, result


def _move_text(move, table):
    if move == SECURE:
        return "secure"
    text = str(move.card)
    if move.special is not None:
        text += f" + {SPECIAL_NAMES[move.special.special]}"
    if move.target is not None:
        text += f" {move.target}"
    return text + f" (time -> {table.time_after(move)})"

