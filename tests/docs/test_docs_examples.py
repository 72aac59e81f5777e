"""Every command the README and the tutorials show runs, and prints the first line the page shows under it.

A page shows what a command leaves on the terminal: its standard output. Progress and compile notices go
to standard error and are not shown (in a terminal they are live lines that vanish), so the first line
checked is standard output's.

The pages show small game counts, so the commands run as written: the README's first, then each
tutorial's, in order and in one temporary folder (later commands read what earlier ones wrote; a command
already run is not run again), with ``docs/`` linked into it for the example files the pages name. Runs
in-process, so the commands share the kernels compiled or loaded by the first.
"""

import shlex

import pytest
from click.testing import CliRunner

from playtest.cli import cli
from console_blocks import ROOT, examples, matches

PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs" / "tutorials").glob("*.md"))]


def run(example):
    """Run one ``playtest ...`` command (``> FILE`` writes its output to FILE); returns click's ``Result``."""
    words = shlex.split(example.command)
    assert words[0] == "playtest", f"{example.page}: a console block shows a command that is not playtest's: " \
                                   f"{example.command}"
    target = None
    if ">" in words:
        at = words.index(">")
        words, target = words[:at], words[at + 1]
    result = CliRunner().invoke(cli, words[1:])
    if target is not None and result.exit_code == 0:
        with open(target, "w") as f:
            f.write(result.stdout)
    return result


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """One folder for every page (``docs/`` linked into it) and the result of every command run there: the
    tutorials repeat the README's commands, which run once."""
    path = tmp_path_factory.mktemp("docs-examples")
    (path / "docs").symlink_to(ROOT / "docs")
    return path, {}


@pytest.mark.xdist_group("docs-examples")  # one worker runs every page, in order, in the same folder
@pytest.mark.parametrize("page", PAGES)
def test_every_command_shown_runs_and_prints_its_first_line(page, folder, monkeypatch):
    path, results = folder
    shown = examples(ROOT / page)
    assert shown or page != "README.md", "the README shows no console example"
    monkeypatch.chdir(path)
    monkeypatch.delenv("COLUMNS", raising=False)
    for example in shown:
        if example.command not in results:
            results[example.command] = run(example)
        result = results[example.command]
        assert result.exit_code == 0, f"{page}: `{example.command}` failed:\n{result.output}"
        expected = example.first_line()
        if expected is not None:
            actual = next((line for line in result.stdout.splitlines() if line.strip()), "")
            assert matches(expected, actual), \
                f"{page}: `{example.command}` printed\n  {actual.strip()}\nwhere the page shows\n  {expected}"


def test_a_block_is_read_as_commands_and_their_output(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("text\n\n```console\n$ playtest simulate forks \\\n    --games 10\nFirst line\nsecond\n"
                    "$ playtest games\n...\n```\n\n```sh\n$ playtest not-an-example\n```\n")
    found = examples(page, root=tmp_path)
    assert [(e.command, e.first_line()) for e in found] == [
        ("playtest simulate forks --games 10", "First line"), ("playtest games", None)]


def test_dots_stand_for_left_out_text():
    assert matches("resumed: ... games kept from disk, 0 played now in ... s; results in runs/big",
                   "resumed: 2,000,000 games kept from disk, 0 played now in 0.02 s; results in runs/big")
    assert not matches("Fair Enough: 4 players, 20,000 games, seed 1", "Fair Enough: 4 players, 2,000 games, seed 1")
