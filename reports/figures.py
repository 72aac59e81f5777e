"""Report figures: each function returns a ``Figure`` holding the matplotlib figure
and the data frame drawn in it (written next to the report as CSV).

Every figure answers one question: seat and strategy edges are points with
95% intervals around a zero line (or a fair-share line), in percentage points
of win share; whole quantities get whole-number ticks; legends sit outside the
data; a distribution with a single value is not drawn (the caller says it in
words). Figures use matplotlib's object API (no pyplot state), so building a
report never opens a window or touches a notebook's backend. ``Figure.png``
renders at 200 dpi.
"""

import io
import json
from dataclasses import dataclass

import numpy as np
import polars as pl
from matplotlib.figure import Figure as MplFigure
from matplotlib.patches import Rectangle
from matplotlib.ticker import MaxNLocator, PercentFormatter

WIDTH, HEIGHT = 7.0, 3.4
EDGE_POINTS = {"edge": "edge_points", "lo": "edge_points_lo", "hi": "edge_points_hi"}  # data of points edges
AHEAD_SHARE = {"ahead": "ahead_share", "low": "ahead_share_low", "high": "ahead_share_high"}  # head-to-head data
DPI = 200
BLUE, RED, GREY, GOLD = "#4c78a8", "#e45756", "#888888", "#f2b701"


@dataclass
class Figure:
    """One figure of a report: a file-safe ``name``, a ``caption``, the figure and its data."""

    name: str
    caption: str
    figure: MplFigure
    data: pl.DataFrame

    def png(self, dpi=DPI):
        """The figure as PNG bytes (200 dpi unless told)."""
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
        return buffer.getvalue()


def new_axes(width=WIDTH, height=HEIGHT):
    """A matplotlib figure (not registered with pyplot) and its single axes, with a light grid."""
    fig = MplFigure(figsize=(width, height), layout="constrained")
    ax = fig.add_subplot()
    ax.grid(alpha=0.3)
    ax.set_axisbelow(True)
    return fig, ax


