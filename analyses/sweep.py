"""Setup-table sweeps: play every configuration of a grid and compare their balance.

A grid is a TOML file::

    players = 4
    games = 2000
    seed = 1
    strategies = ["greedy"]            # one for every seat, or one per seat

    [setup.players.4]                  # any setup-table keys; each value is a
    remove = [2, 4, 6]                 # list of the candidates to try
    initial_marketing = [2, 3]

    [params]                           # strategy parameter vectors to try
    greedy = [[0.0], [1.0]]

The sweep plays the cartesian product of all candidate lists (a list-valued
setup key takes a list of lists) and summarises each configuration in one
row: seat advantage, score spread, game length and tie rate. ``search``
finds the configuration with the smallest largest seat edge by successive
halving: all configurations play ``games`` games, the better half plays
twice as many, and so on until one is left.
"""

import itertools
import json
import math
import tomllib
from pathlib import Path

import polars as pl

from analyses import feel
from analyses.runs import open_run
from analyses.verdict import DEFAULT_MARGIN, seat_verdict

MANIFEST = "sweep.json"
SUMMARY = "summary.csv"
RUN_KEYS = ("players", "games", "seed", "strategies", "variant")


class GridError(ValueError):
    """A grid file that cannot be swept; the message names the key."""


def _leaves(table, prefix):
    """Flatten nested tables into ``(dotted key, value)`` pairs."""
    for key, value in table.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            yield from _leaves(value, path)
        else:
            yield path, value


def read_grid(path_or_dict):
    """Read and check a grid; return ``(run options, axes)``.

    ``axes`` is a list of ``(label, candidates)``: labels are dotted setup
    keys (``players.4.remove``) or ``param:NAME`` for a strategy's vector.
    """
    grid = path_or_dict if isinstance(path_or_dict, dict) else tomllib.loads(Path(path_or_dict).read_text())
    unknown = set(grid) - set(RUN_KEYS) - {"setup", "params"}
    if unknown:
        raise GridError(f"grid: unknown key(s) {', '.join(sorted(unknown))} (expected {', '.join(RUN_KEYS)}, "
                        "[setup] and [params])")
    options = {k: grid[k] for k in RUN_KEYS if k in grid}
    axes = []
    for key, values in _leaves(grid.get("setup", {}), ""):
        if not isinstance(values, list) or not values:
            raise GridError(f"grid: setup.{key} must be a non-empty list of candidate values, got {values!r}")
        axes.append((key, values))
    for name, vectors in grid.get("params", {}).items():
        if not isinstance(vectors, list) or not vectors or not all(
                isinstance(v, list) and all(isinstance(x, (int, float)) for x in v) for v in vectors):
            raise GridError(f"grid: params.{name} must be a non-empty list of parameter vectors "
                            f"(lists of numbers), got {vectors!r}")
        axes.append((f"param:{name}", vectors))
    if not axes:
        raise GridError("grid: nothing to sweep; give candidate lists under [setup] or [params]")
    return options, axes


def configurations(axes):
    """Every combination of the axes as ``(values, setup override, params)``."""
    labels = [label for label, _ in axes]
    for combo in itertools.product(*(values for _, values in axes)):
        setup, params = {}, {}
        for label, value in zip(labels, combo):
            if label.startswith("param:"):
                params[label[len("param:"):]] = [float(x) for x in value]
            else:
                *parents, leaf = label.split(".")
                node = setup
                for part in parents:
                    node = node.setdefault(part, {})
                node[leaf] = value
        yield dict(zip(labels, combo)), setup, params


def summarise(seats, margin=DEFAULT_MARGIN):
    """The balance of one configuration as a dict: the verdict at ``margin`` points, seat edges (shares),
    the largest edge with its simultaneous interval, and the game-feel figures with their intervals."""
    verdict = seat_verdict(seats, margin)
    row = {"games": verdict.games, "unfinished": verdict.unfinished, "verdict": verdict.kind}
    if verdict.largest is None:
        return row
    first, big = verdict.edges[0], verdict.largest
    row.update({
        "first_seat_share": first.share / 100,
        "first_seat_edge": first.edge / 100,
        "max_edge": abs(big.edge) / 100,
        "max_edge_lo": largest_edge_bounds(verdict)[0],
        "max_edge_hi": largest_edge_bounds(verdict)[1],
        "worst_seat": big.seat,
        "equal_share_p": verdict.seat_test.p,
    })
    row.update(feel.summary_columns(seats))
    return row


