"""The publisher's answer by player model: the first player's edge with the strongest player measured.

A study plays a *ladder* of player models, listed weakest first (``random``,
the game's strongest heuristic, ``learned``, ``expert`` where the game has
them), in three stages, every run on one seed (game ``i`` of every run is the
same deal):

1. **Every model in every seat**, seats not rotated, until every seat's 95%
   interval is within ``±precision`` points (``playtest simulate
   --until-ci``) or ``max_games``: the **first seat's edge** (win share minus
   the fair share, points) and the **seat verdict** of ``analyses.verdict``
   at the margin (every seat at once, simultaneous exact intervals). The
   first seat's edge is printed with *its interval in that verdict*, so a
   table and the verdict under it never show two intervals for one figure.
2. **Strength**: each model against its neighbour below in a match, seats
   rotated, ``deals`` deals (``analyses.strength``): points of win share per
   seat gained rung by rung, with 95% intervals over deals.
3. **A study sized for the answer**: the strongest model measured keeps
   playing until its verdict is conclusive at the margin (balanced or
   unbalanced) or ``max_games``; each extension is planned from the verdict's
   own ``games_needed``. Where that plan lies beyond ``FUTILE`` times
   ``max_games`` (or no number of games would settle it, the largest edge
   sitting at the margin), it stops at once: simulated with known truth, a
   run stopped so would have settled by playing on to the cap at most about
   1 time in 4, and never where the game is balanced (the cap then lies far
   below the games a "balanced" needs). The answer then says how many games
   would settle it. The weaker rungs keep the games of stage 1.

The **answer** (``answer``) is the strongest model's first-seat edge and
verdict, in one sentence that names that model and how far it is ahead of
the next strongest. Each case is judged by the paired difference of the two
strongest models' first-seat edges over the games both played (a 95% t
interval): where it lies within the margin, the two agree and the answer is
settled; where the two are level in strength (their difference's interval
holds 0) and their edges differ (the paired interval excludes 0), skilled
play does not settle the question; where the strongest is ahead and the
edges differ, the edge has not levelled off with skill; otherwise (the
paired interval holds 0 but reaches beyond the margin) whether it has
levelled off is not shown.

``play`` writes one run directory per model and per match and
``by_model.json``; ``table``, ``ladder`` and ``answer`` read them back.
"""

import json
import math
import time
from pathlib import Path

import numpy as np
import polars as pl

from analyses import planning, strength
from analyses.frames import as_lazy
from analyses.ladder import paired_change
from analyses.moments import seat_moments
from analyses.runs import open_run
from analyses.verdict import points, seat_verdict

MANIFEST = "by_model.json"
LEARNED = "learned"
EXPERT = "expert"
CONCLUSIVE = ("balanced", "unbalanced")
GROWTH = 1.25  # an extension plans this many times the games the verdict says would settle it ...
MOST = 4  # ... and at most this many times the games played, so that an early settling is seen early
FUTILE = 4  # no extension when the verdict plans more than this many times the cap (see the module docstring)


def default_models(strategies, mcts=None):
    """The default ladder for a ``StrategySet``, weakest first: ``random``, its strongest heuristic, ``learned``
    and ``expert`` when the set has them, and ``mcts@<mcts>`` when a budget is given."""
    models = ["random", strategies.strongest]
    playable = {s.name for _, s in strategies.listed()}   # listed: expert too, a search seat of its own name
    models += [m for m in (LEARNED, EXPERT) if m in playable]
    if mcts is not None:
        models.append(f"mcts@{mcts}")
    return list(dict.fromkeys(models))


def run_name(index, model):
    """The run directory of the ``index``-th model: ``"01-random"``; ``@`` and ``:`` become ``-``."""
    return f"{index + 1:02d}-" + "".join(c if c.isalnum() or c in "_-" else "-" for c in model)


def match_name(index):
    """The run directory of the match of model ``index`` against model ``index + 1``: ``"vs-01-02"``."""
    return f"vs-{index + 1:02d}-{index + 2:02d}"


def settings(game, players, models, seed, precision, max_games, chunk_size, params=None, deals=500, margin=1.0,
             variant="standard", setup=None):
    """What a study is: the fields a resumed study must match (``params``: a model's parameter vector in place
    of its default, by name; ``deals``: deals per match; ``margin``: the one the strongest model's verdict is
    settled at; ``variant`` and ``setup``, the table every run plays: a dict merged over the game's, or None)."""
    return {"game": game, "players": players, "models": list(models), "seed": seed, "precision": precision,
            "max_games": max_games, "chunk_size": chunk_size, "params": dict(params or {}), "deals": deals,
            "margin": margin, "variant": variant, "setup": setup}


