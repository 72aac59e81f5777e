"""Fool! reference engine: the rules as a person reads them, in plain Python.

Written independently of the numba kernel (it shares no code with it, only
the setup table and the trace format). It plays whole games with Python
strategies, and it replays a kernel trace card by card, refusing any card the
rules do not allow and any deal, start player or game end that does not
follow from the rules, so the kernel's results can be checked against its own.

Trace format (int64, written by ``simulator.fool.engine``)::

    [number of deals,
     per deal: start seat, the hands (hand-size card codes per seat, seat 0
               first), number of cards played in the deal, the played card
               codes in playing order]

A card code is ``100 * colour + value``; colour 0 is the wild "1" (code 1),
colours 1..n are ``deck.colours`` in order.
"""

import random as _random
from dataclasses import dataclass, field

from simulator.core.leaders import code_of

WILD = "wild"


class RefereeError(AssertionError):
    """A trace holds a card the rules do not allow, or does not match the rules."""


@dataclass(frozen=True, order=True)
class Card:
    colour: str      # a colour name, or WILD
    value: int

    @property
    def wild(self):
        return self.colour == WILD

    def __str__(self):
        return '"1"' if self.wild else f"{self.colour} {self.value}"


@dataclass
class Rules:
    """The parts of a setup table that matter for one game."""

    players: int
    colours: list
    deck: list           # every card in play
    discs: int
    hand: int
    empty_hand: int
    wild_penalty: int
    loss_limit: int
    tally_limit: int
    max_deals: int = 0   # the project's safety cap (docs/rules/fool.md); 0: none

    @classmethod
    def from_setup(cls, setup, players):
        row = setup["players"][str(players)]
        colours = list(setup["deck"]["colours"])
        deck = [Card(WILD, 1)] * row["wilds"]
        for colour in colours:
            low, high = row[colour]
            deck += [Card(colour, v) for v in range(low, high + 1)]
        scoring = setup["scoring"]
        return cls(players, colours, deck, row["discs"], row["hand"], scoring["empty_hand"],
                   scoring["wild_penalty"], scoring["loss_limit"], scoring["tally_limit"],
                   setup.get("game", {}).get("max_deals", 0))

    def card(self, code):
        """The card of a trace code."""
        colour, value = divmod(int(code), 100)
        if colour == 0 and value == 1:
            return Card(WILD, 1)
        if not 1 <= colour <= len(self.colours):
            raise RefereeError(f"card code {code} names no colour")
        return Card(self.colours[colour - 1], value)

    def code(self, card):
        """The trace code of a card."""
        return 1 if card.wild else 100 * (self.colours.index(card.colour) + 1) + card.value

    def penalty(self, card):
        """Negative points for holding ``card`` at the end of a deal."""
        return self.wild_penalty if card.wild else card.value


@dataclass
class Trick:
    """The cards of one trick, in playing order."""

    leader: int
    plays: list = field(default_factory=list)   # (seat, Card)

    @property
    def lead_colour(self):
        """The colour of the first numbered card played, or None while only wilds (or nothing) are down."""
        for _, card in self.plays:
            if not card.wild:
                return card.colour
        return None

    def legal(self, hand):
        """The cards of ``hand`` the rules allow now: a wild always; the lead colour if you hold it."""
        lead = self.lead_colour
        if lead is not None and any(c.colour == lead for c in hand):
            return [c for c in hand if c.colour == lead or c.wild]
        return list(hand)

    def winner(self):
        """The seat of the highest lead-colour card; the first player if every card is a wild."""
        lead = self.lead_colour
        if lead is None:
            return self.plays[0][0]
        return max((card.value, seat) for seat, card in self.plays if card.colour == lead)[1]

    def worst(self, count):
        """The seats of the ``count`` worst cards, worst first.

        A shed card (neither lead colour nor wild) is worse than any card that
        follows; among shed cards the lowest value is worst. Among following
        cards a wild is the lowest. Equal cards: the one played later is worse.
        """
        lead = self.lead_colour

        def badness(item):
            order, (seat, card) = item
            if card.wild:
                kind = 1
            elif card.colour == lead:
                kind = 2
            else:
                kind = 0
            return (kind, card.value, -order)

        ranked = sorted(enumerate(self.plays), key=badness)
        return [seat for _, (seat, _) in ranked[:count]]


