"""The skilled-play commands of the ``playtest`` command line: ``tune``, ``ladder``, ``restrict``, ``skill`` and
``search-gain``.

Thin, like the rest of the command line: each command is a call to ``playtest.api``.
"""

import json
import math
import time
from pathlib import Path

import click

from analyses.verdict import points
from playtest import api, options, terminal
from playtest.cli_common import interrupted, parse_params
from playtest.cli_types import FiniteRange, margin_type
from simulator import games as game_registry


def print_json(value):
    """Print ``value`` as indented JSON, unwrapped (JSON is for programs, not for the terminal's width)."""
    click.echo(json.dumps(value, indent=2))


def _points(share):
    return f"{100 * share.mean:.2f}% ({100 * share.lo:.2f} to {100 * share.hi:.2f})"


@click.command()
@options.game()
@click.argument("strategy")
@click.option("--field", "-f", required=True, help="The strategy in every other seat.")
@options.players()
@click.option("--budget", type=click.IntRange(2, 10_000), default=60, show_default=True,
              help="Evaluations the optimiser may make.")
@options.games(500, per="evaluation", rotation="always", minimum=10, maximum=10_000_000, aliases=("--deals",))
@click.option("--confirm-deals", type=click.IntRange(10, 100_000_000), default=5_000, show_default=True,
              help="Fresh deals on which the tuned and the default vector are compared at the end.")
@click.option("--sigma", type=FiniteRange(0, min_open=True), default=1.0, show_default=True,
              help="The optimiser's first step size, in parameter units.")
@options.seed(2 ** 63 - 10_001)
@options.out("the tuned vector (a TOML file; use it with --param STRATEGY=@FILE)", kind="file", required=True)
@options.json()
def tune(game, strategy, field, players, budget, games, confirm_deals, sigma, seed, out, as_json):
    """Tune STRATEGY's parameter vector against a field with seats rotated, then confirm it on fresh deals.

    The confirmation plays --seed; evaluation i plays seed + 1 + i."""
    g = game_registry.get(game)
    players = g.default_players if players is None else players

    def progress(done, total, share):
        if not as_json:
            terminal.echo(f"evaluation {done}/{total}: win share {100 * share:.2f}%", err=True)

    result = api.tune(game, strategy, field=field, out=out, players=players, budget=budget, deals=games,
                      confirm_deals=confirm_deals, sigma=sigma, seed=seed, on_evaluation=progress)
    r = result.info["tune"]
    better = r.gain.lo > 0
    worse = r.gain.hi < 0
    if as_json:
        print_json({**r.to_dict(), "out": str(out)})
        return
    fair = 1 / players
    terminal.echo(f"{g.title}, {players} players: {strategy} against {field} in the other seats, seats rotated "
                  f"(fair share {100 * fair:.1f}%)")
    terminal.echo(f"  default {r.default}: {_points(r.before)}")
    terminal.echo(f"  tuned   {[round(x, 3) for x in r.tuned]}: {_points(r.after)}")
    terminal.echo(f"  confirmed on {confirm_deals:,} fresh deals (seed {seed}, never used by the search), paired: "
                  f"{100 * r.gain.mean:+.2f} points ({100 * r.gain.lo:+.2f} to {100 * r.gain.hi:+.2f})")
    verdict = ("the tuned vector is better" if better else "the tuned vector is worse: keep the default" if worse
               else "no difference the confirmation can tell apart")
    terminal.echo(f"  {verdict}; tuned vector written to {out} (use --param {strategy}=@{out})")
    if not math.isfinite(r.gain.lo):
        terminal.echo("  (too few confirmation deals for an interval)")


def _share_text(share, lo, hi):
    return f"{100 * share:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"


def _edge_text(edge, lo, hi):
    return f"{edge:+.2f} ({lo:+.2f} to {hi:+.2f})"


@click.command()
@options.game()
@options.players()
@click.option("--first", type=click.IntRange(1, 2 ** 16), default=16, show_default=True,
              help="Search iterations per decision at the first level.")
@click.option("--levels", type=click.IntRange(1, 10), default=4, show_default=True,
              help="Levels; the budget doubles from one to the next.")
