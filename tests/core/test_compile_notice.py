"""Every compile says what it compiles, and `playtest warm` compiles a game's kernels ahead of use."""

import numba as nb
from click.testing import CliRunner

from playtest import compile_notice
from playtest.cli import cli
from simulator.core.kernels import label


def triple(x):
    return 3 * x


def test_a_compile_is_named_on_stderr_in_a_log_and_its_time_counted(capfd):
    compile_notice.install()
    before = compile_notice.seconds()
    kernel = label(nb.njit(triple), "a test kernel")
    assert kernel(2) == 6
    err = capfd.readouterr().err
    assert err.startswith("compiling a test kernel (")
    assert compile_notice.seconds() > before
    assert kernel(3) == 9  # compiled already: nothing said
    assert capfd.readouterr().err == ""


def test_a_wait_for_a_compile_elsewhere_is_said_and_counted_as_compiling(capfd):
    compile_notice.install()
    before = compile_notice.seconds()
    with compile_notice.waiting("a kernel in another process"):
        pass
    assert capfd.readouterr().err.startswith("compiling a kernel in another process (")
    assert compile_notice.seconds() > before


def test_warm_compiles_or_loads_the_kernels_of_a_game():
    result = CliRunner().invoke(cli, ["warm", "forks"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith("2 kernels ready in ")


def test_warm_refuses_an_unknown_game():
    result = CliRunner().invoke(cli, ["warm", "forkz"])
    assert result.exit_code == 2 and "forkz" in result.output


def test_a_command_that_compiled_ends_with_its_compile_and_other_time_apart(monkeypatch):
    clock = iter([0.0, 2.5])   # compiling seconds before the command and after it
    monkeypatch.setattr(compile_notice, "seconds", lambda: next(clock))
    monkeypatch.setattr(compile_notice, "has_descriptor", lambda stream: True)   # as a terminal or a log
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    last = result.stderr.splitlines()[-1]
    assert last.startswith("done in ") and ": compiling 2.5 s, the rest " in last


def test_a_command_that_compiled_nothing_adds_no_line(monkeypatch):
    monkeypatch.setattr(compile_notice, "has_descriptor", lambda stream: True)
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0 and "done in" not in result.stderr
