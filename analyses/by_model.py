"""The publisher's answer by player model: the first player's edge with every seat played by one model.

For each player model in a list (``random``, the game's strongest heuristic,
``learned`` where the game has it, ``mcts@N``), one run puts that model in
every seat, seats not rotated, all on the same seed (so game ``i`` of every
run is the same deal), and plays until every seat's 95% interval is within
``±precision`` points (``playtest simulate --until-ci``; so is the first
seat's) or the game cap is reached. Per model it reports:

* the **first seat's edge** (its win share minus the fair share, points) with
  a 95% t interval over games: the first seat is named before the data, so
  its interval needs no correction for the other seats;
* the **seat verdict** of ``analyses.verdict`` at the margin (every seat at
  once, simultaneous intervals), the games played and the wall time.

Between adjacent models in the list (taken as weakest first) the edges are
compared **paired** over the games both runs played: the difference of the
first seat's win in game ``i`` under the two models, with a t interval,
Bonferroni-corrected over the steps so that all the step claims together are
wrong at most 5% of the time. ``change`` names a step in the words of the
skill ladder: "grows" / "shrinks" (the edge moves away from / towards zero on
a side where both edges' intervals lie), "reverses" (the edges' intervals lie
on opposite sides of zero), "rises" / "falls" (the difference excludes zero
but neither of those can be said) and ``AGREE`` (the difference's interval
holds zero).

``play`` writes one run directory per model and ``by_model.json``; ``table``
and ``steps`` read them back; ``sentence`` is the answer in words.
"""

import json
import time
from pathlib import Path

import numpy as np
import polars as pl
from scipy import stats

from analyses.frames import as_lazy
from analyses.runs import open_run
from analyses.verdict import seat_verdict

MANIFEST = "by_model.json"
AGREE = "agree"
LEARNED = "learned"


def default_models(strategies, mcts=None):
    """The default lineup of models for a ``StrategySet``: ``random``, its strongest heuristic, ``learned``
    when the set has it, and ``mcts@<mcts>`` when a budget is given."""
    models = ["random", strategies.strongest]
    if LEARNED in strategies.names():
        models.append(LEARNED)
    if mcts is not None:
        models.append(f"mcts@{mcts}")
    return list(dict.fromkeys(models))


def run_name(index, model):
    """The run directory of the ``index``-th model: ``"01-random"``; ``@`` and ``:`` become ``-``."""
    return f"{index + 1:02d}-" + "".join(c if c.isalnum() or c in "_-" else "-" for c in model)


def settings(game, players, models, seed, precision, max_games, chunk_size, params=None):
    """What a study is: the fields a resumed study must match (``params``: a model's parameter vector in place
    of its default, by name)."""
    return {"game": game, "players": players, "models": list(models), "seed": seed, "precision": precision,
            "max_games": max_games, "chunk_size": chunk_size, "params": dict(params or {})}


def play(simulate, out, study, *, resume=False, on_run=None, on_progress=None, **options):
    """Play a study (``settings``) with ``simulate`` (``playtest.api.simulate``) into ``out``; return ``out``.

    Each model plays one run directory until every seat's 95% interval is
    within ``±precision`` points or ``max_games`` games. ``by_model.json`` is
    rewritten after every run with the runs finished so far and the seconds
    each took (the call, compiling included); with ``resume`` finished runs
    are kept and an interrupted one is continued (its seconds then count the
    resumed part only). ``on_run(index, model)`` is called before each run,
    ``on_progress(index, model, games_done)`` after each chunk.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    done = {e["model"]: e for e in read_manifest(out)["runs"]} if resume else {}
    runs = []
    if not resume:
        write_manifest(out, study, runs)  # first, so that an interrupted study can be resumed
    for index, model in enumerate(study["models"]):
        name = run_name(index, model)
        if model in done:
            runs.append(done[model])
            continue
        if on_run:
            on_run(index, model)
        resumed = resume and (out / name).exists()
        started = time.perf_counter()
        simulate(study["game"], players=study["players"], games=study["max_games"], seed=study["seed"],
                 strategies=[model], params={k: v for k, v in study["params"].items() if k == model} or None,
                 out=out / name, chunk_size=study["chunk_size"],
                 until_ci=study["precision"] / 100, resume=resumed,
                 on_progress=(lambda games, _, i=index, m=model: on_progress(i, m, games)) if on_progress else None,
                 **options)
        runs.append({"model": model, "run": name, "seconds": round(time.perf_counter() - started, 3),
                     "resumed": resumed})
        write_manifest(out, study, runs)
    write_manifest(out, study, runs)  # with the finished runs kept after the last one played
    return out


def write_manifest(out, study, runs):
    (Path(out) / MANIFEST).write_text(json.dumps({**study, "runs": runs}, indent=2) + "\n")


def read_manifest(path):
    return json.loads((Path(path) / MANIFEST).read_text())


def is_by_model(path):
    return (Path(path) / MANIFEST).is_file()


def first_seat_wins(seats):
    """``(game, win)`` of seat 0 in every finished game of a run's rows, in game order (numpy arrays)."""
    seats = as_lazy(seats)
    first = seats.filter(pl.col("seat") == 0)
    if "finished" in seats.collect_schema().names():
        first = first.filter(pl.col("finished").cast(pl.Boolean))
    frame = first.select("game", "win").sort("game").collect()
    return frame["game"].to_numpy(), frame["win"].to_numpy().astype(float)


