"""The report of ``playtest cards``: which card's removal changes the seats, the length or the spread."""

import numpy as np
import polars as pl

from analyses import cards as card_effects
from reports import figures
from reports.section import Section
from reports.tables import Table


def effects_figure(name, table):
    """The change in the first seat's edge per card, with its Bonferroni-corrected interval (points)."""
    rows = table.filter(pl.col("measure") == "first seat edge")
    fig, ax = figures.new_axes(height=max(1.8, 0.4 * rows.height + 1.0))
    figures.edge_points(ax, rows["card"].to_list(), rows["effect"], rows["low"], rows["high"])
    ax.set_xlabel("change in the first seat's edge when the card is removed (points)")
    ax.set_title("Card removal and the first seat (paired deals, corrected 95% intervals)")
    return figures.Figure(name, "For each card, the first seat's edge without it minus with it, in percentage "
                                "points, on the same deals; intervals are Bonferroni-corrected over every card "
                                "and measure.", fig, rows)


def cards_section(title, effects, meanings, unplayable):
    """The section: the outlier sentences, the figure, the table of every effect, what was not playable."""
    table = card_effects.frame(effects)
    sentences = card_effects.outlier_sentences(effects, meanings)
    notes = ["Causal: each table without a card was played on the same seed and deals as the default table "
             "(common random numbers), so every change is a paired difference; intervals are 95% for the whole "
             "table at once (Bonferroni over cards and measures)."]
    notes += [f"{card}: not playable without it ({why})." for card, why in unplayable.items()]
    shown = Table.of("Every card and measure: without the card minus with it", table, "card-effects", {
        "Card": lambda r: r["card"], "Measure": lambda r: r["measure"],
        "Effect": lambda r: f"{r['effect']:+.2f}",
        "Corrected 95% interval": lambda r: f"{r['low']:+.2f} to {r['high']:+.2f}",
        "Kind": lambda r: r["kind"]})
    figs = [effects_figure("card-effects", table)] if np.isfinite(table["effect"].to_numpy()).any() else []
    return Section(title, "cards", verdict=" ".join(sentences), figures=figs, text=notes, tables=[shown])
