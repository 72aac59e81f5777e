"""Strategy tournaments: every lineup of a list of strategies, seats rotated, rated.

A tournament plays each lineup (a choice of strategies for the seats) as a
duplicate-deal run (``rotate_seats``), all with the same seed so every lineup
meets the same deals. Results are win shares per strategy with paired
intervals (``analyses.paired``) and a Bradley-Terry rating: every game is
read as the pairwise results between seats of different strategies (ahead =
win, level = half a win), the ratings are fitted by maximum likelihood, and
their intervals use a sandwich covariance clustered by deal, because the
several comparisons of one game (and one deal) are not independent.
"""

import itertools
import json
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from analyses import paired
from analyses.runs import open_run
from analyses.frames import as_polars

ELO = 400 / np.log(10)  # Elo points per unit of log-strength
MANIFEST = "tournament.json"


def lineups(strategies, players):
    """The lineups to play: every set of ``players`` different strategies, or, with fewer
    strategies than seats, every mix with repetition that is not one strategy alone."""
    strategies = list(dict.fromkeys(strategies))
    if len(strategies) < 2:
        raise ValueError("a tournament needs at least two different strategies")
    if len(strategies) >= players:
        return [list(c) for c in itertools.combinations(strategies, players)]
    return [list(c) for c in itertools.combinations_with_replacement(strategies, players) if len(set(c)) > 1]