def table_of(study):
    """``(variant, setup)`` of a study's settings; a study written before they were recorded played the
    standard rules on the game's own table."""
    return study.get("variant", "standard"), study.get("setup")


def play(simulate, out, study, *, resume=False, on_stage=None, on_progress=None, **options):
    """Play a study (``settings``) with ``simulate`` (``playtest.api.simulate``) into ``out``; return ``out``.

    Stage 1 plays each model in every seat (one run directory each), stage 2
    each neighbour match (``match_name``), stage 3 extends the strongest
    model's run until its verdict settles (see the module docstring).
    ``by_model.json`` is rewritten after every run with what is finished and
    the seconds each took (the calls, compiling included); with ``resume``
    finished runs are kept and an interrupted one is continued (its seconds
    then count the resumed part only); under a larger ``max_games`` than the
    study there, each model's run plays on under the new cap (to its
    precision, and the strongest's until its verdict settles) and its
    seconds add up. ``on_stage(stage, index, total,
    what)`` is called before each run (stage "model", "match" or "settle";
    ``what`` the model, the pair, or the model and the games planned),
    ``on_progress(what, done, planned, unit)`` once the kernels are compiled (or loaded) and after each chunk
    (unit "games", or "deals" in a match).
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    old = read_manifest(out) if resume else {}
    state = {"runs": [], "matches": [], "sized": None}
    if not resume:
        write_manifest(out, study, state)  # first, so that an interrupted study can be resumed
    done = {e["model"]: e for e in old.get("runs", [])}
    grown = old.get("max_games", study["max_games"]) < study["max_games"]  # resumed under a larger cap
    models, params = study["models"], study["params"]
    variant, setup = table_of(study)

    def call(name, strategies, games, label, resumed, planned=None, unit="games", **extra):
        """Play one run; ``(seconds of the call, seconds of play, resumed)``."""
        started = time.perf_counter()
        simulate(study["game"], players=study["players"], games=games, seed=study["seed"], strategies=strategies,
                 variant=variant, setup=setup,
                 params={m: params[m] for m in set(strategies) if m in params} or None, out=out / name,
                 chunk_size=study["chunk_size"], resume=resumed,
                 on_progress=(lambda g, total: on_progress(label, g, planned or total, unit)) if on_progress else None,
                 on_start=(lambda g, total: on_progress(label, g, planned or total, unit)) if on_progress else None,
                 **extra, **options)
        return (round(time.perf_counter() - started, 3), open_run(out / name).manifest.get("wall_seconds", 0.0),
                resumed)

    for index, model in enumerate(models):
        if model in done and not grown:
            state["runs"].append(done[model])
            continue
        if on_stage:
            on_stage("model", index, len(models), model)
        name = run_name(index, model)
        seconds, play_seconds, resumed = call(name, [model], study["max_games"], model,
                                              resume and (out / name).exists(), until_ci=study["precision"] / 100)
        before = done.get(model, {})  # a finished run played on under a larger cap: its times add up
        state["runs"].append({"model": model, "run": name, "seconds": round(before.get("seconds", 0) + seconds, 3),
                              "play_seconds": round(before.get("play_seconds", 0) + play_seconds, 3),
                              "resumed": resumed})
        write_manifest(out, study, state)
    played = {e["run"]: e for e in old.get("matches", [])}
    for index in range(len(models) - 1):
        lower, upper = models[index], models[index + 1]
        name = match_name(index)
        entry = played.get(name)
        if entry is None or entry["pair"] != [lower, upper]:
            if on_stage:
                on_stage("match", index, len(models) - 1, (lower, upper))
            seconds, play_seconds, resumed = call(name, strength.match_lineup(lower, upper, study["players"]),
                                                  study["deals"], f"{upper} vs {lower}",
                                                  resume and (out / name).exists(), unit="deals", rotate_seats=True)
            entry = {"pair": [lower, upper], "run": name, "seconds": seconds, "play_seconds": play_seconds,
                     "resumed": resumed}
        state["matches"].append(entry)
        write_manifest(out, study, state)
    top = ladder(out, study, state["matches"]).ranked()[0]
    entry = next(e for e in state["runs"] if e["model"] == top)
    for planned in extensions(out / entry["run"], study):
        if on_stage:
            on_stage("settle", models.index(top), len(models), (top, planned))
        games = open_run(out / entry["run"]).manifest["games_done"]
        seconds, play_seconds, _ = call(entry["run"], [top], study["max_games"], top, True, planned,
                                        until_ci=_target_half_width(out / entry["run"], games, planned))
        entry["seconds"] = round(entry["seconds"] + seconds, 3)
        entry["play_seconds"] = round(entry.get("play_seconds", 0.0) + play_seconds, 3)
        write_manifest(out, study, state)
    state["sized"] = top
    write_manifest(out, study, state)
    return out


def extensions(run_dir, study):
    """The games planned for each extension of a run (``next_games``), read again from the run after each
    extension is played (a generator)."""
    while True:
        run = open_run(run_dir)
        planned = next_games(seat_verdict(run.seats, study["margin"], manifest=run.manifest),
                             run.manifest["games_done"], study)
        if planned is None:
            return
        yield planned


def next_games(verdict, games, study):
    """The games in all the next extension plans for a run of ``games`` games whose verdict at the study's margin
    is ``verdict``: ``GROWTH`` times the verdict's ``games_needed`` but at most ``MOST`` times the games played,
    at least one chunk more, at most the cap. None once the verdict is conclusive, the run reached
    ``max_games`` or the cap cannot settle it (``beyond_cap``)."""
    cap = study["max_games"]
    if verdict.kind in CONCLUSIVE or games >= cap or beyond_cap(verdict, cap):
        return None
    needed = verdict.games_needed or cap
    return min(cap, max(min(math.ceil(GROWTH * needed), MOST * games), games + study["chunk_size"]))


def beyond_cap(verdict, cap):
    """True when an inconclusive ``verdict`` plans more than ``FUTILE`` times ``cap`` games to settle, or none at
    all although it had enough units to plan from (its largest edge sits at the margin)."""
    if verdict.kind != "inconclusive":
        return False
    if verdict.games_needed is None:
        return verdict.deals >= planning.MIN_UNITS
    return verdict.games_needed > FUTILE * cap


def _target_half_width(run_dir, games, planned):
    """The ``until_ci`` (a share) at which a run of ``games`` games reaches about ``planned`` games: its widest
    seat half-width now, shrunk as ``1/sqrt(games)``."""
    width = planning.max_half_width(seat_moments(open_run(run_dir).seats))
    return width * math.sqrt(games / planned) if math.isfinite(width) else 1e-9


def write_manifest(out, study, state):
    (Path(out) / MANIFEST).write_text(json.dumps({**study, **state}, indent=2) + "\n")


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


def paired_difference(before, after, confidence=0.95):
    """``(difference, lo, hi)`` in points of ``after - before``, the first seat's wins in the same games
    (``(..., games)`` numpy arrays), with a t interval over games."""
    mean, lo, hi = paired_change(np.asarray(after, dtype=float) - np.asarray(before, dtype=float), confidence)
    return 100 * mean, 100 * lo, 100 * hi


def ladder(path, manifest=None, matches=None):
    """The study's ``strength.Ladder`` from its matches (``manifest["matches"]`` unless given)."""
    path = Path(path)
    manifest = read_manifest(path) if manifest is None else manifest
    matches = manifest.get("matches", []) if matches is None else matches
    return strength.ladder_of_matches(manifest["models"], [open_run(path / m["run"]).seats for m in matches],
                                      manifest["players"])


