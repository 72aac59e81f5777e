"""Forks reference engine: the rules as a person reads them, in plain Python.

Written independently of the numba kernel (it shares no code with it, only
the setup table). It plays whole games with Python strategies, and it
replays a kernel trace move by move, refusing any pick that the rules do not
allow, so that the kernel's scores can be checked against its own.

Dealing convention shared with the kernel (the rulebook leaves it open):
the deck is dealt from the top, three cards to the first player, then three
to the next, clockwise.
"""

import random
from dataclasses import dataclass, field

from simulator.core.leaders import code_of


class RefereeError(AssertionError):
    """A trace contains a move the rules do not allow, or does not match the deck."""


@dataclass(frozen=True, order=True)
class Card:
    destination: str
    value: int

    def __str__(self):
        return f"{self.destination} {self.value}"


@dataclass
class Rules:
    """The parts of a setup table that matter for one game."""

    players: int
    destinations: list
    deck: list            # every card in play, before shuffling
    remove: int
    initial_marketing: int
    reveal: int
    tiebreak: list
    top: int
    merge: bool

    @classmethod
    def from_setup(cls, setup, players, variant):
        row = setup["players"][str(players)]
        dropped = set(row["remove_values"])
        names = list(setup["deck"]["destinations"])
        deck = []
        for name in names:
            values = list(setup["deck"]["values"])
            if name in setup["deck"]["extra"]:
                values.append(setup["deck"]["extra"][name])
            deck += [Card(name, v) for v in values if v not in dropped]
        return cls(players, names, deck, row["remove"], row["initial_marketing"], row["reveal_after_round"],
                   list(setup["tiebreak"]["order"]), setup["deck"]["top"], variant == "merge")


@dataclass
class Player:
    seat: int
    hand: list = field(default_factory=list)


@dataclass
class Table:
    """What everybody sees: the marketing cards under each destination."""

    marketing: dict

    def total(self, destination):
        return sum(c.value for c in self.marketing[destination])

    def order(self, tiebreak):
        """Destinations from best to worst: higher marketing total first, ties by the tiebreak card."""
        return sorted(tiebreak, key=lambda d: (-self.total(d), tiebreak.index(d)))


@dataclass
class Result:
    scores: list
    gained: list
    lost: list
    rounds: int
    ranking: list         # destinations from best to worst
    log: list
    leaders: list = field(default_factory=list)  # per round but the last: 1 + the sole leader's seat, or 15
    dealt_values: list = field(default_factory=list)     # per seat: bit v for a value v among round 1's cards
    invested_values: list = field(default_factory=list)  # per seat: bit v for a value v invested (v < 31)


def value_bits(cards):
    """The values of ``cards`` as bits (bit v for value v; values of 31 and more are not recorded)."""
    return sum({1 << c.value for c in cards if c.value < 31})


