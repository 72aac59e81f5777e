"""Seat frames with known structure, made with numpy (fixed seeds), for the analysis tests."""

import numpy as np
import polars as pl

COLUMNS = ["game", "rotation", "seat", "strategy", "score", "rank", "win", "players", "rounds"]


def ranks(score):
    """Rank (1 = best, ties share the better rank) and win share of one game's scores."""
    rank = np.array([1 + (score > s).sum() for s in score])
    top = rank == 1
    return rank, top / top.sum()


def rotated_frame(deals=2000, strategies=("A", "B", "C"), bonus=(0.3, 0.0, 0.0), luck_sd=2.0, seed=3):
    """A duplicate-deal run: each deal gives every seat a luck value (the cards), played once per
    rotation of the strategies; a seat scores luck + its strategy's bonus + noise."""
    rng = np.random.default_rng(seed)
    n = len(strategies)
    rows = []
    for g in range(deals):
        luck = rng.normal(0, luck_sd, n)
        for r in range(n):
            plays = [(s + r) % n for s in range(n)]
            score = luck + np.array([bonus[i] for i in plays]) + rng.normal(0, 1, n)
            rank, win = ranks(score)
            rows += [(g, r, s, strategies[plays[s]], float(score[s]), int(rank[s]), float(win[s]), n, 1)
                     for s in range(n)]
    return pl.DataFrame(rows, schema=COLUMNS, orient="row")
