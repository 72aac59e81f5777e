"""The report of the Unfair (FLSU expansion) mechanics lab: one section per study.

``unfair_sections(setup, ...)`` runs the five studies of ``simulator.unfair``
and returns one ``reports.section.Section`` per study, in the order dice,
Wishing Well, fame, gemstones, panoramas. Each section opens with a one-line
conclusion (which choice comes out ahead, by how much, with its 95%
interval), then one figure whose data frame is the one drawn, a short table
a designer reads (95% intervals, never standard errors), and every table of
the study in full, folded, with its CSV. A last section shows the setup table
used.

``write_unfair_report(out, ...)`` writes them with the run reports' templates
(``reports.build.render``): one self-contained HTML file or Markdown with PNG
files, and the data behind each figure and table as CSV in
``<out stem>-data/``. The report says at the top that the base game of Unfair
is not simulated.
"""

import polars as pl

from reports.build import render
from reports.figures import Figure, legend_outside, new_axes, whole_ticks
from reports.section import Section, compact_toml
from reports.tables import Table
from reports.unfair_answers import ANSWERS, Z
from simulator.unfair import dice, fame, gems, panoramas, wishing_well
from simulator.unfair.setup import dice_faces, load_setup

NOT_A_GAME = ("playtest does not simulate the base game of Unfair: its rules are not in our documents. "
              "Each section below isolates one mechanic of the expansion and studies it alone, with exact "
              "answers where they exist and Monte Carlo simulation where they do not; no section is the "
              "result of whole games.")


def _se_column(name):
    """The quantity a standard-error column is for (``se_p`` and ``net_se`` -> ``p``, ``net``), or None."""
    if name.startswith("se_"):
        return name[3:]
    return name[:-3] if name.endswith("_se") else None


def as_intervals(df):
    """``df`` with every standard-error column replaced by the 95% half-width of its quantity
    (named ``<quantity>_95``), so no table shows a standard error."""
    swaps = {c: f"{_se_column(c)}_95" for c in df.columns if _se_column(c)}
    return df.with_columns(pl.col(c) * Z for c in swaps).rename(swaps)


def _full(tables, slug):
    """Every table of a study in full (folded when long), each with its CSV, 95% half-widths for errors."""
    return [Table.of(f"All results: {name}", as_intervals(df), f"{slug}-{name.replace(' ', '-')}")
            for name, df in tables.items()]


def _study(study, slug, title, tables, figure, what):
    """The section of ``study``: its conclusion and summary (``reports.unfair_answers``), the figure, the
    study's words and every table in full."""
    conclusion, summary = ANSWERS[study](tables)
    return Section(title, "unfair", verdict=conclusion, figures=[figure], text=[what],
                   tables=[summary, *_full(tables, slug)])


def dice_section(setup, opts):
    """Rolling a double with magic beans: exact odds and the simulation beside them."""
    df = dice.dice_study("double", range(6), faces=dice_faces(setup), **opts)
    fig, ax = new_axes()
    ax.plot(df["beans"], 100 * df["exact_p"], marker="o", color="black", label="exact")
    ax.errorbar(df["beans"], 100 * df["sim_p"], yerr=100 * Z * df["se_p"], fmt="x", capsize=4,
                label="simulated (95% interval)")
    ax.set_xlabel("magic beans held")
    whole_ticks(ax.xaxis)
    ax.set_ylabel("chance of a double (%)")
    legend_outside(ax)
    figure = Figure("unfair-dice", "Chance of a double by beans held: exact, and simulated with 95% intervals.",
                    fig, df.select("beans", "exact_p", "sim_p", "se_p"))
    return _study("dice", "unfair-dice", "Unfair: rolling a double with magic beans", {"double": df}, figure,
                  "Dice control alone: exact odds over the 36 rolls beside a simulation; each bean moves one die "
                  "by 1.")


def wishing_well_section(setup, game):
    """Wishing Well against Wandering Merchant: wishes granted and coins per policy."""
    ww = wishing_well.wishing_well_study(setup, **game)
    fig, ax = new_axes()
    for row in ww.iter_rows(named=True):
        ax.errorbar(row["coins"], row["granted"], xerr=Z * row["coins_se"], yerr=Z * row["granted_se"], fmt="o",
                    capsize=3, label=row["policy"])
    ax.set_xlabel("coins from the Merchant per game")
    ax.set_ylabel("wishes granted per game")
    legend_outside(ax)
    figure = Figure("unfair-wishing-well", "Wishes granted against Merchant coins per game, one point per policy, "
                                           "with 95% intervals.", fig,
                    ww.select("policy", "coins", "coins_se", "granted", "granted_se"))
    return _study("wishing-well", "unfair-wishing-well", "Unfair: Wishing Well or Wandering Merchant",
                  {"wishing well": ww}, figure,
                  "The Wishing Well card alone: each round one side of the card, a wish (a double, beans may adjust "
                  "the dice) or trading cards for beans and beans for coins.")


