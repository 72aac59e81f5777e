"""Strategy files and parameter vectors in plain language: every mistake is one `error:` line naming the file
(or the strategy) and what to fix, exit code 2, nothing written; numba's own text only with --verbose.

Each mistake is caught before a kernel is compiled (the decision function alone is compiled for the
typing and return checks); only a strategy that raises needs the kernels, the same ones as the fault tests
(tests/core/test_core_faults.py), cached for the session.
"""

import re
from pathlib import Path

import pytest

from strategies.games import PACKAGES, strategy_set
from strategies.registry import StrategyError
from cli_support import invoke

ROOT = Path(__file__).parents[2]
FORKS_ARGS = "kind, opt_dest, opt_value, n_options, obs, params, rng"
GOOD_BODY = "    return 0\n"


def strategy_file(tmp_path, text, name="mine.py"):
    path = tmp_path / name
    path.write_text(text)
    return path


def forks_file(tmp_path, body=GOOD_BODY, header='NAME = "mine"', args=FORKS_ARGS, name="mine.py"):
    return strategy_file(tmp_path, f"{header}\n\ndef decide({args}):\n{body}", name)


def assert_one_error_line(result, *fragments):
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def simulate_with(tmp_path, path, *extra):
    """``simulate forks`` seating the file's strategy ``mine``; asserts nothing was written."""
    out = tmp_path / "run"
    result = invoke("simulate", "forks", "--games", 10, "--strategy-file", path, "-s", "mine", "-s", "random",
                    "-s", "random", "-s", "random", "--out", out, *extra)
    assert not out.exists()
    return result


# --- mistakes found when the file is loaded ---------------------------------------------------------------

LOAD_MISTAKES = {
    "no decide": ('NAME = "mine"\nX = 1\n', ["defines no function named decide", f"def decide({FORKS_ARGS})"]),
    "no NAME": (f"def decide({FORKS_ARGS}):\n{GOOD_BODY}", ["defines no NAME", "NAME = 'mine'"]),
    "NAME not a word": (f'NAME = "my strategy"\ndef decide({FORKS_ARGS}):\n{GOOD_BODY}', ["NAME must be a word"]),
    "NAME a number": (f'NAME = 3\ndef decide({FORKS_ARGS}):\n{GOOD_BODY}', ["NAME must be a word", "got 3"]),
    "decide not a function": ('NAME = "mine"\ndecide = 3\n', ["decide must be a function, got int"]),
    "too few arguments": (f'NAME = "mine"\ndef decide(kind, obs, params, rng):\n{GOOD_BODY}',
                          ["decide(kind, obs, params, rng) takes 4 arguments", f"decide({FORKS_ARGS})"]),
    "varargs": (f'NAME = "mine"\ndef decide(*args):\n{GOOD_BODY}', ["must list its 7 arguments by name"]),
    "keyword-only": (f'NAME = "mine"\ndef decide(kind, opt_dest, opt_value, n_options, obs, *, params, rng):\n'
                     f'{GOOD_BODY}', ["must list its 7 arguments by name"]),
    "written for Fool!": (f'NAME = "mine"\ndef decide(opt_colour, opt_value, n_options, obs, params, rng):\n'
                          f'{GOOD_BODY}', ["takes 6 arguments", "it looks written for Fool!"]),
    "import fails": ('from simulator.forks.layout import NO_SUCH_NAME\nNAME = "mine"\n',
                     [", line 1 failed to load: ImportError", "NO_SUCH_NAME"]),
    "module missing": ('NAME = "mine"\nimport no_such_module_anywhere\n',
                       [", line 2 failed to load: ModuleNotFoundError", "no_such_module_anywhere"]),
    "syntax error": (f'NAME = "mine"\n\ndef decide({FORKS_ARGS})\n{GOOD_BODY}', [", line 3 failed to load: SyntaxError"]),
    "raises while loading": ('NAME = "mine"\nTABLE = {}\nWEIGHT = TABLE["w"]\n', [", line 3 failed to load: KeyError"]),
    "exits while loading": ('import sys\nsys.exit(4)\n', [", line 2 failed to load: SystemExit: 4"]),
    "PARAMS not finite": (f'NAME = "mine"\nPARAMS = [1.0, float("inf")]\ndef decide({FORKS_ARGS}):\n{GOOD_BODY}',
                          ["PARAMS must be finite numbers, got inf at position 1"]),
    "PARAMS not numbers": (f'NAME = "mine"\nPARAMS = [1.0, "2"]\ndef decide({FORKS_ARGS}):\n{GOOD_BODY}',
                           ["PARAMS must be a list of numbers, got '2' at position 1"]),
    "PARAMS a number": (f'NAME = "mine"\nPARAMS = 0.5\ndef decide({FORKS_ARGS}):\n{GOOD_BODY}',
                        ["PARAMS must be a list of numbers, got 0.5"]),
    "numpy's global generator": (f'import numpy as np\nNAME = "mine"\ndef decide({FORKS_ARGS}):\n'
                                 f'    return np.random.randint(n_options)\n', [", line 4: uses a global random"]),
    "Python's random module": (f'NAME = "mine"\nfrom random import randrange\ndef decide({FORKS_ARGS}):\n'
                               f'    return randrange(n_options)\n', [", line 2: uses a global random generator",
                                                                     "simulator.core.rng.randint(rng"]),
    "NAME of a built-in": (f'NAME = "greedy"\ndef decide({FORKS_ARGS}):\n{GOOD_BODY}',
                           ["NAME 'greedy' is already a built-in strategy of Forks", "choose another NAME"]),
}


