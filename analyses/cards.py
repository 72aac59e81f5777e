"""Which card matters: the causal effect of removing a card, or a kind of card, on paired deals; and who holds it.

For each card the game's setup table names (``candidates``), the same lineup
plays the default table and the table without that card on the same seed and
game indices, so game ``i`` draws the same random numbers in both (common
random numbers) and ``analyses.compare`` gives paired intervals. The effect is
the change (without the card minus with it) in the first seat's edge, the
largest seat edge (points of win share), the mean game length and the mean
score spread. The intervals are Bonferroni-corrected over every card and
measure reported (``family``), so a card named as an outlier is one whose
interval excludes 0 at 95% for the whole table at once.

What "removing" means, per game (the setup table's own keys):

- Fair Enough: one ``queue``, ``preorder`` or ``sold_out`` special card fewer
  (``deck.<special>`` minus one); ``value V``: every kind's card of value V
  left out of ``deck.values``.
- Forks: ``value V``: every destination's card of value V taken out
  (``players.N.remove_values``); a removal after which the deck does not deal
  out evenly is reported as not playable.
- Fool!: the cards must deal out evenly, so a card is replaced, not just
  taken out. ``wild``: one wild "1" fewer and the longest colour one card
  longer (``players.N.wilds`` minus one, the colour's highest plus one);
  ``<colour>``: that colour one card shorter (its top card out) and the
  longest other colour one card longer. The ``discs`` are a rule, not a card.
- Fauch & Fertig: the deck is always the printed 72 cards, so a kind of card
  (a distinct condition of ``[conditions]``, e.g. ``pay 5 coins``) is made
  neutral: every card of that kind becomes a dead card (condition
  ``pay 1000000 coins``: it is still bought for its colour and number, its own
  egg can never be placed and, like every pay card, it is not dealt to an
  opening display). ``community: <condition>``: that white card taken out of
  ``community.cards`` (offered when more cards remain than the players need).

Who holds it (``holdings``), from the default table's games, per seat: the
win share of the seats that hold the card minus that of the seats that do
not, in points, with a percentile Poisson bootstrap over games (the seats of
a game are not independent), Bonferroni-corrected over these rows.

- Dealt in the opening hand (kind ``causal``): the deal is random, so being
  dealt the card is assigned at random and the difference is its effect.
  Fool!: ``wild (dealt)`` (a wild "1" in the first deal's hand, seat column
  ``wilds_dealt``) and ``colour top (dealt)`` (the highest card of a colour,
  ``tops_dealt``); Fauch & Fertig: ``<kind> (dealt)`` (a card of that kind in
  the opening display, bits of ``dealt_kinds``).
- Played or bought (kind ``observational``): an association, not an effect: a
  seat that is ahead may simply get to play or buy more cards; the output
  marks these rows. Fair Enough: ``<special> (played)`` (``queue_played``,
  ``preorder_played``, ``sold_out_played``); Fool!: ``wild (played)``
  (``wilds_played``); Fauch & Fertig: ``<kind> (bought)`` (``bought_kinds``);
  Forks, below.

Forks: ``value V (dealt)`` (causal: a card of value V among the seat's first
three cards, round 1; bits of ``dealt_values``) and ``value V (invested)``
(observational: a card of value V in the seat's hand at the end,
``invested_values``); values of 31 and more are not recorded.

``play`` plays the tables into a directory (``cards.json`` and one run per
table under ``runs/``) and resumes an interrupted one.
"""

import copy
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analyses.compare import compare
from analyses.runs import MANIFEST as RUN_MANIFEST

MEASURES = ("first seat edge", "largest seat edge", "mean rounds", "mean score spread")
BOOTSTRAP = 2000
DEAD = "pay 1000000 coins"   # Fauch & Fertig's neutral condition: a card whose egg can never be placed
MANIFEST = "cards.json"
GAMES = ("fair-enough", "forks", "fool", "fauch-fertig")


class CardError(ValueError):
    """A card the game's table does not name, or a game without card kinds; the message says which."""


