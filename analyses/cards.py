"""Which card matters: the causal effect of removing a card, or a kind of card, on paired deals.

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

Who holds it (observational): where a game records per seat how many of a
card a seat used (``HELD``: Fair Enough's ``queue_played``,
``preorder_played``, ``sold_out_played``), the win share of the seats that
played one minus that of the seats that did not, in points, over the default
table's games, with a percentile Poisson bootstrap over games (the seats of
a game are not independent), Bonferroni-corrected over these rows. It is an
association, not an effect: a seat that is ahead may simply get to play more
cards; the output marks these rows ``observational``. No game records the
cards dealt in an opening hand, so there is no causal "dealt" version here.
"""

import copy
from dataclasses import dataclass

import numpy as np
import polars as pl

from analyses.compare import compare

MEASURES = ("first seat edge", "largest seat edge", "mean rounds", "mean score spread")
HELD = {"fair-enough": {"queue": "queue_played", "preorder": "preorder_played", "sold_out": "sold_out_played"}}
BOOTSTRAP = 2000


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
    ``table`` at ``players``."""
    out = {}
    if game == "fair-enough":
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
    elif game == "forks":
        row = table["players"][str(players)]
        removed = set(row.get("remove_values", []))
        for v in table["deck"]["values"]:
            if v not in removed:
                out[f"value {v}"] = (f"every destination's {v} taken out",
                                     {"players": {str(players): {"remove_values": sorted(removed | {v})}}})
    else:
        raise CardError(f"playtest cards does not know the cards of {game} yet (it knows fair-enough and forks)")
    return out


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


def held_effects(game, seats, family_extra=0, replicates=BOOTSTRAP, seed=0):
    """The observational ``CardEffect``s of ``game``'s ``HELD`` cards from a run's seat rows (see the module
    docstring): win share of the seats that played the card minus the others', points."""
    columns = {card: col for card, col in HELD.get(game, {}).items() if col in seats.columns}
    out = []
    family = max(1, len(columns) + family_extra)
    rng = np.random.default_rng(seed)
    for card, col in columns.items():
        per_game = (seats.lazy().with_columns((pl.col(col) > 0).alias("held"))
                    .group_by("game").agg((pl.col("win") * pl.col("held")).sum().alias("hw"),
                                          pl.col("held").sum().alias("hn"),
                                          (pl.col("win") * ~pl.col("held")).sum().alias("ow"),
                                          (~pl.col("held")).sum().alias("on")).collect())
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
        out.append(CardEffect(f"{card} (played)", "win share", float(effect), float(lo), float(hi),
                              "observational"))
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
        if clear and clear[0].kind == "observational":
            r = clear[0]
            out.append(f"Observational: seats that played a {card.removesuffix(' (played)')} won {r.effect:+.2f} "
                       f"points of win share more than those that did not ({r.low:+.2f} to {r.high:+.2f}); an "
                       f"association, not an effect.")
        elif clear:
            what = "; ".join(f"the {r.measure} by {r.effect:+.2f}{UNITS[r.measure]} ({r.low:+.2f} to {r.high:+.2f})"
                             for r in clear)
            out.append(f"Removing {card} ({meanings[card]}) changes {what}.")
    return out or ["No card's removal changes any measure clearly (every interval contains 0)."]


def frame(table):
    """Every ``CardEffect`` as a polars frame, clearest card first."""
    rows = [r.to_dict() for card in ranked(table) for r in table[card]]
    return pl.DataFrame(rows, schema={"card": pl.String, "measure": pl.String, "effect": pl.Float64,
                                      "low": pl.Float64, "high": pl.Float64, "kind": pl.String})
