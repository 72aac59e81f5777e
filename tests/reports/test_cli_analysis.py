"""The report, sweep and tournament commands, run through click."""

import json

import click
import pytest
from click.testing import CliRunner

from playtest import cli_analysis


@pytest.fixture(scope="module")
def cli():
    group = click.Group()
    for command in (cli_analysis.report, cli_analysis.sweep, cli_analysis.tournament):
        group.add_command(command)
    return group


def test_report_command_prints_the_path(cli, study, tmp_path):
    out = tmp_path / "r.md"
    result = CliRunner().invoke(cli, ["report", str(study["plain"]), "--out", str(out), "--format", "md"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out)
    assert (tmp_path / "r-data" / "plain-seat-edges.png").is_file()


def test_report_command_takes_the_verdict_margin(cli, study, tmp_path):
    out = tmp_path / "r.md"
    result = CliRunner().invoke(cli, ["report", str(study["plain"]), "--out", str(out), "--format", "md",
                                      "--margin", "7.5"])
    assert result.exit_code == 0, result.output
    verdict = next(line for line in out.read_text().splitlines() if line.startswith("> **"))
    assert "±7.5 points" in verdict
    bad = CliRunner().invoke(cli, ["report", str(study["plain"]), "--out", str(tmp_path / "x.md"), "--margin", "0"])
    assert bad.exit_code == 2 and not (tmp_path / "x.md").exists()


def test_sweep_command_search_mode(cli, tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('players = 4\ngames = 300\nseed = 9\nstrategies = ["greedy"]\n'
                    '[setup.players.4]\nremove = [4, 6]\ninitial_marketing = [3, 1]\n')
    result = CliRunner().invoke(cli, ["sweep", "forks", "--grid", str(grid), "--out", str(tmp_path / "s"),
                                      "--search", "--no-report"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # lines are wrapped to the terminal's width
    assert "; the smallest largest edge: players.4.remove = " in said or \
        "Fairest configuration: players.4.remove = " in said or "; the least unfair: players.4.remove = " in said
    assert "not played" in result.output  # (4, 1) and (6, 3) do not deal out evenly
    assert json.loads((tmp_path / "s" / "sweep.json").read_text())["mode"] == "search"


def test_sweep_command_rejects_a_bad_grid(cli, tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('players = 4\n[setup.players.4]\nremove = 4\n')
    result = CliRunner().invoke(cli, ["sweep", "forks", "--grid", str(grid), "--out", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert "error: grid: setup.players.4.remove must be a non-empty list" in result.output


def test_tournament_command(cli, tmp_path):
    result = CliRunner().invoke(cli, ["tournament", "forks", "-s", "greedy", "-s", "random", "-p", "2", "-n", "300",
                                      "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("greedy is the strongest strategy")  # the question asked: which strategy
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["strategy", "games"])
    assert lines[head + 2].split()[0] == "greedy"  # it heads the table (under the header's rule)
    assert "%" in lines[head + 2] and "0." not in lines[head + 2].split()[2]  # percent, two decimals
    assert lines[head + 4].startswith("note: ratings rank finishing order")  # why more wins can rate lower
    assert max(map(len, lines)) <= 80
    assert lines[-1] == str(tmp_path / "t" / "report.html")
    # asked about seats (a margin given): the seat verdict comes first
    seats = CliRunner().invoke(cli, ["tournament", "forks", "-s", "greedy", "-s", "random", "-p", "2", "-n", "300",
                                     "--out", str(tmp_path / "t"), "--force", "--margin", "2", "--no-report"])
    assert seats.exit_code == 0, seats.output
    first = seats.output.splitlines()[0]
    assert first.split()[0] in ("Balanced", "Unbalanced", "Inconclusive") and "±2.0 points" in first


def test_a_sweep_with_none_shown_balanced_says_so_on_screen_and_in_the_report(cli, tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text('players = 2\ngames = 100\nseed = 9\nstrategies = ["random"]\n'
                    '[setup.players.2]\ninitial_marketing = [3]\nseat_bonus = [[0.0, 0.0], [0.0, 0.5]]\n')
    result = CliRunner(env={"COLUMNS": "80"}).invoke(cli, ["sweep", "forks", "--grid", str(grid), "--out",
                                                           str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    lead = "No configuration is shown balanced at ±1.0 points (2 of 2 inconclusive); the smallest largest edge"
    assert lead in " ".join(result.output.split())
    report = (tmp_path / "s" / "report.html").read_text()
    assert "No configuration is shown balanced at ±1.0 points" in report and "Fairest configuration" not in report