@dataclass
class View:
    """What the player about to play knows."""

    seat: int
    hand: list
    legal: list
    trick: Trick
    passing: set          # seats holding a Fool! disc this trick
    counts: list          # cards in hand per seat
    totals: list          # game totals before this deal
    tallies: int          # tallies scored so far in the game, all players
    deal: int             # 0-based
    trick_number: int     # 0-based, in this deal
    seen: list            # cards played earlier in this deal (not this trick)
    rules: Rules


@dataclass
class Deal:
    """One deal: hands, the player to lead, the discs, and the tricks played so far."""

    rules: Rules
    hands: list
    leader: int
    passing: set = field(default_factory=set)
    number: int = 0
    totals: list = None
    tallies: int = 0
    names: list = None
    tricks: list = field(default_factory=list)
    won: list = None
    fooled: list = None
    last_fooled: list = field(default_factory=list)

    def __post_init__(self):
        n = self.rules.players
        self.hands = [list(h) for h in self.hands]
        self.totals = list(self.totals) if self.totals is not None else [0] * n
        self.names = self.names or [f"seat {s}" for s in range(n)]
        self.won = [0] * n
        self.fooled = [0] * n

    @property
    def over(self):
        """A deal ends after the trick in which someone plays their last card."""
        return any(not h for h in self.hands)

    def play_trick(self, choose, say):
        """Play one trick, ``choose(view) -> Card`` giving each card; return the finished Trick."""
        rules, n = self.rules, self.rules.players
        trick = Trick(self.leader)
        seen = [card for t in self.tricks for _, card in t.plays]
        for i in range(n):
            seat = (self.leader + i) % n
            if seat in self.passing:
                continue
            hand = self.hands[seat]
            legal = trick.legal(hand)
            view = View(seat, list(hand), legal, trick, set(self.passing), [len(h) for h in self.hands],
                        list(self.totals), self.tallies, self.number, len(self.tricks), seen, rules)
            card = choose(view)
            if card not in hand:
                raise RefereeError(f"deal {self.number + 1}, trick {len(self.tricks) + 1}: {self.names[seat]} "
                                   f"plays {card}, which is not in their hand")
            if card not in legal:
                raise RefereeError(f"deal {self.number + 1}, trick {len(self.tricks) + 1}: {self.names[seat]} "
                                   f"plays {card} but must follow {trick.lead_colour}")
            hand.remove(card)
            trick.plays.append((seat, card))
        winner = trick.winner()
        fooled = trick.worst(rules.discs)
        if winner in fooled:
            raise RefereeError(f"the setup lets the trick winner be befooled ({rules.discs} discs)")
        self.tricks.append(trick)
        self.won[winner] += 1
        for seat in fooled:
            self.fooled[seat] += 1
        passed = [self.names[s] for s in sorted(self.passing, key=lambda s: (s - self.leader) % n)]
        say(f"trick {len(self.tricks)}: " + ", ".join(f"{self.names[s]} {c}" for s, c in trick.plays)
            + (f"; {' and '.join(passed)} pass{'es' if len(passed) == 1 else ''}" if passed else "")
            + f" -> {self.names[winner]} wins, {' and '.join(self.names[s] for s in fooled)} befooled")
        self.leader = winner
        self.passing = set(fooled)
        self.last_fooled = fooled
        return trick

    def scores(self):
        """Points of the deal: +empty_hand for an empty hand (0 if befooled in the last trick), else
        minus the cards left (wilds count ``wild_penalty``)."""
        out = []
        for seat, hand in enumerate(self.hands):
            if hand:
                out.append(-sum(self.rules.penalty(c) for c in hand))
            else:
                out.append(0 if seat in self.last_fooled else self.rules.empty_hand)
        return out


