"""Fauch & Fertig scenario files: put a position on the table, play turns, tell what happens.

A scenario file (TOML) fixes the table at the start of some player's turn::

    game = "fauch-fertig"
    title = "Heidi buys the red card"       # optional
    players = 2
    names = ["Heidi", "Otto"]               # optional, seat 0 first (seat 0 starts every round)
    turn = "Heidi"                          # who moves first: a name or a seat number (default seat 0)
    round = 3                               # the current round, for the safety cap (optional, default 1)
    turns = 4                               # turns to play (optional: until the game ends)
    actions = ["market 1", "blind keep 2, pay", "coins"]   # optional: the first turns, in order
    strategies = ["chaser"]                 # for the turns after the script: one name or one per seat
    seed = 1                                # the strategies' streams and reshuffles (optional)
    community = ["8 cards 1-4"]             # the community cards in play; card k lies between seats k, k + 1
    pile = ["blue 2", "black (free egg)"]   # top of the draw pile, top first
    discard = ["green 4"]                   # optional

    [market]                                # the 3 market cards, slot 1 first, and the coins on them
    cards = ["red 3", "blue 5", "green 6"]
    coins = [2, 1, 0]

    [[seats]]                               # one table per seat, seat 0 first
    display = ["red 1", "red 2"]
    coins = 4
    eggs_left = 12                          # optional: default, the eggs the display does not carry
    eggs_on = []                            # optional: paid pay cards and bonus cards, one entry per egg

    [setup]                                 # optional: changes to the setup table, as in --setup

**Cards** are written ``"red 7"`` (colour and number) or ``"black"``. When
the copies of a card carry different conditions (the black cards; red 8
and "pay 5 coins" in the default table), add the condition in brackets, as
the narration prints it: ``"black (free egg)"``, ``"red 8 (pay 5 coins)"``.
Every card is used at most once; the cards the file names nowhere are
shuffled (by ``seed``) into the draw pile below the cards of ``pile``.

**Eggs already placed** follow from the position: every card of a display
whose condition the display meets carries its egg, a free-egg card carries
one, and a community card both neighbours' displays meet is complete. Only
what the rules cannot tell is written in ``eggs_on``: a pay card that was
paid for, and a black-card bonus card once per black card it rewarded.

**Actions**, one per turn: ``"market N"`` buys the card in market slot N
(1-3), ``"blind keep N"`` buys blind and keeps the N-th card drawn (in the
order drawn, 1 first), ``"coins"`` takes the coins. When a purchase lays
out a pay card the player can afford, the choice follows after a comma:
``"market 2, pay"`` or ``"market 2, decline"`` (left out, the seat's strategy
chooses). The rules are the reference engine's, so an action the rules do
not allow is refused. The turns after the script are played by the named
strategies; the game ends, as printed, at the end of the round in which a
player places their last egg.
"""

import re
from pathlib import Path

from simulator.core.setup import SetupError, merge, read_toml, require, require_ints
from simulator.fauch_fertig.layout import A_BLIND, A_COINS, A_MARKET, MARKET
from simulator.fauch_fertig.narrate import describe
from simulator.fauch_fertig.observe import numba_player
from simulator.fauch_fertig.reference import Community, PlaySource, Table, condition_met
from simulator.fauch_fertig.setup import compile_setup, parse_condition

KEYS = {"game", "title", "players", "names", "turn", "round", "turns", "actions", "strategies", "seed",
        "community", "pile", "discard", "market", "seats", "setup"}
SEAT_KEYS = {"display", "coins", "eggs_left", "eggs_on"}
_CARD = re.compile(r"(\w+)(?: (\d+))?(?: \((.+)\))?")
_ACTION = re.compile(r"(market (\d+)|blind keep (\d+)|coins)(?:, (pay|decline))?")