def fame_section(setup, game):
    """Fame plans: Mythic markers held at the end of the game, per plan."""
    tables = fame.fame_tables(setup, **game)
    by_round = tables["fame by round"]
    fig, ax = new_axes()
    for plan in by_round["plan"].unique(maintain_order=True).to_list():
        part = by_round.filter(pl.col("plan") == plan)
        ax.plot(part["round"], part["markers"], marker="o", label=plan)
    ax.set_xlabel("round")
    whole_ticks(ax.xaxis)
    ax.set_ylabel("Mythic markers held (mean)")
    legend_outside(ax)
    figure = Figure("unfair-fame", "Mythic markers held after each round, per fame plan.", fig, by_round)
    return _study("fame", "unfair-fame", "Unfair: fame plans and Mythic markers", tables, figure,
                  "Fame and Mythic markers alone: fame is capped, halved in Cleanup and added to the star total; "
                  "a star total of 25 earns one Mythic marker a round.")


def gems_section(setup, game):
    """Gemstones: what a facility yields by the round it is built, and how often the supply runs short."""
    tables = gems.gems_tables(setup, **game)
    value = tables["facility value"]
    fig, ax = new_axes()
    for drill in value["drill"].unique(maintain_order=True).to_list():
        part = value.filter(pl.col("drill") == drill)
        ax.errorbar(part["round"], part["value"], yerr=Z * part["value_se"], marker="o", capsize=3,
                    label=f"{drill} drill icon(s)")
    ax.set_xlabel("round built")
    whole_ticks(ax.xaxis)
    ax.set_ylabel("coins per facility")
    legend_outside(ax)
    figure = Figure("unfair-gems", "Coins a facility yields by the round it is built, per drill count, with 95% "
                                   "intervals.", fig, value)
    return _study("gems", "unfair-gems", "Unfair: gemstone value and supply", tables, figure,
                  "Gemstones alone: 25 face-down tokens shared by the table; the discard pile is recycled and a "
                  "facility gets nothing when every token is out.")


def panoramas_section(setup, game):
    """Panorama policies: points minus skip coins per length, without the wildcard or Scenic Vistas."""
    pano = panoramas.panoramas_study(setup, **game)
    plain = pano.filter(~pl.col("wildcard") & ~pl.col("vistas"))
    fig, ax = new_axes()
    for policy in plain["policy"].unique(maintain_order=True).to_list():
        part = plain.filter(pl.col("policy") == policy)
        ax.errorbar(part["length"], part["net"], yerr=Z * part["net_se"], marker="o", capsize=3, label=policy)
    ax.set_xlabel("panorama length")
    whole_ticks(ax.xaxis)
    ax.set_ylabel("points minus coins")
    legend_outside(ax)
    figure = Figure("unfair-panoramas", "Points minus coins paid per panorama length and policy, without the "
                                        "wildcard or Scenic Vistas, with 95% intervals.", fig, plain)
    return _study("panoramas", "unfair-panoramas", "Unfair: panorama building policies", {"panoramas": pano},
                  figure, "Panoramas alone: points minus skip coins for one panorama of each length, with and "
                          "without the Kinegraphic Wall and Scenic Vistas.")


def unfair_sections(setup, *, first_date=False, trials=20_000, seed=1):
    """Run the five studies on the setup table ``setup`` and return their sections, then the setup section.

    ``first_date`` plays the 6 rounds of First Date in the studies that last a
    game (all but dice). Every study uses ``trials`` trials from ``seed``.
    """
    opts = {"trials": trials, "seed": seed}
    game = {"first_date": first_date, **opts}
    return [dice_section(setup, opts), wishing_well_section(setup, game), fame_section(setup, game),
            gems_section(setup, game), panoramas_section(setup, game),
            Section("Setup table", "provenance", folded=True,
                    text=[f"Every study above used this table, {trials:,} trials each, seed {seed}."],
                    code=compact_toml(setup))]


def write_unfair_report(out, fmt="html", *, setup=None, first_date=False, trials=20_000, seed=1):
    """Run the five studies and write their report to ``out``; return its path.

    ``setup`` is a TOML file whose keys replace parts of the shipped setup
    table (None: the shipped table); a table that cannot be used raises
    ``SetupError`` before anything is written. ``fmt`` is ``"html"`` or
    ``"md"`` as in ``reports.build.render``.
    """
    parts = unfair_sections(load_setup(setup), first_date=first_date, trials=trials, seed=seed)
    source = f"the Unfair setup table{f' with {setup}' if setup else ''}" \
             f"{', First Date (6 rounds)' if first_date else ''}"
    return render([Section("", "intro", text=[NOT_A_GAME])] + parts, out, fmt,
                  title="Unfair (FLSU expansion): mechanics lab", source=source,
                  notes=["Every ± is a 95% interval (1.96 standard errors of the simulation)."])