def table(path, margin=None):
    """``(manifest, frame)``: one row per model in the order played, with its strength (points per seat, 95%),
    the first seat's edge with its interval in the seat verdict (``low``, ``high``, points), the seat verdict
    at ``margin`` points (the study's by default: kind, sentence, and its largest seat, edge, low, high),
    the games played, the games its verdict says would settle it (None unless inconclusive), whether the
    run played the cap, the seconds of the calls and of play alone."""
    path = Path(path)
    manifest = read_manifest(path)
    margin = manifest.get("margin", 1.0) if margin is None else margin
    strengths = ladder(path, manifest).table() if manifest.get("matches") else None
    rows = []
    for entry in manifest["runs"]:
        run = open_run(path / entry["run"])
        verdict = seat_verdict(run.seats, margin, manifest=run.manifest)
        first = next((e for e in verdict.edges if e.seat == 0), None)
        big = verdict.largest
        rows.append({"model": entry["model"],
                     "first_seat_edge": first.edge if first else math.nan, "low": first.lo if first else math.nan,
                     "high": first.hi if first else math.nan,
                     "verdict": verdict.kind, "verdict_sentence": verdict.sentence(),
                     "games_needed": verdict.games_needed,
                     "largest_seat": big.seat if big else None, "largest_edge": big.edge if big else math.nan,
                     "largest_low": big.lo if big else math.nan, "largest_high": big.hi if big else math.nan,
                     "games": int(run.manifest["games_done"]),
                     "capped": int(run.manifest["games_done"]) >= manifest["max_games"],
                     "seconds": entry["seconds"], "play_seconds": entry.get("play_seconds", run.manifest.get("wall_seconds")),
                     "resumed": entry.get("resumed", False)})
    frame = pl.DataFrame(rows)
    if strengths is not None:
        frame = frame.join(strengths, on="model", how="left", maintain_order="left")
    else:
        frame = frame.with_columns(strength=pl.lit(0.0), strength_low=pl.lit(0.0), strength_high=pl.lit(0.0))
    return manifest, frame


