"""The ``playtest`` command line: a thin layer over ``playtest.api``.

Bad input (unknown game or strategy, a player count with no setup row, an
unreadable or unplayable setup table, an existing output directory, an
option out of range) prints one line starting with ``error:`` and exits with
code 2; nothing is written. Ctrl-C and SIGTERM end any command with exit
code 130 (see ``interrupted``).
"""

import importlib
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

import click

import playtest
from playtest import api, compile_notice, options, terminal
from playtest.cli_common import LONG_PARAMS, interrupted, run_record
from playtest.cli_types import HelpGroup, local_workers_type, until_ci_type
from simulator import games as game_registry
from simulator.core.batch import RunError
from simulator.core.setup import SetupError, did_you_mean
from strategies.registry import StrategyError

USER_ERRORS = (SetupError, StrategyError, RunError, game_registry.UnknownGame)


class PlaytestGroup(HelpGroup):
    """Turns the known kinds of bad input into one clear line and exit code 2.

    The analysis and Unfair commands are imported only when used, so that
    `playtest simulate` does not pay for matplotlib and the Unfair kernels.
    """

    lazy = {"survey": "playtest.cli_designer:survey", "compensate": "playtest.cli_designer:compensate",
            "cards": "playtest.cli_designer:cards",
            "report": "playtest.cli_analysis:report", "sweep": "playtest.cli_analysis:sweep",
            "tournament": "playtest.cli_analysis:tournament", "compare": "playtest.cli_analysis:compare",
            "unfair": "playtest.cli_unfair:unfair", "tune": "playtest.cli_skill:tune",
            "ladder": "playtest.cli_skill:ladder", "restrict": "playtest.cli_skill:restrict",
            "search-gain": "playtest.cli_skill:search_gain", "skill": "playtest.cli_skill:skill",
            "train": "playtest.cli_train:train", "warm": "playtest.cli_warm:warm", "bench": "playtest.cli_bench:bench"}

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *self.lazy])

    def get_command(self, ctx, name):
        if name in self.lazy:
            module, _, attr = self.lazy[name].partition(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        signal.signal(signal.SIGTERM, _raise_interrupt)
        compile_notice.install()  # every compile says so (playtest.compile_notice)
        started, compiled = time.perf_counter(), compile_notice.seconds()
        try:
            if playtest.ENVIRONMENT_PROBLEM:
                raise RunError(playtest.ENVIRONMENT_PROBLEM)
            result = super().invoke(ctx)
            line = (None if ctx.invoked_subcommand == "simulate"   # its own last line splits the two
                    else compile_notice.closing_line(time.perf_counter() - started,
                                                     compile_notice.seconds() - compiled))
            if line:
                click.echo(line, err=True)
            return result
        except USER_ERRORS as exc:
            click.echo(f"error: {exc}", err=True)
            if ctx.meta.get(VERBOSE) and getattr(exc, "detail", None):
                click.echo(exc.detail.rstrip(), err=True)
            ctx.exit(2)
        except click.UsageError as exc:  # an option out of range, a missing argument: one line too
            click.echo(f"error: {exc.format_message()}", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:
            interrupted("interrupted")


VERBOSE = "playtest.verbose"


def verbose_option(f):
    """``--verbose``: after an ``error:`` line, also print the full underlying message (numba's, a traceback)."""
    def remember(ctx, _param, value):
        if value:
            ctx.meta[VERBOSE] = True

    return click.option("--verbose", is_flag=True, expose_value=False, callback=remember,
                        help="After an error line, also print numba's full message or the traceback.")(f)


@click.group(cls=PlaytestGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="playtest")
@verbose_option
def cli():
    """Monte Carlo balance analysis for tabletop card games.

    Typical use: `playtest simulate forks --players 4 --games 1000000 --out runs/x`,
    then `playtest replay forks --game 123` to read one of those games move by move.
    """


def run_options(f):
    """Options that define which games are played (shared by simulate and replay)."""
    decorators = [
        options.players(), options.seed(),
        click.option("--strategy", "-s", "strategies", multiple=True, default=("random",), show_default=True,
                     help="Strategy name; once for every seat, or once per seat in seat order."),
        options.strategy_file(), options.param(), options.variant(), options.setup(),
        click.option("--rotate-seats", is_flag=True, help="Play every deal once per rotation of the strategies "
                                                          "over the seats."),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return verbose_option(f)


RUN_OPTION_NAMES = ("players", "seed", "strategies", "strategy_files", "params", "variant", "setup", "rotate_seats")


@cli.command(short_help="Play many games of GAME: the seat table and the balance verdict.")
@options.game()
@run_options
@options.games(api.GAMES, rotation="flag")
@options.out("the run (seats/*.parquet, manifest.json) [default: none kept]")
@click.option("--chunk-size", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Games per chunk (one parquet file each); results do not depend on it.")
@options.threads()
@click.option("--force", is_flag=True, help="Replace an existing run directory.")
@options.resume(play_on=True)
@click.option("--no-leader-record", "leader_record", is_flag=True, flag_value=False, default=True,
              help="Leave the leader columns 0 (no comeback curve in the report): faster where the standing at a "
                   "round's end costs much.")
@click.option("--until-ci", type=until_ci_type(), default=None,
              help="Stop once every seat's 95% win-share interval is within ± this many points (e.g. 0.5), "
                   "after at least 30 games (30 deals with --rotate-seats).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="Where chunks are played: this machine, or Dask workers (see docs/cluster.md).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Dask scheduler (with --backend dask).")
@click.option("--workers", type=local_workers_type(), default=None,
              help="Start a local Dask cluster of this many worker processes (with --backend dask).")
@options.margin()
@click.option("--feel", is_flag=True, help="Also print the game-feel figures (length, spread, margin, ties) with "
                                         "95% intervals (holds one row per game in memory).")
@options.json()
def simulate(game, players, seed, strategies, strategy_files, params, variant, setup, rotate_seats, games, out,
             chunk_size, threads, force, resume, leader_record, until_ci, backend, scheduler, workers, margin, feel,
             as_json):
    """Play many games of GAME and print the seat table and the balance verdict.

    Prints win share per seat with its 95% interval, each seat's edge with a
    simultaneous 95% interval, the verdict at --margin (balanced, unbalanced or
    inconclusive, with the games that would settle it) and, as a secondary
    line, the chi-square test of equal shares. With --rotate-seats the deal is
    the unit of every interval and the strategies are compared on the same deals.
    """
    from analyses.seat_summary import seat_summary

    if resume and (force or out is None):
        raise click.UsageError("--resume continues the run in --out; give --out, and not --force, which replaces it")
    record = run_record(game, players, seed, strategies, strategy_files, params, variant, setup, rotate_seats,
                        games=games, chunk_size=chunk_size, threads=threads, leader_record=leader_record)
    until_ci = None if until_ci is None else until_ci / 100  # points to a share
    # without --out the rows still stream to disk (a scratch directory), so memory stays flat at any size
    with tempfile.TemporaryDirectory(prefix="playtest-") as scratch, _progress(games) as progress:
        try:
            run = api.simulate(record, out=out or Path(scratch) / "run", force=force, resume=resume, until_ci=until_ci,
                               backend=backend, scheduler=scheduler, workers=workers, on_start=progress.start,
                               on_progress=progress.advance)
        except KeyboardInterrupt:
            interrupted(f"\ninterrupted: finished chunks are on disk in {out}; run the same command with --resume "
                        f"to finish" if out else "\ninterrupted", scratch)
        if rotate_seats and not run.manifest["rotate_seats"]:
            terminal.echo(f"note: every seat plays {run.manifest['strategies'][0]}, so each rotation of the seats "
                          f"would replay the same games; each deal was played once, without --rotate-seats", err=True,
                          indent="  ")
        if run.manifest.get("replayed_chunks"):
            terminal.echo(f"note: {len(run.manifest['replayed_chunks'])} chunk file(s) on disk did not match the "
                          f"manifest (damaged or replaced) and were played again", err=True, indent="  ")
        summary = seat_summary(run.scan(), run.manifest, margin=margin, until_ci=until_ci)
        feel_table = None
        if feel:
            from analyses.feel import summary as feel_summary

            feel_table = feel_summary(run.scan())
    if as_json:
        click.echo(json.dumps({"manifest": {k: v for k, v in run.manifest.items() if k != "setup"},
                               **summary.to_dict(),
                               **({"feel": feel_table.to_dicts()} if feel_table is not None else {})}, indent=2))
        return
    _print_seat_table(run.manifest, summary, out, feel_table)


def seat_table(title, table, edges):
    """The seat table as a rich ``Table`` that fits an 80-column terminal.

    Headers take two lines and only lines under the header separate the
    columns (four seats take 70); a long strategy name, or
    an edge whose interval is not symmetric ("-25.00 (-25.00 to +21.97)"),
    wraps at a space within its column, so no figure is cut.
    """
    from rich import box
    from rich.table import Table

    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    edge = "edge, points\n(sim. 95%)"
    for col in ("seat", "strategy", "win share\n(95% CI)", edge, "fair\nshare", "mean score"):
        t.add_column(col, justify="left" if col == "strategy" else "right", no_wrap=col not in ("strategy", edge),
                     overflow="fold")
    for r, e in zip(table.iter_rows(named=True), edges):
        t.add_row(str(r["seat"]), str(r["strategy"]),
                  f"{100 * r['win_share']:.2f}% ({100 * r['win_lo']:.2f}-{100 * r['win_hi']:.2f})",
                  e.short(), f"{100 * r['expected_share']:.1f}%",
                  f"{r['mean_score']:.2f} ± {(r['score_hi'] - r['score_lo']) / 2:.2f}")
    return t


def _print_seat_table(m, summary, out, feel_table=None):
    echo = terminal.echo
    verdict = summary.verdict
    if verdict.unfinished_line():
        echo(verdict.unfinished_line())
    title = (f"{m['title']}: {m['players']} players, {summary.verdict.counts()}, seed {m['seed']}"
             f"{', ' + m['variant'] + ' rules' if m['variant'] != 'standard' else ''}")
    if verdict.kind != "unfinished":
        terminal.show(seat_table(title, summary.table, verdict.edges))
    else:
        echo(title)
    for line in [*verdict.lines()[1 if verdict.unfinished_line() else 0:], *summary.strategy_lines(),
                 *summary.until_ci_lines()]:
        echo(line, indent="  ")
    if feel_table is not None:
        import polars as pl

        from reports.run_report import ONE_LENGTH_METRICS, feel_interval, feel_value

        echo("game feel (95% intervals):")
        length = feel_table.filter(pl.col("metric") == "mean rounds").rows(named=True)
        if length and length[0]["low"] == length[0]["high"] == length[0]["value"]:  # every game lasted the same
            echo(f"  every game lasted {length[0]['value']:g} rounds")
            feel_table = feel_table.filter(~pl.col("metric").is_in(ONE_LENGTH_METRICS))
        for r in feel_table.iter_rows(named=True):
            interval = f" ({feel_interval(r)})" if feel_interval(r) else ""
            echo(f"  {r['metric']}: {feel_value(r['metric'], r['value'])}{interval}; {r['note']}", indent="  ")
    speed = m.get("games_per_second")  # game indices per second: deals, in a rotated run
    unit = "deals" if m.get("rotate_seats") else "games"
    if speed and m.get("rotate_seats"):
        rate = f", {speed:,.1f} deals/s ({speed * m['players']:,.0f} games/s)"
    else:
        rate = f", {speed:,.0f} games/s" if speed else ""
    resumed = ""
    if "resumed_with_games" in m:  # the table counts every game on disk; the time only this session's
        before = m["resumed_with_games"]
        resumed = f"resumed: {before:,} {unit} kept from disk, {m['games_done'] - before:,} played now in "
    compiled = compile_notice.seconds()
    echo(resumed + f"{m['wall_seconds']:.2f} s" + rate + (f"; results in {out}" if out else "")
         + (f"; compiling took {compiled:.1f} s more" if compiled else ""))


@cli.command(short_help="Print one game of a run, move by move.")
@click.argument("target", metavar="RUN_DIR|GAME")
@run_options
@click.option("--game", "game_index", type=click.IntRange(min=0), required=True, help="Index of the game in the run.")
@click.option("--rotation", type=click.IntRange(min=0), default=None, help="Seat rotation (with --rotate-seats).")
@click.pass_context
def replay(ctx, target, players, seed, strategies, strategy_files, params, variant, setup, rotate_seats, game_index,
           rotation):
    """Print game number --game of a run, move by move.

    `playtest replay RUN_DIR --game N` reads everything else from the run's
    manifest. `playtest replay GAME --game N` with the same options as the
    `simulate` command is the game in that row of the batch (a game's name
    wins over a directory of the same name).
    """
    if target in game_registry.names():
        record = run_record(target, players, seed, strategies, strategy_files, params, variant, setup, rotate_seats)
        lines = api.replay(record, game_index=game_index, rotation=rotation)
    elif Path(target).is_dir():
        given = [p.opts[0] for p in ctx.command.params if p.name in RUN_OPTION_NAMES
                 and ctx.get_parameter_source(p.name) != click.core.ParameterSource.DEFAULT]
        if given:
            raise click.UsageError(f"replay RUN_DIR reads the run's options from its manifest; drop "
                                   f"{', '.join(given)} (or name the game instead of the directory)")
        lines = api.replay_run(target, game_index=game_index, rotation=rotation)
    else:
        raise click.UsageError(f"{target!r} is neither a game ({', '.join(game_registry.names())}) nor a run "
                               f"directory{did_you_mean(target, game_registry.names())}")
    for line in lines:
        terminal.echo(line, indent="  ")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False))
@options.json()
def scenario(file, as_json):
    """Play the situation described in a scenario FILE (TOML) and print what happens."""
    lines, result = api.scenario(file)
    if as_json:
        click.echo(json.dumps({"log": lines, "result": result}, indent=2))
    else:
        for line in lines:
            terminal.echo(line, indent="  ")


@cli.command(name="games")
def list_games():
    """List the games playtest can simulate."""
    for g in api.games().iter_rows(named=True):
        terminal.echo(f"{g['name']:14s} {g['title']} ({g['min_players']}-{g['max_players']} players; "
                      f"variants: {', '.join(g['variants'])})", indent=" " * 15)


@cli.command(name="strategies", short_help="List the strategies of GAME, its action classes and evaluation point.")
@options.game()
@options.strategy_file()
@verbose_option
def list_strategies(game, strategy_files):
    """List the strategies of GAME (number, name, what it does, default parameters), its action classes and its
    evaluation point (where mcts with horizon 1 stops its rollouts)."""
    for s in api.strategies(game, strategy_files).iter_rows(named=True):
        p = s["params"]
        params = f" params={p}" if p else ""
        if len(p) > LONG_PARAMS:
            params = f" params=[{len(p)} numbers: {p[0]:g}, {p[1]:g}, {p[2]:g}, ...]"
        terminal.echo(f"{s['id']:2d} {s['name']:10s} {s['summary']};{params}" if params else
                      f"{s['id']:2d} {s['name']:10s} {s['summary']}", indent=" " * 14)
    g = game_registry.get(game)
    classes = g.action_classes
    if classes:
        terminal.echo("action classes (mcts:no-CLASS, playtest restrict --forbid CLASS): "
                      + ", ".join(f"{i} {c}" for i, c in enumerate(classes)), indent="  ")
    point = g.evaluation_point
    terminal.echo(f"evaluation point (mcts horizon h stops at the h-th ahead): {point}" if point else
                  "evaluation point: none (mcts rollouts play to the end of the game, horizon 0)", indent="  ")


@cli.command(name="setup", short_help="Print the default setup table of GAME, to copy, edit and pass with --setup.")
@options.game()
def show_setup(game):
    """Print the default setup table of GAME (copy it, edit it, pass it with --setup)."""
    click.echo(terminal.toml(api.setup(game)), nl=False)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


class _progress:
    """A rich progress bar with games/s on stderr, shown only on a terminal.

    Until the kernels are compiled (or loaded from the cache) it reads
    "compiling (first run only)"; ``start`` then restarts its clock, so the
    rate and the time left count only the games played since, not the
    compile time nor the chunks a resumed run found on disk.
    """

    def __init__(self, total):
        self.total = total
        self.first = 0

    def __enter__(self):
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                            TextColumn("{task.completed:,}/{task.total:,} games"),
                            TextColumn("{task.fields[rate]}"), TimeRemainingColumn(),
                            disable=not sys.stderr.isatty(), transient=True)
        self.bar.__enter__()
        self.task = self.bar.add_task("compiling (first run only)", total=self.total, rate="")
        return self

    def start(self, done, total):
        self.first = done
        self.bar.reset(self.task, total=total, completed=done, description="playing", rate="")

    def advance(self, done, total):
        self.bar.update(self.task, completed=done, total=total, rate=rate(done - self.first,
                                                                          self.bar.tasks[0].elapsed))

    def __exit__(self, *exc):
        self.bar.__exit__(*exc)


def rate(games, seconds):
    """``"1,234 games/s"`` for ``games`` played in ``seconds``; empty before any time has passed."""
    return f"{games / seconds:,.0f} games/s" if seconds else ""


def main():
    cli(prog_name="playtest")