def legend_outside(ax):
    """Put the axes' legend to the right of the plot, where it cannot cover data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize=8, frameon=False)


def whole_ticks(axis):
    """Whole-number ticks on ``axis`` (``ax.xaxis`` or ``ax.yaxis``)."""
    axis.set_major_locator(MaxNLocator(integer=True))


def edge_points(ax, labels, edge, lo, hi, margin=None, reference=0.0, unit="points"):
    """Draw estimates with intervals as horizontal points around a vertical ``reference`` line.

    ``edge``, ``lo`` and ``hi`` are in the unit drawn; ``margin`` shades
    ``reference ± margin`` (the band a verdict calls balanced).
    """
    y = np.arange(len(labels))[::-1]
    edge, lo, hi = (np.asarray(v, dtype=float) for v in (edge, lo, hi))
    if margin:
        ax.axvspan(reference - margin, reference + margin, color=GREY, alpha=0.15, lw=0,
                   label=f"margin (±{margin:g} {unit})")
    ax.axvline(reference, color="black", linewidth=0.9)
    ax.errorbar(edge, y, xerr=np.vstack([edge - lo, hi - edge]), fmt="o", color=BLUE, ecolor=BLUE,
                capsize=4, markersize=6)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    widest = max(np.nanmax(np.abs(np.concatenate([lo, hi]) - reference)), margin or 0.0) * 1.15
    ax.set_xlim(reference - widest, reference + widest)
    ax.grid(axis="y", visible=False)


def seat_edges(name, edges, margin=None, note="95% intervals"):
    """Each seat's edge (win share minus the fair share) in percentage points, with its interval.

    ``edges`` has columns seat, strategy, edge, lo, hi (points). The zero line
    is the fair share; ``margin`` shades the ± band of the verdict.
    """
    labels = [seat_label(s, st) for s, st in zip(edges["seat"], edges["strategy"])]
    fig, ax = new_axes(height=max(1.6, 0.42 * edges.height + 1.0))
    edge_points(ax, labels, edges["edge"], edges["lo"], edges["hi"], margin)
    ax.set_xlabel("edge over the fair share (percentage points of games won)")
    ax.set_title(f"Seat edge ({note})")
    if margin:
        legend_outside(ax)
    return Figure(name, f"Each seat's win share minus the fair share, in percentage points, with {note}; "
                        "0 is a fair seat" + (f", the grey band the ±{margin:g}-point margin." if margin else "."),
                  fig, edges.select("seat", "strategy", "edge", "lo", "hi").rename(EDGE_POINTS))


def design_changes(name, changes, margin):
    """Design B against design A: each seat's change in win share and the change in the largest seat edge,
    B minus A in points, with their intervals around a zero line (no change).

    ``changes`` has columns what, change, lo, hi (points); the largest edge
    comes last, and ``margin`` shades the ± band its verdict calls no change.
    """
    fig, ax = new_axes(height=max(1.6, 0.42 * changes.height + 1.0))
    edge_points(ax, changes["what"].to_list(), changes["change"], changes["lo"], changes["hi"], margin)
    ax.set_xlabel("change, B minus A (percentage points of games won)")
    ax.set_title("B against A")
    legend_outside(ax)
    return Figure(name, "Each seat's win share and the largest seat edge in B minus A, in percentage points, with "
                        "simultaneous 95% intervals for the seats and a 95% interval for the largest edge; 0 is no "
                        f"change, the grey band the ±{margin:g}-point margin of the verdict.",
                  fig, changes.select("what", "a", "b", "change", "lo", "hi"))


def seat_label(seat, strategy):
    """``"seat 0 (greedy)"``; a seat several strategies played (``"(rotated)"``) reads ``"seat 0 (rotated)"``."""
    return f"seat {seat} ({strategy.strip('()')})"


def strategy_shares(name, table, fair_share):
    """Win share per strategy (points with 95% intervals) against the fair-share line.

    ``table`` has columns strategy, win_share, win_low, win_high (shares, 0-1).
    """
    fig, ax = new_axes(height=max(1.6, 0.42 * table.height + 1.0))
    edge_points(ax, table["strategy"].to_list(), 100 * table["win_share"].to_numpy(),
                100 * table["win_low"].to_numpy(), 100 * table["win_high"].to_numpy(),
                reference=100 * fair_share)
    ax.xaxis.set_major_formatter(PercentFormatter(decimals=None))
    ax.set_xlabel(f"games won (the line is the fair share, {100 * fair_share:.1f}%)")
    ax.set_title("Win share per strategy (95% intervals over deals)")
    return Figure(name, f"Share of its games each strategy won, with 95% intervals over deals; the vertical "
                        f"line is the fair share ({100 * fair_share:.1f}%, one game in {round(1 / fair_share)}).",
                  fig, table.select("strategy", "win_share", "win_low", "win_high")
                  .rename({"win_low": "win_share_low", "win_high": "win_share_high"}))


def score_distributions(name, seats, by="seat"):
    """Score histogram per seat (labelled with its strategy) or, with ``by="strategy"``, per strategy,
    in % of that seat's or strategy's games.

    Each group has its own small panel (at most four a row, on shared axes), so
    seats whose scores are alike, as in a fair game, are not drawn on top of
    one another.
    """
    scores = seats["score"].to_numpy()
    lo, hi = float(scores.min()), float(scores.max())
    whole = np.allclose(scores, np.round(scores))
    edges = np.arange(np.floor(lo), np.ceil(hi) + 2) - 0.5 if whole and hi - lo <= 60 else np.linspace(lo, hi, 41)
    seats = seats.with_columns(pl.col("strategy").cast(pl.String))
    if by == "seat":
        groups = [(seat_label(s, st), pl.col("seat") == s) for s, st in _lineup(seats)]
    else:
        groups = [(st, pl.col("strategy") == st) for st in sorted(seats["strategy"].unique().to_list())]
    columns = min(len(groups), 4)
    lines = -(-len(groups) // columns)
    fig = MplFigure(figsize=(WIDTH, max(HEIGHT, 1.9 * lines + 0.8)), layout="constrained")
    axes = fig.subplots(lines, columns, sharex=True, sharey=True, squeeze=False).ravel()
    rows = []
    for ax, (label, which) in zip(axes, groups):
        counts, _ = np.histogram(seats.filter(which)["score"].to_numpy(), bins=edges)
        ax.stairs(100 * counts / counts.sum(), edges, fill=True, color=BLUE, alpha=0.85)
        ax.set_title(label, fontsize=9)
        ax.grid(alpha=0.3)
        ax.set_axisbelow(True)
        rows += [(label, float(a), float(b), int(c)) for a, b, c in zip(edges[:-1], edges[1:], counts)]
    for ax in axes[len(groups):]:
        ax.set_visible(False)
    axes[0].yaxis.set_major_formatter(PercentFormatter(decimals=0))
    axes[0].xaxis.set_major_locator(MaxNLocator(nbins=4, integer=whole))  # narrow panels: few score ticks
    fig.supxlabel("final score", fontsize=10)
    fig.supylabel("games (%)", fontsize=10)
    fig.suptitle(f"Final score per {by}", fontsize=11)
    return Figure(name, f"How often each final score occurs, in % of each {by}'s games, one panel per {by} "
                        "on the same axes.", fig,
                  pl.DataFrame(rows, schema=[by, "score_from", "score_to", "games"], orient="row"))


def _lineup(seats):
    """``(seat, strategy or "rotated")`` pairs in seat order."""
    pairs = seats.group_by("seat").agg(pl.col("strategy").unique().sort()).sort("seat")
    return [(s, names[0] if len(names) == 1 else "rotated") for s, names in pairs.iter_rows()]


def game_length(name, distribution, column="rounds"):
    """Bar chart of game length in % of games (from ``analyses.feel.length_distribution``), or None
    when every game lasted the same (a one-value distribution says nothing a sentence cannot)."""
    if distribution.height < 2:
        return None
    fig, ax = new_axes()
    ax.bar(distribution[column].to_numpy(), 100 * distribution["share"].to_numpy(), color="#72b7b2")
    ax.set_xlabel(column)
    whole_ticks(ax.xaxis)
    ax.set_ylabel("games (%)")
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.set_title(f"Game length ({column})")
    return Figure(name, f"Share of games lasting each number of {column}.", fig, distribution)


def comeback_curve(name, curve):
    """The comeback curve: the share of games the leader after each round goes on to win (points with 95%
    intervals), against the chance line of a seat picked at random (from ``analyses.comeback.curve``)."""
    fig, ax = new_axes()
    x = curve["round"].to_numpy()
    share, lo, hi = (curve[c].to_numpy() for c in ("leader_wins", "low", "high"))
    ax.errorbar(x, share, yerr=np.vstack([share - lo, hi - share]), fmt="o-", color=BLUE, capsize=4,
                label="the leader after the round wins")
    ax.axhline(curve["chance"][0], color=GREY, linestyle="--", label="chance (1 / players)")
    ax.set_ylim(0, 1)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    whole_ticks(ax.xaxis)
    ax.set_xlabel("after round")
    ax.set_ylabel("games won by the leader")
    ax.set_title("Comeback curve (95% intervals)")
    legend_outside(ax)
    return Figure(name, "The share of games won by the seat leading alone after each round, with 95% intervals; "
                        "the dashed line is the chance a seat picked at random would have. Near 100% the game is "
                        "decided early; near the line a lead means little.", fig,
                  curve.rename({"leader_wins": "leader_win_share", "low": "leader_win_share_low",
                                "high": "leader_win_share_high", "chance": "chance_share"}))


def ratings(name, standings):
    """Bradley-Terry ratings with 95% intervals around the field's average (0), best at the top."""
    table = standings.sort("rating", descending=True)
    fig, ax = new_axes(height=max(1.6, 0.42 * table.height + 1.0))
    edge_points(ax, table["strategy"].to_list(), table["rating"], table["rating_low"], table["rating_high"])
    ax.set_xlabel("rating (Elo points; 0 = the field's average)")
    ax.set_title("Finishing-order rating (Bradley-Terry, 95% intervals)")
    return Figure(name, "Bradley-Terry ratings on the Elo scale, fitted to who finished ahead of whom in "
                        "every game: 100 points more means finishing ahead about 64% of the time.", fig, standings)