@options.games(500, per="run", rotation="always", minimum=10, maximum=10_000_000, aliases=("--deals",))
@click.option("--field", "-f", default=None, help="The built-in field [default: the game's strongest heuristic].")
@click.option("--horizon", type=click.IntRange(0, 2 ** 31 - 1), default=None,
              help="The search player's horizon: 0 rolls out to the end of the game, h to the h-th evaluation "
                   "point ahead (see `playtest strategies GAME`) [default: the game's].")
@options.seed()
@options.margin()
@options.out("the ladder (one run per level)", kind="dir", required=True)
@options.report()
@options.json()
def ladder(game, players, first, levels, games, field, horizon, seed, margin, out, make_report, as_json):
    """Climb the search player's budget and show the seat advantage at each level of skill."""
    from analyses.ladder import first_edge_change
    from reports.build import write_report
    from reports.ladder_report import strength_sentence, verdict_sentence

    g = game_registry.get(game)

    def progress(done, total):
        if not as_json:
            terminal.echo(f"run {done}/{total}", err=True)

    result = api.ladder(game, out=out, players=players, first=first, levels=levels, deals=games, field=field,
                        horizon=horizon, seed=seed, margin=margin, on_run=progress)
    table, field, players = result.frame, result.info["field"], result.info["manifest"]["players"]
    report = write_report([out], Path(out) / "report.html", margin=margin) if make_report else None
    if as_json:
        print_json(table.to_dicts())
        return
    terminal.echo(f"{g.title}, {players} players, {games:,} deals per run, seed {seed}: search player "
                  f"(mcts@budget, horizon {result.info['horizon']:g}) against the level below, against {field}, and "
                  f"the seat advantage with the same budget in every seat (edges in points, margin ±{margin:g})")
    terminal.echo(verdict_sentence(table, margin, first_edge_change(out)))
    terminal.echo(strength_sentence(table, 1 / players, field))
    terminal.console().print(ladder_levels_table(table, field))
    terminal.echo(f"fair share {100 / players:.1f}%; win shares with 95% intervals over deals; seat edges with "
                  f"simultaneous 95% intervals; runs in {out}")
    if report:
        terminal.echo(str(report))


def ladder_levels_table(table, field):
    """``playtest ladder``'s levels as a rich ``Table`` at the terminal's width (long cells wrap in their column)."""
    from rich import box
    from rich.table import Table

    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for col in ("budget", "vs level\nbelow", f"vs {field}", "first seat\nedge", "largest\nseat edge", "verdict"):
        t.add_column(col, justify="left" if col == "verdict" else "right", overflow="fold")
    for r in table.iter_rows(named=True):
        t.add_row(str(r["budget"]), _share_text(r["below_share"], r["below_lo"], r["below_hi"]),
                  _share_text(r["field_share"], r["field_lo"], r["field_hi"]),
                  _edge_text(r["first_edge"], r["first_lo"], r["first_hi"]),
                  f"seat {r['largest_seat']} {_edge_text(r['largest_edge'], r['largest_lo'], r['largest_hi'])}",
                  r["verdict"])
    return t


@click.command()
@options.game()
@click.option("--forbid", "classes", multiple=True, required=True, metavar="CLASS",
              help="An action class the restricted player may never take (see `playtest strategies GAME`).")
@click.option("--agent", default="mcts", show_default=True,
              help="The player, restricted in one seat and unrestricted in the others (mcts or mcts@N).")
@options.players()
@options.games(1000, rotation="always", minimum=10, maximum=10_000_000, aliases=("--deals",))
@click.option("--horizon", type=click.IntRange(0, 2 ** 31 - 1), default=None,
              help="The search player's horizon: 0 rolls out to the end of the game, h to the h-th evaluation "
                   "point ahead (see `playtest strategies GAME`) [default: the game's].")
@options.seed()
@options.renamed("--negligible", "negligible", aliases=("--margin",), type=margin_type(), default=1.0,
                 help="Points of win share below which an option counts as worth nothing measurable.")
