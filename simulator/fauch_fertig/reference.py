"""Fauch & Fertig reference engine: the rules as a person reads them, in plain Python.

Written independently of the kernel (it shares only the parsed setup table):
conditions are checked by searching the display's actual cards, cards are
objects, piles are lists. It plays a game whose chance and choices come from a
``Source``:

* ``TraceSource`` reads a kernel trace, checks every move against the rules
  and raises ``ReplayError`` on anything illegal or inconsistent;
* ``PlaySource`` shuffles with Python's ``random`` and asks Python strategy
  functions, so whole games can be played without the kernel.

``replay(config, trace)`` is the game's ``reference`` hook: it returns a
``Result`` with the scores, the standing and the statistics the kernel must
agree with, and the event log that ``narrate`` puts into words.
"""

import random as _random
from dataclasses import dataclass, field
from collections import Counter
from itertools import combinations

from simulator.core.leaders import code_of
from simulator.fauch_fertig.layout import (A_BLIND, A_COINS, A_MARKET, COLOUR_NAMES, MARKET, N_CARDS, card_colour,
                                           card_name, card_number)


class ReplayError(AssertionError):
    """A trace that breaks the rules or disagrees with what the rules produce."""


# ---------------------------------------------------------------- conditions, by search over the cards

def _search(counts, groups, count, first=0):
    """True if ``count`` more groups can be taken from ``counts`` (a dict of how many cards of each kind).

    ``groups`` lists the possible groups, each a tuple of kinds needing one
    card each (a set of 3 sevens is ``(7, 7, 7)``). Groups are tried in list
    order from ``first`` on, so each combination is searched once.
    """
    if count == 0:
        return True
    for g in range(first, len(groups)):
        need = Counter(groups[g])
        if all(counts.get(k, 0) >= m for k, m in need.items()):
            rest = dict(counts)
            for k, m in need.items():
                rest[k] -= m
            if _search(rest, groups, count - 1, g):
                return True
    return False


def condition_met(cond, cards):
    """True if the condition ``cond`` (a ``setup.Condition``) holds for the list of ``Card``s ``cards``."""
    kind, n = cond.kind, cond.n
    if kind == "free":
        return True
    if kind in ("pay", "bonus"):
        return False
    if kind == "colour":
        if cond.colour >= 0:
            return sum(c.colour == COLOUR_NAMES[cond.colour] for c in cards) >= n
        return any(sum(c.colour == name for c in cards) >= n for name in COLOUR_NAMES[:4])
    if kind == "black":
        return sum(c.colour == "black" for c in cards) >= n
    if kind == "range":
        return sum(c.number is not None and cond.low <= c.number <= cond.high for c in cards) >= n
    if kind == "distinct":
        return len({c.number for c in cards if c.number is not None}) >= n
    # the grouped conditions: search for disjoint groups among the cards
    numbers = Counter(c.number for c in cards if c.number is not None)
    if kind == "sets":
        return _search(numbers, [(x,) * cond.size for x in range(1, 9)], n)
    if kind == "runs":
        return _search(numbers, [tuple(range(x, x + cond.size)) for x in range(1, 10 - cond.size)], n)
    if kind == "colours":
        colours = Counter(c.colour for c in cards if c.colour != "black")
        return _search(colours, list(combinations(COLOUR_NAMES[:4], cond.size)), n)
    raise ValueError(f"unknown condition kind {kind!r}")


# ---------------------------------------------------------------- cards and players

@dataclass(frozen=True)
class Card:
    id: int
    colour: str
    number: int | None
    condition: object

    def __str__(self):
        return card_name(self.id)


@dataclass
class Player:
    seat: int
    coins: int
    display: list = field(default_factory=list)
    eggs_on: dict = field(default_factory=dict)      # card id -> eggs on that card
    bonus_cards: list = field(default_factory=list)  # black-card bonus cards laid out, in order
    placed: int = 0
    market_buys: int = 0
    blind_buys: int = 0
    coin_takes: int = 0
    turns: int = 0
    dealt_kinds: int = 0   # bit k: a card of the table's k-th kind of card (its condition) dealt to the display
    bought_kinds: int = 0  # bit k: a card of that kind bought


@dataclass
class Community:
    condition: object
    left: int
    right: int
    done: bool = False


@dataclass
class Result:
    """What a whole game produced, per seat, plus the event log."""

    players: int
    placed: list
    golden: list
    coins: list
    market_buys: list
    blind_buys: list
    coin_takes: list
    turns: list
    dealt_kinds: list
    bought_kinds: list
    rounds: int
    finished: bool
    ranks: list          # 1 = best: most eggs placed (golden included) plus the seat bonus, then most coins; ties share
    winners: list
    events: list
    leaders: list = field(default_factory=list)  # per round but the last: 1 + the sole leader's seat, or 15

    @property
    def scores(self):
        """The game's scores per seat, as the kernel writes them (the engine contract reads them): eggs placed."""
        return self.placed