def head_to_head(name, matrix):
    """Heatmap of the head-to-head matrix: % of games the row strategy finished ahead of the column one.

    ``matrix`` has columns a, b, ahead, low, high (shares), one row per ordered pair.
    """
    names = sorted(set(matrix["a"].to_list()))
    grid = np.full((len(names), len(names)), np.nan)
    for row in matrix.iter_rows(named=True):
        grid[names.index(row["a"]), names.index(row["b"])] = 100 * row["ahead"]
    fig, ax = new_axes(width=min(7.0, 2.2 + 1.1 * len(names)), height=min(6.0, 1.4 + 0.8 * len(names)))
    ax.grid(False)
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    for (r, c), v in np.ndenumerate(grid):
        if not np.isnan(v):
            ax.text(c, r, f"{v:.0f}%", ha="center", va="center", fontsize=9,
                    color="white" if abs(v - 50) > 25 else "black")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("against")
    ax.set_ylabel("strategy")
    ax.set_title("Finished ahead (% of meetings)")
    fig.colorbar(image, ax=ax, format=PercentFormatter(decimals=0))
    return Figure(name, "How often the row's strategy finished ahead of the column's in games where both "
                        "played (a level finish counts half); 50% is an even match.", fig,
                  matrix.rename(AHEAD_SHARE))


