"""The designer's commands of the ``playtest`` command line: ``survey`` (every player count side by side),
``compensate`` (the seat compensation that makes a player count fair) and ``cards`` (which card matters).

Thin, like the rest of the command line: the work is in ``analyses.survey``,
``analyses.compensate``, ``analyses.cards`` and ``reports``. Bad input (a
player count the table lacks, a knob that is not per-seat, a bad
``seat_bonus``, a card the table does not name, an output directory holding
other files, ``--out`` over an existing file) is one ``error:`` line, exit
code 2, nothing written.
"""

import dataclasses
import json
import tempfile
import textwrap
from pathlib import Path

import click

from analyses import survey as surveys
from analyses.compensate import CONFIRM_OFFSET, MAX_FACTOR, planned_games
from playtest import api, options, terminal
from playtest.cli_common import interrupted, run_record
from playtest.cli_types import FiniteRange, local_workers_type
from reports.section import compact_toml
from simulator import games as game_registry
from simulator.core import rundir
from simulator.core.batch import RunError
from simulator.core.run_options import MAX_SEED
from simulator.core.setup import read_toml


def lineup_options(strategy_help):
    """``--strategy`` (described by ``strategy_help``), ``--rotate-seats``, and the shared ``--strategy-file``,
    ``--param``, ``--variant`` and ``--setup``: who plays which game, as for ``simulate``."""
    def decorate(f):
        for option in reversed([
            click.option("--strategy", "-s", "strategies", multiple=True, default=("random",), show_default=True,
                         help=strategy_help),
            click.option("--rotate-seats", is_flag=True, help="Play every deal once per rotation of the strategies."),
            options.strategy_file(), options.param(), options.variant(), options.setup()]):
            f = option(f)
        return f
    return decorate


def backend_options(f):
    """``--backend``, ``--scheduler``, ``--workers``: where the runs are played, as for ``simulate``."""
    for option in reversed([
        click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="Where chunks are played: this machine, or Dask workers (see docs/cluster.md)."),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", help="Dask scheduler (--backend dask)."),
        click.option("--workers", type=local_workers_type(), default=None,
                     help="Start a local Dask cluster of this many worker processes (--backend dask).")]):
        f = option(f)
    return f


def _counts(text, game, setup):
    """``--players 2,3,4`` as a list of ints, or every count of the setup table when not given."""
    if text is None:
        return api.table_counts(game, read_toml(setup) if setup else None)
    try:
        counts = sorted({int(part) for part in text.split(",")})
    except ValueError:
        raise RunError(f"--players {text!r} is not a list of whole numbers such as 2,3,4") from None
    return counts


@click.command()
@options.game()
@options.players(many=True)
@options.games(surveys.DEFAULT_GAMES, per="player count", rotation="flag", minimum=2)
@options.seed()
@lineup_options("One strategy for every seat; with --rotate-seats, several rotated over the seats.")
@options.out("the survey (survey.json, summary.csv, runs/, report.html) [default: none kept]")
@click.option("--force", is_flag=True, help="Replace an earlier survey in --out (a folder holding only a survey).")
@options.resume()
@options.threads()
@backend_options
@options.margin()
@options.report()
@options.json()
def survey(game, players, games, seed, strategies, rotate_seats, strategy_files, params, variant, setup, out, force,
           resume, threads, backend, scheduler, workers, margin, make_report, as_json):
    """Compare every player count of GAME side by side: seat verdict, first seat's edge, largest edge, game
    length, close games, ties and lead changes, each with its interval, and a recommendation sentence.

    The report needs --out; --json prints one object per count (players, verdict, edges, feel figures),
    and the recommendation is in <out>/survey.json."""
    if len(strategies) > 1 and not rotate_seats:
        raise RunError("a survey plays one kind of lineup at every count: give one --strategy, or several "
                       "with --rotate-seats")
    if force and resume:
        raise RunError("--force and --resume exclude each other")
    if resume and out is None:
        raise RunError("--resume needs the --out directory of the interrupted survey")
    player_counts = _counts(players, game, setup)
    if not player_counts:
        raise RunError(f"the setup table of {game} has no player count to survey")
    base = run_record(game, player_counts[0], seed, strategies, strategy_files, params, variant, setup, rotate_seats,
                      games=games, threads=threads)
    for n in player_counts:  # every count refused now (a count the table lacks), before anything is written
        api.check(dataclasses.replace(base, players=n, strategies=_lineup(strategies, n, rotate_seats)),
                  out=None if out is None else Path(out) / "runs" / surveys.run_name(n))

    def playing(n):
        if not as_json:
            click.echo(f"playing {n} players ({games:,} {'deals' if rotate_seats else 'games'})", err=True)

    play = dict(counts=player_counts, margin=margin, on_count=playing, backend=backend, scheduler=scheduler,
                workers=workers)
    with tempfile.TemporaryDirectory(prefix="playtest-survey-") as scratch:
        target = Path(out) if out is not None else Path(scratch) / "survey"
        try:
            if resume:
                if not target.is_dir():
                    raise RunError(f"--resume: {target} holds no survey to continue")
                rundir.refuse_foreign(target, rundir.SURVEY, "resume the survey in")
                summary = api.survey(base, out=target, resume=True, **play).frame
            else:
                with rundir.claim(target, rundir.SURVEY, force=force):
                    summary = api.survey(base, out=target, **play).frame
        except KeyboardInterrupt:
            interrupted(f"\ninterrupted: finished counts are on disk in {out}; run the same command with --resume "
                        f"to finish" if out else "\ninterrupted", scratch)
        report = None
        if out is not None and make_report:
            from reports.build import write_report

            report = write_report([target], target / "report.html", margin=margin)
    if as_json:
        click.echo(json.dumps([surveys.json_row(r) for r in summary.to_dicts()], indent=2))
        return
    rows = summary.to_dicts()
    terminal.echo(surveys.answer(rows, margin))
    console = terminal.console()
    for table in surveys.tables(summary, console.width):
        console.print(table)
    for line in (surveys.details(rows), str(report) if report is not None else ""):
        if line:
            terminal.echo(line)