def _edge(value, lo, hi):
    return f"{value:+.2f} ({lo:+.2f} to {hi:+.2f})"


def _row_edge(row):
    return _edge(row["first_seat_edge"], row["low"], row["high"])


def verdict_words(row, margin):
    """A row's verdict in a few words: "unbalanced at ±1.0", "balanced within ±1.0", "inconclusive at ±1.0",
    naming the seat that makes it unbalanced when that is not the first."""
    kind, m = row["verdict"], points(margin)
    if kind == "balanced":
        return f"balanced within ±{m}"
    words = f"{kind} at ±{m}"
    if kind == "unbalanced" and row["largest_seat"] != 0:
        words += (f" (seat {row['largest_seat']}'s edge is "
                  f"{_edge(row['largest_edge'], row['largest_low'], row['largest_high'])})")
    return words


def answer(path, edges=None, margin=None):
    """The study's answer: a dict with ``model`` (the strongest measured), ``verdict``, ``sentence``,
    ``first_seat_edge`` ``{edge, lo, hi}`` (points, its interval in the verdict), ``case`` ("settled",
    "not shown levelled off", "not settled by skill", "not levelled off" or "one model") and, with two
    models or more, ``runner_up``, ``ahead`` (strength difference) and ``edge_difference`` (paired,
    runner-up to strongest), each ``{value, lo, hi}`` in points. ``edges`` is ``table``'s frame (read when None).
    ``cannot_tell`` lists, one sentence each, the models played with a model file trained for another table,
    variant or player count (the runs' ``model_caveats``)."""
    path = Path(path)
    manifest = read_manifest(path)
    margin = manifest.get("margin", 1.0) if margin is None else margin
    if edges is None:
        edges = table(path, margin)[1]
    rows = {r["model"]: r for r in edges.iter_rows(named=True)}
    steps = ladder(path, manifest)
    ranked = [m for m in steps.ranked() if m in rows]
    top = rows[ranked[0]]
    caveats = [c for e in manifest["runs"] for c in open_run(path / e["run"]).manifest.get("model_caveats", [])]
    result = {"model": top["model"], "verdict": top["verdict"],
              "first_seat_edge": {"edge": top["first_seat_edge"], "lo": top["low"], "hi": top["high"]},
              "cannot_tell": list(dict.fromkeys(caveats))}
    verdict = verdict_words(top, margin)
    if len(ranked) == 1:
        return {**result, "case": "one model",
                "sentence": f"With the only player model measured, `{top['model']}` in every seat, the first "
                            f"player's edge is {_row_edge(top)} points: {verdict}."}
    second = rows[ranked[1]]
    d, dlo, dhi = (float(v) for v in steps.difference(top["model"], second["model"]))
    runs = {e["model"]: e["run"] for e in manifest["runs"]}
    (g0, w0), (g1, w1) = (first_seat_wins(open_run(path / runs[m]).seats) for m in (second["model"], top["model"]))
    _, i0, i1 = np.intersect1d(g0, g1, assume_unique=True, return_indices=True)
    e, elo, ehi = (float(v) for v in paired_difference(w0[i0], w1[i1]))
    case, sentence = answer_sentence(top, second, (d, dlo, dhi), (e, elo, ehi), len(i0), margin)
    return {**result, "case": case, "sentence": sentence, "runner_up": second["model"],
            "ahead": {"value": d, "lo": dlo, "hi": dhi}, "edge_difference": {"value": e, "lo": elo, "hi": ehi}}