@pytest.mark.parametrize("mistake", LOAD_MISTAKES)
def test_a_file_that_cannot_be_loaded_is_one_line_naming_the_file(tmp_path, mistake):
    text, fragments = LOAD_MISTAKES[mistake]
    path = strategy_file(tmp_path, text)
    assert_one_error_line(simulate_with(tmp_path, path), f"error: strategy file {path}", *fragments)
    # the same check, and the same line, when only listing strategies
    assert_one_error_line(invoke("strategies", "forks", "--strategy-file", path), f"strategy file {path}")


def test_a_forks_file_given_to_fool_says_it_looks_written_for_forks(tmp_path):
    path = forks_file(tmp_path)
    result = invoke("simulate", "fool", "--strategy-file", path, "-s", "mine", "--out", tmp_path / "run")
    assert_one_error_line(result, f"strategy file {path}", "a Fool! decision function is decide(opt_colour, "
                          "opt_value, n_options, obs, params, rng)", "it looks written for Forks")
    assert not (tmp_path / "run").exists()


def test_renamed_arguments_of_the_right_number_are_accepted(tmp_path):
    path = forks_file(tmp_path, args="k, dest, value, n, observed, weights, stream")
    assert strategy_set("forks").add_file(path).name == "mine"


def test_two_files_with_one_name_name_both_files(tmp_path):
    first = forks_file(tmp_path, name="a.py")
    second = forks_file(tmp_path, body="    return 1\n", name="b.py")
    result = invoke("strategies", "forks", "--strategy-file", first, "--strategy-file", second)
    assert_one_error_line(result, f"strategy file {second}: NAME 'mine' is already strategy file {first}")


@pytest.mark.parametrize("where, fragment", [("missing.py", "not found"), ("folder", "must be a Python file"),
                                             ("notes.txt", "must be a Python file ending in .py")])
def test_a_path_that_is_no_python_file_is_one_line(tmp_path, where, fragment):
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text(f'NAME = "mine"\ndef decide({FORKS_ARGS}):\n{GOOD_BODY}')
    assert_one_error_line(simulate_with(tmp_path, tmp_path / where), f"strategy file {tmp_path / where}", fragment)


def test_verbose_adds_the_traceback_of_a_failing_import(tmp_path):
    path = strategy_file(tmp_path, 'NAME = "mine"\nimport no_such_module_anywhere\n')
    result = invoke("--verbose", "strategies", "forks", "--strategy-file", path)
    assert result.exit_code == 2
    first, *rest = result.output.splitlines()
    assert first.startswith(f"error: strategy file {path}, line 2")
    assert rest[0] == "Traceback (most recent call last):" and "ModuleNotFoundError" in rest[-1]


# --- mistakes found by compiling decide alone ---------------------------------------------------------------

COMPILE_MISTAKES = {
    "float return": ("    return 0.5\n", ["decide returns float64; it must return the index of the chosen option "
                                          "as an integer"]),
    "a path without return": ("    if kind == 0:\n        return 1\n", ["decide can end without a return"]),
    "unsigned return": ("    return rng[0]\n", ["decide returns uint64"]),
    "tuple return": ("    return 0, 1\n", ["decide returns Tuple("]),
    "unknown attribute": ("    x = obs.size_of_it\n    return 0\n",
                          [", line 4: decide does not compile: Unknown attribute 'size_of_it'"]),
    "plain Python helper": ("    return helper(obs)\n", ["decide does not compile:", "'helper'"]),
    "indexing a number": ("    return kind[0]\n", [", line 4: decide does not compile: No implementation of function",
                                                    "getitem(int64"]),
}


@pytest.mark.parametrize("mistake", COMPILE_MISTAKES)
def test_a_decide_that_does_not_type_as_an_integer_choice_is_one_line(tmp_path, mistake):
    body, fragments = COMPILE_MISTAKES[mistake]
    header = 'NAME = "mine"\n\ndef helper(obs):\n    return 0' if mistake == "plain Python helper" else 'NAME = "mine"'
    path = forks_file(tmp_path, body, header=header)
    assert_one_error_line(simulate_with(tmp_path, path), f"error: strategy file {path}", *fragments)


