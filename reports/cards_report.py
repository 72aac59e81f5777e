"""The report of ``playtest cards``: it opens with the cards ranked by the size of their effect on one measure
(``analyses.cards.ranking``), then the sentences in the same order, the figures and every effect."""

import numpy as np
import polars as pl

from analyses import cards as card_effects
from reports import figures
from reports.section import Section
from reports.tables import Table


FIGURES = {
    "first seat edge": ("card-effects", "change in the first seat's edge when the card is removed (points)",
                        "Card removal and the first seat (paired deals, corrected 95% intervals)",
                        "For each card, the first seat's edge without it minus with it, in percentage points, on the "
                        "same deals; intervals are Bonferroni-corrected over every card and measure."),
    "win share": ("card-holders", "win share of the seats holding the card minus the others' (points)",
                  "Who holds it (corrected 95% intervals)",
                  "For each card, the win share of the seats dealt it (causal: the deal is random) or that played "
                  "or bought it (observational: an association), minus the other seats', in percentage points; "
                  "bootstrap intervals over games, Bonferroni-corrected over these rows."),
}


def effects_figure(measure, table):
    """The rows of ``measure`` (a key of ``FIGURES``) per card, with their corrected intervals (points); None
    when no row has a finite effect."""
    name, xlabel, title, caption = FIGURES[measure]
    rows = table.filter(pl.col("measure") == measure)
    if not np.isfinite(rows["effect"].to_numpy()).any():
        return None
    labels = [f"{c}, {k}" if measure == "win share" else c for c, k in zip(rows["card"], rows["kind"])]
    fig, ax = figures.new_axes(height=max(1.8, 0.4 * rows.height + 1.0))
    figures.edge_points(ax, labels, rows["effect"], rows["low"], rows["high"])
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    data = rows.rename({"effect": "effect_points", "low": "low_points", "high": "high_points"})
    return figures.Figure(name, caption, fig, data)


def ranking_table(effects, measure):
    """The opening table: the cards ranked on ``measure``, each with its corrected interval and whether the
    effect is causal or an association (its data file in points of win share, or the measure's unit)."""
    rows = card_effects.ranking(effects, measure)
    unit = card_effects.UNITS[measure].strip().replace(" ", "_")
    data = pl.DataFrame({"rank": list(range(1, len(rows) + 1)), "card": [r.card for r in rows],
                         f"effect_{unit}": [r.effect for r in rows], f"low_{unit}": [r.low for r in rows],
                         f"high_{unit}": [r.high for r in rows], "evidence": [card_effects.evidence(r) for r in rows]},
                        schema_overrides={f"effect_{unit}": pl.Float64, f"low_{unit}": pl.Float64,
                                          f"high_{unit}": pl.Float64})
    return Table.of(card_effects.ranking_title(measure), data, "card-ranking", {
        "Rank": lambda r: str(r["rank"]), "Card": lambda r: r["card"],
        "Effect": lambda r: f"{r[f'effect_{unit}']:+.2f}",
        "Corrected 95% interval": lambda r: f"{r[f'low_{unit}']:+.2f} to {r[f'high_{unit}']:+.2f}",
        "Causal or association": lambda r: r["evidence"]})


def cards_section(title, effects, meanings, unplayable, measure=card_effects.DEFAULT_MEASURE):
    """The section: the ranking on ``measure`` first, then (a subsection) the sentences in the same order, the
    figures, the notes, the table of every effect and what was not playable."""
    table = card_effects.frame(effects)
    sentences = card_effects.outlier_sentences(effects, meanings, measure)
    notes = ["Causal: each table without a card was played on the same seed and deals as the default table "
             "(common random numbers), so every change is a paired difference; intervals are 95% for the whole "
             "table at once (Bonferroni over cards and measures).",
             "Who holds it (win share rows): a card dealt in the opening hand is assigned at random, so its row is "
             "causal; a card played or bought is an association (kind observational): a seat that is ahead may "
             "simply get to play or buy more."]
    notes += [f"{card}: not playable without it ({why})." for card, why in unplayable.items()]
    units = pl.Series([card_effects.UNITS[m].strip() for m in table["measure"]], dtype=pl.String)
    shown = Table.of("Every card and measure: without the card minus with it", table.with_columns(unit=units),
                     "card-effects", {
                         "Card": lambda r: r["card"], "Measure": lambda r: r["measure"],
                         "Effect": lambda r: f"{r['effect']:+.2f} {r['unit']}",
                         "Corrected 95% interval": lambda r: f"{r['low']:+.2f} to {r['high']:+.2f}",
                         "Kind": lambda r: r["kind"]})
    figs = [f for f in (effects_figure(m, table) for m in FIGURES) if f is not None]
    details = Section("What each card does", "cards", verdict=" ".join(sentences), figures=figs, text=notes,
                      tables=[shown])
    return Section(title, "cards", tables=[ranking_table(effects, measure)], subsections=[details])
