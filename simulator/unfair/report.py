"""Report fragments for the Unfair mechanics lab, for the reports package to include.

``report_sections(out_dir, ...)`` runs the five studies and returns one
``Section`` per study. Each section carries:

* ``title`` and ``slug`` (a file-name-safe id),
* ``markdown`` and ``html``: a self-contained fragment (heading, one
  sentence saying what the study is, every table of the study, and the
  figure by its file name relative to ``out_dir``),
* ``figure``: the PNG written to ``out_dir/<slug>.png`` (matplotlib, Agg),
* ``tables``: the polars DataFrames behind the fragment, keyed by table name,
  so a report can ship the data beside each figure.

Nothing here reads or writes outside ``out_dir``; the caller decides where the
fragments go. The base game of Unfair is not simulated, and every fragment
says which mechanic it isolates.
"""

import html
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from simulator.unfair import dice, fame, gems, panoramas, wishing_well  # noqa: E402
from simulator.unfair.setup import dice_faces, load_setup  # noqa: E402


@dataclass
class Section:
    """One study's report fragment (see the module docstring)."""

    slug: str
    title: str
    markdown: str
    html: str
    figure: Path
    tables: dict = field(default_factory=dict)


def _fmt(value):
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


def table_markdown(df):
    """A DataFrame as a Markdown pipe table (floats to 4 significant digits)."""
    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    lines += ["| " + " | ".join(_fmt(v) for v in row) + " |" for row in df.iter_rows()]
    return "\n".join(lines)


def table_html(df):
    """A DataFrame as an HTML table (escaped; floats to 4 significant digits)."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in row) + "</tr>"
                   for row in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _section(out_dir, slug, title, summary, tables, draw):
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    draw(ax)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    figure = Path(out_dir) / f"{slug}.png"
    fig.savefig(figure, dpi=110)
    plt.close(fig)
    md = [f"## {title}", "", summary, "", f"![{title}]({figure.name})"]
    htm = [f"<h2>{html.escape(title)}</h2>", f"<p>{html.escape(summary)}</p>",
           f'<img src="{figure.name}" alt="{html.escape(title)}">']
    for name, df in tables.items():
        md += ["", f"**{name}**", "", table_markdown(df)]
        htm += [f"<h3>{html.escape(name)}</h3>", table_html(df)]
    return Section(slug=slug, title=title, markdown="\n".join(md) + "\n", html="\n".join(htm) + "\n",
                   figure=figure, tables=tables)


def _lines(ax, df, group, x, y, xlabel, ylabel):
    for key in df[group].unique(maintain_order=True).to_list():
        part = df.filter(df[group] == key)
        ax.plot(part[x].to_list(), part[y].to_list(), marker="o", label=str(key))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)


def report_sections(out_dir, *, setup=None, trials=20_000, seed=1):
    """Run the five studies on ``setup`` (default: the shipped table) and return their ``Section``s.

    Figures are written into ``out_dir`` (created if missing).
    """
    setup = setup if setup is not None else load_setup()
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    opts = {"trials": trials, "seed": seed}
    sections = []

    dice_df = dice.dice_study("double", range(6), faces=dice_faces(setup), **opts)

    def draw_dice(ax):
        ax.plot(dice_df["beans"], dice_df["exact_p"], marker="o", label="exact")
        ax.errorbar(dice_df["beans"], dice_df["sim_p"], yerr=2 * dice_df["se_p"], fmt="x", label="simulated (±2 se)")
        ax.set_xlabel("magic beans held")
        ax.set_ylabel("chance of a double")
        ax.legend(fontsize=8)
    sections.append(_section(out_dir, "unfair-dice", "Unfair: rolling a double with magic beans",
                             "Exact odds over the 36 rolls beside a simulation; each bean moves one die by 1.",
                             {"double": dice_df}, draw_dice))

    ww = wishing_well.wishing_well_study(setup, **opts)

    def draw_ww(ax):
        ax.scatter(ww["coins"], ww["granted"])
        for name, c, g in zip(ww["policy"], ww["coins"], ww["granted"]):
            ax.annotate(name, (c, g), fontsize=8)
        ax.set_xlabel("coins from the Merchant per game")
        ax.set_ylabel("wishes granted per game")
    sections.append(_section(out_dir, "unfair-wishing-well", "Unfair: Wishing Well or Wandering Merchant",
                             "Each round one side of the card: a wish (a double, beans may adjust the dice) "
                             "or trading cards for beans and beans for coins.", {"wishing well": ww}, draw_ww))

    fame_t = fame.fame_tables(setup, **opts)
    sections.append(_section(
        out_dir, "unfair-fame", "Unfair: fame plans and Mythic markers",
        "Fame is capped, halved in Cleanup and added to the star total; a star total of 25 earns one "
        "Mythic marker a round.", fame_t,
        lambda ax: _lines(ax, fame_t["fame by round"], "plan", "round", "markers", "round", "Mythic markers held")))

    gems_t = gems.gems_tables(setup, **opts)
    sections.append(_section(
        out_dir, "unfair-gems", "Unfair: gemstone value and supply",
        "25 face-down tokens shared by the table; the discard pile is recycled and a facility gets nothing "
        "when every token is out.", gems_t,
        lambda ax: _lines(ax, gems_t["facility value"], "drill", "round", "value", "round built",
                          "coins per facility")))

    pano = panoramas.panoramas_study(setup, **opts)
    plain = pano.filter(~pano["wildcard"] & ~pano["vistas"])
    sections.append(_section(
        out_dir, "unfair-panoramas", "Unfair: panorama building policies",
        "Points minus skip coins for one panorama of each length, with and without the Kinegraphic Wall "
        "and Scenic Vistas.", {"panoramas": pano},
        lambda ax: _lines(ax, plain, "policy", "length", "net", "panorama length",
                          "points minus coins (no wildcard, no Vistas)")))
    return sections