class _Cards:
    """Hands out the table's cards by how a scenario writes them, each at most once."""

    def __init__(self, table):
        self.all = table.cards
        self.free = list(table.cards)

    def take(self, text, key):
        """The ``Card`` written ``text`` (see the module docstring) at ``key``, no longer free."""
        words = " ".join(str(text).lower().split())
        match = _CARD.fullmatch(words)
        colour, number, condition = match.groups() if match else (None, None, None)
        number = None if number is None else int(number)
        same = [c for c in self.all if c.colour == colour and c.number == number]
        if not same:
            raise SetupError(key, f"{text!r} is not a card: write a colour and a number (\"red 7\") or \"black\", "
                                  f"with its condition in brackets if needed (\"black (free egg)\")")
        if condition is not None:
            same = [c for c in same if c.condition.text == condition]
            if not same:
                raise SetupError(key, f"no {colour}{'' if number is None else f' {number}'} card carries "
                                      f"the condition {condition!r}")
        texts = sorted({c.condition.text for c in same})
        if len(texts) > 1:
            raise SetupError(key, f"{text!r}: its copies carry different conditions, name one in brackets: "
                                  + ", ".join(f"\"{words} ({t})\"" for t in texts))
        for card in same:
            if card in self.free:
                self.free.remove(card)
                return card
        raise SetupError(key, f"{text!r} is used twice in the scenario (the deck has {len(same)})")

    def take_all(self, table, key, path):
        """The cards of the list ``table[key]`` (found at ``path``), in order."""
        where = f"{path}.{key}" if path else key
        return [self.take(t, f"{where}[{i}]") for i, t in enumerate(require(table, key, list, path))]


def _seat(value, names, key):
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return value
    if value in names:
        return names.index(value)
    raise SetupError(key, f"{value!r} is neither a player name ({', '.join(names)}) nor a seat number")


def _count(value, key, minimum=0):
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SetupError(key, f"must be a whole number of at least {minimum}, got {value!r}")
    return value


def _parse_action(text, key, blind_draw):
    """``(action code, kept index or None, pay choice or None)`` of a scripted action."""
    match = _ACTION.fullmatch(" ".join(str(text).lower().split()))
    if not match:
        raise SetupError(key, f"{text!r} is not an action: write \"market N\", \"blind keep N\" or \"coins\", "
                              f"and \", pay\" or \", decline\" after a purchase laying out a pay card")
    _, slot, keep, pay = match.groups()
    if slot is not None and not 1 <= int(slot) <= MARKET:
        raise SetupError(key, f"{text!r}: the market slots are 1 to {MARKET}")
    if keep is not None and not 1 <= int(keep) <= blind_draw:
        raise SetupError(key, f"{text!r}: a blind buy draws {blind_draw} cards, keep 1 to {blind_draw}")
    if match.group(1) == "coins" and pay:
        raise SetupError(key, f"{text!r}: taking coins lays out no card to pay for")
    code = A_COINS if match.group(1) == "coins" else A_BLIND if keep else A_MARKET + int(slot) - 1
    return code, None if keep is None else int(keep) - 1, None if pay is None else pay == "pay"


def action_text(code, kept=None, paid=None):
    """A turn in the notation of scripted actions (the inverse of ``_parse_action``)."""
    text = "coins" if code == A_COINS else f"blind keep {kept + 1}" if code == A_BLIND else f"market {code + 1}"
    return text if paid is None else f"{text}, {'pay' if paid else 'decline'}"


