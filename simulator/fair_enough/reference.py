"""Fair Enough reference engine: the rules as a person reads them, in plain Python.

This module is written independently of the numba kernel (``engine.py``) and
shares only the setup table and the trace format with it. It can

* play whole games with Python strategies (``play``), and
* replay a kernel trace (``replay``), checking that every research take,
  placement and securing was legal at that moment, that every reshuffle
  really was the discard pile, and returning the scores it computes itself.

A ``Table`` holds the state of one game and offers the moves as methods, so
tests can also set up a position by hand and play single turns.
"""

import random as _random
from dataclasses import dataclass, field

from simulator.core.leaders import code_of
from simulator.fair_enough.layout import (PREORDER, QUEUE, ROUNDS, SOLD_OUT, SPECIAL_NAMES, STANDING_SCALE,
                                          TR_PLACE, TR_SECURE, TR_SHUFFLE, TR_TAKE)

SET_MIN = 3            # a set scores from three cards of a kind
SET_STEP = 5           # 5 points per card from the third on: 5 x (n - 2)
HAND_FACTOR = 2        # collection cards left in hand cost twice their value
SPECIAL_PENALTY = 10   # each special card left in hand costs 10


class IllegalMove(ValueError):
    """A move, or a chance event, that the rules do not allow at that moment."""


@dataclass(frozen=True)
class Card:
    """One card. ``special`` is NONE for a collection card (kind >= 0, value >= 1)."""

    id: int
    kind: int
    value: int
    special: int

    def __str__(self):
        if self.special:
            return SPECIAL_NAMES[self.special]
        return f"{'ABCDEFGHIJKL'[self.kind]}{self.value}"


@dataclass(frozen=True)
class Place:
    """Place ``card``, optionally with ``special`` (a special card from hand); Sold Out removes ``target``."""

    card: Card
    special: Card = None
    target: Card = None


SECURE = "secure"


@dataclass
class SeatRecord:
    """What happened to one seat over the game (the engine's seat statistics)."""

    secured_first: int = 0
    lost_at_close: int = 0
    lost_to_sold_out: int = 0
    played: dict = field(default_factory=lambda: {QUEUE: 0, PREORDER: 0, SOLD_OUT: 0})


@dataclass(frozen=True)
class SeatResult:
    """Final scoring of one seat, with the arithmetic broken down."""

    score: int
    collected: int
    collected_value: int
    set_bonus: int
    hand_penalty: int
    largest_set: int
    secured_first: int
    lost_at_close: int
    lost_to_sold_out: int
    queue_played: int
    preorder_played: int
    sold_out_played: int

    @property
    def standing(self):
        """Higher is better; equal means a shared place (score, then the largest set)."""
        return self.score * STANDING_SCALE + self.largest_set


@dataclass(frozen=True)
class Result:
    seats: list
    rounds: int
    zero_endings: int
    reshuffles: int
    events: list
    bonus: list = None   # the table's seat_bonus per seat, in thousandths of a point (None: none)
    leaders: list = field(default_factory=list)  # per round but the last: 1 + the sole leader's seat, or 15

    @property
    def scores(self):
        return [s.score for s in self.seats]

    @property
    def standing(self):
        """Per seat: the score plus the seat bonus (in thousandths of a point), then the largest set."""
        bonus = self.bonus or [0] * len(self.seats)
        return [(s.score * 1000 + b) * STANDING_SCALE + s.largest_set for s, b in zip(self.seats, bonus)]


def make_cards(config):
    """The deck's cards from a compiled ``Config`` (ids as in the kernel)."""
    kind, value, special = config.arrays[0], config.arrays[1], config.arrays[2]
    return [Card(i, int(kind[i]), int(value[i]), int(special[i])) for i in range(len(kind))]


def score_seat(collection, hand):
    """Return ``(collected_value, set_bonus, hand_penalty, largest_set)`` of a collection and a hand."""
    counts = {}
    for c in collection:
        counts[c.kind] = counts.get(c.kind, 0) + 1
    bonus = sum(SET_STEP * (n - SET_MIN + 1) for n in counts.values() if n >= SET_MIN)
    penalty = sum(HAND_FACTOR * c.value if not c.special else SPECIAL_PENALTY for c in hand)
    return sum(c.value for c in collection), bonus, penalty, max(counts.values(), default=0)


