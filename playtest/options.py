"""The command-line vocabulary: every option the commands share, declared once.

Each shared option has one spelling, one meaning, one default and one help
text, and a command takes it by decorating itself with the factory of the
same name, always called::

    @click.command()
    @options.game()
    @options.games(10_000, per="lineup", rotation="always")
    @options.seed()
    @options.out("the tournament (tournament.json, one run per lineup)", kind="dir", required=True)
    @options.json()
    def tournament(game, games, seed, out, as_json): ...

The parameters a command receives are named as below (``game``, ``games``,
``seed``, ``threads``, ``margin``, ``out``, ``as_json``, ``make_report``,
``resume``, ``players``, ``variant``, ``setup``, ``params``,
``strategy_files``, ``fmt``). Every option made here is a ``SharedOption`` (GAME a
``SharedArgument``), so ``SHARED`` lets a test check that no command
declares one of these spellings by hand. A spelling a command used before
(``--deals`` for ``--games``) stays accepted as a hidden alias that prints a
one-line deprecation note (``aliases=``).

Moving a command onto this module is mechanical: replace each
``click.option``/``click.argument`` of a spelling in ``SHARED`` by the
factory of the same name, name the function's parameter as above (a former
spelling becomes ``aliases=``: ``--deals`` gives ``games(500,
rotation="always", aliases=("--deals",))``), and keep the command's own
options (``--strategy``, ``--force``, ...) as they are.
"""

import click
from click.core import ParameterSource

from playtest.cli_types import GameChoice, OutputPath, margin_type
from simulator import games as game_registry
from simulator.core.run_options import MAX_SEED

__all__ = ["SHARED", "FormerSpelling", "SharedArgument", "SharedOption", "renamed", "game", "games", "seed",
           "threads", "margin", "out", "json", "report", "report_format", "resume", "players", "variant", "setup", "param", "strategy_file"]

MARGIN = 1.0  # points of win share: analyses.verdict.DEFAULT_MARGIN (not imported: it would load scipy at start)

# the long spelling of every shared option (and the GAME argument): none may be declared by hand
SHARED = ("GAME", "--games", "--seed", "--threads", "--margin", "--out", "--json", "--report", "--resume",
          "--players", "--variant", "--setup", "--param", "--strategy-file", "--format")


class SharedOption(click.Option):
    """A ``click.Option`` made by this module (a test tells it from one declared by hand)."""


class SharedArgument(click.Argument):
    """The GAME argument, made by this module."""


class FormerSpelling(click.Option):
    """A hidden former spelling of an option (``aliases=``): it only hands its value to the option it names."""


def _option(*decls, aliases=(), cls=SharedOption, **attrs):
    """A ``SharedOption`` decorator; each of ``aliases`` (a former spelling) is a hidden option that sets the
    same parameter and prints a deprecation note."""
    attrs.setdefault("show_default", attrs.get("default") is not None and not attrs.get("is_flag"))
    if attrs.get("required") and attrs.get("default", 0) is None:
        del attrs["default"]   # click 8.3 and later take an explicit default None as a value: nothing is missing
    main = click.option(*decls, cls=cls, callback=_take_alias, **attrs)

    def decorate(f):
        for alias in aliases:
            f = click.option(alias, f"{decls[-1]}__{alias.lstrip('-').replace('-', '_')}", cls=FormerSpelling, type=attrs.get("type"),
                             default=None,
                             hidden=True, expose_value=False, callback=_alias_of(decls))(f)
        return main(f)
    return decorate


ALIASES = "playtest.options.aliases"


def _alias_of(decls):
    """The callback of a hidden former spelling: note the deprecation and hand its value to the shared option."""
    name, spelling = decls[-1], "/".join(d for d in decls if d.startswith("-"))

    def remember(ctx, param, value):
        if value is None:
            return
        click.echo(f"note: {param.opts[0]} is deprecated; write {spelling}", err=True)
        if name in ctx.params and ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE:
            raise click.UsageError(f"give {spelling} or {param.opts[0]}, not both")
        ctx.meta.setdefault(ALIASES, {})[name] = (param.opts[0], value)
        if name in ctx.params:  # the shared option was processed first, with its default
            ctx.params[name] = value
    return remember


def _take_alias(ctx, param, value):
    """The shared option's callback: a value given by a former spelling replaces the default."""
    given = ctx.meta.get(ALIASES, {}).get(param.name)
    if given is None:
        return value
    if ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE:
        raise click.UsageError(f"give {'/'.join(param.opts)} or {given[0]}, not both")
    return given[1]


def renamed(*decls, aliases, **attrs):
    """A command's own option (not shared) whose former spellings ``aliases`` stay accepted as hidden options
    that print a deprecation note, as a shared option's do."""
    return _option(*decls, aliases=aliases, cls=click.Option, **attrs)


def game(many=False, required=True):
    """GAME: the name of a game playtest knows (a misspelt name gets a "did you mean"); ``many``: one or more
    (a command over several games, such as ``bench``), a tuple, empty when not ``required``."""
    metavar = "GAME..." if many else "GAME"
    return click.argument("game", cls=SharedArgument, type=GameChoice(game_registry.names()), nargs=-1 if many else 1,
                          required=required, metavar=metavar if required else f"[{metavar}]")


