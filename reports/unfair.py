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

import numpy as np
import polars as pl

from reports.build import render
from reports.figures import Figure, legend_outside, new_axes, whole_ticks
from reports.section import Section, compact_toml
from reports.tables import Table, pct
from simulator.unfair import dice, fame, gems, panoramas, wishing_well
from simulator.unfair.setup import dice_faces, load_setup

Z = 1.959963984540054  # 95% two-sided normal quantile
NOT_A_GAME = ("playtest does not simulate the base game of Unfair: its rules are not in our documents. "
              "Each section below isolates one mechanic of the expansion and studies it alone, with exact "
              "answers where they exist and Monte Carlo simulation where they do not; no section is the "
              "result of whole games.")


def _pm(mean, se, digits=2):
    """``"3.21 ± 0.04"``: a simulated mean with its 95% half-width."""
    return f"{mean:.{digits}f} ± {Z * se:.{digits}f}"


def _pct_pm(share, se):
    return f"{100 * share:.1f}% ± {100 * Z * se:.1f}"


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


def _study(slug, title, conclusion, summary, figure, tables, what):
    return Section(title, "unfair", verdict=conclusion, figures=[figure], text=[what],
                   tables=[summary, *_full(tables, slug)])


def dice_section(setup, opts):
    """Rolling a double with magic beans: exact odds and the simulation beside them."""
    df = dice.dice_study("double", range(6), faces=dice_faces(setup), **opts)
    gains = np.diff(df["exact_p"].to_numpy())
    k = int(gains.argmax())
    agree = bool((df["diff_p"].abs() <= Z * df["se_p"] + 1e-12).all())
    conclusion = (f"Each magic bean raises the chance of a double, the {_ordinal(k + 1)} bean most: from "
                  f"{df['exact_fraction'][k]} to {df['exact_fraction'][k + 1]} (+{100 * gains[k]:.1f} points); "
                  f"{df['beans'][-1]} beans make it {pct(df['exact_p'][-1])}. The simulation "
                  + ("agrees with the exact odds within its 95% intervals at every bean count."
                     if agree else "misses the exact odds at some bean count by more than its 95% interval."))
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
    summary = Table.of("Chance of a double and beans spent, by beans held", df, "", {
        "Beans held": lambda r: str(r["beans"]),
        "Exact chance": lambda r: f"{r['exact_fraction']} = {pct(r['exact_p'])}",
        "Simulated (95%)": lambda r: _pct_pm(r["sim_p"], r["se_p"]),
        "Beans spent, exact": lambda r: f"{r['exact_spent']:.3f}",
        "Beans spent, simulated (95%)": lambda r: _pm(r["sim_spent"], r["se_spent"], 3),
    })
    return _study("unfair-dice", "Unfair: rolling a double with magic beans", conclusion, summary, figure,
                  {"double": df}, "Dice control alone: exact odds over the 36 rolls beside a simulation; each "
                                  "bean moves one die by 1.")


def _ordinal(n):
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def wishing_well_section(setup, game):
    """Wishing Well against Wandering Merchant: wishes granted and coins per policy."""
    ww = wishing_well.wishing_well_study(setup, **game)
    wish = ww.sort("granted", descending=True).row(0, named=True)
    coin = ww.sort("coins", descending=True).row(0, named=True)
    conclusion = (f"'{wish['policy']}' grants the most wishes ({_pm(wish['granted'], wish['granted_se'])} per "
                  f"game) and '{coin['policy']}' earns the most Merchant coins "
                  f"({_pm(coin['coins'], coin['coins_se'])} per game): the Well trades coins for wishes.")
    if wish["policy"] == coin["policy"]:
        conclusion = (f"'{wish['policy']}' is best on both counts: {_pm(wish['granted'], wish['granted_se'])} "
                      f"wishes granted and {_pm(coin['coins'], coin['coins_se'])} Merchant coins per game.")
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
    summary = Table.of("Per policy, per game (95% intervals)", ww, "", {
        "Policy": lambda r: r["policy"],
        "Wishes made": lambda r: _pm(r["wishes"], r["wishes_se"]),
        "Wishes granted": lambda r: _pm(r["granted"], r["granted_se"]),
        "Merchant coins": lambda r: _pm(r["coins"], r["coins_se"]),
        "Beans left": lambda r: _pm(r["beans_left"], r["beans_left_se"]),
    })
    return _study("unfair-wishing-well", "Unfair: Wishing Well or Wandering Merchant", conclusion, summary, figure,
                  {"wishing well": ww}, "The Wishing Well card alone: each round one side of the card, a wish (a "
                                        "double, beans may adjust the dice) or trading cards for beans and beans "
                                        "for coins.")