def merge(base, extra):
    """``base`` with ``extra`` merged in, tables key by key (a new dict; ``base`` is left alone)."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        out[key] = merge(out.get(key, {}), value) if isinstance(value, dict) else value
    return out


def candidates(game, table, players):
    """``{card name: (what removing it means, setup override)}`` for ``game`` (its name) from its merged setup
    ``table`` at ``players`` (see the module docstring)."""
    if game == "fair-enough":
        return _fair_enough(table)
    if game == "forks":
        return _forks(table, players)
    if game == "fool":
        return _fool(table, players)
    if game == "fauch-fertig":
        return _fauch_fertig(table, players)
    raise CardError(f"playtest cards does not know the cards of {game} yet (it knows {', '.join(GAMES)})")


def _fair_enough(table):
    out = {}
    deck = table["deck"]
    for special in ("queue", "preorder", "sold_out"):
        if deck.get(special, 0) > 0:
            out[special] = (f"one {special.replace('_', ' ')} card fewer ({deck[special]} -> {deck[special] - 1})",
                            {"deck": {special: deck[special] - 1}})
    values = list(deck["values"])
    if len(values) > 1:
        for v in sorted(set(values)):
            out[f"value {v}"] = (f"the {v}s of every kind left out", {"deck": {"values": [x for x in values
                                                                                       if x != v]}})
    return out


def _forks(table, players):
    out = {}
    row = table["players"][str(players)]
    removed = set(row.get("remove_values", []))
    for v in table["deck"]["values"]:
        if v not in removed:
            out[f"value {v}"] = (f"every destination's {v} taken out",
                                 {"players": {str(players): {"remove_values": sorted(removed | {v})}}})
    return out


def _fool(table, players):
    out = {}
    row = table["players"][str(players)]
    colours = list(table["deck"]["colours"])
    size = {c: row[c][1] - row[c][0] + 1 for c in colours}

    def longest(other_than=None):
        return max((c for c in colours if c != other_than), key=lambda c: size[c], default=None)

    def longer(colour):
        return {colour: [row[colour][0], row[colour][1] + 1]}

    if row.get("wilds", 0) > 0 and colours:
        c = longest()
        out["wild"] = (f'one wild "1" fewer ({row["wilds"]} -> {row["wilds"] - 1}), {c} {row[c][1] + 1} added',
                       {"players": {str(players): {"wilds": row["wilds"] - 1, **longer(c)}}})
    for colour in colours:
        other = longest(colour)
        if size[colour] > 1 and other is not None:
            low, high = row[colour]
            out[colour] = (f"{colour} {high} out, {other} {row[other][1] + 1} added",
                           {"players": {str(players): {colour: [low, high - 1], **longer(other)}}})
    return out


def card_kinds(table):
    """Fauch & Fertig's kinds of card in ``table``: its distinct conditions, in the order the table names them."""
    from simulator.fauch_fertig.setup import card_conditions, card_kinds as kinds_of

    return kinds_of(card_conditions(table))[0]


def _fauch_fertig(table, players):
    out = {}
    conditions = table["conditions"]
    for kind in card_kinds(table):
        dead = {key: [DEAD if _normal(text) == kind else text for text in conditions[key]]
                for key in ("first_copy", "second_copy", "black")}
        cards = 4 * sum(_normal(text) == kind for key in ("first_copy", "second_copy") for text in conditions[key]) \
            + sum(_normal(text) == kind for text in conditions["black"])  # a copy list's entry is one card a colour
        what = f"the {cards} {kind!r} cards made dead ({DEAD})"
        out[kind] = (what, {"conditions": dead})
    pool = list(table["community"]["cards"])
    needed = 1 if players == 2 else players
    if len(pool) > needed:
        for k, text in enumerate(pool):
            name = f"community: {_normal(text)}"
            if name not in out:
                out[name] = (f"the community card {text!r} taken out ({len(pool)} -> {len(pool) - 1} cards)",
                             {"community": {"cards": pool[:k] + pool[k + 1:]}})
    return out


def _normal(text):
    return " ".join(str(text).lower().split())


@dataclass(frozen=True)
class Holding:
    """One "who holds it" row: the seats whose seat column ``column`` (its bit ``bit``, if given) is not 0
    against the others; ``kind`` is causal (dealt at random) or observational."""

    card: str
    column: str
    bit: int | None
    kind: str
    meaning: str


