"""Fair Enough: do the time cards give the starting player an edge, and which values would remove it?

A worked study (run it with `.venv/bin/python analyses/notebooks/fair_enough_time_cards.py`).
For each time-card table below it plays GAMES games at 4 players with one
strategy in every seat and reports each seat's win share with its 95% Wilson
interval (shared wins count 1/k), plus the chi-square test of equal shares.
Seat 0 holds the Starting Player Card in round 1; later rounds start with
whoever secured first, so the edge measured is that of the first seat.
"""

import sys

from analyses.seats import equal_share_test, seat_advantage
from playtest import api

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 400_000
PLAYERS = 4
TABLES = {
    "default 16-31 (ASSUMED)": [16, 19, 22, 25, 28, 31],
    "short 10-25": [10, 13, 16, 19, 22, 25],
    "long 22-37": [22, 25, 28, 31, 34, 37],
    "flat 23 x 6": [23, 23, 23, 23, 23, 23],
}


def study(strategy):
    print(f"\n## {PLAYERS} players, {strategy} in every seat, {GAMES:,} games per table")
    for name, times in TABLES.items():
        run = api.simulate("fair-enough", players=PLAYERS, games=GAMES, seed=2024, strategies=[strategy],
                           setup={"players": {str(PLAYERS): {"time_cards": times}}})
        table = seat_advantage(run.seats())
        chi2, dof, p = equal_share_test(run.seats())
        shares = "  ".join(f"seat {r['seat']} {100 * r['win_share']:.1f}% [{100 * r['win_lo']:.1f}, "
                           f"{100 * r['win_hi']:.1f}]" for r in table.iter_rows(named=True))
        print(f"{name:24s} {shares}   chi2={chi2:.0f} p={p:.2g}")


if __name__ == "__main__":
    for strategy in ("random", "banker"):
        study(strategy)