def fame_section(setup, game):
    """Fame plans: Mythic markers held at the end of the game, per plan."""
    tables = fame.fame_tables(setup, **game)
    end = (tables["mythic markers at game end"].group_by("plan", maintain_order=True).agg(
        (pl.col("markers") * pl.col("probability")).sum().alias("mean"),
        (pl.col("markers") ** 2 * pl.col("probability")).sum().alias("square"), pl.col("trials").first())
        .with_columns(((pl.col("square") - pl.col("mean") ** 2).clip(0) / pl.col("trials")).sqrt().alias("se"))
        .sort("mean", descending=True))
    top, nxt = end.row(0, named=True), end.row(min(1, end.height - 1), named=True)
    gap = top["mean"] - nxt["mean"]
    gap_half = Z * (top["se"] ** 2 + nxt["se"] ** 2) ** 0.5  # the plans are simulated independently
    conclusion = (f"'{top['plan']}' ends the game with the most Mythic markers: {_pm(top['mean'], top['se'])}, "
                  f"{gap:.2f} ± {gap_half:.2f} more than '{nxt['plan']}'"
                  + ("." if gap > gap_half else ", a difference the simulation cannot tell from none."))
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
    summary = Table.of("Mythic markers at the end of the game, per plan (95% intervals)", end, "", {
        "Plan": lambda r: r["plan"], "Markers at game end": lambda r: _pm(r["mean"], r["se"]),
    })
    return _study("unfair-fame", "Unfair: fame plans and Mythic markers", conclusion, summary, figure, tables,
                  "Fame and Mythic markers alone: fame is capped, halved in Cleanup and added to the star total; "
                  "a star total of 25 earns one Mythic marker a round.")


def gems_section(setup, game):
    """Gemstones: what a facility yields by the round it is built, and how often the supply runs short."""
    tables = gems.gems_tables(setup, **game)
    value, supply = tables["facility value"], tables["supply"]
    best = value.sort("value", descending=True).row(0, named=True)
    rounds = value.filter(pl.col("drill") == best["drill"]).sort("round")
    first, last = rounds.row(0, named=True), rounds.row(-1, named=True)
    gap = first["value"] - last["value"]
    gap_half = Z * (first["value_se"] ** 2 + last["value_se"] ** 2) ** 0.5
    timing = ("building early pays" if gap > gap_half else "building late pays" if -gap > gap_half
              else "the round it is built makes no difference the simulation can tell")
    short = supply.row(-1, named=True)
    short_se = (short["p_short_so_far"] * (1 - short["p_short_so_far"]) / short["trials"]) ** 0.5
    conclusion = (f"A facility with {best['drill']} drill icon(s) yields the most coins, and {timing}: "
                  f"{_pm(first['value'], first['value_se'])} coins built in round {first['round']}, "
                  f"{_pm(last['value'], last['value_se'])} in round {last['round']}; some facility goes short of "
                  f"tokens in {_pct_pm(short['p_short_so_far'], short_se)} of games.")
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
    summary = Table.of("Coins per facility by round built (95% intervals)", value.filter(pl.col("drill") == best["drill"]),
                       "", {"Drill icons": lambda r: str(r["drill"]), "Round built": lambda r: str(r["round"]),
                            "Coins per facility": lambda r: _pm(r["value"], r["value_se"]),
                            "Short of tokens": lambda r: pct(r["p_short"])})
    return _study("unfair-gems", "Unfair: gemstone value and supply", conclusion, summary, figure, tables,
                  "Gemstones alone: 25 face-down tokens shared by the table; the discard pile is recycled and a "
                  "facility gets nothing when every token is out.")


def panoramas_section(setup, game):
    """Panorama policies: points minus skip coins per length, without the wildcard or Scenic Vistas."""
    pano = panoramas.panoramas_study(setup, **game)
    plain = pano.filter(~pl.col("wildcard") & ~pl.col("vistas"))
    ranked = plain.sort("net", descending=True).group_by("length", maintain_order=True).head(2).sort("length")
    parts = []
    for length, part in ranked.group_by("length", maintain_order=True):
        a, b = part.row(0, named=True), part.row(1, named=True)
        half = Z * (a["net_se"] ** 2 + b["net_se"] ** 2) ** 0.5
        parts.append(f"length {length[0]}: '{a['policy']}' by {a['net'] - b['net']:.2f} ± {half:.2f}"
                     + ("" if a["net"] - b["net"] > half else " (not told apart)"))
    conclusion = ("Best policy per panorama length (points minus coins, no wildcard or Vistas, lead over the "
                  "next policy with its 95% interval): " + "; ".join(parts) + ".")
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
    summary = Table.of("Points minus coins per panorama (no wildcard, no Vistas; 95% intervals)", plain, "", {
        "Length": lambda r: str(r["length"]), "Policy": lambda r: r["policy"],
        "Points minus coins": lambda r: _pm(r["net"], r["net_se"]),
        "Complete": lambda r: pct(r["p_complete"]),
    })
    return _study("unfair-panoramas", "Unfair: panorama building policies", conclusion, summary, figure,
                  {"panoramas": pano}, "Panoramas alone: points minus skip coins for one panorama of each "
                                       "length, with and without the Kinegraphic Wall and Scenic Vistas.")


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