# ---------------------------------------------------------------- sources of chance and choices

class Source:
    """Where a game's chance and choices come from."""

    def shuffle(self, cards):
        """Return ``cards`` in a new order (the first is the top of the pile)."""
        raise NotImplementedError

    def community(self, count, needed):
        """Return the indices of the ``needed`` community cards laid out from a pool of ``count``."""
        raise NotImplementedError

    def action(self, table, player, legal):
        """Return one of the ``legal`` action codes (see ``layout``)."""
        raise NotImplementedError

    def keep(self, table, player, drawn):
        """Return the index of the card kept from ``drawn`` after a blind buy."""
        raise NotImplementedError

    def pay(self, table, player, card):
        """Return True to pay for the egg of the pay card ``card`` just laid out."""
        raise NotImplementedError


class TraceSource(Source):
    """Reads a kernel trace (see ``simulator.fauch_fertig.engine``) and checks every value against the rules."""

    def __init__(self, trace):
        self.trace = [int(x) for x in trace]
        self.pos = 0

    def _next(self, what):
        if self.pos >= len(self.trace):
            raise ReplayError(f"trace ends early: expected {what}")
        self.pos += 1
        return self.trace[self.pos - 1]

    def shuffle(self, cards):
        n = len(cards)
        count = self._next("a shuffle count")
        if count != n:
            raise ReplayError(f"shuffle of {n} cards recorded with {count} cards")
        ids = [self._next("a shuffled card") for _ in range(n)]
        if sorted(ids) != sorted(c.id for c in cards):
            raise ReplayError(f"shuffle is not a reordering of the cards shuffled: {ids}")
        by_id = {c.id: c for c in cards}
        return [by_id[i] for i in ids]

    def community(self, count, needed):
        picks = [self._next("a community card") for _ in range(needed)]
        if len(set(picks)) != needed or not all(0 <= k < count for k in picks):
            raise ReplayError(f"community cards {picks} are not {needed} different cards of {count}")
        return picks

    def action(self, table, player, legal):
        code = self._next(f"an action of seat {player.seat}")
        if code not in legal:
            raise ReplayError(f"seat {player.seat} chose action {code}, legal are {sorted(legal)}")
        return code

    def keep(self, table, player, drawn):
        k = self._next("a kept card")
        if not 0 <= k < len(drawn):
            raise ReplayError(f"seat {player.seat} kept card {k} of {len(drawn)} drawn")
        return k

    def pay(self, table, player, card):
        choice = self._next("a pay choice")
        if choice not in (0, 1):
            raise ReplayError(f"seat {player.seat} answered {choice} to paying for {card}")
        return choice == 1

    def check_consumed(self):
        if self.pos != len(self.trace):
            raise ReplayError(f"trace has {len(self.trace) - self.pos} values after the game ended")


def random_strategy(table, player, kind, options, rng):
    """The ``random`` strategy in Python: uniform over the legal options."""
    return rng.randrange(len(options))


class PlaySource(Source):
    """Chance from Python's ``random.Random(seed)``; choices from Python strategies.

    A strategy is ``f(table, player, kind, options, rng) -> index`` with
    ``kind`` one of "action", "keep", "pay" and ``options`` the legal action
    codes, the drawn cards, or ``[False, True]``.
    """

    def __init__(self, seed, strategies):
        self.rng = _random.Random(seed)
        self.strategies = strategies

    def shuffle(self, cards):
        cards = list(cards)
        self.rng.shuffle(cards)
        return cards

    def community(self, count, needed):
        return self.rng.sample(range(count), needed)

    def _ask(self, table, player, kind, options):
        return options[self.strategies[player.seat](table, player, kind, options, self.rng)]

    def action(self, table, player, legal):
        return self._ask(table, player, "action", legal)

    def keep(self, table, player, drawn):
        return drawn.index(self._ask(table, player, "keep", drawn))

    def pay(self, table, player, card):
        return self._ask(table, player, "pay", [False, True])


# ---------------------------------------------------------------- the game

