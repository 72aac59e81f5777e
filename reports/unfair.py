"""The report of the Unfair (FLSU expansion) mechanics lab: one section per study.

``unfair_sections(setup, ...)`` runs the five studies of ``simulator.unfair``
and returns one ``reports.build.Section`` per study, in the order dice,
Wishing Well, fame, gemstones, panoramas. Each section says in one sentence
which mechanic it isolates, shows every table of the study in full, and has
one figure whose data frame is the one drawn. A last section shows the setup
table used.

``write_unfair_report(out, ...)`` writes them with the run reports' templates
(``reports.build.render``): one self-contained HTML file or Markdown with PNG
files, and the data behind each figure as CSV in ``<out stem>-data/``. The
report says at the top that the base game of Unfair is not simulated.
"""

from reports.build import Section, Table, compact_toml, render
from reports.figures import Figure, new_axes
from simulator.unfair import dice, fame, gems, panoramas, wishing_well
from simulator.unfair.setup import dice_faces, load_setup

NOT_A_GAME = ("playtest does not simulate the base game of Unfair: its rules are not in our documents. "
              "Each section below isolates one mechanic of the expansion and studies it alone, with exact "
              "answers where they exist and Monte Carlo simulation where they do not; no section is the "
              "result of whole games.")
STANDARD_ERRORS = ("A column named with se (se_p, net_se, ...) holds the standard error of the simulated "
                   "figure it names.")


def _tables(tables):
    return [Table.of(name, df, limit=df.height) for name, df in tables.items()]


def _section(slug, title, summary, tables, draw, data, caption):
    """A study's section: ``draw(ax)`` makes its figure, ``data`` is the frame drawn (written as CSV)."""
    fig, ax = new_axes()
    draw(ax)
    ax.grid(alpha=0.3)
    return Section(title, "unfair", text=[summary], tables=_tables(tables),
                   figures=[Figure(slug, caption, fig, data)])


def _lines(df, group, x, y, xlabel, ylabel):
    """A drawing function: one line of ``y`` against ``x`` per value of ``group``."""
    def draw(ax):
        for key in df[group].unique(maintain_order=True).to_list():
            part = df.filter(df[group] == key)
            ax.plot(part[x].to_list(), part[y].to_list(), marker="o", label=str(key))
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=8)
    return draw


def unfair_sections(setup, *, first_date=False, trials=20_000, seed=1):
    """Run the five studies on the setup table ``setup`` and return their sections, then the setup section.

    ``first_date`` plays the 6 rounds of First Date in the studies that last a
    game (all but dice). Every study uses ``trials`` trials from ``seed``.
    """
    opts = {"trials": trials, "seed": seed}
    game = {"first_date": first_date, **opts}
    sections = []

    dice_df = dice.dice_study("double", range(6), faces=dice_faces(setup), **opts)

    def draw_dice(ax):
        ax.plot(dice_df["beans"], dice_df["exact_p"], marker="o", label="exact")
        ax.errorbar(dice_df["beans"], dice_df["sim_p"], yerr=2 * dice_df["se_p"], fmt="x", label="simulated (±2 se)")
        ax.set_xlabel("magic beans held")
        ax.set_ylabel("chance of a double")
        ax.legend(fontsize=8)
    sections.append(_section(
        "unfair-dice", "Unfair: rolling a double with magic beans",
        "Dice control alone: exact odds over the 36 rolls beside a simulation; each bean moves one die by 1.",
        {"double": dice_df}, draw_dice, dice_df,
        "Chance of a double by beans held: exact, and simulated with ±2 standard errors."))

    ww = wishing_well.wishing_well_study(setup, **game)

    def draw_ww(ax):
        ax.scatter(ww["coins"], ww["granted"])
        for name, c, g in zip(ww["policy"], ww["coins"], ww["granted"]):
            ax.annotate(name, (c, g), fontsize=8)
        ax.set_xlabel("coins from the Merchant per game")
        ax.set_ylabel("wishes granted per game")
    sections.append(_section(
        "unfair-wishing-well", "Unfair: Wishing Well or Wandering Merchant",
        "The Wishing Well card alone: each round one side of the card, a wish (a double, beans may adjust "
        "the dice) or trading cards for beans and beans for coins.",
        {"wishing well": ww}, draw_ww, ww, "Wishes granted against Merchant coins per game, one point per policy."))

    fame_t = fame.fame_tables(setup, **game)
    sections.append(_section(
        "unfair-fame", "Unfair: fame plans and Mythic markers",
        "Fame and Mythic markers alone: fame is capped, halved in Cleanup and added to the star total; a "
        "star total of 25 earns one Mythic marker a round.",
        fame_t, _lines(fame_t["fame by round"], "plan", "round", "markers", "round", "Mythic markers held"),
        fame_t["fame by round"], "Mythic markers held after each round, per fame plan."))

    gems_t = gems.gems_tables(setup, **game)
    sections.append(_section(
        "unfair-gems", "Unfair: gemstone value and supply",
        "Gemstones alone: 25 face-down tokens shared by the table; the discard pile is recycled and a "
        "facility gets nothing when every token is out.",
        gems_t, _lines(gems_t["facility value"], "drill", "round", "value", "round built", "coins per facility"),
        gems_t["facility value"], "Coins a facility yields by the round it is built, per drill count."))

    pano = panoramas.panoramas_study(setup, **game)
    plain = pano.filter(~pano["wildcard"] & ~pano["vistas"])
    sections.append(_section(
        "unfair-panoramas", "Unfair: panorama building policies",
        "Panoramas alone: points minus skip coins for one panorama of each length, with and without the "
        "Kinegraphic Wall and Scenic Vistas.",
        {"panoramas": pano},
        _lines(plain, "policy", "length", "net", "panorama length", "points minus coins (no wildcard, no Vistas)"),
        plain, "Points minus coins paid per panorama length and policy, without the wildcard or Scenic Vistas."))

    sections.append(Section("Setup table", "provenance",
                            text=[f"Every study above used this table, {trials:,} trials each, seed {seed}."],
                            code=compact_toml(setup)))
    return sections


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
    return render(parts, out, fmt, title="Unfair (FLSU expansion): mechanics lab", source=source,
                  intro=[NOT_A_GAME, STANDARD_ERRORS])
