"""Player-count survey: the same lineup at every player count of a setup table, compared side by side.

``survey(simulate, game, counts, out, ...)`` plays one run per player count
into ``out/runs/pN`` and summarises each in one row (``analyses.sweep.summarise``:
the verdict at the margin, the largest seat edge with its simultaneous 95%
interval, game length, spread, close games and tie rate with their
intervals) plus the first seat's edge with its simultaneous interval and the
mean lead changes per game (``analyses.comeback``) when the engine records
its leaders. ``recommendation(rows, margin)`` turns the rows into sentences
that say only what the intervals show, the plain answer first: which counts
are balanced within the margin (``balanced_counts``) or, when none is, that
none is and which count comes closest (``closest``).

A survey directory holds ``survey.json`` (options, rows, ``balanced_counts``,
``closest``, recommendation), ``summary.csv`` and ``runs/``; ``resume``
continues the runs left unfinished. The files carry edges in points
(``analyses.units``).
"""

import json
from pathlib import Path

import polars as pl

from analyses import comeback, units
from analyses.runs import MANIFEST as RUN_MANIFEST, open_run
from analyses.sweep import summarise
from analyses.verdict import DEFAULT_MARGIN, points, seat_verdict

MANIFEST = "survey.json"
SUMMARY = "summary.csv"
DEFAULT_GAMES = 4000   # games per player count
FEEL = ("mean_rounds", "sd_rounds", "mean_spread", "mean_margin", "close_games", "tie_rate", "mean_lead_changes")


def run_name(players):
    return f"p{players}"


def summarise_count(seats, players, margin=DEFAULT_MARGIN, manifest=None):
    """One survey row: ``analyses.sweep.summarise`` plus the verdict sentence, the first seat's edge with
    its simultaneous interval (shares) and the mean lead changes with their 95% interval when recorded."""
    verdict = seat_verdict(seats, margin, manifest=manifest)
    row = {"players": players, **summarise(seats, margin), "sentence": verdict.sentence()}
    if verdict.edges:
        first, big = verdict.edges[0], verdict.largest
        if first.lo > margin or first.hi < -margin:  # the first seat is beyond the margin too: name it
            big = first
        row.update(first_seat_edge_lo=first.lo / 100, first_seat_edge_hi=first.hi / 100,
                   shown_seat=big.seat, shown_edge=big.edge / 100, shown_edge_lo=big.lo / 100, shown_edge_hi=big.hi / 100,
                   games_needed=verdict.games_needed)
    changes = next((r for r in comeback.feel_rows(seats) if r[0] == "lead changes per game"), None)
    if changes is not None:
        row.update(zip(("mean_lead_changes", "mean_lead_changes_lo", "mean_lead_changes_hi"), changes[1:4]))
    return row


def survey(simulate, game, counts, out, *, games=DEFAULT_GAMES, margin=DEFAULT_MARGIN, resume=False,
           on_count=None, **options):
    """Play ``games`` games at each player count in ``counts`` with ``simulate`` (``playtest.api.simulate``)
    into ``out``/runs and return the summary frame (one row per count).

    ``options`` are ``simulate``'s run options (seed, strategies, rotate_seats,
    variant, setup, params, threads...), the same at every count. With
    ``resume`` a count whose run directory already has a manifest is resumed
    (a finished run is read back, an interrupted one finished). ``on_count(players)``
    is called before each count is played.
    """
    out = Path(out)
    rows = []
    for players in counts:
        if on_count is not None:
            on_count(players)
        run_dir = out / "runs" / run_name(players)
        again = resume and (run_dir / RUN_MANIFEST).is_file()
        simulate(game, players=players, games=games, out=run_dir, resume=again, **options)
        run = open_run(run_dir)
        rows.append({**summarise_count(run.seats, players, margin, run.manifest), "run": f"runs/{run_name(players)}"})
    summary = pl.DataFrame(rows, infer_schema_length=None)
    on_file = units.to_file(summary)
    on_file.write_csv(out / SUMMARY)
    shown = {k: v for k, v in options.items() if k != "threads"}
    found = summary.to_dicts()
    (out / MANIFEST).write_text(json.dumps({
        "game": game, "counts": list(counts), "games": games, "margin": margin, "options": shown,
        "balanced_counts": balanced_counts(found), "closest": closest(found),
        "recommendation": recommendation(found, margin), "rows": on_file.to_dicts(),
    }, indent=2, default=str) + "\n")
    return summary


