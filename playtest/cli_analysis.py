"""The analysis commands of the ``playtest`` command line: ``report``, ``sweep``, ``tournament``, ``compare``.

Registered in ``playtest.cli`` with ``cli.add_command``. Like the rest of the
command line they are thin: the work is in ``analyses`` and ``reports``.
Unusable input (a grid file with a bad key, a directory that is not a run)
prints one line starting with ``error:`` and exits with code 2.
"""

import functools
import json
from pathlib import Path

import click
from click.core import ParameterSource

from analyses import sweep as sweeps
from analyses import tournament as tournaments
from analyses.compare import CompareError
from analyses.runs import NotARun
from playtest import api, options, run_checks, terminal
from playtest.cli_types import check_report_out
from reports.build import write_report
from reports.tournament_report import head_to_head, headline
from simulator.core.batch import RunError

ANALYSIS_ERRORS = (sweeps.GridError, NotARun, CompareError, RunError)


def user_errors(command):
    """Turn the analyses' own kinds of bad input into one ``error:`` line and exit code 2."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except ANALYSIS_ERRORS as exc:
            click.echo(f"error: {exc}", err=True)
            raise SystemExit(2) from None

    return wrapper


@click.command(short_help="Write a report on run, sweep, tournament or ladder directories.")
@click.argument("dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False), metavar="DIR...")
@options.out("the report (FILE.html or FILE.md; the data behind each figure goes to FILE-data/)", kind="file",
             default="report.html")
@options.report_format()
@options.margin()
@user_errors
def report(dirs, out, fmt, margin):
    """Write a report on run, sweep, tournament or ladder directories and print its path."""
    fmt = check_report_out(out, fmt, dirs)
    path = api.report(dirs, out, fmt=fmt, margin=margin)  # refuses damaged runs before anything is written
    for line in run_checks.incomplete(dirs):
        terminal.echo(f"warning: the run {line}; the report covers only those, and the same simulate command "
                      f"with --resume finishes it", err=True, indent="  ")
    click.echo(str(path))


@click.command(short_help="Play every configuration of a grid of setups and compare their balance.")
@options.game()
@click.option("--grid", required=True, type=click.Path(exists=True, dir_okay=False),
              help="TOML grid: run settings, [setup] candidate lists, [params] strategy vectors.")
@options.out("the sweep (summary.csv, sweep.json, runs/)", required=True)
@click.option("--force", is_flag=True, help="Replace an earlier sweep in --out (a folder holding only a sweep).")
@click.option("--search", is_flag=True,
              help="Find the configuration with the smallest largest seat edge: eliminate on interval bounds, "
                   "then confirm the survivors on fresh deals.")
@options.report()
@options.margin()
@user_errors
def sweep(game, grid, out, force, search, make_report, margin):
    """Play every configuration of a setup-table / strategy-parameter grid and compare their balance."""
    result = api.sweep(game, grid, out=out, force=force, search=search, margin=margin)
    summary = result.frame
    header, rows = sweeps.table_cells(summary, result.info["axes"])
    if rows:
        terminal.table(header, rows)
    for row in summary.filter(summary["unplayable"].is_not_null()).iter_rows(named=True):
        terminal.echo(f"configuration {row['config']} not played: {row['unplayable']}", indent="  ")
    for line in result.info["best_lines"]:
        terminal.echo(line, indent="  ")
    if make_report:
        click.echo(str(write_report([out], Path(out) / "report.html", margin=margin)))


@click.command(short_help="Play every lineup of the strategies, seats rotated: who is strongest.")
@options.game()
@click.option("--strategy", "-s", "strategies", multiple=True, required=True,
              help="A strategy to enter; give at least two.")
@options.players(required=True)
@options.games(10_000, per="lineup", rotation="always")
@options.seed()
@options.out("the tournament (tournament.json, one run per lineup; the same deals for every lineup)",
             required=True)
@click.option("--force", is_flag=True,
              help="Replace an earlier tournament in --out (a folder holding only a tournament).")
@options.report()
@options.margin()
@user_errors
def tournament(game, strategies, players, games, seed, out, force, make_report, margin):
    """Play every lineup of the strategies with seats rotated; print win shares, ratings and the seat verdict.

    The seat verdict pools every lineup (seats rotated, so each strategy sits in
    every seat): it measures seat advantage under mixed strategies. It comes
    first when --margin is given (the question is then about seats), else
    after the strongest strategy and the standings.
    """
    twice = sorted({s for s in strategies if strategies.count(s) > 1})
    if twice:
        raise click.BadParameter(f"{', '.join(twice)} entered more than once; enter each strategy once",
                                 param_hint="--strategy")
    if len(strategies) < 2:
        raise click.BadParameter("give at least two different strategies", param_hint="--strategy")
    result = api.tournament(game, list(strategies), players=players, games=games, seed=seed, out=out, force=force,
                            margin=margin)
    standings, seats = result.frame, result.info["seats"]

    def strategies():
        terminal.echo(headline(standings, head_to_head(seats)), indent="  ")
        terminal.table(*tournaments.table_cells(standings))
        terminal.echo(f"note: {tournaments.RATING_NOTE}", indent="  ")

    def seat_verdict():
        for line in result.verdict.lines():
            terminal.echo(line, indent="  ")

    asked_about_seats = click.get_current_context().get_parameter_source("margin") is not ParameterSource.DEFAULT
    for part in (seat_verdict, strategies) if asked_about_seats else (strategies, seat_verdict):
        part()
    if make_report:
        click.echo(str(write_report([out], Path(out) / "report.html", margin=margin)))


@click.command(short_help="Is design B fairer than design A? Compare two runs of the same game.")
@click.argument("run_a", type=click.Path(file_okay=False), metavar="RUN_A")
@click.argument("run_b", type=click.Path(file_okay=False), metavar="RUN_B")
@options.margin()
@options.json()
@user_errors
def compare(run_a, run_b, margin, as_json):
    """Is design B fairer than design A? Compare two runs of the same game and player count.

    Prints each seat's change in win share, the change in the largest seat edge
    and in the game-feel figures, B minus A, with paired intervals when both
    runs used the same seed (common random numbers), else unpaired ones.
    """
    comparison = api.compare(run_a, run_b, margin=margin)
    if as_json:
        click.echo(json.dumps(comparison.to_dict(), indent=2))
        return
    for line in comparison.lines():
        terminal.echo(line, indent="  ")