def holdings(game, table, players):
    """The "who holds it" rows of ``game`` at ``players`` from its merged setup ``table`` (module docstring)."""
    if game == "fair-enough":
        return [Holding(f"{s} (played)", f"{s}_played", None, "observational",
                        "observational: the seats that played one against those that did not")
                for s in ("queue", "preorder", "sold_out") if table["deck"].get(s, 0) > 0]
    if game == "fool":
        dealt = "causal: the seats dealt one in the opening hand against the others (the deal is random)"
        return [Holding("wild (dealt)", "wilds_dealt", None, "causal", dealt),
                Holding("colour top (dealt)", "tops_dealt", None, "causal",
                        dealt.replace("dealt one", "dealt the highest card of a colour")),
                Holding("wild (played)", "wilds_played", None, "observational",
                        "observational: the seats that played a wild \"1\" against those that did not")]
    if game == "fauch-fertig":
        from simulator.fauch_fertig.layout import MAX_KINDS

        rows = []
        for k, kind in enumerate(card_kinds(table)[:MAX_KINDS]):
            rows.append(Holding(f"{kind} (dealt)", "dealt_kinds", k, "causal",
                                "causal: the seats dealt one to their opening display against the others (the deal "
                                "is random)"))
            rows.append(Holding(f"{kind} (bought)", "bought_kinds", k, "observational",
                                "observational: the seats that bought one against those that did not"))
        return rows
    if game == "forks":
        from simulator.forks.engine import VALUE_BITS

        removed = set(table["players"][str(players)].get("remove_values", []))
        rows = []
        for v in sorted(set(table["deck"]["values"]) - removed):
            if v < VALUE_BITS:
                rows.append(Holding(f"value {v} (dealt)", "dealt_values", v, "causal",
                                    f"causal: the seats dealt a {v} among their first three cards against the others "
                                    f"(the deal is random)"))
                rows.append(Holding(f"value {v} (invested)", "invested_values", v, "observational",
                                    f"observational: the seats that invested in a {v} against those that did not"))
        return rows
    return []


def card_of(row_name):
    """The card a "who holds it" row is about: ``"wild (dealt)"`` -> ``"wild"``."""
    return row_name.rsplit(" (", 1)[0] if row_name.endswith(")") else row_name


@dataclass(frozen=True)
class CardEffect:
    """One card's effect on one measure: without minus with, with its Bonferroni-corrected interval."""

    card: str
    measure: str
    effect: float
    low: float
    high: float
    kind: str = "causal"

    @property
    def clear(self):
        return self.low > 0 or self.high < 0

    def to_dict(self):
        return {"card": self.card, "measure": self.measure, "effect": self.effect, "low": self.low,
                "high": self.high, "kind": self.kind}


def effects(base, variant, card, family):
    """The ``CardEffect``s of one card from the base run and the run without it (``(seats, manifest)`` each),
    intervals at 95% over a ``family`` of comparisons."""
    confidence = 1 - 0.05 / family
    c = compare(base[0], variant[0], base[1], variant[1], confidence=confidence)
    feel = {f.name: f for f in c.feel}
    picked = {"first seat edge": c.seats[0], "largest seat edge": c.largest,
              "mean rounds": feel.get("mean rounds"), "mean score spread": feel.get("mean score spread")}
    return [CardEffect(card, m, f.change, f.lo, f.hi) for m, f in picked.items() if f is not None]


