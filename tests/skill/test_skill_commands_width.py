"""Every skilled-play command (``tune``, ``ladder``, ``restrict``, ``search-gain``; ``skill`` in test_by_model)
prints through ``playtest.terminal``: piped, with no ``$COLUMNS``, no line is wider than 80 columns."""

import pytest
from click.testing import CliRunner

from playtest import api
from playtest.cli import cli


@pytest.fixture(autouse=True)
def no_columns(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)


def widest(result):
    assert result.exit_code == 0, result.output
    return max(len(line) for line in (result.stdout + result.stderr).splitlines())


def test_tune_fits_80_columns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative path: a printed path is as long as the user's, and is never cut
    result = CliRunner().invoke(cli, ["tune", "forks", "hedger", "--field", "greedy", "--players", "3", "--budget",
                                      "2", "-n", "10", "--confirm-deals", "20", "--out", "t.toml"])
    assert widest(result) <= 80
    assert "confirmed on 20 fresh deals" in " ".join(result.stdout.split())


def test_ladder_and_restrict_fit_80_columns(tmp_path):
    ladder = CliRunner().invoke(cli, ["ladder", "forks", "--first", "2", "--levels", "1", "-n", "10",
                                      "--no-report", "--out", str(tmp_path / "l")])
    assert widest(ladder) <= 80
    assert "budget" in ladder.stdout and "verdict" in ladder.stdout
    restrict = CliRunner().invoke(cli, ["restrict", "forks", "--forbid", "market-held", "--agent", "mcts@2",
                                        "-n", "10"])
    assert widest(restrict) <= 80


def test_ladder_opens_with_the_answer_of_its_report(tmp_path):
    from analyses import ladder
    from reports.ladder_report import verdict_sentence

    out = tmp_path / "l"
    result = CliRunner().invoke(cli, ["ladder", "forks", "--first", "2", "--levels", "2", "-n", "10",
                                      "--no-report", "--out", str(out)])
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    answer = verdict_sentence(ladder.table(out, 1.0)[1], 1.0, ladder.first_edge_change(out))
    assert answer.startswith(("No clear change in the first-seat edge with skill", "The first-seat edge "))
    assert said.index(answer) < said.index("Does the ladder climb?") < said.index("fair share 25.0%;")


def test_search_gain_lines_are_wrapped_to_80_columns(monkeypatch):
    line = "forks: mcts gains +1.23 points (0.50 to 1.96) " * 4

    def measured(games, *, on_line, **_):
        on_line(line)

    monkeypatch.setattr(api, "search_gain", measured)
    result = CliRunner().invoke(cli, ["search-gain", "forks"])
    assert widest(result) <= 80
    assert " ".join(result.stdout.split()) == line.strip()