@dataclass
class Result:
    totals: list
    tricks: list          # tricks won per seat
    tallies: list         # +empty_hand scores per seat
    fooled: list          # times befooled per seat
    wilds_dealt: list     # wild "1"s in each seat's opening hand (the first deal's)
    tops_dealt: list      # colour tops (the highest card of a colour in play) in each seat's opening hand
    wilds_played: list    # wild "1"s each seat played in the whole game
    deals: int
    trick_count: int      # tricks played in the game
    deal_scores: list     # per deal, the points of every seat
    starts: list          # per deal, the start seat
    log: list
    finished: bool = True  # False: stopped by the safety cap of max_deals deals

    def leaders(self, bonus=None):
        """Per deal but the last: 1 + the seat leading the running totals alone (the seat ``bonus``, points
        per seat, counted in thousandths), or 15 for a shared lead."""
        bonus = [round(1000 * b) for b in (bonus or [0.0] * len(self.totals))]
        running, out = [0] * len(self.totals), []
        for points in self.deal_scores[:-1]:
            running = [t + p for t, p in zip(running, points)]
            out.append(code_of([1000 * t + b for t, b in zip(running, bonus)]))
        return out

    @property
    def scores(self):
        """The game's scores per seat, as the kernel writes them (the engine contract reads them): the totals."""
        return self.totals

    @property
    def lead_changes(self):
        """How often another seat took the lead alone after a deal (a shared lead changes nothing)."""
        running, leader, changes = [0] * len(self.totals), None, 0
        for points in self.deal_scores:
            running = [t + p for t, p in zip(running, points)]
            leaders = [s for s, t in enumerate(running) if t == max(running)]
            if len(leaders) == 1:
                changes += leader is not None and leaders[0] != leader
                leader = leaders[0]
        return changes


def next_start(scores, previous):
    """The lowest deal score starts the next deal; ties go clockwise from the previous start player."""
    n = len(scores)
    order = [(previous + i) % n for i in range(n)]
    return min(order, key=lambda s: (scores[s], order.index(s)))


def play_game(rules, hands_for, choose, log=False, names=None):
    """Play one whole game (or ``rules.max_deals`` deals, the safety cap, if it has not ended by then).

    ``hands_for(deal, start)`` returns the hands of a deal (one list of Cards
    per seat); ``choose(view)`` returns the card to play. Returns a Result.
    """
    lines = []
    say = lines.append if log else (lambda _: None)
    n = rules.players
    names = names or [f"seat {s}" for s in range(n)]
    totals, tricks, tallies, fooled, wilds_played = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    tops = {max((c for c in rules.deck if c.colour == colour), default=None) for colour in rules.colours}
    start, deal_no, trick_count = 0, 0, 0
    deal_scores, starts = [], []
    while True:
        hands = hands_for(deal_no, start)
        if len(hands) != n or any(len(h) != rules.hand for h in hands):
            raise RefereeError(f"deal {deal_no + 1}: the hands are not {n} hands of {rules.hand} cards")
        if sorted(c for h in hands for c in h) != sorted(rules.deck):
            raise RefereeError(f"deal {deal_no + 1}: the hands are not the cards the setup table puts in play")
        if deal_no == 0:
            wilds_dealt = [sum(c.wild for c in hand) for hand in hands]
            tops_dealt = [sum(c in tops for c in hand) for hand in hands]
        wilds_in_hand = [sum(c.wild for c in hand) for hand in hands]
        say(f"-- deal {deal_no + 1}: {names[start]} leads --")
        for seat, hand in enumerate(hands):
            say(f"{names[seat]}: " + ", ".join(map(str, sorted(hand, key=lambda c: (c.wild, c.colour, c.value)))))
        deal = Deal(rules, hands, start, number=deal_no, totals=totals, tallies=sum(tallies), names=names)
        while not deal.over:
            deal.play_trick(choose, say)
        scores = deal.scores()
        deal_scores.append(scores)
        starts.append(start)
        for s in range(n):
            totals[s] += scores[s]
            tricks[s] += deal.won[s]
            fooled[s] += deal.fooled[s]
            tallies[s] += int(not deal.hands[s] and s not in deal.last_fooled)
            wilds_played[s] += wilds_in_hand[s] - sum(c.wild for c in deal.hands[s])
        trick_count += len(deal.tricks)
        deal_no += 1
        say("deal scores: " + ", ".join(f"{names[s]} {scores[s]:+d}" for s in range(n)))
        say("totals: " + ", ".join(f"{names[s]} {totals[s]}" for s in range(n)) + f"; tallies {sum(tallies)}")
        ended = min(totals) <= -rules.loss_limit or sum(tallies) >= rules.tally_limit
        if ended or deal_no == rules.max_deals:
            if not ended:
                say(f"stopped by the safety cap of {deal_no} deals: the game is recorded as unfinished")
            return Result(totals, tricks, tallies, fooled, wilds_dealt, tops_dealt, wilds_played, deal_no,
                          trick_count, deal_scores, starts, lines, ended)
        start = next_start(scores, start)


