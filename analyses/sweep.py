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
row: the verdict at the margin, seat advantage, score spread, game length and
tie rate, each with its interval.

``search`` looks for the configuration with the smallest largest seat edge
without reporting the games that chose it (``race``): every configuration
plays ``games`` games; a configuration is eliminated once its largest edge is
surely (simultaneous intervals, Bonferroni over the configurations still in
the race) bigger than some other's; the survivors play twice as many games,
and so on. The survivors (and, when one is left, the best runners-up) are
then re-played on a fresh seed (``CONFIRM_SEED_OFFSET``) and the best and
runners-up are reported from those confirmation games only, each with a
simultaneous interval for its largest edge, saying which configurations
cannot be told apart from the best.
"""

import itertools
import json
import math
import tomllib
from pathlib import Path

import numpy as np
import polars as pl

from analyses import feel, units
from analyses.runs import open_run
from analyses.moments import seat_moments
from analyses.verdict import DEFAULT_MARGIN, decide, lineup, points, simultaneous_edges

MANIFEST = "sweep.json"
SUMMARY = "summary.csv"
RUN_KEYS = ("players", "games", "seed", "strategies", "variant")
CONFIRM_SEED_OFFSET = 1_000_003  # the confirmation games use seed + this: deals the race never saw
MAX_STAGES = 4                   # race stages before confirming whatever is left
CONFIRMED = 3                    # at least this many configurations (when there are) are confirmed
DEFAULT_GAMES = 2000             # games per configuration when the grid gives none
MAX_CONFIGS = 10_000             # configurations in one grid (each is a run directory)


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
    if isinstance(path_or_dict, dict):
        grid = path_or_dict
    else:
        try:
            grid = tomllib.loads(Path(path_or_dict).read_text())
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise GridError(f"grid: cannot read {path_or_dict}: {exc}") from None
    unknown = set(grid) - set(RUN_KEYS) - {"setup", "params"}
    if unknown:
        raise GridError(f"grid: unknown key(s) {', '.join(sorted(unknown))} (expected {', '.join(RUN_KEYS)}, "
                        "[setup] and [params])")
    options = {k: grid[k] for k in RUN_KEYS if k in grid}
    for key in ("players", "games", "seed"):
        value = options.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0
                                  or (key != "seed" and value < 1) or value > 2 ** 63 - 1):
            raise GridError(f"grid: {key} must be a whole number{' from 0' if key == 'seed' else ' of at least 1'}, "
                            f"got {value!r}")
    if "variant" in options and not isinstance(options["variant"], str):
        raise GridError(f"grid: variant must be a name, got {options['variant']!r}")
    strategies = options.get("strategies")
    if strategies is not None and not (isinstance(strategies, str) or (
            isinstance(strategies, list) and strategies and all(isinstance(x, str) for x in strategies))):
        raise GridError(f"grid: strategies must be a strategy name or a list of names, got {strategies!r}")
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
    count = math.prod(len(values) for _, values in axes)
    if count > MAX_CONFIGS:
        raise GridError(f"grid: {count:,} configurations (the product of the candidate lists); a sweep plays at "
                        f"most {MAX_CONFIGS:,}")
    if isinstance(options.get("strategies"), str):
        options["strategies"] = [options["strategies"]]
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
    moments = seat_moments(seats)
    names, subject = lineup(seats)
    verdict = decide(moments, margin, 0.95, names, subject)
    row = {"games": verdict.games, "unfinished": verdict.unfinished, "verdict": verdict.kind}
    if verdict.largest is None:
        return row
    first = verdict.edges[0]
    estimate, low, high = largest_edge_interval(moments)
    row.update({
        "first_seat_share": first.share / 100,
        "first_seat_edge": first.edge / 100,
        "max_edge": float(estimate),
        "max_edge_lo": float(low),
        "max_edge_hi": float(high),
        "worst_seat": int(np.abs(moments.mean - 1 / moments.players).argmax()),
        "equal_share_p": verdict.seat_test.p,
    })
    row.update(feel.summary_columns(seats))
    return row





def _label_value(value):
    return json.dumps(value) if isinstance(value, list) else value


def largest_edge_interval(moments, confidence=0.95):
    """``(estimate, low, high)`` of the largest absolute seat edge (shares) from simultaneous seat intervals.

    When every seat's interval holds, the largest edge is at least the
    farthest any interval stays from zero and at most the farthest any
    interval reaches, so the interval has at least ``confidence``. Works on
    batched moments.
    """
    edge, lo, hi = simultaneous_edges(moments, confidence)
    low = np.maximum(np.maximum(lo, -hi), 0).max(axis=-1)
    high = np.maximum(np.abs(lo), np.abs(hi)).max(axis=-1)
    return np.abs(edge).max(axis=-1), low, high


def race(play, configs, games, confidence=0.95, max_stages=MAX_STAGES, confirmed=CONFIRMED):
    """Selection-safe search for the configuration with the smallest largest seat edge.

    ``play(config, games, phase)`` returns the ``SeatMoments`` of that many
    games of ``config`` (None when it cannot be played); ``phase`` is the race
    stage (0, 1, ...; ``games`` doubles every stage) or "confirm", which must
    use deals the race never saw and plays as many games as the last stage.
    Returns ``(stages, confirmation, pick)``: per stage a dict config ->
    (moments, estimate, low, high), the same for the confirmation games, and
    the pick: the survivor with the smallest estimate in the race's last
    stage. The pick is made before the confirmation games are played, so
    their figures for it carry no selection bias.
    """
    alive = list(configs)
    stages = []
    for stage in range(max_stages):
        games *= 2 if stage else 1
        played = {c: m for c in alive if (m := play(c, games, stage)) is not None}
        if not played:
            return stages, {}, None
        level = 1 - (1 - confidence) / len(played)
        stats = {c: (m, *largest_edge_interval(m, level)) for c, m in played.items()}
        stages.append(stats)
        best_high = min(v[3] for v in stats.values())
        alive = [c for c in played if stats[c][2] <= best_high]
        if len(alive) <= 1:
            break
    ranked = sorted(stages[-1], key=lambda c: stages[-1][c][1])
    pick = min(alive, key=lambda c: stages[-1][c][1])
    chosen = [pick] + [c for c in ranked if c != pick][:max(0, confirmed - 1, len(alive) - 1)]
    confirm = {}
    for c in chosen:
        m = play(c, games, "confirm")
        if m is not None:
            confirm[c] = (m, *largest_edge_interval(m, confidence))
    return stages, confirm, pick


def _row(index, values):
    return {"config": index, **{k: json.dumps(v) if isinstance(v, list) else v for k, v in values.items()}}


class _Player:
    """Plays configurations with ``playtest.api.simulate`` into ``out``/runs and keeps their summary rows."""

    def __init__(self, simulate, game, options, configs, out, force, unplayable, margin):
        self.simulate, self.game, self.options, self.out = simulate, game, options, out
        self.configs = dict(configs)
        self.force, self.unplayable, self.margin = force, unplayable, margin
        self.rows = []

    def __call__(self, index, games, phase=""):
        values, setup, params = self.configs[index]
        tag = "" if phase == "" else ("-confirm" if phase == "confirm" else f"-s{phase}")
        run_dir = self.out / "runs" / f"c{index:03d}{tag}"
        seed = int(self.options.get("seed", 0)) + (CONFIRM_SEED_OFFSET if phase == "confirm" else 0)
        row = {**_row(index, values), "phase": "confirm" if phase == "confirm" else ("race" if phase != "" else
                                                                                      "grid")}
        if phase not in ("", "confirm"):
            row["stage"] = phase
        try:
            self.simulate(self.game, **{**self.options, "games": games, "seed": seed}, setup=setup,
                          params=params or None, out=run_dir, force=self.force)
        except self.unplayable as exc:
            self.rows.append({**row, "unplayable": str(exc)})
            return None
        seats = open_run(run_dir).seats
        self.rows.append({**row, **summarise(seats, self.margin), "run": str(run_dir.relative_to(self.out)),
                          "unplayable": None})
        return seat_moments(seats)


def _mark_confirmation(summary, confirm, best):
    """Add ``best`` (the race's pick) and ``cannot_tell_apart`` (its confirmed interval for the largest
    edge reaches below the pick's upper bound) to the confirmation rows."""
    if best not in confirm:
        return summary
    ceiling = confirm[best][3]
    rows = pl.DataFrame({"config": list(confirm), "phase": ["confirm"] * len(confirm),
                         "best": [c == best for c in confirm],
                         "cannot_tell_apart": [bool(confirm[c][2] <= ceiling) for c in confirm]})
    return summary.join(rows, on=["config", "phase"], how="left")


def sweep(simulate, game, grid, out, search=False, force=False, unplayable=(), margin=DEFAULT_MARGIN):
    """Play a grid with ``simulate`` (``playtest.api.simulate``) into ``out``; return the summary frame.

    Without ``search``: one row per configuration (``phase`` "grid"). With
    ``search``: the race (``phase`` "race", column ``stage``) and the
    confirmation games (``phase`` "confirm", columns ``best`` and
    ``cannot_tell_apart``). Verdicts at ``margin`` points. ``out`` receives
    sweep.json, summary.csv and runs/.
    """
    options, axes = read_grid(grid)
    options.setdefault("games", DEFAULT_GAMES)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    configs = list(enumerate(configurations(axes)))
    player = _Player(simulate, game, options, configs, out, force, unplayable, margin)
    games = int(options["games"])
    confirm, pick = {}, None
    if not search:
        for index, _ in configs:
            player(index, games)
    else:
        _, confirm, pick = race(player, [index for index, _ in configs], games)
    summary = _mark_confirmation(pl.DataFrame(player.rows, infer_schema_length=None), confirm, pick)
    units.to_file(summary).write_csv(out / SUMMARY)
    (out / MANIFEST).write_text(json.dumps({
        "game": game, "mode": "search" if search else "grid", "options": options, "margin": margin,
        "confirm_seed": int(options.get("seed", 0)) + CONFIRM_SEED_OFFSET if search else None,
        "axes": [{"label": label, "values": values} for label, values in axes],
    }, indent=2) + "\n")
    return summary


def is_sweep(path):
    return (Path(path) / MANIFEST).is_file()


def load(path):
    """``(manifest, summary)`` of a sweep directory."""
    path = Path(path)
    return json.loads((path / MANIFEST).read_text()), units.from_file(pl.read_csv(path / SUMMARY))


def best(summary):
    """The best configuration's row (a dict): after a search the race's pick, with its confirmation
    figures; in a plain grid the smallest largest seat edge (picked and measured on the same games)."""
    summary = summary.filter(pl.col("unplayable").is_null())
    if "best" in summary.columns and summary["best"].any():
        return summary.filter(pl.col("best")).row(0, named=True)
    if summary.height == 0 or "max_edge" not in summary.columns:
        raise GridError("grid: no configuration of the grid could be played")
    return summary.sort("max_edge").row(0, named=True)


def _edge_text(row):
    return (f"largest seat edge {100 * row['max_edge']:.2f} points ({100 * row['max_edge_lo']:.2f} to "
            f"{100 * row['max_edge_hi']:.2f}, simultaneous 95%) over {row['games']:,} games")


def table_cells(summary, axes):
    """The sweep's table as the terminal prints it, ``(header, rows)`` of text, one played configuration (or
    race stage) a row, every share in points of win share with two decimals: the largest seat edge with its
    simultaneous 95% bounds and the seat that has it, the first seat's edge, then game length, score spread
    and tie rate. A dotted axis name takes two lines, split after its last dot."""
    played = summary.filter(pl.col("unplayable").is_null() & pl.col("max_edge").is_not_null())
    keys = [c for c in ("config", "phase", "stage") if c in played.columns] + list(axes) + ["games", "verdict"]
    header = [k.rpartition(".")[0] + ".\n" + k.rpartition(".")[2] if "." in k else k for k in keys] + [
        "largest edge, points", "first seat edge", "mean rounds", "mean spread", "tie rate"]
    rows = [[*(f"{r[k]:,}" if k == "games" else str(r[k]) for k in keys),
             f"{100 * r['max_edge']:.2f} ({100 * r['max_edge_lo']:.2f} to {100 * r['max_edge_hi']:.2f}) "
             f"seat {r['worst_seat']}",
             f"{100 * r['first_seat_edge']:+.2f}", f"{r['mean_rounds']:.2f}", f"{r['mean_spread']:.2f}",
             f"{100 * r['tie_rate']:.2f}%"] for r in played.iter_rows(named=True)]
    return header, rows


def best_lines(summary, axes, margin=DEFAULT_MARGIN):
    """What a sweep concludes, in words: the best configuration with its interval and verdict; after a
    search, from the confirmation games, with the runners-up and which cannot be told apart from it."""
    row = best(summary)
    name = ", ".join(f"{a} = {row[a]}" for a in axes)
    confirmed = sweep_is_search(summary)
    judged = standing(summary) if confirmed else summary.filter(pl.col("unplayable").is_null()
                                                                & pl.col("max_edge").is_not_null())
    lead = pick_lead(judged["verdict"].to_list(), f"±{points(margin)} points")
    lines = [f"{lead}: {name} ({_edge_text(row)}; {row['verdict']} at ±{points(margin)} points)"]
    if not confirmed:
        lines.append("  picked and measured on the same games, so its edge is likely larger on fresh games; "
                     "--search confirms the pick on fresh deals")
        return lines
    lines[0] += " — figures from confirmation games on a fresh seed"
    for r in standing(summary).filter(~pl.col("best")).iter_rows(named=True):
        tell = "cannot be told apart from the best" if r["cannot_tell_apart"] else "worse than the best"
        lines.append(f"  runner-up: {', '.join(f'{a} = {r[a]}' for a in axes)} ({_edge_text(r)}): {tell}")
    return lines


def pick_lead(verdicts, margin, model=""):
    """How a sweep names its pick, the same on the terminal and in the report, from the ``verdicts`` of the
    configurations it judged (a search: its confirmation games) at ``margin`` (a phrase: "±1.0 points");
    ``model`` names the players (``analyses.verdict.player_model``) or is empty.

    "Fairest configuration" only when some configuration is balanced within the margin; when every one is
    unbalanced it says so and names the least unfair; otherwise (some inconclusive) it says that none is
    shown balanced and names the one with the smallest largest edge.
    """
    with_model = f" {model}" if model else ""
    count = len(verdicts)
    unbalanced = verdicts.count("unbalanced")
    if "balanced" in verdicts:
        return (f"Fairest configuration{with_model}"
                + (f" ({unbalanced} of {count} are unbalanced at {margin})" if unbalanced else ""))
    if unbalanced == count:
        many = "Both configurations are" if count == 2 else \
            "The one configuration is" if count == 1 else f"All {count} configurations are"
        return f"{many} unbalanced at {margin}{with_model}; the least unfair"
    counts = f"{count - unbalanced} of {count} inconclusive" + (f", {unbalanced} unbalanced" if unbalanced else "")
    return f"No configuration is shown balanced at {margin}{with_model} ({counts}); the smallest largest edge"


def sweep_is_search(summary):
    return "best" in summary.columns and bool(summary["best"].any())


def standing(summary):
    """The confirmation rows of a search, the pick first, then by largest edge (empty for a plain grid)."""
    if "best" not in summary.columns:
        return summary.clear()
    return (summary.filter((pl.col("phase") == "confirm") & pl.col("unplayable").is_null())
            .sort(pl.col("best").not_(), "max_edge"))