class ScenarioSource(PlaySource):
    """The script's choice for the current turn while it lasts, else the seat's strategy.

    Reshuffles come from the seeded ``random`` of ``PlaySource``. A scripted
    choice the rules do not allow raises ``SetupError`` naming the action.
    """

    def __init__(self, seed, strategies, script):
        super().__init__(seed, strategies)
        self.script = script
        self.key, self.step, self.chosen = None, None, {}

    def start_turn(self, index):
        """Use script entry ``index`` (if any) for the turn about to be played; record what is chosen."""
        self.key = f"actions[{index}]"
        self.step = self.script[index] if index < len(self.script) else None
        self.chosen = {"kept": None, "paid": None}

    def action(self, table, player, legal):
        if self.step is None:
            return super().action(table, player, legal)
        code = self.step[0]
        if code not in legal:
            in_market = sum(c is not None for c in table.market)
            raise SetupError(self.key, f"{action_text(code, self.step[1])} is not allowed: "
                                       f"{player.coins} coins, and buying costs 1 coin per other market card "
                                       f"({in_market - 1} from the market, {in_market} blind)")
        return code

    def keep(self, table, player, drawn):
        if self.step is None:
            k = super().keep(table, player, drawn)
        else:
            k = self.step[1]
            if k >= len(drawn):
                raise SetupError(self.key, f"only {len(drawn)} cards could be drawn, cannot keep card {k + 1}")
        self.chosen["kept"] = k
        return k

    def pay(self, table, player, card):
        if self.step is None or self.step[2] is None:
            paid = super().pay(table, player, card)
        else:
            paid = self.step[2]
        self.chosen["paid"] = paid
        return paid

    def end_turn(self):
        if self.step is not None and self.step[2] is not None and self.chosen["paid"] is None:
            raise SetupError(self.key, "scripts a pay choice, but the purchase lays out no pay card the player "
                                       "can afford")


def _strategies(spec, players, strategies, seed):
    try:
        chosen = [s for _, s in strategies.lineup(spec.get("strategies", "random"), players)]
    except ValueError as exc:  # an unknown name, or a count that is neither 1 nor the player count
        raise SetupError("strategies", str(exc)) from None
    return [numba_player(s.decide, s.params, seed, seat) for seat, s in enumerate(chosen)], [s.name for s in chosen]


def _place_seat(table, player, row, cards, key):
    """Put seat ``row`` (display, coins, eggs) on ``player``; the eggs the position implies are placed."""
    unknown = sorted(set(row) - SEAT_KEYS)
    if unknown:
        raise SetupError(f"{key}.{unknown[0]}", f"is not a seat key (known: {', '.join(sorted(SEAT_KEYS))})")
    player.display = cards.take_all(row, "display", key)
    player.coins = require(row, "coins", int, key, minimum=0)
    player.bonus_cards = [c for c in player.display if c.condition.kind == "bonus"]
    for card in player.display:
        kind = card.condition.kind
        if kind == "free" or (kind not in ("pay", "bonus") and condition_met(card.condition, player.display)):
            player.eggs_on[card.id] = 1
    for i, text in enumerate(row.get("eggs_on", [])):
        where = f"{key}.eggs_on[{i}]"
        words = " ".join(str(text).lower().split())
        room = {"pay": 1, "bonus": table.info["bonus_blacks"]}
        card = next((c for c in player.display if words in (str(c), f"{c} ({c.condition.text})")
                     and player.eggs_on.get(c.id, 0) < room.get(c.condition.kind, 0)), None)
        if card is None:
            raise SetupError(where, f"{text!r} is no pay or black-card bonus card of this display that can take "
                                    f"another egg (a pay card carries 1, a bonus card at most "
                                    f"{table.info['bonus_blacks']})")
        player.eggs_on[card.id] = player.eggs_on.get(card.id, 0) + 1
    on_cards = sum(player.eggs_on.values())
    eggs = table.info["eggs"]
    left = _count(row.get("eggs_left", eggs - on_cards), f"{key}.eggs_left")
    if left > eggs - on_cards:
        raise SetupError(f"{key}.eggs_left", f"{left} eggs left, but the display carries {on_cards} of the "
                                             f"{eggs} eggs")
    player.placed = eggs - left