@options.json()
def restrict(game, classes, agent, players, games, horizon, seed, negligible, as_json):
    """How much is an option worth? A player forbidden CLASS against unrestricted copies, seats rotated."""
    g = game_registry.get(game)
    players = g.default_players if players is None else players
    result = api.restrict(game, list(classes), agent=agent, players=players, deals=games, horizon=horizon, seed=seed,
                          margin=negligible)
    r, lineup, horizon = result.info, result.info["lineup"], result.info["horizon"]
    if as_json:
        print_json({"game": game, "players": players, "agent": agent, "forbid": list(classes), "horizon": horizon,
                    "seed": seed, **{k: v for k, v in r.items() if k not in ("lineup", "horizon")}})
        return
    terminal.echo(f"{g.title}, {players} players, {r['deals']:,} deals x {players} rotations, seed {seed}: "
                  f"{lineup[0]} against {players - 1} x {agent} (horizon {horizon:g})")
    terminal.echo(f"  restricted win share {_share_text(r['share'], r['lo'], r['hi'])} against a fair share of "
                  f"{100 / players:.1f}%")
    terminal.echo(f"  {r['reading']}")


def _models_option(value):
    """``--models a,b,c``: the names, in order ("" is an empty list, refused by ``api.skill``)."""
    return None if value is None else [m.strip() for m in value.split(",") if m.strip()]


def resume_command(study, params, setup, out):
    """The command that resumes a study: its settings (``analyses.by_model.settings``, read back from its
    folder) spelled out, the ``--param`` items and the ``--setup`` file as given, then ``--resume``."""
    import shlex

    from analyses.by_model import table_of

    variant = table_of(study)[0]
    words = ["playtest", "skill", study["game"], "--models", ",".join(study["models"]),
             "--players", str(study["players"]), *(["--variant", variant] if variant != "standard" else []),
             *(["--setup", str(setup)] if setup else []), "--precision", f"{study['precision']:g}",
             "--games", str(study["max_games"]), "--match-deals", str(study["deals"]),
             "--chunk-size", str(study["chunk_size"]), "--seed", str(study["seed"]),
             "--margin", f"{study['margin']:g}"]
    for item in params:
        words += ["--param", item]
    return shlex.join(words + ["--out", str(out), "--resume"])


class _SkillProgress:
    """What ``skill`` says while it plays, on standard error: a line per stage, and inside each run the games
    done against the games planned when its kernels are ready (with the seconds that took, when it was a
    wait), at its last chunk, and at most every ``EVERY`` seconds between."""

    EVERY = 2.0

    def __init__(self, quiet, precision, max_games, deals, margin, players):
        self.quiet, self.last = quiet, 0.0
        self.precision, self.max_games, self.deals, self.margin, self.players = (precision, max_games, deals,
                                                                                  margin, players)
        self.first = True

    def stage(self, kind, index, total, what):
        from analyses.strength import upper_seats

        if self.quiet:
            return
        self.first, self.started = True, time.monotonic()
        if kind == "model":
            line = (f"model {index + 1}/{total}: {what} in every seat, until every seat is within "
                    f"±{points(self.precision)} points or {self.max_games:,} games")
        elif kind == "match":
            lower, upper = what
            held = upper_seats(self.players)
            seats = f"{held} seats each" if 2 * held == self.players else f"one seat against {self.players - 1}"
            line = (f"cross-play {index + 1}/{total}: {upper} against {lower}, {seats}, seats rotated, "
                    f"{self.deals:,} deals")
        else:
            model, planned = what
            line = (f"sizing the answer: {model}, the strongest, plays on until its verdict is conclusive at "
                    f"±{points(self.margin)} points ({planned:,} games planned)")
        terminal.echo(line, err=True)

    def progress(self, label, done, planned, unit):
        if self.quiet:
            return
        now = time.monotonic()
        if self.first:  # the kernels are ready: say how long that took when it was a wait
            waited = now - self.started
            terminal.echo(f"  {label}: {done:,} / {planned:,} {unit}"
                          + (f", after {waited:.0f} s compiling or loading its kernels" if waited >= 2 else ""),
                          err=True)
            self.first, self.last = False, now
        elif done >= planned or now - self.last >= self.EVERY:
            self.last = now
            terminal.echo(f"  {label}: {done:,} / {planned:,} {unit}", err=True)