def random_player(seed):
    """A Python strategy that plays a uniformly random legal card (its own random stream)."""
    rng = _random.Random(seed)
    return lambda view: rng.choice(view.legal)


def shuffled_deals(rules, seed):
    """``hands_for`` dealing a freshly shuffled deck every deal (Python's random stream)."""
    rng = _random.Random(seed)

    def hands_for(deal, start):
        deck = list(rules.deck)
        rng.shuffle(deck)
        return [deck[s * rules.hand:(s + 1) * rules.hand] for s in range(rules.players)]

    return hands_for


def play_random(config, seed):
    """Play one whole game with a random legal card in every seat (the benchmark's reference game)."""
    rules = Rules.from_setup(config.setup, config.players)
    return play_game(rules, shuffled_deals(rules, 2 * seed), random_player(2 * seed + 1))


def replay(config, trace, log=False, names=None):
    """Replay a kernel trace, checking every deal, start player, card and the game end; return the Result."""
    rules = Rules.from_setup(config.setup, config.players)
    trace = [int(x) for x in trace]
    pos = 1
    deals = trace[0] if trace else 0
    pending = []     # the cards of the current deal still to be played, in order

    def take(k):
        nonlocal pos
        if pos + k > len(trace):
            raise RefereeError("the trace ends early")
        out = trace[pos:pos + k]
        pos += k
        return out

    def hands_for(deal, start):
        if deal >= deals:
            raise RefereeError(f"the rules continue the game after the trace's {deals} deals")
        if pending:
            raise RefereeError(f"deal {deal}: the trace has {len(pending)} cards that were never played")
        traced_start = take(1)[0]
        if traced_start != start:
            raise RefereeError(f"deal {deal + 1}: the trace starts with seat {traced_start}, the rules say "
                               f"seat {start}")
        hands = [[rules.card(c) for c in take(rules.hand)] for _ in range(rules.players)]
        pending.extend(rules.card(c) for c in take(take(1)[0]))
        pending.reverse()
        return hands

    def choose(view):
        if not pending:
            raise RefereeError(f"deal {view.deal + 1}: the trace has no card for seat {view.seat}")
        return pending.pop()

    result = play_game(rules, hands_for, choose, log=log, names=names)
    if pending:
        raise RefereeError(f"the trace has {len(pending)} cards after the last trick")
    if result.deals != deals:
        raise RefereeError(f"the rules end the game after {result.deals} deals, the trace has {deals}")
    if pos != len(trace) and any(trace[pos:]):
        raise RefereeError("the trace continues after its last deal")
    return result