def sweep_heatmap(name, summary, axes, best, near, default, panels=6):
    """Heatmap of the largest seat edge (points) over the first two varying grid ``axes``.

    One panel per value of the remaining axes (at most ``panels``; the CSV
    holds every configuration). ``best`` is the config index with the
    smallest edge (gold frame), ``near`` the set of configs that cannot be
    told apart from it (black frame), ``default`` the shipped table's config
    (star) or None.
    """
    x, y, *others = axes
    groups = list(summary.group_by(others, maintain_order=True) if others else [((), summary)])[:panels]
    fig = MplFigure(figsize=(max(5.5, min(3.6 * len(groups) + 1.2, 12)), 4.0), layout="constrained")
    xs = sorted(summary[x].unique().to_list(), key=_order)
    ys = sorted(summary[y].unique().to_list(), key=_order)
    top = float(np.nanmax(summary["max_edge"].to_numpy())) * 100 if summary.height else 1.0
    axs = fig.subplots(1, len(groups), squeeze=False)[0]
    for ax, (key, part) in zip(axs, groups):
        grid = np.full((len(ys), len(xs)), np.nan)
        for row in part.iter_rows(named=True):
            r, c = ys.index(row[y]), xs.index(row[x])
            grid[r, c] = 100 * row["max_edge"]
            frame = GOLD if row["config"] == best else "black" if row["config"] in near else None
            if frame:
                ax.add_patch(_cell_frame(c, r, frame))
            if row["config"] == default:
                ax.plot(c + 0.38, r + 0.32, marker="*", color="white", markersize=9, markeredgecolor="black")
        image = ax.imshow(grid, cmap="viridis", vmin=0, vmax=top, aspect="auto", origin="lower")
        for (r, c), v in np.ndenumerate(grid):
            if not np.isnan(v):
                ax.text(c, r, f"{v:.1f}", ha="center", va="center", fontsize=8,
                        color="black" if v > 0.6 * top else "white")
        tilt = max(len(str(v)) for v in xs) > 4
        ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=30 if tilt else 0,
                      ha="right" if tilt else "center", fontsize=8)
        ax.set_yticks(range(len(ys)), [str(v) for v in ys], fontsize=8)
        ax.set_xlabel(x, fontsize=8)
        ax.set_ylabel(y, fontsize=8)
        if others:
            ax.set_title(", ".join(f"{k} = {v}" for k, v in zip(others, key)), fontsize=8)
    fig.colorbar(image, ax=list(axs), label="largest seat edge (points)")
    fig.suptitle("Largest seat edge per configuration (points; smaller is fairer)", fontsize=10)
    return Figure(name, "Largest seat edge of every configuration, in percentage points. Gold frame: the "
                        "smallest; black frames: configurations whose 95% bounds overlap its bounds, so they "
                        "cannot be told apart from it; star: the shipped setup table; empty cells could not be "
                        "played.", fig, summary.select("config", *others, x, y, "max_edge", "max_edge_lo",
                                                       "max_edge_hi"))