class Table:
    """One game of Fauch & Fertig, set up from a ``Config`` and driven by a ``Source``."""

    def __init__(self, config, source, deal=True):
        """Set up a game: shuffle, deal, community cards, market, start coins and the eggs the deal earns.

        With ``deal=False`` the table is left bare (empty displays, market,
        piles and community cards, no coins) for the caller to put a position
        on it, as scenario files do; nothing is asked of ``source`` then.
        """
        info = config.info
        self.info = info
        self.source = source
        self.n = config.players
        self.leaders = []
        self.cards = [Card(i, COLOUR_NAMES[card_colour(i)], card_number(i) or None, info["cards"][i])
                      for i in range(N_CARDS)]
        self.supply = info["coin_supply"]        # None: unlimited
        self.events = []
        self.round = 0
        self.players = [Player(seat, 0) for seat in range(self.n)]
        self.discard = []
        self.market = [None] * MARKET
        self.market_coins = [0] * MARKET
        self.pile = []
        self.community = []
        if deal:
            self._deal()

    def _deal(self):
        info, source = self.info, self.source
        self.pile = source.shuffle(self.cards)
        aside = []
        for p in self.players:
            for _ in range(info["display_cards"]):
                card = self.pile.pop(0)
                while card.condition.kind == "pay":     # pay cards are replaced and go back into the deck
                    aside.append(card)
                    card = self.pile.pop(0)
                p.display.append(card)
            self.events.append(("deal", p.seat, list(p.display)))
        self.pile = source.shuffle(self.pile + aside)

        pool = info["community"]
        picks = source.community(len(pool), info["community_needed"])
        if not info["community_random"] and picks != list(range(info["community_needed"])):
            raise ReplayError(f"community cards {picks} should be the first ones of the table")
        self.community = [Community(pool[k], j, (j + 1) % self.n) for j, k in enumerate(picks)]
        self.events.append(("community", [(c.condition.text, c.left, c.right) for c in self.community]))

        for slot in range(MARKET):
            self.market[slot] = self.draw()
            self.market_coins[slot] = self._from_supply(info["market_coin"])
        self.events.append(("market", list(self.market)))
        for p, start in zip(self.players, info["start_coins"]):
            p.coins = self._from_supply(start)
        for p in self.players:
            p.dealt_kinds = self._kind_bits(p.display)
            for card in p.display:
                if card.condition.kind == "bonus":
                    p.bonus_cards.append(card)
            self._check_display(p)

    # -- coins and cards
    def _from_supply(self, amount):
        if self.supply is None:
            return amount
        amount = min(amount, self.supply)
        self.supply -= amount
        return amount

    def _to_supply(self, amount):
        if self.supply is not None:
            self.supply += amount

    def draw(self):
        """Top card of the pile; an empty pile is first refilled by shuffling the discard pile. None if both are empty."""
        if not self.pile and self.discard:
            self.events.append(("reshuffle", len(self.discard)))
            self.pile, self.discard = self.source.shuffle(self.discard), []
        return self.pile.pop(0) if self.pile else None

    # -- eggs
    def _egg(self, player, card, reason):
        player.placed += 1
        if card is not None:
            player.eggs_on[card.id] = player.eggs_on.get(card.id, 0) + 1
        self.events.append(("egg", player.seat, card, reason, player.placed > self.info["eggs"]))

    def _check_display(self, player):
        """Place an egg on every card of ``player`` whose condition now holds and that has none yet."""
        for card in player.display:
            cond = card.condition
            if cond.kind in ("pay", "bonus") or player.eggs_on.get(card.id, 0):
                continue
            if condition_met(cond, player.display):
                self._egg(player, card, cond.text)

    def _check_community(self, player):
        for k, com in enumerate(self.community):
            if com.done or player.seat not in (com.left, com.right):
                continue
            other = self.players[com.right if player.seat == com.left else com.left]
            if condition_met(com.condition, player.display + other.display):
                com.done = True
                self.events.append(("complete", k, com.condition.text, player.seat, other.seat))
                for _ in range(self.info["completer_eggs"]):
                    self._egg(player, None, f"completed community card {com.condition.text!r}")
                for _ in range(self.info["neighbour_eggs"]):
                    self._egg(other, None, f"neighbour's community card {com.condition.text!r}")

    def _kind_bits(self, cards):
        """The kinds of ``cards`` as bits: bit k for the table's k-th distinct condition (the first 31 kinds)."""
        kinds = self.info["card_kinds"]
        return sum({1 << k for k in (kinds.index(card.condition.text) for card in cards) if k < 31})

    def lay_out(self, player, card):
        """Put a bought card in ``player``'s display and apply everything it triggers, in the rules' order."""
        player.display.append(card)
        player.bought_kinds |= self._kind_bits([card])
        if card.colour == "black":
            for bonus in player.bonus_cards:
                if player.eggs_on.get(bonus.id, 0) < self.info["bonus_blacks"]:
                    coins = self._from_supply(self.info["bonus_coins"])
                    player.coins += coins
                    self.events.append(("bonus", player.seat, bonus, card, coins))
                    self._egg(player, bonus, "black-card bonus")
        kind = card.condition.kind
        if kind == "bonus":
            player.bonus_cards.append(card)
        elif kind == "pay" and player.coins >= card.condition.n:
            paid = self.source.pay(self, player, card)
            self.events.append(("pay", player.seat, card, paid, card.condition.n))
            if paid:
                player.coins -= card.condition.n
                self._to_supply(card.condition.n)
                self._egg(player, card, card.condition.text)
        self._check_display(player)
        self._check_community(player)

    # -- turns
    def legal_actions(self, player):
        """The action codes ``player`` may choose now (see ``layout``)."""
        in_market = sum(c is not None for c in self.market)
        legal = [A_MARKET + s for s in range(MARKET) if self.market[s] is not None and player.coins >= in_market - 1]
        if (self.pile or self.discard) and player.coins >= in_market:
            legal.append(A_BLIND)
        legal.append(A_COINS)
        return legal

    def turn(self, player):
        player.turns += 1
        action = self.source.action(self, player, self.legal_actions(player))
        if action == A_COINS:
            amount = self._from_supply(self.info["take_coins"])
            player.coins += amount
            player.coin_takes += 1
            self.events.append(("take", player.seat, amount, player.coins))
            return
        slots = [s for s in range(MARKET) if self.market[s] is not None and s != action]
        for s in slots:                      # pay first, from coins already owned
            player.coins -= 1
            self.market_coins[s] += 1
        if action == A_BLIND:
            player.blind_buys += 1
            drawn = []
            while len(drawn) < self.info["blind_draw"]:
                card = self.draw()
                if card is None:
                    break
                drawn.append(card)
            card = drawn[self.source.keep(self, player, drawn)]
            self.discard.extend(c for c in drawn if c is not card)
            self.events.append(("blind", player.seat, drawn, card, len(slots), player.coins))
            self.lay_out(player, card)
            return
        player.market_buys += 1
        card, coins = self.market[action], self.market_coins[action]
        self.market[action], self.market_coins[action] = None, 0
        player.coins += coins
        self.events.append(("buy", player.seat, card, action, slots, coins, player.coins))
        self.lay_out(player, card)
        self.market[action] = self.draw()
        self.events.append(("refill", action, self.market[action]))

    def play(self):
        """Play rounds until a round ends with a player out of eggs, or the safety cap; return the ``Result``."""
        finished = False
        for r in range(self.info["max_rounds"]):
            self.round = r
            self.events.append(("round", r))
            for player in self.players:
                self.turn(player)
            if self.out_of_eggs():
                finished = True
                break
            if r + 1 < self.info["max_rounds"]:  # the game goes on: who leads now
                self.leaders.append(code_of(self.standing()))
        return self.result(finished)

    def standing(self):
        """Per seat: eggs placed plus the seat bonus (in thousandths of a point), then coins."""
        bonus = [round(1000 * b) for b in self.info.get("seat_bonus", [0.0] * self.n)]
        return [(1000 * p.placed + b, p.coins) for p, b in zip(self.players, bonus)]

    def out_of_eggs(self):
        """True once a player has placed all their eggs: the game ends when the round is over."""
        return any(p.placed >= self.info["eggs"] for p in self.players)

    def result(self, finished):
        """The ``Result`` of the game as it stands (``finished``: it ended by the rules); logs the end."""
        eggs = self.info["eggs"]
        ps = self.players
        key = self.standing()
        ranks = [1 + sum(other > mine for other in key) for mine in key]
        winners = [p.seat for p, r in zip(ps, ranks) if r == 1]
        self.events.append(("end", finished, self.round + 1, winners))
        return Result(players=self.n, placed=[p.placed for p in ps],
                      golden=[max(0, p.placed - eggs) for p in ps], coins=[p.coins for p in ps],
                      market_buys=[p.market_buys for p in ps], blind_buys=[p.blind_buys for p in ps],
                      coin_takes=[p.coin_takes for p in ps], turns=[p.turns for p in ps],
                      dealt_kinds=[p.dealt_kinds for p in ps], bought_kinds=[p.bought_kinds for p in ps],
                      rounds=self.round + 1, finished=finished, ranks=ranks, winners=winners, events=self.events,
                      leaders=self.leaders)


def replay(config, trace):
    """Replay a kernel trace with the reference rules; return the ``Result`` or raise ``ReplayError``."""
    source = TraceSource(trace)
    result = Table(config, source).play()
    source.check_consumed()
    return result


def play(config, seed, strategies=None):
    """Play one whole game with Python strategies (default: ``random_strategy`` in every seat)."""
    strategies = strategies or [random_strategy] * config.players
    return Table(config, PlaySource(seed, strategies)).play()
