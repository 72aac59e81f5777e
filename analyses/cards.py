"""Which card matters: the causal effect of removing a card, or a kind of card, on paired deals; and who holds it.

For each card the game's setup table names (``studies.card_tables.candidates``), the same lineup
plays the default table and the table without that card on the same seed and
game indices, so game ``i`` draws the same random numbers in both (common
random numbers) and ``analyses.compare`` gives paired intervals. The effect is
the change (without the card minus with it) in the first seat's edge, the
largest seat edge (points of win share), the mean game length and the mean
score spread. The intervals are Bonferroni-corrected over every card and
measure reported (``family``), so a card named as an outlier is one whose
interval excludes 0 at 95% for the whole table at once.

What "removing" a card means and which "who holds it" rows a game has are
facts of each game's setup table, listed in the game's own ``cards`` module
(its descriptor's ``card_candidates`` and ``card_holdings``, read by
``studies.card_tables``; this package reads run directories and never
imports the simulator).

Who holds it (``held_effects``), from the default table's games, per seat: the
win share of the seats that hold the card minus that of the seats that do
not, in points, with a percentile Poisson bootstrap over games (the seats of
a game are not independent), Bonferroni-corrected over these rows. A row
is ``causal`` where holding the card was dealt at random, ``observational``
where a seat played or bought it.

``ranking(table, measure)`` orders every card by the size of its effect on
one measure (``DEFAULT_MEASURE``, the win share of the seats holding it,
unless told), each row marked causal (a paired removal, or a card dealt at
random) or an association (a card played or bought); the sentences and the
report follow the same order.

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
HELD = "win share"           # the measure of the "who holds it" rows
DEFAULT_MEASURE = HELD       # what a designer asks first: what a card is worth to the seat holding it
BOOTSTRAP = 2000
MANIFEST = "cards.json"


class CardError(ValueError):
    """A card the game's table does not name, or a game without card kinds; the message says which."""


def merge(base, extra):
    """``base`` with ``extra`` merged in, tables key by key (a new dict; ``base`` is left alone)."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        out[key] = merge(out.get(key, {}), value) if isinstance(value, dict) else value
    return out


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
    """The ``CardEffect``s of the "who holds it" ``rows`` (``simulator.core.card_rows.Holding``s) from a run's seat
    rows: win share of the seats that hold the card minus the others', points, with a Poisson bootstrap interval over games,
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
         "mean score spread": " points of score", HELD: " points"}


def check_measure(measure):
    """Refuse a measure the cards are not measured on (a ``CardError`` naming the choices)."""
    if measure not in (HELD, *MEASURES):
        raise CardError(f"--measure {measure!r}: choose one of {', '.join((HELD, *MEASURES))}")


def ranking(table, measure=DEFAULT_MEASURE):
    """The ``CardEffect``s of ``measure`` (one per card of ``{card: [CardEffect]}``), largest effect (in size)
    first; an unknown measure is a ``CardError``."""
    check_measure(measure)
    rows = [r for card in table for r in table[card] if r.measure == measure]
    return sorted(rows, key=lambda r: (-abs(r.effect), r.card))


def evidence(row):
    """Whether ``row``'s effect is causal or an association, in words: "causal: paired removal", "causal:
    dealt at random" or "association: played" (bought, invested)."""
    if row.measure != HELD:
        return "causal: paired removal"
    how = row.card.rsplit("(", 1)[-1].rstrip(")") if row.card.endswith(")") else "held"
    if row.kind == "causal":
        return f"causal: {how} at random"
    return f"association: {how}"


def ranking_rows(table, measure=DEFAULT_MEASURE):
    """The ranking as rows of words: rank, card, effect with its unit, corrected interval, evidence."""
    return [{"rank": k + 1, "card": r.card, "effect": f"{r.effect:+.2f}",
             "interval": f"{r.low:+.2f} to {r.high:+.2f}", "evidence": evidence(r)}
            for k, r in enumerate(ranking(table, measure))]


def ranking_title(measure=DEFAULT_MEASURE):
    """What the ranking ranks, with its unit."""
    if measure == HELD:
        return ("Cards ranked by what holding one is worth: win share of the seats holding it minus the others', "
                "points (corrected 95% intervals)")
    return (f"Cards ranked by what removing one changes: the {measure}, {UNITS[measure].strip()} "
            f"(without minus with, paired deals, corrected 95% intervals)")


def order(table, measure=DEFAULT_MEASURE):
    """The cards of ``table`` in the ranking's order, then the cards without a row of ``measure``."""
    first = list(dict.fromkeys(r.card for r in ranking(table, measure)))
    return first + [card for card in ranked(table) if card not in first]


def outlier_sentences(table, meanings, measure=DEFAULT_MEASURE):
    """One sentence per card with an interval that excludes 0, in the order of ``ranking`` on ``measure``."""
    out = []
    for card in order(table, measure):
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