def is_survey(path):
    return (Path(path) / MANIFEST).is_file()


def load(path):
    """``(manifest, summary)`` of a survey directory."""
    path = Path(path)
    return json.loads((path / MANIFEST).read_text()), units.from_file(pl.read_csv(path / SUMMARY))


def count_list(counts):
    """``[3, 4]`` -> "3-4", ``[2, 4, 6]`` -> "2, 4 and 6": consecutive counts as ranges."""
    runs, start = [], None
    for i, n in enumerate(counts):
        if start is None:
            start = n
        if i + 1 == len(counts) or counts[i + 1] != n + 1:
            runs.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return runs[0] if len(runs) == 1 else ", ".join(runs[:-1]) + " and " + runs[-1]


def _seat_words(seat):
    return "the first player" if seat == 0 else f"seat {seat}"


def balanced_counts(rows):
    """The player counts whose verdict is balanced within the margin, in order."""
    return [r["players"] for r in rows if r.get("verdict") == "balanced"]


def closest(rows):
    """The count whose largest seat edge is smallest: ``{players, largest_edge_points, low_points,
    high_points}`` (its simultaneous 95% interval), or None when no count has an edge."""
    judged = [r for r in rows if r.get("max_edge") is not None and r.get("max_edge_lo") is not None]
    if not judged:
        return None
    best = min(judged, key=lambda r: (r["max_edge"], r["max_edge_hi"]))
    return {"players": best["players"], "largest_edge_points": 100 * best["max_edge"],
            "low_points": 100 * best["max_edge_lo"], "high_points": 100 * best["max_edge_hi"]}


def answer(rows, margin=DEFAULT_MARGIN):
    """The plain answer: which counts are balanced within ±``margin`` points, or that none is and which
    count comes closest (its largest edge with its simultaneous interval)."""
    balanced = balanced_counts(rows)
    if balanced:
        return f"Balanced within ±{points(margin)} points at {count_list(balanced)} players."
    near = closest(rows)
    if near is None:
        return "No player count could be judged."
    return (f"No player count is balanced within ±{points(margin)} points; the closest is {near['players']} "
            f"players, whose largest seat edge is {near['largest_edge_points']:.1f} points "
            f"({near['low_points']:.1f} to {near['high_points']:.1f}).")


def recommendation(rows, margin=DEFAULT_MARGIN):
    """The sentences from the survey rows (dicts, shares): ``answer``, then ``details``."""
    return " ".join(part for part in (answer(rows, margin), details(rows)) if part)


def details(rows):
    """Which counts are not balanced and by how much (the interval of the seat beyond the margin), which
    are inconclusive: one sentence ("" when every count is balanced).

    It says only what the simultaneous intervals show: "balanced" needs every
    seat's interval inside the margin, "favoured by a to b points" quotes the
    interval of a seat wholly beyond it.
    """
    by_kind = {kind: [r for r in rows if r.get("verdict") == kind] for kind in ("balanced", "unbalanced",
                                                                                 "inconclusive")}
    parts = []
    for r in by_kind["unbalanced"]:
        lo, hi = 100 * r["shown_edge_lo"], 100 * r["shown_edge_hi"]
        how = f"favoured by {lo:.1f} to {hi:.1f} points" if lo > 0 else f"behind by {-hi:.1f} to {-lo:.1f} points"
        parts.append(f"at {r['players']} players {_seat_words(r['shown_seat'])} is {how}")
    if by_kind["inconclusive"]:
        counts = [r["players"] for r in by_kind["inconclusive"]]
        needed = [r.get("games_needed") for r in by_kind["inconclusive"]]
        more = ""
        if all(n is not None and n == n for n in needed):
            more = f" (up to about {int(max(needed)):,} games per count would settle it)"
        parts.append(f"inconclusive at {count_list(counts)} players{more}")
    if not parts:
        return ""
    sentence = "; ".join(parts)
    return f"{sentence[0].upper()}{sentence[1:]}."


