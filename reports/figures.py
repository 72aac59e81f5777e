"""Report figures: each function returns a ``Figure`` holding the matplotlib figure
and the data frame drawn in it (written next to the report as CSV).

Figures use matplotlib's object API (no pyplot state), so building a report
never opens a window or touches a notebook's backend.
"""

import io
import json
from dataclasses import dataclass

import numpy as np
import polars as pl
from matplotlib.figure import Figure as MplFigure

WIDTH, HEIGHT = 7.0, 3.6


@dataclass
class Figure:
    """One figure of a report: a file-safe ``name``, a ``caption``, the figure and its data."""

    name: str
    caption: str
    figure: MplFigure
    data: pl.DataFrame

    def png(self, dpi=100):
        """The figure as PNG bytes."""
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
        return buffer.getvalue()


def new_axes(width=WIDTH, height=HEIGHT):
    """A matplotlib figure (not registered with pyplot) and its single axes."""
    fig = MplFigure(figsize=(width, height))
    return fig, fig.add_subplot()


def seat_advantage(name, table):
    """Win share per seat with its 95% interval as error bars, against the equal share."""
    fig, ax = new_axes()
    seats = table["seat"].to_numpy()
    share = table["win_share"].to_numpy()
    err = np.vstack([share - table["win_lo"].to_numpy(), table["win_hi"].to_numpy() - share])
    ax.bar(seats, 100 * share, color="#4c78a8", width=0.6)
    ax.errorbar(seats, 100 * share, yerr=100 * err, fmt="none", ecolor="black", capsize=6)
    ax.axhline(100 * table["expected_share"][0], color="#e45756", linestyle="--", label="equal share")
    ax.set_xticks(seats, [f"seat {s}" for s in seats])
    ax.set_ylabel("games won (%)")
    ax.set_title("Win share per seat (95% intervals)")
    ax.legend(loc="lower right")
    return Figure(name, "Win share per seat; error bars are 95% Wilson intervals, the dashed line is "
                        "what every seat would win if seats were equal.", fig,
                  table.select("seat", "strategy", "games", "wins", "win_share", "win_lo", "win_hi",
                               "expected_share"))


def score_distributions(name, seats):
    """Score histogram per seat (outlines over shared bins)."""
    fig, ax = new_axes()
    scores = seats["score"].to_numpy()
    lo, hi = float(scores.min()), float(scores.max())
    edges = np.arange(np.floor(lo), np.ceil(hi) + 2) - 0.5 if hi - lo <= 60 else np.linspace(lo, hi, 41)
    rows = []
    for seat in sorted(seats["seat"].unique().to_list()):
        counts, _ = np.histogram(seats.filter(pl.col("seat") == seat)["score"].to_numpy(), bins=edges)
        ax.stairs(counts / counts.sum(), edges, label=f"seat {seat}", linewidth=1.5)
        rows += [(seat, float(a), float(b), int(c)) for a, b, c in zip(edges[:-1], edges[1:], counts)]
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games")
    ax.set_title("Score distribution per seat")
    ax.legend()
    return Figure(name, "How often each final score occurs, per seat.", fig,
                  pl.DataFrame(rows, schema=["seat", "score_from", "score_to", "games"], orient="row"))


def game_length(name, distribution, column="rounds"):
    """Histogram of game length (from ``analyses.feel.length_distribution``)."""
    fig, ax = new_axes()
    ax.bar(distribution[column].to_numpy(), 100 * distribution["share"].to_numpy(), color="#72b7b2")
    ax.set_xlabel(column)
    ax.set_ylabel("games (%)")
    ax.set_title(f"Game length ({column})")
    return Figure(name, f"Share of games lasting each number of {column}.", fig, distribution)


def ratings(name, standings):
    """Bradley-Terry ratings with 95% intervals, best at the top."""
    table = standings.sort("rating")
    fig, ax = new_axes(height=max(2.0, 0.5 * table.height + 1))
    y = np.arange(table.height)
    r = table["rating"].to_numpy()
    err = np.vstack([r - table["rating_low"].to_numpy(), table["rating_high"].to_numpy() - r])
    ax.errorbar(r, y, xerr=err, fmt="o", color="#4c78a8", capsize=5)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, table["strategy"].to_list())
    ax.set_xlabel("rating (Elo points; 0 = average of the field)")
    ax.set_title("Strategy ratings (Bradley-Terry, 95% intervals)")
    return Figure(name, "Bradley-Terry ratings on the Elo scale: 100 points more means winning about "
                        "64% of head-to-head comparisons.", fig, standings)


def sweep_heatmap(name, summary, axes, metric, title, panels=6):
    """Heatmap of ``metric`` over the first two varying grid ``axes``; one panel per value of the
    remaining axes (at most ``panels``; the CSV holds every configuration)."""
    x, y, *others = axes
    groups = summary.group_by(others, maintain_order=True) if others else [((), summary)]
    groups = list(groups)[:panels]
    fig = MplFigure(figsize=(min(4.2 * len(groups), 14), 3.8))
    xs = sorted(summary[x].unique().to_list(), key=_order)
    ys = sorted(summary[y].unique().to_list(), key=_order)
    for i, (key, part) in enumerate(groups):
        ax = fig.add_subplot(1, len(groups), i + 1)
        grid = np.full((len(ys), len(xs)), np.nan)
        for row in part.iter_rows(named=True):
            grid[ys.index(row[y]), xs.index(row[x])] = row[metric]
        image = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
        for (r, c), v in np.ndenumerate(grid):
            if not np.isnan(v):
                ax.text(c, r, f"{v:.3g}", ha="center", va="center", color="white", fontsize=8)
        ax.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=30)
        ax.set_yticks(range(len(ys)), [str(v) for v in ys])
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        if others:
            ax.set_title(", ".join(f"{k}={v}" for k, v in zip(others, key)), fontsize=8)
        fig.colorbar(image, ax=ax)
    fig.suptitle(title)
    return Figure(name, f"{title} for every configuration of the grid.", fig,
                  summary.select(*others, x, y, metric))


def sweep_line(name, summary, x, metric, title):
    """``metric`` over a single grid axis."""
    fig, ax = new_axes()
    table = summary.sort(x)
    ax.plot([str(v) for v in table[x].to_list()], table[metric].to_numpy(), marker="o")
    ax.set_xlabel(x)
    ax.set_ylabel(metric)
    ax.set_title(title)
    return Figure(name, f"{title} for every configuration of the grid.", fig, table.select(x, metric))


def _order(value):
    """Sort key for grid values: numbers numerically, JSON lists by content, text as text."""
    if isinstance(value, (int, float)):
        return (0, value, "")
    try:
        return (1, 0, json.dumps(json.loads(value)))
    except (TypeError, ValueError):
        return (2, 0, str(value))