class Table:
    """The state of one game of Fair Enough and the moves the rules allow."""

    def __init__(self, config, log=None):
        self.players = config.players
        self.bonus = [round(1000 * b) for b in config.info.get("seat_bonus", [0.0] * self.players)]
        self.leaders = []
        self.cards = make_cards(config)
        self.time_cards = [int(t) for t in config.arrays[3]]
        self.deck = []          # top first
        self.discard = []
        self.row = []           # the face-up row, at most 3
        self.hands = [[] for _ in range(self.players)]
        self.placed = [[] for _ in range(self.players)]       # placed, not yet secured
        self.collections = [[] for _ in range(self.players)]  # secured, face down
        self.secured = [False] * self.players
        self.time_deck = []
        self.time = 0
        self.round = 0
        self.start = 0          # holder of the Starting Player Card
        self.first = None       # first seat to secure in the current Collecting phase
        self.records = [SeatRecord() for _ in range(self.players)]
        self.zero_endings = 0
        self.reshuffles = 0
        self.log = log if log is not None else []

    # ----- setup and drawing -------------------------------------------------
    def set_up(self, chance):
        """Shuffle both decks, deal three cards to everyone (seat by seat) and turn up the row."""
        self.deck = chance.deck_order(list(self.cards))
        self.time_deck = chance.time_order(list(self.time_cards))[:ROUNDS]
        for p in range(self.players):
            self.hands[p] = [self.deck.pop(0) for _ in range(3)]
        self.refill(chance)
        self.log.append(("setup", [list(h) for h in self.hands], list(self.row)))

    def refill(self, chance):
        """Turn up cards until three lie face up, reshuffling the discard pile when the deck runs out."""
        while len(self.row) < 3:
            if not self.deck:
                if not self.discard:
                    return
                self.deck = chance.reshuffle(list(self.discard))
                self.discard = []
                self.reshuffles += 1
                self.log.append(("reshuffle", len(self.deck)))
            self.row.append(self.deck.pop(0))

    # ----- research ------------------------------------------------------------
    def legal_takes(self):
        """Row positions a player may take: none, any one, or any two (never three)."""
        n = len(self.row)
        return ([()] + [(a,) for a in range(n)]
                + [(a, b) for a in range(n) for b in range(a + 1, n)])

    def take(self, seat, positions, chance):
        if tuple(positions) not in self.legal_takes():
            raise IllegalMove(f"seat {seat} cannot take row positions {positions} from a row of {len(self.row)}")
        taken = [self.row[i] for i in positions]
        self.hands[seat].extend(taken)
        self.row = [c for i, c in enumerate(self.row) if i not in positions]
        self.refill(chance)
        self.log.append(("take", seat, taken, list(self.row)))

    def research_phase(self, source):
        for turn in range(2 * self.players):
            seat = (self.start + turn) % self.players
            self.take(seat, source.take(self, seat, self.legal_takes()), source)

    # ----- collecting ----------------------------------------------------------
    def special_in_hand(self, seat, special):
        """One special card of that type from the seat's hand, or None."""
        return next((c for c in self.hands[seat] if c.special == special), None)

    def unsecured_placed(self):
        return [c for p in range(self.players) for c in self.placed[p]]

    def time_after(self, move):
        """Remaining time after a placement (before the zero check)."""
        cost = move.card.value
        if move.special is not None and move.special.special == QUEUE:
            cost = 2 * move.card.value
        elif move.special is not None and move.special.special == PREORDER:
            cost = 0
        back = move.target.value if move.target is not None else 0
        return self.time - cost + back

    def legal_moves(self, seat):
        """Every legal turn of ``seat``: SECURE, then each placement (card x special x Sold Out target).

        A placement is legal when the time never drops below zero. Sold Out
        removes its target first (played before the card), which is always at
        least as permissive as playing it after, and gives the same result.
        """
        specials = [self.special_in_hand(seat, s) for s in (QUEUE, PREORDER, SOLD_OUT)]
        targets = self.unsecured_placed()
        candidates = []
        for card in self.hands[seat]:
            if card.special:
                continue
            candidates.append(Place(card))
            for special in specials:
                if special is None:
                    continue
                if special.special == SOLD_OUT:
                    candidates += [Place(card, special, t) for t in targets]
                else:
                    candidates.append(Place(card, special))
        return [SECURE] + [m for m in candidates if self.is_legal(seat, m)]

    def is_legal(self, seat, move):
        if move == SECURE:
            return True
        if not isinstance(move, Place):
            return False
        hand = self.hands[seat]
        if move.card not in hand or move.card.special:
            return False
        if move.special is not None and (move.special not in hand or not move.special.special):
            return False
        has_sold_out = move.special is not None and move.special.special == SOLD_OUT
        if has_sold_out != (move.target is not None):
            return False
        if move.target is not None and move.target not in self.unsecured_placed():
            return False
        return self.time_after(move) >= 0

    def secure(self, seat):
        self.collections[seat].extend(self.placed[seat])
        self.placed[seat] = []
        self.secured[seat] = True
        if self.first is None:
            self.first = seat

    def play_turn(self, seat, move):
        """Apply one Collecting-phase turn; return True when the phase ends with the time at zero."""
        if not self.is_legal(seat, move):
            raise IllegalMove(f"round {self.round + 1}: seat {seat} cannot play {move} with time {self.time}")
        if move == SECURE:
            self.log.append(("secure", seat, list(self.placed[seat]), self.first is None))
            self.secure(seat)
            return False
        before = self.time
        self.time = self.time_after(move)
        if move.target is not None:
            owner = next(p for p in range(self.players) if move.target in self.placed[p])
            self.placed[owner].remove(move.target)
            self.discard.append(move.target)
            self.records[owner].lost_to_sold_out += 1
        else:
            owner = None
        self.hands[seat].remove(move.card)
        self.placed[seat].append(move.card)
        if move.special is not None:
            self.hands[seat].remove(move.special)
            self.discard.append(move.special)
            self.records[seat].played[move.special.special] += 1
        self.log.append(("place", seat, move, owner, before, self.time))
        return self.time == 0

    def close_fair(self, seat):
        """The time hit exactly zero by ``seat``: they secure, every other unsecured pile is discarded."""
        self.zero_endings += 1
        self.log.append(("zero", seat, list(self.placed[seat]), self.first is None))
        self.secure(seat)
        for p in range(self.players):
            if not self.secured[p]:
                lost = self.placed[p]
                self.records[p].lost_at_close += len(lost)
                self.discard.extend(lost)
                self.placed[p] = []
                if lost:
                    self.log.append(("lost", p, list(lost)))

    def turn(self, seat, move):
        """Play one Collecting-phase turn; return True when the phase is over (time 0 or all secured)."""
        if self.play_turn(seat, move):
            self.close_fair(seat)
            return True
        return all(self.secured)

    def next_seat(self, seat):
        """The next seat clockwise that has not secured yet."""
        seat = (seat + 1) % self.players
        while self.secured[seat]:
            seat = (seat + 1) % self.players
        return seat

    def collecting_phase(self, source):
        self.time = self.time_deck[self.round]
        self.secured = [False] * self.players
        self.first = None
        self.log.append(("time", self.round, self.time))
        seat = self.start
        while not self.turn(seat, source.collect(self, seat, self.legal_moves(seat))):
            seat = self.next_seat(seat)
        self.start = self.first
        self.records[self.first].secured_first += 1
        self.log.append(("start", self.first))

    # ----- the whole game --------------------------------------------------------
    def play_game(self, source):
        self.set_up(source)
        for r in range(ROUNDS):
            self.round = r
            self.log.append(("round", r))
            self.research_phase(source)
            self.collecting_phase(source)
            if r + 1 < ROUNDS:  # the game goes on: who would win if it ended now
                self.leaders.append(code_of(self.result().standing))
        result = self.result()
        self.log.append(("end", result.scores))
        return result

    def result(self):
        seats = []
        for p in range(self.players):
            value, bonus, penalty, largest = score_seat(self.collections[p], self.hands[p])
            rec = self.records[p]
            seats.append(SeatResult(value + bonus - penalty, len(self.collections[p]), value, bonus, penalty, largest,
                                    rec.secured_first, rec.lost_at_close, rec.lost_to_sold_out,
                                    rec.played[QUEUE], rec.played[PREORDER], rec.played[SOLD_OUT]))
        return Result(seats, ROUNDS, self.zero_endings, self.reshuffles, self.log, self.bonus, list(self.leaders))