def held_effects(seats, rows, replicates=BOOTSTRAP, seed=0):
    """The ``CardEffect``s of the "who holds it" ``rows`` (``Holding``s) from a run's seat rows: win share of
    the seats that hold the card minus the others', points, with a Poisson bootstrap interval over games,
    Bonferroni-corrected over the rows (a row whose column the run lacks, or that no seat or every seat
    holds, is left out). The same rows and ``seed`` give the same intervals (games in order)."""
    present = [r for r in rows if r.column in seats.columns]
    out = []
    family = max(1, len(present))
    rng = np.random.default_rng(seed)
    for row in present:
        held = pl.col(row.column) > 0 if row.bit is None else (pl.col(row.column) // (1 << row.bit)) % 2 > 0
        per_game = (seats.lazy().with_columns(held.alias("held"))
                    .group_by("game").agg((pl.col("win") * pl.col("held")).sum().alias("hw"),
                                          pl.col("held").sum().alias("hn"),
                                          (pl.col("win") * ~pl.col("held")).sum().alias("ow"),
                                          (~pl.col("held")).sum().alias("on")).sort("game").collect())
        x = per_game.select("hw", "hn", "ow", "on").to_numpy().astype(float)
        if x[:, 1].sum() == 0 or x[:, 3].sum() == 0:
            continue
        effect = 100 * (x[:, 0].sum() / x[:, 1].sum() - x[:, 2].sum() / x[:, 3].sum())
        w = rng.poisson(1.0, size=(replicates, len(x)))
        sums = w @ x
        keep = (sums[:, 1] > 0) & (sums[:, 3] > 0)
        boot = 100 * (sums[keep, 0] / sums[keep, 1] - sums[keep, 2] / sums[keep, 3])
        alpha = 0.05 / family
        lo, hi = np.quantile(boot, [alpha / 2, 1 - alpha / 2])
        out.append(CardEffect(row.card, "win share", float(effect), float(lo), float(hi), row.kind))
    return out


def strength(rows):
    """How clearly a card matters: its largest |effect| over half its interval's width, over the measures."""
    return max(abs(r.effect) / max((r.high - r.low) / 2, 1e-12) for r in rows)


def ranked(table):
    """The cards of ``{card: [CardEffect]}``: the causal ones from the clearest effect to the least clear, then
    the observational ones likewise."""
    return sorted(table, key=lambda card: (table[card][0].kind != "causal", -strength(table[card])))


UNITS = {"first seat edge": " points", "largest seat edge": " points", "mean rounds": " rounds",
         "mean score spread": " points of score", "win share": " points"}


def outlier_sentences(table, meanings):
    """One sentence per card with an interval that excludes 0, clearest first."""
    out = []
    for card in ranked(table):
        clear = [r for r in table[card] if r.clear]
        if not clear:
            continue
        r = clear[0]
        interval = f"{r.effect:+.2f} points of win share ({r.low:+.2f} to {r.high:+.2f})"
        if r.kind == "observational":
            verb = card.rsplit("(", 1)[-1].rstrip(")")
            out.append(f"Observational: seats that {verb} a '{card_of(card)}' card won {interval} more than those "
                       f"that did not; an association, not an effect.")
        elif card.endswith(" (dealt)"):
            out.append(f"Being dealt a '{card_of(card)}' card in the opening hand is worth {interval}; causal, the "
                       f"deal is random.")
        else:
            what = "; ".join(f"the {r.measure} by {r.effect:+.2f}{UNITS[r.measure]} ({r.low:+.2f} to {r.high:+.2f})"
                             for r in clear)
            out.append(f"Removing {card} ({meanings[card]}) changes {what}.")
    return out or ["No card's removal changes any measure clearly (every interval contains 0)."]


def frame(table):
    """Every ``CardEffect`` as a polars frame, clearest card first."""
    rows = [r.to_dict() for card in ranked(table) for r in table[card]]
    return pl.DataFrame(rows, schema={"card": pl.String, "measure": pl.String, "effect": pl.Float64,
                                      "low": pl.Float64, "high": pl.Float64, "kind": pl.String})


def run_name(index):
    """The run directory of table ``index`` under ``runs/``: ``base`` for the default table (None)."""
    return "base" if index is None else f"c{index:02d}"


def layout():
    """What ``play`` writes into its directory (``simulator.core.rundir``): ``cards.json``, the runs, a report."""
    from simulator.core import rundir

    return rundir.Layout("cards", files=(MANIFEST, *rundir.REPORT), trees=("report-data",),
                         folders=(("runs", rundir.Layout("cards runs", folders=(("base", rundir.RUN),
                                                                               ("c[0-9]*", rundir.RUN)))),))


def play(simulate, game, out, chosen, options, *, resume=False, unplayable=(), on_table=None, **where):
    """Play the default table and each ``chosen`` card's table (``{card: (meaning, setup override)}``) into
    ``out``/runs with ``simulate`` (``playtest.api.simulate``) and return ``(base, runs, not playable)``:
    the default table's ``Run``, ``{card: Run}`` and ``{card: why}`` (the ``unplayable`` exceptions).

    ``options`` are the run options that decide the games (players, games,
    seed, strategies, setup...; the same for every table but its setup
    override), ``where`` those that do not (threads, backend, scheduler,
    workers). ``cards.json`` is written first; with ``resume`` it must match
    (a ``CardError`` says what differs), a finished table is read back and an
    interrupted one finished. ``on_table(card, index, count)`` is called
    before each table (card None: the default table).
    """
    out = Path(out)
    plan = json.loads(json.dumps({"game": game, "options": options, "cards": list(chosen)}, default=str))
    path = out / MANIFEST
    if resume:
        try:
            before = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise CardError(f"cannot resume {out}: no readable {MANIFEST} there ({exc})") from None
        differs = [key for key in plan if before.get(key) != plan[key]]
        if differs:
            raise CardError(f"cannot resume {out}: the cards run there differs in {', '.join(differs)}")
    path.write_text(json.dumps(plan, indent=2) + "\n")
    tables = [(None, options.get("setup") or {})] + [(card, merge(options.get("setup") or {}, change))
                                                     for card, (_, change) in chosen.items()]
    base, runs, refused = None, {}, {}
    for index, (card, setup) in enumerate(tables):
        if on_table is not None:
            on_table(card, index, len(tables))
        run_dir = out / "runs" / run_name(None if card is None else index - 1)
        again = resume and (run_dir / RUN_MANIFEST).is_file()
        try:
            run = simulate(game, **{**options, "setup": setup}, out=run_dir, resume=again, **where)
        except unplayable as exc:
            refused[card] = str(exc)
            continue
        if card is None:
            base = run
        else:
            runs[card] = run
    path.write_text(json.dumps({**plan, "unplayable": refused, "complete": True}, indent=2) + "\n")
    return base, runs, refused
