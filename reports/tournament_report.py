"""The report section of a strategy tournament: who is strongest, head to head, and why ratings and
win shares can disagree.

Win share counts first places only; the Bradley-Terry rating
(``analyses.tournament``) counts finishing order, every game read as the
comparisons between every two seats of different strategies. The
head-to-head matrix is the raw form of those comparisons: the share of
meetings the row's strategy finished ahead of the column's (level = half),
with a 95% interval clustered by deal, because the comparisons of one deal
are not independent.
"""

from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from analyses import tournament
from analyses.runs import open_run
from analyses.verdict import seat_verdict
from reports import figures
from reports.section import Section, provenance, slug
from reports.tables import Table, pct, pct_interval, text


def clustered_share(wins, meetings, confidence=0.95):
    """The share ``sum(wins) / sum(meetings)`` over clusters (the last axis) with its interval:
    ``(share, low, high)``.

    The variance is the ratio estimator's sandwich, ``sum((w - share n)^2) /
    sum(n)^2`` over clusters, so comparisons within a cluster (a deal) may be
    correlated; the arrays may carry leading axes (one share per row).
    """
    wins, meetings = np.asarray(wins, dtype=float), np.asarray(meetings, dtype=float)
    total = meetings.sum(axis=-1)
    share = wins.sum(axis=-1) / total
    spread = ((wins - share[..., None] * meetings) ** 2).sum(axis=-1)
    half = stats.norm.ppf(0.5 + confidence / 2) * np.sqrt(spread) / total
    return share, share - half, share + half


def head_to_head(seats, confidence=0.95):
    """One row per ordered pair of strategies: a, b, meetings, ahead (share of meetings a finished ahead
    of b, level = half), low, high (95% interval clustered by deal, ``clustered_share``)."""
    rows = []
    for (a, b), part in tournament.pairwise(seats).group_by("a", "b", maintain_order=True):
        deals = part.group_by("game").agg(pl.col("n").sum(), pl.col("wins").sum())
        share, lo, hi = clustered_share(deals["wins"].to_numpy(), deals["n"].to_numpy(), confidence)
        meetings = int(deals["n"].sum())
        rows += [(a, b, meetings, float(share), float(lo), float(hi)),
                 (b, a, meetings, float(1 - share), float(1 - hi), float(1 - lo))]
    return pl.DataFrame(rows, schema=["a", "b", "meetings", "ahead", "low", "high"], orient="row").sort("a", "b")


def headline(table, matrix):
    """One sentence: the top-rated strategy, how often it finishes ahead of the runner-up, its wins."""
    top, runner = table.row(0, named=True), table.row(1, named=True)
    meet = matrix.filter((pl.col("a") == top["strategy"]) & (pl.col("b") == runner["strategy"]))
    if meet.height:
        m = meet.row(0, named=True)
        told = m["low"] > 0.5
        head = (f"it finishes ahead of {runner['strategy']} in {pct(m['ahead'])} of their meetings "
                f"({pct_interval(m['low'], m['high'])})")
    else:
        told = top["rating_low"] > runner["rating_high"]
        head = f"rated {top['rating'] - runner['rating']:.0f} Elo points above {runner['strategy']}"
    lead = f"{top['strategy']} is the strongest strategy:" if told else \
        f"{top['strategy']} and {runner['strategy']} cannot be told apart: {top['strategy']} is rated first, but"
    more = table.filter(pl.col("win_share") > top["win_share"]).sort("win_share", descending=True)
    why = "" if more.height == 0 else (
        f", less often than {more['strategy'][0]} ({pct(more['win_share'][0])}): the rating counts finishing "
        "order (who finishes ahead of whom), win share first places only")
    return (f"{lead} {head}, and wins {pct(top['win_share'])} of its games "
            f"({pct_interval(top['win_low'], top['win_high'])}){why}.")


def tournament_section(path, margin):
    """A tournament: the verdict, win shares against the fair share, head to head, ratings, the seats'
    verdict at ``margin`` points over all lineups, provenance."""
    manifest, seats = tournament.load(path)
    name = Path(path).name
    tag = f"{slug(name)}-"
    table = tournament.standings(seats)
    matrix = head_to_head(seats)
    fair = 1 / manifest["players"]
    standings = Table.of("Standings (best rated first)", table, f"{tag}standings", {
        "Strategy": lambda r: r["strategy"], "Games": lambda r: text(r["games"]),
        "Win share": lambda r: pct(r["win_share"]),
        "95% interval": lambda r: pct_interval(r["win_low"], r["win_high"]),
        "Rating (Elo)": lambda r: f"{r['rating']:+.0f}",
        "Rating 95% interval": lambda r: f"{r['rating_low']:+.0f} to {r['rating_high']:+.0f}",
    })
    names = sorted(matrix["a"].unique().to_list())
    grid = Table("Head to head: % of meetings the row's strategy finished ahead of the column's (95% interval)",
                 ["Strategy", *names],
                 [[a, *[_cell(matrix, a, b) for b in names]] for a in names], f"{tag}head-to-head",
                 matrix.rename(figures.AHEAD_SHARE))
    notes = [
        f"{manifest['game']}, {manifest['players']} players: {len(manifest['runs'])} "
        f"lineup{'s' if len(manifest['runs']) > 1 else ''} of "
        f"{', '.join(manifest['strategies'])}, {manifest['games']:,} deals each, every deal played once per "
        f"rotation of the strategies over the seats, the same deals for every lineup. The fair share is "
        f"{pct(fair)} (one game in {manifest['players']}).",
        "Ratings rank finishing order, not wins: every game counts once for every two seats of different "
        "strategies (ahead = 1, level = ½), and the Bradley-Terry model turns those comparisons into Elo points "
        "(100 points more: finishing ahead about 64% of the time). Win share counts first places only. A "
        "strategy that wins slightly more often but often finishes last can therefore be rated below one "
        "that wins a little less but usually finishes ahead of it.",
        "Seat advantage over all lineups (every strategy sits in every seat): "
        + seat_verdict(seats, margin).sentence(),
        "Tested: who finishes ahead of whom, and how often each strategy wins, over these lineups and deals. "
        "Cannot tell: how the strategies do in lineups or player counts not played, or against other strategies.",
    ]
    return Section(f"Strategy tournament ({name})", "tournament", verdict=headline(table, matrix),
                   figures=[figures.strategy_shares(f"{tag}win-shares", table, fair),
                            figures.head_to_head(f"{tag}head-to-head", matrix),
                            figures.ratings(f"{tag}ratings", table)],
                   text=notes, tables=[standings, grid],
                   subsections=[tournament_provenance(path, manifest)])


def _cell(matrix, a, b):
    if a == b:
        return ""
    row = matrix.filter((pl.col("a") == a) & (pl.col("b") == b))
    if row.height == 0:
        return "never met"
    r = row.row(0, named=True)
    return f"{pct(r['ahead'])} ({pct_interval(r['low'], r['high'])})"


def tournament_provenance(path, manifest):
    """Seed, deals, lineups, engine and git revision of a tournament (engine and revision from its first run)."""
    first = open_run(Path(path) / manifest["runs"][0]["run"]).manifest
    settings = {k: first[k] for k in ("game", "title", "players", "variant", "version", "engine_version",
                                      "git_revision", "setup") if k in first}
    settings |= {"games": manifest["games"], "seed": manifest["seed"], "strategies": manifest["strategies"]}
    lineups = [("Lineups", "; ".join(", ".join(e["lineup"]) for e in manifest["runs"])),
               ("Deals", f"{manifest['games']:,} per lineup, each played once per seat rotation")]
    return provenance(settings, Path(path).name, lineups)