# ----- sources of chance and decisions -------------------------------------------
class RandomSource:
    """Chance from a Python ``random.Random`` and decisions from Python strategies.

    A strategy is any object with ``take(table, seat, options)`` and
    ``collect(table, seat, options)`` returning one of the options.
    """

    def __init__(self, seed, strategies):
        self.rng = _random.Random(seed)
        self.strategies = strategies

    def deck_order(self, cards):
        self.rng.shuffle(cards)
        return cards

    time_order = deck_order
    reshuffle = deck_order

    def take(self, table, seat, options):
        return self.strategies[seat].take(table, seat, options)

    def collect(self, table, seat, options):
        return self.strategies[seat].collect(table, seat, options)


class RandomPlayer:
    """Uniform over the legal options of each decision (Sold Out's target chosen with the placement)."""

    def __init__(self, seed):
        self.rng = _random.Random(seed)

    def take(self, table, seat, options):
        return self.rng.choice(options)

    def collect(self, table, seat, options):
        return self.rng.choice(options)


class TraceSource:
    """Chance and decisions read from a kernel trace (see ``simulator.fair_enough.layout``)."""

    def __init__(self, cards, trace):
        self.cards = cards
        self.trace = [int(x) for x in trace]
        self.pos = 0

    def _next(self, what):
        if self.pos >= len(self.trace):
            raise IllegalMove(f"trace ends where {what} was expected")
        self.pos += 1
        return self.trace[self.pos - 1]

    def _card(self, what):
        i = self._next(what)
        if not 0 <= i < len(self.cards):
            raise IllegalMove(f"trace names card id {i}, which does not exist ({what})")
        return self.cards[i]

    def _order(self, expected, what):
        n = self._next(what)
        order = [self._card(what) for _ in range(n)]
        if sorted(c.id for c in order) != sorted(c.id for c in expected):
            raise IllegalMove(f"{what} is not a permutation of the cards it should contain")
        return order

    def deck_order(self, cards):
        return self._order(cards, "the deck order")

    def time_order(self, times):
        n = self._next("the time deck")
        order = [self._next("the time deck") for _ in range(n)]
        if sorted(order) != sorted(times):
            raise IllegalMove(f"time deck {order} is not a shuffle of the table's time cards {times}")
        return order

    def reshuffle(self, discard):
        if self._next("a reshuffle") != TR_SHUFFLE:
            raise IllegalMove("the deck ran out here but the trace records no reshuffle")
        return self._order(discard, "the reshuffled discard pile")

    def take(self, table, seat, options):
        if self._next("a research take") != TR_TAKE:
            raise IllegalMove(f"round {table.round + 1}: seat {seat} should take from the row here")
        a, b = self._next("a research take"), self._next("a research take")
        return tuple(sorted(i for i in (a, b) if i != -1))

    def collect(self, table, seat, options):
        tag = self._next("a Collecting-phase turn")
        if tag == TR_SECURE:
            return SECURE
        if tag != TR_PLACE:
            raise IllegalMove(f"round {table.round + 1}: seat {seat} should place or secure here, trace has tag {tag}")
        card = self._card("a placement")
        special, target = self._next("a placement"), self._next("a placement")
        return Place(card, self.cards[special] if special >= 0 else None,
                     self.cards[target] if target >= 0 else None)

    def finish(self):
        if self.pos != len(self.trace):
            raise IllegalMove(f"the game is over but the trace has {len(self.trace) - self.pos} more entries")


def play(config, seed, strategies=None, log=None):
    """Play one whole game with Python strategies (default: ``RandomPlayer`` per seat); return a ``Result``."""
    strategies = strategies or [RandomPlayer(seed * 31 + p) for p in range(config.players)]
    return Table(config, log).play_game(RandomSource(seed, strategies))


def replay(config, trace):
    """Replay a kernel trace, checking every move and chance event; return the reference ``Result``.

    Raises ``IllegalMove`` at the first move the rules do not allow.
    """
    table = Table(config)
    source = TraceSource(table.cards, trace)
    result = table.play_game(source)
    source.finish()
    return result