def play(simulate, game, strategies, out, *, players, games, seed, **options):
    """Play every lineup with ``simulate`` (``playtest.api.simulate``) into ``out``/NN-a-b-...

    Writes ``out``/tournament.json listing the lineups and their run
    directories, and returns ``out``.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    entries = []
    for i, lineup in enumerate(lineups(strategies, players)):
        run_dir = out / f"{i:02d}-{'-'.join(lineup)}"
        simulate(game, players=players, games=games, seed=seed, strategies=lineup, out=run_dir,
                 rotate_seats=True, **options)
        entries.append({"lineup": lineup, "run": run_dir.name})
    (out / MANIFEST).write_text(json.dumps({"game": game, "players": players, "games": games, "seed": seed,
                                            "strategies": list(dict.fromkeys(strategies)), "runs": entries},
                                           indent=2) + "\n")
    return out


def is_tournament(path):
    return (Path(path) / MANIFEST).is_file()


def load(path):
    """``(manifest, seats)``: the tournament's manifest and all its seat rows, with a ``lineup`` column.

    ``game`` stays the deal index: lineups share the seed, so deal ``g`` has the
    same cards in every lineup and is one cluster for the intervals.
    """
    path = Path(path)
    manifest = json.loads((path / MANIFEST).read_text())
    frames = [open_run(path / e["run"]).seats.with_columns(pl.col("strategy").cast(pl.String),
                                                             pl.lit(i).alias("lineup"))
              for i, e in enumerate(manifest["runs"])]
    return manifest, pl.concat(frames, how="diagonal_relaxed")


def pairwise(seats):
    """Pairwise results per deal: columns game, a, b (strategy names, a < b), n (comparisons)
    and wins (of a over b; a level result counts half)."""
    seats = as_polars(seats).with_columns(pl.col("strategy").cast(pl.String))
    keys = [k for k in ("lineup", "game", "rotation") if k in seats.columns]
    left = seats.select(*keys, pl.col("strategy").alias("a"), pl.col("rank").alias("rank_a"))
    right = seats.select(*keys, pl.col("strategy").alias("b"), pl.col("rank").alias("rank_b"))
    pairs = left.join(right, on=keys).filter(pl.col("a") < pl.col("b"))
    result = (pl.when(pl.col("rank_a") < pl.col("rank_b")).then(1.0)
              .when(pl.col("rank_a") == pl.col("rank_b")).then(0.5).otherwise(0.0))
    return (pairs.with_columns(result.alias("wins")).group_by("game", "a", "b")
            .agg(pl.len().alias("n"), pl.col("wins").sum()).sort("game", "a", "b"))


def bradley_terry(results, confidence=0.95, tol=1e-10, max_iter=100):
    """Bradley-Terry ratings from pairwise results (the frame ``pairwise`` returns).

    The model: a beats b with probability ``1 / (1 + exp(theta_b - theta_a))``.
    Fitted by Newton's method with the first strategy held at 0, then centred
    (mean rating 0). Columns: strategy, theta (log-strength), rating (Elo
    points, 400/ln 10 per unit), rating_low, rating_high, comparisons, and
    expected share (against an average strategy).

    Intervals use a sandwich covariance with one cluster per ``game`` value
    (for independent two-player games it equals the usual inverse-information
    interval).
    """
    results = as_polars(results)
    names = sorted(set(results["a"].to_list()) | set(results["b"].to_list()))
    k = len(names)
    index = {name: i for i, name in enumerate(names)}
    ia = np.array([index[a] for a in results["a"].to_list()])
    ib = np.array([index[b] for b in results["b"].to_list()])
    n = results["n"].to_numpy().astype(float)
    w = results["wins"].to_numpy().astype(float)
    won = np.bincount(ia, w, k) + np.bincount(ib, n - w, k)
    played = np.bincount(ia, n, k) + np.bincount(ib, n, k)
    for i in range(k):
        if won[i] == 0 or won[i] == played[i]:
            raise ValueError(f"strategy {names[i]!r} {'lost' if won[i] == 0 else 'won'} every comparison, "
                             "so its Bradley-Terry rating is unbounded; play more games or stronger opponents")

    theta = np.zeros(k)
    for _ in range(max_iter):
        p = 1 / (1 + np.exp(theta[ib] - theta[ia]))
        grad = np.bincount(ia, w - n * p, k) - np.bincount(ib, w - n * p, k)
        info = _information(ia, ib, n * p * (1 - p), k)
        step = np.linalg.solve(info[1:, 1:], grad[1:])
        theta[1:] += step
        if np.abs(step).max() < tol:
            break
    p = 1 / (1 + np.exp(theta[ib] - theta[ia]))
    info = _information(ia, ib, n * p * (1 - p), k)[1:, 1:]

    # Sandwich: bread = information^-1, meat = sum over deals of the deal's score vector squared.
    deals = np.unique(results["game"].to_numpy(), return_inverse=True)[1]
    resid = w - n * p
    scores = np.zeros((deals.max() + 1, k))
    np.add.at(scores, (deals, ia), resid)
    np.add.at(scores, (deals, ib), -resid)
    meat = scores[:, 1:].T @ scores[:, 1:]
    bread = np.linalg.inv(info)
    cov = np.zeros((k, k))
    cov[1:, 1:] = bread @ meat @ bread
    centre = np.eye(k) - 1.0 / k
    cov = centre @ cov @ centre.T
    theta = centre @ theta
    half = stats.norm.ppf(0.5 + confidence / 2) * np.sqrt(np.clip(np.diag(cov), 0, None))
    return pl.DataFrame({
        "strategy": names,
        "theta": theta,
        "rating": ELO * theta,
        "rating_low": ELO * (theta - half),
        "rating_high": ELO * (theta + half),
        "comparisons": played,
        "expected_share": 1 / (1 + np.exp(-theta)),
    }).sort("rating", descending=True)


def _information(ia, ib, weight, k):
    """Fisher information of the Bradley-Terry log-likelihood (a graph Laplacian of the weights)."""
    info = np.zeros((k, k))
    np.add.at(info, (ia, ia), weight)
    np.add.at(info, (ib, ib), weight)
    np.add.at(info, (ia, ib), -weight)
    np.add.at(info, (ib, ia), -weight)
    return info


def standings(seats, confidence=0.95):
    """The tournament table: win share per strategy (paired intervals over deals) joined with
    its Bradley-Terry rating, best first."""
    seats = as_polars(seats).with_columns(pl.col("strategy").cast(pl.String))
    shares = paired.effects(seats, by="strategy", value="win", confidence=confidence)
    ratings = bradley_terry(pairwise(seats), confidence)
    return (shares.select("strategy", "games", pl.col("mean").alias("win_share"),
                          (pl.col("mean") - pl.col("half_paired")).alias("win_low"),
                          (pl.col("mean") + pl.col("half_paired")).alias("win_high"))
            .join(ratings.select("strategy", "rating", "rating_low", "rating_high"), on="strategy")
            .sort("rating", descending=True))


RATING_NOTE = ("ratings rank finishing order (who finishes ahead of whom in each game); win share counts first "
               "places only, so a strategy can win more often and still be rated lower")


def table_cells(standings):
    """The standings as the terminal prints them, ``(header, rows)`` of text: strategy, games, win share and
    rating, each with its 95% interval, shares in percent with two decimals, ratings in whole Elo points. The
    rating's header says that it ranks finishing order (``RATING_NOTE`` says it in full)."""
    header = ["strategy", "games", "win share (95%)", "rating by finishing order, Elo (95%)"]
    rows = [[r["strategy"], f"{r['games']:,}",
             f"{100 * r['win_share']:.2f}% ({100 * r['win_low']:.2f} to {100 * r['win_high']:.2f})",
             f"{r['rating']:+.0f} ({r['rating_low']:+.0f} to {r['rating_high']:+.0f})"]
            for r in standings.iter_rows(named=True)]
    return header, rows
