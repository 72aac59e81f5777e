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


def test_warm_compiles_or_loads_the_kernels_of_a_game():
    result = CliRunner().invoke(cli, ["warm", "forks"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith("2 kernels ready; compiled in ")


def test_warm_refuses_an_unknown_game():
    result = CliRunner().invoke(cli, ["warm", "forkz"])
    assert result.exit_code == 2 and "forkz" in result.output