def ladder_table(edges, margin):
    """The ladder as a rich ``Table`` at the terminal's width: model, strength, first-seat edge with the
    interval its verdict uses (each figure above its interval), verdict and games; long cells wrap within
    their column."""
    from rich import box
    from rich.table import Table

    from reports import by_model_report

    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for col, justify in (("model", "left"), ("strength,\npoints/seat", "right"),
                         ("first-seat edge,\npoints", "right"), (f"verdict\n±{points(margin)}", "left"),
                         ("games", "right")):
        t.add_column(col, justify=justify, overflow="fold")
    for r in edges.iter_rows(named=True):
        t.add_row(r["model"], by_model_report.strength_text(r, "\n"), by_model_report.edge_text(r, "\n"),
                  r["verdict"], by_model_report.games_text(r))
    return t


@click.command()
@options.game()
@click.option("--models", "-m", default=None, metavar="A,B,...",
              help="Player models, comma-separated, weakest first [default: random, the game's strongest "
                   "heuristic, learned and expert where the game has them].")
@click.option("--mcts", type=click.IntRange(1, 2 ** 20), default=None, metavar="N",
              help="Also play mcts@N, last (slow: none by default).")
@options.players()
@options.variant()
@options.setup()
@click.option("--precision", type=FiniteRange(0, 100, min_open=True, max_open=True), default=2.0,
              show_default=True, help="Play each model until every seat's 95% interval is within ± this many "
                                      "points, or --games games.")
@options.games(20_000, per="model, at most (the strongest plays on to a conclusive verdict, up to as many)",
               minimum=2, maximum=100_000_000, aliases=("--max-games",))
@options.renamed("--match-deals", "match_deals", aliases=("--deals",), type=click.IntRange(2, 10_000_000),
                 default=500, help="Deals of each cross-play match (each model against the one below it, seats "
                                   "rotated).")
@click.option("--chunk-size", type=click.IntRange(1), default=500, show_default=True,
              help="Games between two checks of the precision.")
@options.seed()
@options.param()
@options.margin()
@options.threads()
@options.out("the study (one run per model and per match)", kind="dir", required=True)
@options.resume(play_on=True)
@options.report()
@options.json()
@click.option("--markdown", is_flag=True,
              help="Print the answer and the table as Markdown (also written to <out>/by_model.md).")