def _t_interval(values, centre, confidence):
    """``(mean - centre, lo, hi)`` in points: the one-sample t interval of the mean over the last axis."""
    ci = stats.ttest_1samp(values, centre, axis=-1).confidence_interval(confidence)
    return 100 * (values.mean(axis=-1) - centre), 100 * (ci.low - centre), 100 * (ci.high - centre)


def edge_interval(wins, players, confidence=0.95):
    """``(edge, lo, hi)`` in points of the first seat from its wins in ``(..., games)`` (numpy; 1/k for a
    k-way shared win): mean minus the fair share with a t interval over games (no correction for the other
    seats: the first seat is the one asked about)."""
    return _t_interval(np.asarray(wins, dtype=float), 1 / players, confidence)


def paired_difference(before, after, steps=1, confidence=0.95):
    """``(difference, lo, hi)`` in points of ``after - before``, the first seat's wins in the same games
    (``(..., games)`` numpy arrays), with a t interval Bonferroni-corrected over ``steps`` comparisons."""
    d = np.asarray(after, dtype=float) - np.asarray(before, dtype=float)
    return _t_interval(d, 0.0, 1 - (1 - confidence) / steps)


def change(lo0, hi0, lo1, hi1, dlo, dhi):
    """How the first-seat edge changes from a model with edge interval ``[lo0, hi0]`` to one with ``[lo1,
    hi1]`` when their paired difference has interval ``[dlo, dhi]`` (numpy, element-wise): "reverses",
    "grows", "shrinks", "rises", "falls" or ``AGREE`` (see the module docstring)."""
    lo0, hi0, lo1, hi1, dlo, dhi = np.broadcast_arrays(*(np.asarray(v, dtype=float)
                                                         for v in (lo0, hi0, lo1, hi1, dlo, dhi)))
    up, down = dlo > 0, dhi < 0
    return np.select([~up & ~down, ((lo0 > 0) & (hi1 < 0)) | ((hi0 < 0) & (lo1 > 0)),
                      (up & (lo0 > 0)) | (down & (hi0 < 0)), (up & (hi1 < 0)) | (down & (lo1 > 0)), up],
                     [AGREE, "reverses", "grows", "shrinks", "rises"], "falls")


def table(path, margin=1.0):
    """``(manifest, frame)``: one row per model in the order played, with the first seat's edge, low, high
    (points, 95%), the seat verdict at ``margin`` points (kind and sentence), the games played, whether the
    precision was reached (else the cap stopped the run), the seconds of the call and of play alone."""
    path = Path(path)
    manifest = read_manifest(path)
    players = manifest["players"]
    rows = []
    for entry in manifest["runs"]:
        run = open_run(path / entry["run"])
        verdict = seat_verdict(run.seats, margin, manifest=run.manifest)
        edge, lo, hi = edge_interval(first_seat_wins(run.seats)[1], players)
        rows.append({"model": entry["model"], "first_seat_edge": float(edge), "low": float(lo), "high": float(hi),
                     "verdict": verdict.kind, "verdict_sentence": verdict.sentence(),
                     "games": int(run.manifest["games_done"]),
                     "precise": bool(run.manifest.get("stopped_early", False)),
                     "seconds": entry["seconds"], "play_seconds": run.manifest.get("wall_seconds"),
                     "resumed": entry.get("resumed", False)})
    return manifest, pl.DataFrame(rows)