def test_verbose_adds_numbas_full_message_to_a_typing_error(tmp_path):
    path = forks_file(tmp_path, "    x = obs.size_of_it\n    return 0\n")
    result = simulate_with(tmp_path, path, "--verbose")
    assert result.exit_code == 2
    first, *rest = result.output.splitlines()
    assert first.startswith(f"error: strategy file {path}, line 4: decide does not compile")
    assert any(line.startswith("Failed in nopython mode pipeline") for line in rest)
    assert any(line.startswith("File ") and line.endswith(f'{path.name}", line 4:') for line in rest)


def test_a_strategy_raising_at_its_first_call_is_one_line_and_nothing_is_written(tmp_path):
    faulty = Path(__file__).with_name("faulty_strategy.py")  # raises in game 0 of seed 2
    out = tmp_path / "run"
    result = invoke("simulate", "forks", "--games", 100, "--seed", 2, "--strategy-file", faulty, "-s", "faulty",
                    "-s", "random", "-s", "random", "-s", "random", "--out", out)
    assert result.exit_code == 2
    assert result.output == "error: strategy 'faulty' raised ValueError: no card to play in game 0 of the run " \
                            "with seed 2\n"
    assert not out.exists()


# --- parameter vectors ---------------------------------------------------------------------------------------

PARAM_MISTAKES = {
    "too short": (["leader=1,2"], "parameters for 'leader': it takes 8 values (default 3,2,1,-1,-2,-2,-2,-2), got 2"),
    "too long": (["hedger=1,2"], "parameters for 'hedger': it takes 1 value (default 0.5), got 2"),
    "not a number": (["leader=1,2,x"], "--param 'leader=1,2,x' is not NAME=number,number,..."),
    "empty": (["leader="], "--param 'leader=' is not NAME=number,number,..."),
    "no name": (["=1"], "--param '=1' is not NAME=number,number,..."),
    "nan": (["hedger=nan"], "parameters for 'hedger': must be finite numbers, got nan at position 0"),
    "infinite": (["hedger=-inf"], "parameters for 'hedger': must be finite numbers, got -inf at position 0"),
    "no parameters": (["random=1"], "parameters for 'random': it has no parameters"),
    "not seated": (["pusher=1"], "parameters for 'pusher': no seat plays it (seated: leader, hedger, random)"),
    "unknown": (["genius=1"], "unknown strategy 'genius' for forks (choose from random, greedy, leader, pusher, "
                              "hedger, mcts, learned, expert, or load your own with --strategy-file)"),
    "given twice": (["hedger=1", "hedger=2"], "--param hedger is given twice"),
}


@pytest.mark.parametrize("mistake", PARAM_MISTAKES)
def test_a_parameter_vector_that_does_not_fit_is_one_line_before_any_play(tmp_path, mistake):
    items, message = PARAM_MISTAKES[mistake]
    out = tmp_path / "run"
    params = [a for item in items for a in ("--param", item)]
    result = invoke("simulate", "forks", "-s", "leader", "-s", "hedger", "-s", "random", "-s", "random",
                    *params, "--out", out)
    assert result.output == f"error: {message}\n"
    assert not out.exists()


def test_parameters_that_fit_replace_the_default_in_every_seat_that_plays_the_strategy():
    sids, matrix, names = strategy_set("forks").seats(["hedger", "leader", "hedger", "random"], 4,
                                                      {"hedger": [2], "leader": [8, 7, 6, 5, 4, 3, 2, 1]})
    assert names == ["hedger", "leader", "hedger", "random"]
    assert matrix.tolist() == [[2, 0, 0, 0, 0, 0, 0, 0], [8, 7, 6, 5, 4, 3, 2, 1],
                               [2, 0, 0, 0, 0, 0, 0, 0], [0] * 8]


def test_the_api_refuses_parameters_that_are_not_a_list_of_numbers():
    sset = strategy_set("forks")
    for bad in (0.5, "0.5", [True], [None]):
        with pytest.raises(StrategyError, match="parameters for 'hedger': must be a list of numbers"):
            sset.seats(["hedger"], 4, {"hedger": bad})


# --- the documented signatures --------------------------------------------------------------------------------

@pytest.mark.parametrize("game", PACKAGES)
def test_each_games_declared_signature_is_the_one_its_layout_documents(game):
    sset = strategy_set(game)
    package = PACKAGES[game].split(".")[1]
    layout = (ROOT / "simulator" / package / "layout.py").read_text()
    documented = re.search(r"^\s+decide\((.*)\) -> int$", layout, re.M).group(1)
    assert sset.decision.text() == f"decide({documented})"
    assert len(sset.decision.types) == len(sset.decision.args)
    for s in sset.builtins:
        assert len(s.decide.py_func.__code__.co_varnames[:s.decide.py_func.__code__.co_argcount]) == \
            len(sset.decision.args), s.name