def _lineup(strategies, players, rotate_seats):
    """One strategy in every seat, or (with --rotate-seats) the list repeated to fill the seats."""
    if len(strategies) == 1 or not rotate_seats:
        return list(strategies)
    if len(strategies) > players:
        raise RunError(f"{len(strategies)} strategies cannot rotate over {players} seats; survey counts of at "
                       f"least {len(strategies)} players with --players")
    return [strategies[s % len(strategies)] for s in range(players)]


@click.command()
@options.game()
@options.players(required=True)
@click.option("--knob", default="seat_bonus", show_default=True,
              help="The per-seat key of the [players.N] row to solve for (seat_bonus, or e.g. start_coins in "
                   "fauch-fertig).")
@options.games(None, per="evaluation", rotation="flag", minimum=100,
               default_text="planned from --margin and the seat count, so that an even game reads balanced 4 "
                            "times in 5")
@click.option("--max-games", type=click.IntRange(min=100), default=None,
              help=f"Most games the confirmation plays while it is inconclusive (it doubles) [default: "
                   f"{MAX_FACTOR} x --games].")
@options.seed(MAX_SEED - CONFIRM_OFFSET)
@lineup_options("Strategy name; once for every seat, or once per seat.")
@click.option("--low", type=FiniteRange(-1e6, 1e6), default=None,
              help="Lowest knob value searched per seat [seat_bonus: -10 relative to seat 0; start_coins: 0].")
@click.option("--high", type=FiniteRange(-1e6, 1e6), default=None,
              help="Highest knob value searched per seat [seat_bonus: 10; start_coins: 20].")
@click.option("--step", type=FiniteRange(0, 1e6, min_open=True), default=None,
              help="Grid step of the search [seat_bonus: 0.5 points; other knobs: 1].")
@options.threads()
@options.margin()
@options.out("the compensated setup table (a FILE.toml that --setup accepts), only when the confirmation "
             "calls it balanced", kind="file")
@click.option("--write-unconfirmed", is_flag=True,
              help="With --out, write the best candidate even when it is not confirmed (marked unconfirmed in "
                   "the file).")
