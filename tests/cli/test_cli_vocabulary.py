"""One command-line vocabulary (playtest/options.py): the shared options are declared once, every option says
what it does, every help page fits 80 columns and the main help cuts no summary."""

import click
import pytest
from click.testing import CliRunner

from playtest import options
from playtest.cli import cli


def commands():
    """``(path, command)`` of every command, the `unfair` subcommands included ("unfair dice")."""
    ctx = click.Context(cli)
    found = []
    for name in cli.list_commands(ctx):
        command = cli.get_command(ctx, name)
        if isinstance(command, click.Group):
            sub = click.Context(command, parent=ctx)
            found += [(f"{name} {s}", command.get_command(sub, s)) for s in command.list_commands(sub)]
        found.append((name, command))
    return found


def test_every_option_says_what_it_does():
    silent = [f"{path} {param.opts[0]}" for path, command in commands()
              for param in command.params if isinstance(param, click.Option) and not param.hidden
              and not (param.help or "").strip()]
    assert silent == []


@pytest.mark.parametrize("path", [path for path, _ in commands()])
def test_every_help_page_fits_80_columns(path):
    result = CliRunner(env={"COLUMNS": "80"}).invoke(cli, [*path.split(), "--help"])
    assert result.exit_code == 0, result.output
    assert max(map(len, result.output.splitlines())) <= 80, result.output


@pytest.mark.parametrize("group", [[], ["unfair"]])
def test_the_command_lists_cut_no_summary(group):
    result = CliRunner(env={"COLUMNS": "80"}).invoke(cli, [*group, "--help"])
    assert result.exit_code == 0, result.output
    assert "..." not in result.output.partition("Commands:")[2]
    said = " ".join(result.output.split())
    for path, command in commands():
        if path.split()[:-1] == group and not command.hidden:
            assert " ".join(command.get_short_help_str(limit=10 ** 6).split()) in said, path


def test_no_command_declares_a_shared_option_by_hand():
    by_hand = []
    for path, command in commands():
        for param in command.params:
            shared = (param.human_readable_name == "GAME" if isinstance(param, click.Argument)
                      else any(o in options.SHARED for o in param.opts))
            made_here = isinstance(param, (options.SharedOption, options.SharedArgument, options.FormerSpelling))
            if shared and not made_here:
                by_hand.append(f"{path} {param.human_readable_name}")
    assert by_hand == []


def test_every_seed_starts_at_0_and_every_margin_at_the_verdicts_default():
    from analyses.verdict import DEFAULT_MARGIN

    assert options.MARGIN == DEFAULT_MARGIN
    defaults = {(path, param.name): param.default for path, command in commands()
                for param in command.params if param.name in ("seed", "margin")}
    assert defaults and all(v == (0 if name == "seed" else DEFAULT_MARGIN) for (_, name), v in defaults.items())


@click.command()
@options.games(10, aliases=("--deals",))
def counted(games):
    click.echo(games)


@pytest.mark.parametrize("args, out, code", [
    ([], "10\n", 0), (["-n", "7"], "7\n", 0), (["--games", "7"], "7\n", 0),
    (["--deals", "5"], "note: --deals is deprecated; write -n/--games\n5\n", 0),
    (["--deals", "5", "-n", "7"], "give -n/--games or --deals, not both", 2),
    (["-n", "7", "--deals", "5"], "give -n/--games or --deals, not both", 2),
])
def test_a_former_spelling_is_a_hidden_alias_with_a_note(args, out, code):
    result = CliRunner().invoke(counted, args)
    assert result.exit_code == code and out in result.output, result.output
    assert "--deals" not in CliRunner().invoke(counted, ["--help"]).output


@pytest.mark.parametrize("command, args, name, value", [
    ("ladder", ["forks", "-o", "l", "--deals", "30"], "games", 30),
    ("tune", ["forks", "hedger", "-f", "greedy", "-o", "t.toml", "--deals", "30"], "games", 30),
    ("restrict", ["forks", "--forbid", "market-held", "--deals", "30"], "games", 30),
    ("restrict", ["forks", "--forbid", "market-held", "--margin", "2.5"], "negligible", 2.5),
    ("search-gain", ["forks", "--deals", "30"], "games", 30),
    ("skill", ["forks", "-o", "s", "--max-games", "300"], "games", 300),
    ("skill", ["forks", "-o", "s", "--deals", "30"], "match_deals", 30),
])
def test_the_former_spellings_of_the_skill_commands_still_parse(command, args, name, value, capsys):
    """``--deals``, ``--max-games`` and restrict's ``--margin`` were renamed; the old spellings set the new
    parameter (with a note) for one release."""
    found = cli.get_command(click.Context(cli), command)
    assert found.make_context(command, list(args)).params[name] == value
    assert "is deprecated; write" in capsys.readouterr().err


def test_search_gain_reads_its_arm_vector_from_the_shared_param():
    from playtest.cli_skill import _mcts_param

    assert _mcts_param(["mcts=2,0.5"]) == _mcts_param(["2,0.5"]) == "2.0,0.5"
    assert _mcts_param([]) is None
    with pytest.raises(click.UsageError, match="only sets the new arm's mcts vector"):
        _mcts_param(["hedger=1"])


# a value for each required option and argument, so that a test can leave out exactly one option
GIVEN = {"-p": "4", "--strategy": "random", "--field": "random", "--forbid": "play", "--game": "0",
         "game": "fool", "strategy": "cautious", "target": "fool"}


def _required_options():
    return [(path, param.opts[0]) for path, command in commands() for param in command.params
            if isinstance(param, click.Option) and param.required]


@pytest.mark.parametrize("path,left_out", _required_options())
def test_a_required_option_left_out_is_named_and_nothing_runs(path, left_out, tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text("")
    given = dict(GIVEN, **{"--grid": str(grid), "-o": str(tmp_path / "out")})
    command = dict(commands())[path]
    args = [given[p.name] for p in command.params if isinstance(p, click.Argument)]
    for param in command.params:
        if isinstance(param, click.Option) and param.required and param.opts[0] != left_out:
            args += [param.opts[0], given[param.opts[0]]]
    result = CliRunner().invoke(cli, [*path.split(), *args])
    assert result.exit_code == 2, result.output   # before: --out left out gave a traceback, or train ran
    assert "Missing option" in result.output and left_out in result.output, result.output
    assert not (tmp_path / "out").exists()