def _interval(row, name, scale=100.0):
    value = row.get(name)
    if value is None or row.get(f"{name}_lo") is None:
        return None
    return {"estimate": scale * value, "low": scale * row[f"{name}_lo"], "high": scale * row[f"{name}_hi"]}


def json_row(row):
    """One count of ``--json``: players, verdict, the largest and first seat's edges (points, with their
    simultaneous 95% intervals) and the feel figures (shares as shares, with 95% intervals)."""
    return {"players": row["players"], "verdict": row["verdict"], "sentence": row.get("sentence"),
            "games": row["games"], "largest_edge": _interval(row, "max_edge"),
            "first_seat_edge": _interval(row, "first_seat_edge"),
            "feel": {name: _interval(row, name, 1.0) for name in FEEL if row.get(name) is not None}}


def _cell(row, name, scale=1.0, digits=2, signed=False):
    """A figure and its interval, "4.52 (4.31 to 4.73)"; "4.00 (every game)" when every game gave the same value
    (an interval of no width), "-" when there is none."""
    if row.get(name) is None or row.get(f"{name}_lo") is None:
        return "-"
    sign = "+" if signed else ""
    if row[f"{name}_lo"] == row[f"{name}_hi"] == row[name]:
        return f"{scale * row[name]:{sign}.{digits}f} (every game)"
    return (f"{scale * row[name]:{sign}.{digits}f} ({scale * row[f'{name}_lo']:{sign}.{digits}f} to "
            f"{scale * row[f'{name}_hi']:{sign}.{digits}f})")


SHOWN = (("players", "players", None), ("verdict", "verdict", None),
         ("first seat's edge, points (sim. 95%)", "first_seat_edge", dict(scale=100, signed=True)),
         ("largest edge, points (sim. 95%)", "max_edge", dict(scale=100)),
         ("mean rounds (95%)", "mean_rounds", dict()),
         ("close games % (95%)", "close_games", dict(scale=100, digits=1)),
         ("tie rate % (95%)", "tie_rate", dict(scale=100, digits=1)),
         ("lead changes (95%)", "mean_lead_changes", dict()))


EDGES = ("players", "verdict", "first_seat_edge", "max_edge")   # the first table when one does not fit


def tables(summary, width):
    """The survey as rich ``Table``s that fit ``width`` columns, one row per player count (columns with no
    figure left out): one table when it fits, else the edges (players, verdict, first seat's and largest
    edge) and the game feel (players and the rest) in two; cells wrap at spaces if still too wide."""
    columns = [(title, name, fmt) for title, name, fmt in SHOWN if name in summary.columns]
    rows = summary.to_dicts()
    cells = {name: [str(r[name]) if fmt is None else _cell(r, name, **fmt) for r in rows]
             for _, name, fmt in columns}

    def natural(title, name):
        return max([len(c) for c in cells[name]] + [max(len(w) for w in title.split())])

    if sum(natural(t, n) for t, n, _ in columns) + 3 * (len(columns) - 1) <= width:
        parts = [columns]
    else:
        parts = [[c for c in columns if c[1] in EDGES], [c for c in columns if c[1] == "players" or
                                                        c[1] not in EDGES]]
    return [_table(part, cells, len(rows)) for part in parts if len(part) > 1]


def _table(columns, cells, count):
    from rich.table import Table

    shown = Table(show_edge=False, pad_edge=False)
    for title, name, _ in columns:
        shown.add_column(title, justify="right", no_wrap=name in ("players", "verdict"))
    for i in range(count):
        shown.add_row(*[cells[name][i] for _, name, _ in columns])
    return shown