def _cell_frame(c, r, colour):
    return Rectangle((c - 0.47, r - 0.47), 0.94, 0.94, fill=False, edgecolor=colour, linewidth=2.5, zorder=3)


def sweep_line(name, summary, x, best, near, default):
    """The largest seat edge (points, with its simultaneous 95% bounds) over one grid axis,
    marking the best, the configurations that cannot be told apart from it and the shipped default."""
    fig, ax = new_axes()
    order = sorted(range(summary.height), key=lambda i: _order(summary[x][i]))
    table = summary[order]
    labels = [str(v) for v in table[x].to_list()]
    edge = 100 * table["max_edge"].to_numpy()
    bounds = np.vstack([edge - 100 * table["max_edge_lo"].to_numpy(), 100 * table["max_edge_hi"].to_numpy() - edge])
    colours = [GOLD if c == best else "black" if c in near else BLUE for c in table["config"]]
    ax.errorbar(range(len(labels)), edge, yerr=bounds, fmt="none", ecolor=GREY, capsize=4)
    ax.scatter(range(len(labels)), edge, c=colours, zorder=3)
    for i, c in enumerate(table["config"]):
        if c == default:
            ax.annotate("shipped", (i, edge[i]), textcoords="offset points", xytext=(6, 6), fontsize=8)
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    ax.set_ylim(bottom=0)
    ax.set_xlabel(x)
    ax.set_ylabel("largest seat edge (points)")
    ax.set_title("Largest seat edge per configuration (smaller is fairer)")
    return Figure(name, "Largest seat edge of every configuration in percentage points, with its 95% bounds; "
                        "gold: the smallest, black: cannot be told apart from it.",
                  fig, table.select("config", x, "max_edge", "max_edge_lo", "max_edge_hi"))


def _order(value):
    """Sort key for grid values: numbers numerically, JSON lists by content, text as text."""
    if isinstance(value, (int, float)):
        return (0, value, "")
    try:
        return (1, 0, json.dumps(json.loads(value)))
    except (TypeError, ValueError):
        return (2, 0, str(value))


OTHER_SEATS = ("#f58518", "#54a24b", "#b279a2", "#9d755d", "#72b7b2", "#ff9da6")


def _dodged(index, k, count, step=0.12):
    """x positions of series ``k`` of ``count`` around the category positions ``index``."""
    return np.asarray(index, dtype=float) + (k - (count - 1) / 2) * step


def _bars(estimate, lo, hi):
    estimate, lo, hi = (np.asarray(v, dtype=float) for v in (estimate, lo, hi))
    return np.vstack([estimate - lo, hi - estimate])


def _budget_axes(ax, budgets, xlabel, ylabel, title):
    """Label a ladder figure: one evenly spaced tick per budget, axis labels, title, legend outside."""
    ax.set_xticks(range(len(budgets)), [str(b) for b in budgets])
    ax.set_xlim(-0.5, len(budgets) - 0.5)
    ax.grid(axis="x", visible=False)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    legend_outside(ax)