def _position(spec, config, source):
    """A reference ``Table`` holding the position of the scenario ``spec``; returns it and the player names."""
    table = Table(config, source, deal=False)
    players, info = config.players, config.info
    names = list(spec.get("names", [f"seat {s}" for s in range(players)]))
    if len(names) != players or len(set(names)) != players:
        raise SetupError("names", f"must give {players} different names, got {names!r}")
    cards = _Cards(table)
    seats = require(spec, "seats", list, "")
    if len(seats) != players:
        raise SetupError("seats", f"must describe each of the {players} seats, got {len(seats)}")
    for s, row in enumerate(seats):
        _place_seat(table, table.players[s], row, cards, f"seats[{s}]")

    market = require(spec, "market", dict, "")
    table.market = cards.take_all(market, "cards", "market")
    table.market_coins = require_ints(market, "coins", "market", minimum=0)
    if len(table.market) != MARKET or len(table.market_coins) != MARKET:
        raise SetupError("market", f"must give {MARKET} cards and {MARKET} coin counts, slot 1 first")
    top = cards.take_all(spec, "pile", "") if "pile" in spec else []
    table.discard = cards.take_all(spec, "discard", "") if "discard" in spec else []
    table.pile = top + source.shuffle(cards.free)

    texts = require(spec, "community", list, "")
    if len(texts) != info["community_needed"]:
        raise SetupError("community", f"{players} players have {info['community_needed']} community card(s) in "
                                      f"play, got {len(texts)}")
    for k, text in enumerate(texts):
        com = Community(parse_condition(text, f"community[{k}]"), k, (k + 1) % players)
        com.done = condition_met(com.condition, table.players[com.left].display +
                                       table.players[com.right].display)
        table.community.append(com)

    if table.supply is not None:
        table.supply -= sum(p.coins for p in table.players) + sum(table.market_coins)
        if table.supply < 0:
            raise SetupError("setup.game.coin_supply", f"the position holds {-table.supply} coins more than the "
                                                       f"supply has")
    return table, names


