"""``playtest unfair ...``: the Unfair (FLSU expansion) mechanics lab on the command line.

playtest does not simulate a whole game of Unfair; each command runs one
study of an expansion mechanic (see docs/rules/unfair.md) and prints its
conclusion and a short table with 95% intervals (``reports.unfair_answers``),
or every table in full as JSON (``{table name: [rows]}``) with ``--json``;
``playtest unfair report`` runs all five and writes them as one report. A
setup table that cannot be used prints one line starting with ``error:`` and
exits with code 2.
"""

import json
import re

import click

from playtest import api, options, terminal
from playtest.cli_types import HelpGroup, check_report_out
from reports.unfair_answers import ANSWERS
from simulator.core.setup import SetupError
from simulator.unfair import dice
from simulator.unfair.setup import MAX_BEAN_COUNTS, MAX_BEANS, MAX_TRIALS


def parse_beans(text):
    """Bean counts from ``"0..5"`` (a range, both ends included), ``"0,2,4"`` or ``"3"``.

    At most ``MAX_BEAN_COUNTS`` counts, each from 0 to ``MAX_BEANS``; the
    range is checked before it is built.
    """
    m = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d+)\s*", text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if lo > hi:
            raise click.BadParameter(f"{text!r}: the range runs backwards", param_hint="--beans")
        if hi - lo >= MAX_BEAN_COUNTS:  # before len(): a range longer than sys.maxsize has none
            hi = lo + MAX_BEAN_COUNTS  # one count too many: refused below
        counts = range(lo, hi + 1)
    else:
        try:
            counts = [int(v) for v in text.split(",")]
        except ValueError:
            raise click.BadParameter(f"{text!r} is not a count (3), a list (0,2,4) or a range (0..5)",
                                     param_hint="--beans") from None
    if len(counts) > MAX_BEAN_COUNTS or min(counts) < 0 or max(counts) > MAX_BEANS:
        raise click.BadParameter(f"{text!r}: give at most {MAX_BEAN_COUNTS} counts, each from 0 to {MAX_BEANS}",
                                 param_hint="--beans")
    return list(counts)


def _print(study, tables, as_json):
    """The study's conclusion and its short table (``reports.unfair_answers``), or with ``as_json`` every table
    in full, standard errors and all."""
    if as_json:
        click.echo(json.dumps({name: df.to_dicts() for name, df in tables.items()}, indent=1))
        return
    conclusion, summary = ANSWERS[study](tables)
    terminal.echo(conclusion)
    click.echo()
    terminal.table(summary.header, summary.rows, title=summary.caption)
    terminal.echo("Every ± is a 95% interval. Every table in full: --json, or `playtest unfair report`.")


def _checked(work):
    """Call ``work()`` and return its result; a ``SetupError`` prints one ``error:`` line and exits 2."""
    try:
        return work()
    except SetupError as exc:
        click.echo(f"error: {exc}", err=True)
        raise click.exceptions.Exit(2) from None


def _run(study, as_json, **given):
    """Run ``study`` (``api.unfair`` with the ``given`` options) and print its answer; setup errors exit 2."""
    _print(study, _checked(lambda: api.unfair(study, **given)).info["tables"], as_json)


def run_options(f):
    """Options of every command that runs studies: --setup, --trials, --seed."""
    decorators = [
        options.setup(),
        click.option("--trials", "-n", type=click.IntRange(2, MAX_TRIALS), default=20_000, show_default=True,
                     help=f"Simulated trials (2 to {MAX_TRIALS:,})."),
        options.seed(),
    ]
    for decorator in reversed(decorators):
        f = decorator(f)
    return f


def study_options(f):
    """Options every study takes: those of ``run_options`` and --json."""
    return run_options(options.json()(f))


first_date_option = click.option("--first-date", is_flag=True, help="Play the 6 rounds of the First Date Game Changer.")


@click.group(cls=HelpGroup, context_settings={"help_option_names": ["-h", "--help"]})
def unfair():
    """Unfair (FLSU expansion): studies of single mechanics, not whole games."""


@unfair.command(name="dice")
@click.option("--goal", type=click.Choice(dice.GOALS), default="double", show_default=True,
              help="Roll a double, a result of at least TARGET, or exactly TARGET.")
@click.option("--target", type=click.IntRange(-10 ** 6, 10 ** 6), default=None,
              help="The result aimed at (at-least and exactly).")
@click.option("--beans", default="0..5", show_default=True, help="Beans held: 3, 0,2,4 or 0..5.")
@study_options
def dice_command(goal, target, beans, setup, trials, seed, as_json):
    """Chance to reach a dice goal with magic beans: exact (all rolls) beside simulated."""
    counts = parse_beans(beans)
    _run("dice", as_json, goal=goal, target=target, beans=counts, setup=setup, trials=trials, seed=seed)


@unfair.command(name="wishing-well")
@first_date_option
@study_options
def wishing_well_command(first_date, setup, trials, seed, as_json):
    """Wishing Well or Wandering Merchant: wishes granted, beans and coins per policy."""
    _run("wishing-well", as_json, setup=setup, first_date=first_date, trials=trials, seed=seed)


@unfair.command(name="fame")
@first_date_option
@study_options
def fame_command(first_date, setup, trials, seed, as_json):
    """Fame plans: star totals and Mythic markers by round, and markers at game end."""
    _run("fame", as_json, setup=setup, first_date=first_date, trials=trials, seed=seed)


@unfair.command(name="gems")
@options.players()
@first_date_option
@study_options
def gems_command(players, first_date, setup, trials, seed, as_json):
    """Gemstones: value per facility by drill count and build round, and supply exhaustion."""
    _run("gems", as_json, players=players, setup=setup, first_date=first_date, trials=trials, seed=seed)


@unfair.command(name="panoramas")
@first_date_option
@study_options
def panoramas_command(first_date, setup, trials, seed, as_json):
    """Panoramas: points and skip costs per building policy, with and without the wildcard and Scenic Vistas."""
    _run("panoramas", as_json, setup=setup, first_date=first_date, trials=trials, seed=seed)


@unfair.command(name="report")
@options.out("the report (FILE.html or FILE.md; the data behind each figure goes to FILE-data/)", kind="file",
             required=True)
@options.report_format()
@first_date_option
@run_options
def report_command(out, fmt, first_date, setup, trials, seed):
    """Run the five studies, write one report with a section each and print its path."""
    # Imported here so that the study commands do not pay for matplotlib and jinja2.
    from reports.unfair import write_unfair_report

    fmt = check_report_out(out, fmt)
    path = _checked(lambda: write_unfair_report(out, fmt, setup=setup, first_date=first_date,
                                                trials=trials, seed=seed))
    click.echo(str(path))