def ladder_edges(name, edges, margin):
    """Every seat's edge against the search budget of a skill ladder, the same budget in every seat: points
    with simultaneous 95% intervals around the zero line, the ±``margin`` band shaded, the first seat in
    blue and joined, the others lighter; budgets (which double) evenly spaced.

    ``edges`` has columns budget, seat, edge, lo, hi in points (``analyses.ladder.seat_edges``).
    """
    budgets = sorted(edges["budget"].unique().to_list())
    seats = sorted(edges["seat"].unique().to_list())
    fig, ax = new_axes()
    ax.axhspan(-margin, margin, color=GREY, alpha=0.15, lw=0, label=f"margin (±{margin:g} points)")
    ax.axhline(0, color="black", linewidth=0.9)
    for k, seat in enumerate(seats):
        part = edges.filter(pl.col("seat") == seat).sort("budget")
        x = _dodged([budgets.index(b) for b in part["budget"]], k, len(seats))
        first = k == 0
        colour = BLUE if first else OTHER_SEATS[(k - 1) % len(OTHER_SEATS)]
        ax.errorbar(x, part["edge"].to_numpy(), yerr=_bars(part["edge"], part["lo"], part["hi"]),
                    fmt="o-" if first else "o", color=colour, ecolor=colour, alpha=1.0 if first else 0.65,
                    capsize=4 if first else 2, markersize=6 if first else 4, zorder=3 if first else 2,
                    label=f"seat {seat}" + (" (first)" if first else ""))
    widest = max(float(np.nanmax(np.abs(edges.select("lo", "hi").to_numpy()))), margin) * 1.15
    ax.set_ylim(-widest, widest)
    _budget_axes(ax, budgets, "search iterations per decision, the same in every seat",
                 "edge over the fair share (points)", "Seat edge by budget (simultaneous 95% intervals)")
    return Figure(name, "Each seat's win share minus the fair share, in percentage points, with the search "
                        "player at the same budget in every seat (seats not rotated), at every level of the "
                        "ladder; simultaneous 95% intervals over the seats of a level; 0 is a fair seat, the "
                        f"grey band the ±{margin:g}-point margin.",
                  fig, edges.select("budget", "seat", "edge", "lo", "hi").rename(EDGE_POINTS))


def ladder_shares(name, table, fair_share, field):
    """The search player's win share at each budget of a skill ladder, against the level below and against
    ``field`` (one seat each, seats rotated), with 95% intervals over deals and the fair-share line.

    ``table`` has columns budget and below_/field_ share, lo, hi (shares, ``analyses.ladder.table``).
    """
    budgets = table["budget"].to_list()
    fig, ax = new_axes()
    ax.axhline(100 * fair_share, color="black", linewidth=0.9, linestyle="--",
               label=f"fair share ({100 * fair_share:.1f}%)")
    series = [("below", "against the level below\n(random below the first)", BLUE), ("field", f"against {field}", RED)]
    for k, (kind, label, colour) in enumerate(series):
        share = 100 * table[f"{kind}_share"].to_numpy()
        ax.errorbar(_dodged(range(len(budgets)), k, len(series)), share,
                    yerr=_bars(share, 100 * table[f"{kind}_lo"].to_numpy(), 100 * table[f"{kind}_hi"].to_numpy()),
                    fmt="o-", color=colour, ecolor=colour, capsize=4, markersize=6, label=label)
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=None))
    _budget_axes(ax, budgets, "search iterations per decision (one seat; the others below or the field)",
                 "games won", "Search player's win share (95% intervals over deals)")
    return Figure(name, "Share of its games the search player won at each budget, in one seat with seats "
                        "rotated: against the level below (half its budget; random below the first level) and "
                        f"against {field} in every other seat, with 95% intervals over deals; the dashed line is "
                        f"the fair share ({100 * fair_share:.1f}%, one game in {round(1 / fair_share)}).",
                  fig, table.select("budget", *[f"{k}_{c}" for k, *_ in series for c in ("share", "lo", "hi")])
                  .rename({f"{k}_{c}": f"{k}_share_{c}" for k, *_ in series for c in ("lo", "hi")}))
