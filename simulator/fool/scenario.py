"""Fool! scenario files: play exactly this situation and tell what happens.

A scenario file (TOML) fixes the table at some moment of a deal::

    game = "fool"
    players = 4
    names = ["Anne", "Paul", "Rachel", "Camille"]   # optional, clockwise from seat 0
    leader = "Rachel"                   # who leads the first trick (a name or a seat number)
    passing = ["Paul"]                  # who holds a Fool! disc from the trick before (optional)
    tricks = 1                          # tricks to play (optional: until the deal ends)
    strategies = ["cautious"]           # for every card not scripted: one name or one per seat (default random)
    seed = 1                            # random streams of the strategies (optional)
    totals = [0, 0, 0, 0]               # game totals before this deal (optional)
    plays = [["yellow 10", "green 5", "yellow 2"]]   # optional: cards of trick 1, 2, ... in playing order

    [hands]                             # every player's hand: "colour value", or "1" for a wild
    Anne = ["yellow 2", "green 3"]
    ...

    [setup]                             # optional: changes to the setup table, as in --setup

A trick's script may stop early; the remaining cards of that trick, and all
later tricks, are played by the named strategies. The rules are those of the
reference engine, so a scripted card the rules forbid is refused. Hands need
not hold the whole deck: the cards in no hand count, for the strategies, as
cards they have not seen (as if played in tricks before the scenario starts
that they do not remember).
"""

from simulator.core.setup import SetupError, merge, read_toml
from simulator.fool.observe import numba_player
from simulator.fool.reference import WILD, Card, Deal, RefereeError, Rules
from simulator.fool.setup import SETUP_PATH, compile_setup

KEYS = {"game", "title", "players", "names", "leader", "passing", "tricks", "strategies", "seed", "totals",
        "plays", "hands", "setup"}


def parse_card(text, rules, where):
    """The Card written as ``"green 7"`` (a wild as ``"1"``), checked to be in the deck."""
    words = str(text).split()
    if words in (["1"], [WILD]):
        card = Card(WILD, 1)
    elif len(words) == 2 and words[1].isdigit():
        card = Card(words[0], int(words[1]))
    else:
        raise SetupError(where, f"{text!r} is not a card: write a colour and a value (\"green 7\") or \"1\"")
    if card not in rules.deck:
        raise SetupError(where, f"{text!r} is not in the {rules.players}-player deck (colours: "
                         f"{', '.join(rules.colours)})")
    return card


def _seat(value, names, where):
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return value
    if value in names:
        return names.index(value)
    raise SetupError(where, f"{value!r} is neither a player name ({', '.join(names)}) nor a seat number")


def _chooser(table, rules, strategies):
    """``choose(view)`` for unscripted cards: the named strategy of the seat."""
    try:
        chosen = [s for _, s in strategies.lineup(table.get("strategies", "random"), rules.players)]
    except ValueError as exc:  # an unknown name, or a count that is neither 1 nor the player count
        raise SetupError("strategies", str(exc)) from None
    seed = table.get("seed", 0)
    players = [numba_player(s.decide, s.params, seed, seat) for seat, s in enumerate(chosen)]
    return lambda view: players[view.seat](view), [s.name for s in chosen]


def scenario(table, strategies):
    """Play the situation of a scenario ``table`` (a dict read from TOML); return ``(lines, result)``.

    ``strategies`` is the Fool! ``StrategySet`` that names the strategies. ``result`` holds, per trick, the leader, the cards in
    playing order, who passed, the winner and who was befooled; then whether
    the deal ended, the hands left and, if it ended, the deal's points.
    """
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise SetupError(unknown[0], f"is not a scenario key (known: {', '.join(sorted(KEYS))})")
    players = table.get("players")
    if not isinstance(players, int):
        raise SetupError("players", f"must be a whole number, got {players!r}")
    setup = read_toml(SETUP_PATH)
    if "setup" in table:
        setup = merge(setup, table["setup"])
    config = compile_setup(setup, players, "standard")
    rules = Rules.from_setup(config.setup, players)
    names = list(table.get("names", [f"seat {s}" for s in range(players)]))
    if len(names) != players or len(set(names)) != players:
        raise SetupError("names", f"must give {players} different names, got {names!r}")

    hands_table = table.get("hands")
    if not isinstance(hands_table, dict) or set(hands_table) != set(names):
        raise SetupError("hands", f"must give the hand of each player: {', '.join(names)}")
    hands = [[parse_card(c, rules, f"hands.{n}") for c in hands_table[n]] for n in names]
    held = sorted(c for h in hands for c in h)
    for card in set(held):
        if held.count(card) > rules.deck.count(card):
            raise SetupError("hands", f"{card} is dealt {held.count(card)} times but the deck has "
                             f"{rules.deck.count(card)}")
    if not all(hands):
        raise SetupError("hands", "every player needs at least one card (an empty hand ends the deal)")

    leader = _seat(table.get("leader", 0), names, "leader")
    passing = {_seat(p, names, "passing") for p in table.get("passing", [])}
    if leader in passing or len(passing) > rules.discs:
        raise SetupError("passing", f"at most {rules.discs} player(s) can hold a disc, and not the leader")
    script = [[parse_card(c, rules, f"plays[{t}]") for c in trick] for t, trick in enumerate(table.get("plays", []))]
    tricks = table.get("tricks")
    strategy_choose, strategy_names = _chooser(table, rules, strategies)

    deal = Deal(rules, hands, leader, passing=passing, totals=table.get("totals"), names=names)
    discs = f"{rules.discs} Fool! disc{'s' if rules.discs > 1 else ''}"
    lines = [table.get("title", "Fool! scenario") + f" ({players} players, {discs})",
             "players: " + ", ".join(f"{n} ({s})" for n, s in zip(names, strategy_names))]
    for seat in range(players):
        lines.append(f"{names[seat]}: " + ", ".join(map(str, hands[seat])))
    played = []
    while not deal.over and (tricks is None or len(deal.tricks) < tricks):
        t = len(deal.tricks)
        scripted = list(script[t]) if t < len(script) else []
        passing_now = sorted(deal.passing)

        def choose(view):
            return scripted.pop(0) if scripted else strategy_choose(view)

        try:
            trick = deal.play_trick(choose, lines.append)
        except RefereeError as exc:
            raise SetupError(f"plays[{t}]", str(exc)) from None
        if scripted:
            raise SetupError(f"plays[{t}]", f"scripts {len(scripted)} card(s) more than the players in trick "
                             f"{t + 1}")
        played.append({"leader": names[trick.leader],
                       "cards": [{"player": names[s], "card": str(c)} for s, c in trick.plays],
                       "passing": [names[s] for s in passing_now],
                       "winner": names[trick.winner()],
                       "befooled": [names[s] for s in deal.last_fooled]})
    result = {"tricks": played, "deal_over": deal.over,
              "hands": {names[s]: [str(c) for c in deal.hands[s]] for s in range(players)}}
    if deal.over:
        points = deal.scores()
        result["points"] = {names[s]: points[s] for s in range(players)}
        lines.append("deal over: " + ", ".join(f"{names[s]} {points[s]:+d}" for s in range(players)))
    return lines, result