def skill(game, models, mcts, players, variant, setup, precision, games, match_deals, chunk_size, seed, params,
          margin, threads, out, resume, make_report, as_json, markdown):
    """The first player's edge with the strongest player measured: each model's edge and verdict with it in
    every seat, its strength against the model below it, and the answer of the strongest.

    --players, --variant and --setup give the table; `learned` and `expert` play the shipped models, trained
    for the default table, unless --param gives others (`playtest train --setup` fits one): the answer then
    says what it cannot tell.

    --resume keeps the finished runs, finishes an interrupted one and plays the models added at the end of
    --models; with a larger --games every run plays on under the new cap."""
    from analyses import by_model
    from reports import by_model_report
    from reports.build import write_report

    g = game_registry.get(game)
    talk = _SkillProgress(as_json or markdown, precision, games, match_deals, margin,
                          g.default_players if players is None else players)
    try:
        study = api.skill(game, out, models=_models_option(models), mcts=mcts, players=players, variant=variant,
                          setup=setup, precision=precision, max_games=games, deals=match_deals, seed=seed,
                          margin=margin, chunk_size=chunk_size, params=parse_params(params), threads=threads,
                          resume=resume, on_stage=talk.stage, on_progress=talk.progress)
    except KeyboardInterrupt:
        if not by_model.is_by_model(out):
            interrupted("\ninterrupted before anything was played")
        else:
            interrupted(terminal.wrap(f"\ninterrupted: the finished runs are kept in {out}; to go on, run:")
                        + "\n  " + resume_command(by_model.read_manifest(out), params, setup, out))
    edges, found = study.frame, study.info["answer"]
    caveats = [f"cannot tell: {c}" for c in found["cannot_tell"]]
    table = "\n".join([found["sentence"], *caveats]) + "\n\n" + by_model_report.markdown_table(out, margin)
    (Path(out) / "by_model.md").write_text(table)
    report = write_report([out], Path(out) / "report.html", margin=margin) if make_report else None
    if as_json:
        print_json(by_model.to_json(out, edges, margin, found))
        return
    if markdown:
        click.echo(table, nl=False)
        return
    manifest = by_model.read_manifest(out)
    table_name = "".join([f", {variant} rules" if variant != "standard" else "",
                          f", setup table {setup}" if setup else ""])
    terminal.echo(f"{g.title}, {manifest['players']} players{table_name}, seed {seed}:")
    terminal.echo(found["sentence"])
    for line in caveats:
        terminal.echo(line)
    terminal.echo()
    terminal.console().print(ladder_table(edges, margin))
    for line in by_model_report.table_notes(manifest, edges, margin):
        terminal.echo(line)
    top = next(r for r in edges.iter_rows(named=True) if r["model"] == found["model"])
    needed = top["games_needed"] if top["verdict"] == "inconclusive" else None
    if needed and needed > manifest["max_games"]:   # the cap stopped it: say how to play on
        cap = -(-needed // manifest["chunk_size"]) * manifest["chunk_size"]
        terminal.echo(f"to play on until `{top['model']}`'s verdict would settle (about {needed:,} games), run:")
        click.echo(shell_lines(resume_command({**manifest, "max_games": cap}, params, setup, out)))
    click.echo(f"runs in {out}" + (f"; report {report}" if report else ""))


def shell_lines(command, width=78):
    """``command`` (one shell line) broken before an option into lines of at most about ``width`` characters,
    and always before ``--out`` (a path only the user can shorten), each but the last ending in `` \\``, the
    later ones indented: the same command, pasted."""
    import shlex

    lines, line = [], ""
    for word in shlex.split(command):
        word = shlex.quote(word)
        if line and word.startswith("-") and (len(line) + len(word) + 3 > width or word == "--out"):
            lines.append(line + " \\")
            line = "  " + word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


@click.command("search-gain", short_help="Paired win-share gain of mcts over a baseline search on the same "
                                          "deals, in each GAME.")
@options.game(many=True)
@options.games(100, per="arm", rotation="always", minimum=2, aliases=("--deals",))
@options.seed()
@options.threads()
@click.option("--budget", type=click.IntRange(1), default=None,
              help="Iterations (mcts@N) [default: the game's].")
@options.param()
@click.option("--baseline", default=None, help="A git commit to compare with, or 'here' for this tree with "
                                                "--baseline-param [default: the search before move keys].")
@click.option("--baseline-param", default=None, metavar="V1,V2,...",
              help="The baseline arm's mcts parameter vector.")
def search_gain(game, games, seed, threads, budget, params, baseline, baseline_param):
    """Paired win-share gain of mcts over a baseline search on the same deals, against the strongest heuristic,
    in each GAME (the baseline commit is exported once for all); --param mcts=V1,V2,... sets the new arm's
    vector."""
    api.search_gain(list(game), deals=games, seed=seed, threads=threads, budget=budget, param=_mcts_param(params),
                    baseline=baseline, baseline_param=baseline_param, on_line=terminal.echo)


def _mcts_param(items):
    """The new arm's ``mcts`` vector of ``search-gain`` as the comma-separated text ``api.search_gain`` takes,
    from ``--param mcts=V1,V2,...`` (a bare ``V1,V2,...``, the former spelling, is read as mcts's with a note)."""
    bare = [item for item in items if "=" not in item]
    if bare:
        terminal.echo("note: --param V1,V2,... is deprecated; write --param mcts=V1,V2,...", err=True)
    params = parse_params([item if "=" in item else f"mcts={item}" for item in items])
    others = sorted(set(params) - {"mcts"})
    if others:
        raise click.UsageError(f"--param {others[0]}: search-gain only sets the new arm's mcts vector "
                               f"(--param mcts=V1,V2,...)")
    return ",".join(repr(v) for v in params["mcts"]) if params else None