def scenario(spec, strategies):
    """Play the scenario ``spec`` (a dict read from TOML, see the module docstring); return ``(lines, result)``.

    ``strategies`` is the Fauch & Fertig ``StrategySet`` naming the
    strategies. ``result["turns"]`` lists every turn played: the player, the
    action in the script notation, the card bought, the coins moved (paid
    onto the market, taken from the market, from the supply, paid for an
    egg), the coins after the turn, and each egg placed with its owner, card
    and reason. Then the market (card and coins per slot) and, per player, the eggs placed (golden included), eggs
    left, golden eggs and coins; whether the game is over, and if so the
    winners. Raises ``SetupError`` naming the key of anything the file gets
    wrong.
    """
    unknown = sorted(set(spec) - KEYS)
    if unknown:
        raise SetupError(unknown[0], f"is not a scenario key (known: {', '.join(sorted(KEYS))})")
    players = require(spec, "players", int, "")
    setup = read_toml(Path(__file__).with_name("setup.toml"))
    if "setup" in spec:
        setup = merge(setup, spec["setup"])
    config = compile_setup(setup, players, "standard")
    info = config.info
    seed = spec.get("seed", 0)
    script = [_parse_action(t, f"actions[{i}]", info["blind_draw"]) for i, t in enumerate(spec.get("actions", []))]
    deciders, strategy_names = _strategies(spec, players, strategies, seed)
    source = ScenarioSource(seed, deciders, script)
    table, names = _position(spec, config, source)
    seat = _seat(spec.get("turn", 0), names, "turn")
    table.round = _count(spec.get("round", 1), "round", minimum=1) - 1
    if table.round >= info["max_rounds"]:
        raise SetupError("round", f"the safety cap ends the game after round {info['max_rounds']}")
    if seat == 0 and table.out_of_eggs():
        raise SetupError("turn", "a player has no eggs left: the game ended with the last round")
    limit = spec.get("turns")
    if limit is not None and _count(limit, "turns") < len(script):
        raise SetupError("turns", f"{limit} turns cannot play the {len(script)} scripted actions")

    lines = [spec.get("title", "Fauch & Fertig scenario") + f" ({players} players, round {table.round + 1})",
             "players: " + ", ".join(f"{n} ({s})" for n, s in zip(names, strategy_names)),
             "community cards: " + "; ".join(f"{c.condition.text!r} between {names[c.left]} and {names[c.right]}"
                                             + (" (complete)" if c.done else "") for c in table.community),
             "market: " + ", ".join(f"{c} ({c.condition.text}) with {n} coin{'s' * (n != 1)}"
                                    for c, n in zip(table.market, table.market_coins)),
             f"draw pile: {len(table.pile)} cards, top {table.pile[0] if table.pile else 'none'}; "
             f"discard pile: {len(table.discard)} cards"]
    for p in table.players:
        lines.append(f"{names[p.seat]}: {p.coins} coins, {info['eggs'] - p.placed} eggs left; display "
                     + ", ".join(f"{c} ({c.condition.text})" + " *" * p.eggs_on.get(c.id, 0) for c in p.display))

    turns, over, capped = [], False, False
    while limit is None or len(turns) < limit:
        player = table.players[seat]
        source.start_turn(len(turns))
        start = len(table.events)
        coins_before = player.coins
        table.turn(player)
        source.end_turn()
        events = table.events[start:]
        lines.extend(describe(e, names) for e in events)
        turns.append(_turn_record(events, player, names, coins_before, source.chosen))
        seat = (seat + 1) % players
        if seat == 0:
            if table.out_of_eggs():
                over = True
                break
            if table.round + 1 >= info["max_rounds"]:
                capped = True
                break
            table.round += 1
            table.events.append(("round", table.round))
            lines.append(describe(table.events[-1], names))

    eggs = info["eggs"]
    ps = table.players
    result = {"turns": turns,
              "eggs": {names[p.seat]: p.placed for p in ps},
              "eggs_left": {names[p.seat]: max(0, eggs - p.placed) for p in ps},
              "golden": {names[p.seat]: max(0, p.placed - eggs) for p in ps},
              "coins": {names[p.seat]: p.coins for p in ps},
              "market": [{"card": None if c is None else str(c), "coins": n}
                         for c, n in zip(table.market, table.market_coins)],
              "game_over": over, "stopped_by_safety_cap": capped, "winners": None}
    if over:
        result["winners"] = [names[s] for s in table.result(True).winners]
        w = result["winners"]
        lines.append(describe(table.events[-1], names))
        lines.append(("winner: " if len(w) == 1 else "shared win: ") + ", ".join(w))
    elif capped:
        table.result(False)
        lines.append(describe(table.events[-1], names))
    else:
        lines.append(f"{len(turns)} turn(s) played; {names[seat]} is next")
    for p in ps:
        lines.append(f"{names[p.seat]}: {p.placed} eggs placed ({max(0, p.placed - eggs)} golden), "
                     f"{p.coins} coins")
    return lines, result


def _turn_record(events, player, names, coins_before, chosen):
    """The ``result`` entry of one turn from the events it logged."""
    record = {"player": names[player.seat], "action": None, "card": None,
              "coins": {"before": coins_before, "paid_to_market": 0, "taken_from_market": 0, "from_supply": 0,
                        "paid_for_egg": 0, "after": player.coins},
              "eggs": []}
    coins = record["coins"]
    for kind, *a in events:
        if kind == "take":
            record["action"] = action_text(A_COINS)
            coins["from_supply"] += a[1]
        elif kind == "buy":
            _, card, slot, paid_slots, taken, _ = a
            record["action"], record["card"] = action_text(A_MARKET + slot, paid=chosen["paid"]), str(card)
            coins["paid_to_market"] += len(paid_slots)
            coins["taken_from_market"] += taken
        elif kind == "blind":
            _, drawn, kept, paid, _ = a
            record["action"] = action_text(A_BLIND, chosen["kept"], chosen["paid"])
            record["card"] = str(kept)
            coins["paid_to_market"] += paid
        elif kind == "bonus":
            coins["from_supply"] += a[3]
        elif kind == "pay" and a[2]:
            coins["paid_for_egg"] += a[3]
        elif kind == "egg":
            seat, card, reason, golden = a
            record["eggs"].append({"player": names[seat], "card": None if card is None else str(card),
                                   "reason": reason, "golden": golden})
    return record