def largest_edge_bounds(verdict):
    """Simultaneous bounds (shares) on the largest absolute seat edge: every seat's interval holds at once,
    so the largest edge is at least the farthest any interval stays from zero and at most the farthest
    any interval reaches."""
    lows = [max(e.lo, -e.hi, 0.0) for e in verdict.edges]
    highs = [max(abs(e.lo), abs(e.hi)) for e in verdict.edges]
    return max(lows) / 100, max(highs) / 100


def _label_value(value):
    return json.dumps(value) if isinstance(value, list) else value


def _play(simulate, game, options, configs, out, games, tag, force, unplayable):
    """Play the listed configurations with ``games`` games each; return their summary rows.

    A configuration whose ``simulate`` raises one of ``unplayable`` gets a row
    with the reason in ``unplayable`` and no numbers.
    """
    rows = []
    for index, (values, setup, params) in configs:
        run_dir = out / "runs" / f"c{index:03d}{tag}"
        row = {"config": index, **{k: _label_value(v) for k, v in values.items()}}
        try:
            simulate(game, **{**options, "games": games}, setup=setup, params=params or None, out=run_dir,
                     force=force)
        except unplayable as exc:
            rows.append({**row, "unplayable": str(exc)})
            continue
        rows.append({**row, **summarise(open_run(run_dir).seats), "run": str(run_dir.relative_to(out)),
                     "unplayable": None})
    return rows


def sweep(simulate, game, grid, out, search=False, force=False, unplayable=()):
    """Play a grid with ``simulate`` (``playtest.api.simulate``) into ``out``; return the summary frame.

    Without ``search``: one row per configuration. With ``search``: the
    successive-halving race, one row per configuration and stage (column
    ``stage``); the last row is the winner. ``out`` receives sweep.json,
    summary.csv and runs/.
    """
    options, axes = read_grid(grid)
    options.setdefault("games", 2000)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    configs = list(enumerate(configurations(axes)))
    games = int(options["games"])
    if not search:
        summary = pl.DataFrame(_play(simulate, game, options, configs, out, games, "", force, unplayable), infer_schema_length=None)
    else:
        stages = []
        stage = 0
        while True:
            rows = _play(simulate, game, options, configs, out, games, f"-s{stage}", force, unplayable)
            stages.append(pl.DataFrame(rows, infer_schema_length=None).with_columns(pl.lit(stage).alias("stage")))
            played = sorted((r for r in rows if r["unplayable"] is None), key=lambda r: r["max_edge"])
            if len(played) <= 1:
                break
            keep = {r["config"] for r in played[:math.ceil(len(played) / 2)]}
            configs = [c for c in configs if c[0] in keep]
            games *= 2
            stage += 1
        summary = pl.concat(stages, how="diagonal_relaxed")
    summary.write_csv(out / SUMMARY)
    (out / MANIFEST).write_text(json.dumps({
        "game": game, "mode": "search" if search else "grid", "options": options,
        "axes": [{"label": label, "values": values} for label, values in axes],
    }, indent=2) + "\n")
    return summary


def is_sweep(path):
    return (Path(path) / MANIFEST).is_file()


def load(path):
    """``(manifest, summary)`` of a sweep directory."""
    path = Path(path)
    return json.loads((path / MANIFEST).read_text()), pl.read_csv(path / SUMMARY)


def best(summary):
    """The row (a dict) with the smallest largest seat edge, among the last stage when searching."""
    summary = summary.filter(pl.col("unplayable").is_null())
    if summary.height == 0:
        raise GridError("grid: no configuration of the grid could be played")
    if "stage" in summary.columns:
        summary = summary.filter(pl.col("stage") == summary["stage"].max())
    return summary.sort("max_edge").row(0, named=True)