@options.json()
def compensate(game, players, knob, games, max_games, seed, strategies, rotate_seats, strategy_files, params,
               variant, setup, low, high, step, threads, margin, out, write_unconfirmed, as_json):
    """Find the per-seat compensation (points added to each seat's final score, or a per-seat knob such as
    start_coins) that brings every seat's edge inside the margin, and confirm or refuse it on a fresh seed.

    The search plays --seed; the confirmation plays fresh deals on a seed of its own, above it."""
    if out is not None:
        _check_toml_out(out)
    if write_unconfirmed and out is None:
        raise RunError("--write-unconfirmed needs --out FILE.toml")
    if low is not None and high is not None and low >= high:
        raise RunError(f"--low {low:g} must be below --high {high:g}")
    if knob != "seat_bonus" and step is not None and step != round(step):
        raise RunError(f"--step {step:g}: {knob} takes whole numbers")
    if games is not None and max_games is not None and max_games < games:
        raise RunError(f"--max-games {max_games:,} must be at least --games {games:,}")
    base = run_record(game, players, seed, strategies, strategy_files, params, variant, setup, rotate_seats,
                      games=planned_games(margin, players) if games is None else games, threads=threads)
    with Progress(quiet=as_json) as progress:
        result = api.compensate(base, knob=knob, max_games=max_games, margin=margin, low=low, high=high, step=step,
                                on_evaluation=progress)
    found, table = result.info["compensation"], result.info["setup"]
    written = out is not None and (found.confirmed or write_unconfirmed)
    if written:
        head = f"# playtest compensate {game} --players {players} --knob {knob} --seed {seed}\n"
        if not found.confirmed:
            head += "".join(f"# {line}\n" for line in textwrap.wrap(f"UNCONFIRMED: {found.sentence()}", 78))
        Path(out).write_text(head + compact_toml(table))
    if as_json:
        click.echo(json.dumps({**found.to_dict(), "out": out if written else None}, indent=2))
        return
    terminal.echo(found.sentence())
    terminal.console().print(compensation_table(found))
    terminal.echo(f"Confirmation: {found.verdict.sentence()}")
    terminal.echo(f"Searched on seed {seed}: {found.evaluations} evaluations, {found.games:,} games each.")
    if found.confirmed and not found.unchanged:
        terminal.echo("Setup-table lines to paste:")
        click.echo(found.snippet(), nl=False)
    if written:
        terminal.echo(f"Written to {out} (use it with --setup {out})"
                      + ("" if found.confirmed else "; marked unconfirmed inside the file."))
    elif out is not None:
        terminal.echo(f"Nothing written to {out}: no compensation was confirmed (--write-unconfirmed writes the "
                      f"candidate, marked unconfirmed).")


def compensation_table(found):
    """The per-seat rich table of a ``Compensation``: value, its interval, and the edge on the confirmation
    deals, all columns wrapping to the terminal's width."""
    from rich.table import Table

    unit = found.unit or "value"
    table = Table(title=None, show_edge=False, pad_edge=False)
    table.add_column("seat", justify="right", no_wrap=True)
    table.add_column(f"{found.knob}, {unit} {found.basis}", justify="right")
    table.add_column("95% interval, fresh deals (test inversion)", justify="right")
    table.add_column("edge, points, fresh deals (sim. 95%)", justify="right")
    for row in found.rows():
        table.add_row(str(row["seat"]), row["value"], row["interval"], row["edge"])
    return table


class Progress:
    """``on_evaluation`` of ``compensate``: one updating status line in a terminal (rich), and in a log one line
    per stage or game count ("search", "confirm", "interval"), so a long search prints a few lines."""

    def __init__(self, quiet=False):
        self.quiet, self.status, self.last, self.count = quiet, None, None, 0

    def __enter__(self):
        err = terminal.console(err=True)
        if not self.quiet and err.is_terminal:
            self.status = err.status("compensate: starting")
            self.status.__enter__()
        return self

    def __exit__(self, *exc):
        if self.status is not None:
            self.status.__exit__(*exc)
        return False

    def __call__(self, stage, values, games):
        if self.quiet:
            return
        self.count += 1
        shown = ", ".join(f"{v:g}" for v in values)
        if self.status is not None:
            self.status.update(f"{STAGES[stage]} (evaluation {self.count}, {games:,} games): [{shown}]")
        elif (stage, games) != self.last:
            terminal.echo(f"{STAGES[stage]}: {games:,} games per evaluation", err=True)
        self.last = (stage, games)


STAGES = {"search": "searching on the search deals", "confirm": "confirming on fresh deals",
          "interval": "each seat's interval on the fresh deals"}


def _check_toml_out(out):
    """Refuse an ``--out`` that is not a new ``.toml`` file in an existing folder (never over a user's file)."""
    path = Path(out)
    if path.suffix != ".toml":
        raise RunError(f"--out {out}: give a file name ending in .toml")
    if path.exists():
        raise RunError(f"--out {out} already exists; choose a new file (playtest does not write over it)")
    if not path.absolute().parent.is_dir():
        raise RunError(f"--out {out}: the folder {path.absolute().parent} does not exist")


MEASURES = ("win share", "first seat edge", "largest seat edge", "mean rounds", "mean score spread")


@click.command()
@options.game()
@options.players()
@click.option("--card", "names", multiple=True, help="Only this card (repeat for several) [default: every card].")
@options.games(4000, per="table", rotation="flag", minimum=100)
@options.seed()
@lineup_options("Strategy name; once for every seat, or once per seat.")
@options.out("the tables played (cards.json, runs/, report.html) [default: none kept]")
@click.option("--force", is_flag=True, help="Replace an earlier cards run in --out (a folder holding only one).")
@options.resume()
@options.threads()
@backend_options
@click.option("--measure", type=click.Choice(MEASURES), default="win share", show_default=True, metavar="MEASURE",
              help=f"What the opening table ranks the cards by ({', '.join(MEASURES)}): the win share of the "
                   f"seats holding a card minus the others' (dealt: causal; played or bought: an association), or "
                   f"what removing it changes.")