def answer_sentence(top, second, ahead, moved, games, margin):
    """``(case, sentence)`` of the answer from the strongest model's row ``top`` and the next strongest's
    ``second`` (``table``'s rows), ``ahead`` = ``(d, lo, hi)`` the strength of ``top`` minus ``second``'s and
    ``moved`` = ``(e, lo, hi)`` the paired difference of their first-seat edges (``top``'s minus ``second``'s)
    over ``games`` games, all in points.

    "not settled by skill" when the two are level (``ahead``'s interval holds 0) and their edges differ
    (``moved``'s interval excludes 0), "not levelled off" when ``top`` is ahead and the edges differ,
    "settled" when ``moved``'s interval lies within ``±margin`` (the two agree within the margin the verdict
    uses), else "not shown levelled off" (the interval holds 0 but reaches beyond the margin)."""
    (d, dlo, dhi), (e, elo, ehi) = ahead, moved
    level, differ = dlo <= 0, elo > 0 or ehi < 0
    m = points(margin)
    x, y = f"`{top['model']}`", f"`{second['model']}`"
    verdict = verdict_words(top, margin)
    strength = f"{d:+.2f} points per seat, {dlo:+.2f} to {dhi:+.2f}"
    apart = f"{e:+.2f} points ({elo:+.2f} to {ehi:+.2f}, paired over {games:,} games)"
    if level and differ:
        return "not settled by skill", (
            f"Skilled play does not settle it: the two strongest players measured, {x} and {y}, are level in "
            f"strength ({x} {strength} against {y}), yet the first player's edge is {_row_edge(top)} points with "
            f"{x} ({verdict}) and {_row_edge(second)} with {y} ({verdict_words(second, margin)}), {apart} apart.")
    where = f"ahead of {y} by {d:.2f} points per seat, {dlo:+.2f} to {dhi:+.2f}" if not level else \
        f"level in strength with {y}: {strength}"
    needed = top.get("games_needed") if top["verdict"] == "inconclusive" else None
    settles = f" (about {needed:,} games in all would settle it)" if needed else ""
    lead = (f"With the strongest player measured, {x} ({where}), the first player's edge is {_row_edge(top)} "
            f"points: {verdict}{settles}.")
    if differ:
        return "not levelled off", (f"{lead} It has not levelled off with skill: with {y} it is {_row_edge(second)}, "
                                    f"and from {y} to {x} it moves by {apart}, so stronger play may move it "
                                    "further.")
    if -margin < elo and ehi < margin:
        return "settled", (f"{lead} The next strongest, {y}, agrees within ±{m} points: with it the edge is "
                           f"{_row_edge(second)}, and from {y} to {x} it moves by {apart}.")
    return "not shown levelled off", (
        f"{lead} Whether it has levelled off with skill is not shown: with {y} it is {_row_edge(second)}, and "
        f"from {y} to {x} it moves by {apart}, an interval reaching beyond ±{m} points; more games (-n) would "
        "narrow it.")


def to_json(path, edges=None, margin=None, found=None):
    """``playtest skill --json``: the game, players, margin, variant and setup, ``answer`` (``answer``'s model,
    verdict, sentence and first-seat edge, with its case and what it cannot tell) and ``models``, one ``{model,
    strength, first_seat_edge, verdict, games}`` each (points). ``edges`` and ``found`` are ``table``'s frame
    and ``answer``'s dict (read when None)."""
    manifest = read_manifest(path)
    margin = manifest.get("margin", 1.0) if margin is None else margin
    if edges is None:
        edges = table(path, margin)[1]
    if found is None:
        found = answer(path, edges, margin)
    variant, setup = table_of(manifest)
    return {"game": manifest["game"], "players": manifest["players"], "margin_points": margin,
            "units": "percentage points of win share", "variant": variant, "setup": setup,
            "answer": {k: found[k] for k in ("model", "verdict", "sentence", "first_seat_edge", "case",
                                             "cannot_tell")},
            "models": [{"model": r["model"],
                        "strength": {"value": r["strength"], "lo": r["strength_low"], "hi": r["strength_high"]},
                        "first_seat_edge": {"edge": r["first_seat_edge"], "lo": r["low"], "hi": r["high"]},
                        "verdict": r["verdict"], "games": r["games"]} for r in edges.iter_rows(named=True)]}


def verdict_sentences(edges):
    """One sentence per model: its seat verdict (``table``'s), which names the model ("with `random` in every
    seat"), or, where it does not (an unfinished run), the same sentence led by the model's name."""
    return [r["verdict_sentence"] if f"`{r['model']}`" in r["verdict_sentence"]
            else f"With `{r['model']}` in every seat: {r['verdict_sentence']}" for r in edges.iter_rows(named=True)]