ROTATION_NOTE = {
    "never": "",
    "flag": "; with --rotate-seats, deals, each played once per rotation of the seats",
    "always": "; seats are rotated, so these are deals, each played once per rotation of the seats",
}


def games(default, *, per=None, rotation="never", minimum=1, maximum=None, aliases=(), default_text=None):
    """``-n/--games``: how many games to play (``per``: "lineup", "configuration", ...), at least ``minimum``.

    ``rotation`` says when the count is of deals: ``"never"``, ``"flag"``
    (with ``--rotate-seats``) or ``"always"`` (a command that always rotates
    the seats). ``default`` None is a default the help names in words
    (``default_text``, such as "sized per game").
    """
    each = f" per {per}" if per else ""
    said = f" [default: {default_text}]" if default_text else ""
    return _option("-n", "--games", "games", type=click.IntRange(minimum, maximum), default=default,
                   aliases=aliases, help=f"Games to play{each}{ROTATION_NOTE[rotation]}.{said}")


def seed(maximum=MAX_SEED):
    """``--seed``: the run seed, from 0 to ``maximum`` (a command that plays further seeds after it lowers it)."""
    return _option("--seed", type=click.IntRange(0, maximum), default=0,
                   help=f"Run seed (0 to {maximum:,}); game i of a seed is always the same game.")


def threads():
    """``--threads``: threads of the local run (checked against the cores by ``RunOptions``)."""
    return _option("--threads", type=int, default=None, help="Threads, from 1 to the number of cores "
                                                             "[default: all cores].")


def margin():
    """``--margin``: the balance margin of every verdict, in points of win share."""
    return _option("--margin", type=margin_type(), default=MARGIN,
                   help="Balanced means every seat's edge is within ± this many points of win share.")


def out(what, *, kind="dir", required=False, default=None):
    """``-o/--out``: where the command writes ``what`` (words such as "the run (seats/*.parquet, manifest.json)");
    ``kind`` is ``"dir"`` or ``"file"``."""
    path = OutputPath(file_okay=kind == "file", dir_okay=kind == "dir")
    return _option("-o", "--out", "out", type=path, required=required, default=default,
                   help=f"Where to write {what}.")


def json():
    """``--json``: print the result as JSON, and nothing else on standard output."""
    return _option("--json", "as_json", is_flag=True, help="Print the result as JSON instead of text.")


def report():
    """``--report/--no-report``: also write ``<out>/report.html``."""
    return _option("--report/--no-report", "make_report", default=True, show_default=True,
                   help="Also write <out>/report.html.")


def report_format():
    """``--format html|md`` of a report file; without it the suffix of ``--out`` decides
    (``cli_types.check_report_out``)."""
    return _option("--format", "fmt", type=click.Choice(["html", "md"]), default=None,
                   help="html: one self-contained file; md: Markdown with PNG files [default: the suffix of --out].")


def resume(play_on=False):
    """``--resume``: continue the interrupted run in ``--out``; ``play_on``: the command also plays a finished
    run on when given more ``--games``."""
    more = ", or more --games to play on" if play_on else ""
    return _option("--resume", is_flag=True, help=f"Continue the interrupted run in --out (give the same "
                                                  f"options{more}): keep what is finished, play the rest.")


def players(required=False, many=False):
    """``-p/--players``: the player count; without it the game's usual count (unless ``required``). ``many``:
    several counts as text, ``"2,3,4"`` (the command splits it), every count of the setup table by default."""
    if many:
        return _option("-p", "--players", "players", default=None, metavar="N,N,...", required=required,
                       help="Numbers of players, comma-separated [default: every count of the setup table].")
    return _option("-p", "--players", "players", type=int, default=None, required=required,
                   help="Number of players" + ("." if required else " [default: the game's usual count]."))


def variant():
    """``--variant``: the rules variant."""
    return _option("--variant", default="standard", help="Rules variant (see `playtest games`).")


def setup():
    """``--setup``: a TOML file over the game's setup table."""
    return _option("--setup", type=click.Path(dir_okay=False), default=None,
                   help="TOML file whose keys replace parts of the setup table (see `playtest setup GAME`).")


def param():
    """``--param NAME=V1,V2,...`` (repeatable): a seated strategy's parameter vector (``parse_params``)."""
    return _option("--param", "params", multiple=True, metavar="NAME=V1,V2,...",
                   help="Replace a strategy's parameter vector (as many values as its default); NAME=@FILE reads "
                        "it from a file (a TOML file with params, or a .npy or .txt list of numbers).")


def strategy_file():
    """``--strategy-file FILE`` (repeatable): a Python file defining the user's own strategies."""
    return _option("--strategy-file", "strategy_files", multiple=True, type=click.Path(),
                   help="A Python file defining your own strategy (see README); its NAME can then be used "
                        "with --strategy.")