def steps(path, edges=None, confidence=0.95):
    """One row per pair of adjacent models (before, after): the paired difference of the first seat's
    edge over the games both played (points, interval Bonferroni-corrected over the steps), the games
    compared, and ``change``'s word. ``edges`` is ``table``'s frame (read when None)."""
    path = Path(path)
    manifest = read_manifest(path)
    if edges is None:
        edges = table(path)[1]
    wins = [first_seat_wins(open_run(path / e["run"]).seats) for e in manifest["runs"]]
    count = len(wins) - 1
    rows = []
    for k in range(count):
        (g0, w0), (g1, w1) = wins[k], wins[k + 1]
        common, i0, i1 = np.intersect1d(g0, g1, assume_unique=True, return_indices=True)
        d, dlo, dhi = paired_difference(w0[i0], w1[i1], count, confidence)
        a, b = edges.row(k, named=True), edges.row(k + 1, named=True)
        rows.append({"before": a["model"], "after": b["model"], "difference": float(d), "low": float(dlo),
                     "high": float(dhi), "games": len(common),
                     "change": str(change(a["low"], a["high"], b["low"], b["high"], dlo, dhi))})
    return pl.DataFrame(rows, schema={"before": pl.String, "after": pl.String, "difference": pl.Float64,
                                      "low": pl.Float64, "high": pl.Float64, "games": pl.Int64,
                                      "change": pl.String})


def _edge(row):
    return f"{row['first_seat_edge']:+.2f} ({row['low']:+.2f} to {row['high']:+.2f})"


def _difference(row):
    return f"{row['difference']:+.2f} points ({row['low']:+.2f} to {row['high']:+.2f})"


def sentence(edges, changes):
    """The answer in one paragraph: the first-seat edge with every model, and whether it changes from model
    to model, claimed only where a step's paired interval excludes zero. ``edges`` and ``changes`` are the
    frames of ``table`` and ``steps``; the models are read as listed, weakest first."""
    each = "; ".join(f"{_edge(r)} with {r['model']}" for r in edges.iter_rows(named=True))
    if changes.height == 0:
        row = edges.row(0, named=True)
        return (f"One model only ({row['model']}), so no comparison: with {row['model']} in every seat the "
                f"first-seat edge is {_edge(row)} points (95% interval).")
    interval = ("95% interval" if changes.height == 1
                else f"simultaneous 95% intervals over the {changes.height} steps")
    order = " → ".join(edges["model"].to_list())
    kinds = set(changes["change"].to_list())
    if kinds == {AGREE}:
        return (f"The models agree within the intervals: the first-seat edge is {each} (points, 95% intervals); "
                f"at no step from one model to the next ({order}) does the paired difference exclude zero "
                f"({interval}).")
    if len(kinds) == 1:
        (kind,) = kinds
        where = "" if changes.height == 1 else " at every step"
        return (f"The first player's edge {kind} with skill{where} ({order}, the models as listed, weakest "
                f"first): {each} (points, 95% intervals); paired differences "
                + ", ".join(f"{_difference(r)} from {r['before']} to {r['after']}"
                            for r in changes.iter_rows(named=True)) + f" ({interval}).")
    lead = ("The first-seat edge changes at some steps only" if AGREE in kinds
            else "The first-seat edge changes at every step, not always the same way")
    parts = [f"from {r['before']} to {r['after']} " + (f"the models agree within the intervals ({_difference(r)})"
                                                       if r["change"] == AGREE else
                                                       f"it {r['change']} ({_difference(r)})")
             for r in changes.iter_rows(named=True)]
    return (f"{lead}: {'; '.join(parts)} (paired, {interval}); "
            f"the edges are {each} (points, 95% intervals).")


def is_search(model):
    """Whether a model name is the search player (``mcts`` or ``mcts@N``)."""
    return model == "mcts" or model.startswith("mcts@")


def skilled_disagreement(changes):
    """``[sentence]`` where the two skilled models, ``learned`` and a search (``mcts@N``), are adjacent in the
    study and their first-seat edges differ (the step's paired interval excludes zero), else ``[]``: a list
    to join the other paragraphs, like ``verdict_sentences``.

    The study does not measure which of the two is the stronger (head to head it differs by game,
    ``docs/skill.md``), so such a step says that the edge depends on how skilled players play, not that it
    grows or shrinks with skill, and neither edge alone is the skilled answer.
    """
    for r in changes.iter_rows(named=True):
        pair = {r["before"], r["after"]}
        if r["change"] != AGREE and LEARNED in pair and any(is_search(m) for m in pair):
            return [f"The two skilled models disagree: from {r['before']} to {r['after']} the first seat's edge "
                    f"moves by {_difference(r)}. This study does not measure which is the stronger (`playtest "
                    f"ladder` does), so the edge depends on how skilled players play, not only on skill: read it as "
                    f"{r['before']}'s and {r['after']}'s answers, not one skilled answer."]
    return []


def verdict_sentences(edges):
    """One sentence per model: its seat verdict (``table``'s), which names the model ("with `random` in every
    seat"), or, where it does not (an unfinished run), the same sentence led by the model's name."""
    return [r["verdict_sentence"] if f"`{r['model']}`" in r["verdict_sentence"]
            else f"With `{r['model']}` in every seat: {r['verdict_sentence']}" for r in edges.iter_rows(named=True)]