def play(rules, deck, strategies, log=False, bonus=None):
    """Play one game from a shuffled ``deck`` (list of Card, top first).

    ``strategies[seat](kind, options, me, table, round_no)`` returns the
    chosen Card; kind is "invest" (1 of the 3 dealt), "keep" (1 of the 2
    passed) or "market" (merge variant: any hand card to marketing).
    ``bonus`` is the table's seat bonus (points per seat): it ranks the
    leaders after each round, as it ranks the final scores.
    """
    bonus = bonus or [0.0] * rules.players
    leaders = []
    lines = []
    say = lines.append if log else (lambda _: None)
    if sorted(deck) != sorted(rules.deck):
        raise RefereeError("the deck is not the set of cards the setup table puts in play")
    deck = list(deck)
    table = Table({d: [] for d in rules.destinations})
    players = [Player(s) for s in range(rules.players)]
    del deck[:rules.remove]
    say(f"{rules.remove} cards removed unseen; {len(deck)} left")
    for _ in range(rules.initial_marketing):
        card = deck.pop(0)
        table.marketing[card.destination].append(card)
        say(f"initial marketing: {card}")

    rounds, first_dealt = 0, [0] * rules.players
    while deck:
        rounds += 1
        say(f"-- round {rounds} --  marketing: " +
            ", ".join(f"{d} {table.total(d)}" for d in rules.destinations))
        dealt = []
        for p in players:
            dealt.append(deck[:3])
            del deck[:3]
        if rounds == 1:
            first_dealt = [value_bits(cards) for cards in dealt]
        passed = []
        for p in players:
            options = dealt[p.seat]
            card = _legal(strategies[p.seat]("invest", list(options), p, table, rounds), options, p, "invest")
            p.hand.append(card)
            rest = list(options)
            rest.remove(card)
            passed.append(rest)
            say(f"seat {p.seat} is dealt {', '.join(map(str, options))}; invests {card}, passes "
                f"{', '.join(map(str, rest))}")
        to_market = []
        for p in players:
            received = passed[(p.seat - 1) % rules.players]
            if rules.merge:
                p.hand += received
                card = _legal(strategies[p.seat]("market", list(p.hand), p, table, rounds), p.hand, p, "market")
                p.hand.remove(card)
                say(f"seat {p.seat} receives {', '.join(map(str, received))}; markets {card} from the hand")
            else:
                kept = _legal(strategies[p.seat]("keep", list(received), p, table, rounds), received, p, "keep")
                p.hand.append(kept)
                rest = list(received)
                rest.remove(kept)
                card = rest[0]
                say(f"seat {p.seat} receives {', '.join(map(str, received))}; invests {kept}, markets {card}")
            to_market.append(card)
        for card in to_market:
            table.marketing[card.destination].append(card)
        for _ in range(rules.reveal):
            if deck:
                card = deck.pop(0)
                table.marketing[card.destination].append(card)
                say(f"revealed from the deck into marketing: {card}")
        if deck:  # the game goes on: who would win if it ended now (seat bonus in thousandths of a point)
            ranking = table.order(rules.tiebreak)
            now = [g - lost for g, lost in (score_hand(p.hand, ranking, rules.top) for p in players)]
            leaders.append(code_of([1000 * s + round(1000 * b) for s, b in zip(now, bonus)]))

    ranking = table.order(rules.tiebreak)
    gained, lost = zip(*(score_hand(p.hand, ranking, rules.top) for p in players))
    scores = [g - l for g, l in zip(gained, lost)]
    say("final marketing: " + ", ".join(f"{d} {table.total(d)}" for d in ranking) +
        f"  (top {rules.top} score plus: {', '.join(ranking[:rules.top])})")
    for p in players:
        say(f"seat {p.seat}: hand {', '.join(map(str, sorted(p.hand)))} -> +{gained[p.seat]} "
            f"-{lost[p.seat]} = {scores[p.seat]}")
    return Result(scores, list(gained), list(lost), rounds, ranking, lines, leaders, first_dealt,
                  [value_bits(p.hand) for p in players])


def score_hand(hand, ranking, top):
    """``(gained, lost)``: values of hand cards on the ``top`` best destinations, and on the rest."""
    best = set(ranking[:top])
    gained = sum(c.value for c in hand if c.destination in best)
    return gained, sum(c.value for c in hand) - gained


def _legal(card, options, player, kind):
    if card not in options:
        raise RefereeError(f"seat {player.seat} chose {card} to {kind}, which is not among "
                           f"{', '.join(map(str, options))}")
    return card


def random_strategy(rng):
    """The ``random`` strategy of RULINGS.md: uniform over the options of every decision."""
    return lambda kind, options, me, table, round_no: rng.choice(options)


def play_random(config, seed):
    """Shuffle a deck and play one game with ``random`` in every seat (used by the benchmark)."""
    rng = random.Random(seed)
    rules = Rules.from_setup(config.setup, config.players, config.variant)
    deck = list(rules.deck)
    rng.shuffle(deck)
    return play(rules, deck, [random_strategy(rng)] * rules.players)


def decode(rules, code):
    """A kernel card code (100 * destination index + value) as a Card."""
    return Card(rules.destinations[code // 100], code % 100)


def replay(config, trace, log=False):
    """Replay a kernel trace (see ``simulator.forks.engine``) and return the reference ``Result``.

    Raises ``RefereeError`` if the trace's deck is not the table's deck or a
    recorded pick is not legal at that point of the game.
    """
    rules = Rules.from_setup(config.setup, config.players, config.variant)
    n = int(trace[0])
    deck = [decode(rules, int(c)) for c in trace[1:1 + n]]
    picks = [decode(rules, int(c)) for c in trace[1 + n:]]
    per_round = 2 * rules.players

    def scripted(kind, options, me, table, round_no):
        base = (round_no - 1) * per_round
        index = base + me.seat if kind == "invest" else base + rules.players + me.seat
        if index >= len(picks):
            raise RefereeError(f"the trace ends before round {round_no} is complete")
        return picks[index]

    return play(rules, deck, [scripted] * rules.players, log=log, bonus=config.info.get("seat_bonus"))