@options.report()
@options.json()
def cards(game, players, names, games, seed, strategies, rotate_seats, strategy_files, params, variant, setup, out,
          force, resume, threads, backend, scheduler, workers, measure, make_report, as_json):
    """Which card matters? Remove each card (or kind) of GAME's setup table and play the same deals: the change
    in the first seat's edge, the largest edge, the game length and the score spread, with corrected intervals;
    and who holds it: the win share of the seats dealt (causal) or playing (observational) a card.

    Every table plays the same deals (--seed). The report needs --out. --json prints a list of {card, measure,
    effect, low, high, kind, meaning} (kind: causal, observational, or not playable with the reason as its
    meaning)."""
    from analyses import cards as card_effects

    if force and resume:
        raise RunError("--force and --resume exclude each other")
    if resume and out is None:
        raise RunError("--resume needs the --out directory of the interrupted cards run")
    base = run_record(game, players, seed, strategies, strategy_files, params, variant, setup, rotate_seats,
                      games=games, threads=threads)

    def playing(card, index, count):
        if not as_json:
            what = "the table as it is" if card is None else f"without {card}"
            click.echo(f"table {index + 1} of {count}: {what} ({games:,} {'deals' if rotate_seats else 'games'})",
                       err=True)

    play = dict(names=list(names), on_table=playing, backend=backend, scheduler=scheduler, workers=workers)
    layout = rundir.CARDS
    try:
        api.card_plan(base, names=list(names))  # bad input refused before anything is written or replaced
        with tempfile.TemporaryDirectory(prefix="playtest-cards-") as scratch:
            target = Path(out) if out is not None else Path(scratch) / "cards"
            try:
                if resume:
                    if not (target / card_effects.MANIFEST).is_file():
                        raise RunError(f"--resume: {target} holds no cards run to continue (no "
                                       f"{card_effects.MANIFEST})")
                    rundir.refuse_foreign(target, layout, "resume the cards run in")
                    found = api.cards(base, out=target, resume=True, **play)
                else:
                    with rundir.claim(target, layout, force=force):
                        found = api.cards(base, out=target, **play)
            except KeyboardInterrupt:
                interrupted(f"\ninterrupted: finished tables are on disk in {out}; run the same command with "
                            f"--resume to finish" if out else "\ninterrupted", scratch)
    except card_effects.CardError as exc:
        raise RunError(str(exc)) from None
    effects, meanings, unplayable = (found.info[k] for k in ("effects", "meanings", "unplayable"))
    sentences = card_effects.outlier_sentences(effects, meanings, measure)
    report = Path(out) / "report.html" if out is not None and make_report else None
    if report is not None:
        from reports.build import render
        from reports.cards_report import cards_section

        section = cards_section(f"{game_registry.get(game).title}: which card matters ({base.players} players)",
                                effects, meanings, unplayable, measure)
        render([section], report, title=section.title, source=f"playtest cards {game}")
    if as_json:
        rows = [{**r, "meaning": meanings.get(r["card"])} for r in card_effects.frame(effects).to_dicts()]
        rows += [{"card": card, "measure": None, "effect": None, "low": None, "high": None, "kind": "not playable",
                  "meaning": why} for card, why in unplayable.items()]
        click.echo(json.dumps(rows, indent=2))
        return
    terminal.console().print(ranking_table(effects, measure))
    for card, why in unplayable.items():
        terminal.echo(f"{card}: not playable without it: {why}")
    for line in sentences:
        terminal.echo(line)
    if report is not None:
        terminal.echo(str(report))


def ranking_table(effects, measure):
    """The rich table ``cards`` opens with: every card ranked by the size of its effect on ``measure``, its
    corrected interval and whether the effect is causal or an association; cells wrap to the width."""
    from rich.table import Table

    from analyses import cards as card_effects

    rows = card_effects.ranking_rows(effects, measure)
    table = Table(title=card_effects.ranking_title(measure), title_justify="left", show_edge=False, pad_edge=False)
    for name, justify in (("rank", "right"), ("card", "left"), ("effect", "right"),
                          ("corrected 95% interval", "right"), ("causal or association", "left")):
        table.add_column(name, justify=justify, overflow="fold")
    for r in rows:
        table.add_row(str(r["rank"]), r["card"], r["effect"], r["interval"], r["evidence"])
    if not rows:
        table.add_row("-", f"no card has a {measure} row", "", "", "")
    return table
