"""Every command's output fits an 80-column terminal: each top-level command and each `unfair` subcommand is run
once, on small Forks runs (fixed seeds) with COLUMNS=80, and no line it prints may be wider than 80 characters.
"""

from pathlib import Path

import pytest
from click.testing import CliRunner

from playtest.cli import cli

WIDTH = 80
SCENARIO = Path(__file__).parents[1] / "fool" / "scenarios" / "example_a.toml"
GRID = 'players = 2\ngames = 40\nseed = 9\nstrategies = ["random"]\n[setup.players.2]\ninitial_marketing = [2, 3]\n'

# (name, arguments): run in this order in one folder, so later commands read what earlier ones wrote
COMMANDS = [
    ("games", ["games"]),
    *[(f"strategies {g}", ["strategies", g]) for g in ("forks", "fool", "fauch-fertig", "fair-enough")],
    *[(f"setup {g}", ["setup", g]) for g in ("forks", "fool", "fauch-fertig", "fair-enough")],
    ("simulate", ["simulate", "forks", "-p", "2", "-n", "40", "--out", "a", "--feel"]),
    ("simulate b", ["simulate", "forks", "-p", "2", "-n", "40", "--seed", "1", "--out", "b"]),
    ("compare", ["compare", "a", "b"]),
    ("replay", ["replay", "a", "--game", "3"]),
    ("scenario", ["scenario", str(SCENARIO)]),
    ("report", ["report", "a", "--out", "a.html"]),
    ("tournament", ["tournament", "forks", "-s", "greedy", "-s", "pusher", "-p", "2", "-n", "20", "--out", "t",
                    "--no-report"]),
    ("sweep", ["sweep", "forks", "--grid", "grid.toml", "--out", "s", "--no-report"]),
    *[(f"unfair {s}", ["unfair", s, "-n", "20"]) for s in ("dice", "wishing-well", "fame", "gems", "panoramas")],
    ("unfair report", ["unfair", "report", "-n", "20", "--out", "u.html"]),
    ("skill", ["skill", "forks", "-p", "2", "--models", "random", "-n", "20", "--chunk-size", "10",
               "--out", "sk", "--no-report"]),
    ("tune", ["tune", "forks", "hedger", "-f", "greedy", "-p", "2", "--budget", "2", "-n", "10",
              "--confirm-deals", "10", "--out", "tune.toml"]),
    ("ladder", ["ladder", "forks", "-p", "2", "--first", "2", "--levels", "2", "-n", "10", "--out", "lad",
                "--no-report"]),
    ("restrict", ["restrict", "forks", "--forbid", "market-held", "--agent", "mcts@2", "-p", "2", "-n", "10"]),
    ("search-gain", ["search-gain", "forks", "-n", "2", "--budget", "2", "--baseline", "here",
                     "--baseline-param", "2"]),
    ("compensate", ["compensate", "forks", "-p", "2", "-n", "100", "--step", "5"]),
    ("survey", ["survey", "forks", "-p", "2,3", "-n", "20"]),
    ("cards", ["cards", "forks", "-p", "2", "-n", "100", "--card", "value 3"]),
    ("train", ["train", "forks", "--rounds", "1", "--games", "2", "--budget", "2", "--deals", "2", "--out", "m.npy"]),
    ("bench", ["bench", "forks", "-n", "10", "--part", "reference", "--out", "bench.md"]),
]

# fixed on their own branches; the lead empties this after merging them
def test_every_command_fits_80_columns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # relative paths: a printed path is as short as the user's
    Path("grid.toml").write_text(GRID)
    runner = CliRunner(env={"COLUMNS": str(WIDTH)})
    wide, failed = {}, {}
    for name, args in COMMANDS:
        result = runner.invoke(cli, args)
        if result.exit_code != 0:
            failed[name] = result.output[-500:]
        lines = result.output.splitlines()
        over = [line for line in lines if len(line) > WIDTH]
        if over:
            wide[name] = f"{len(over)} lines, the widest {max(map(len, over))}: {over[0][:100]!r}"
    assert not failed
    assert all(Path(p).exists() for p in ("a", "b", "a.html", "t", "s", "u.html"))  # each did its work
    assert not wide


@pytest.mark.parametrize("columns", ["60", "120"])
def test_the_seat_table_follows_columns(tmp_path, columns):
    """Piped output takes $COLUMNS (no fixed 120)."""
    result = CliRunner(env={"COLUMNS": columns}).invoke(cli, ["simulate", "forks", "-p", "4", "-n", "30"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(map(len, lines)) <= int(columns)
    assert (max(map(len, lines)) > 80) == (columns == "120")  # the verdict sentence uses the width it has


@pytest.mark.parametrize("game", ["forks", "fool", "fauch-fertig", "fair-enough"])
def test_the_setup_table_printed_at_80_columns_is_the_same_table(game):
    """`playtest setup` rewraps long comments and arrays to fit: the TOML still reads as the game's table."""
    import tomllib

    from simulator import games

    result = CliRunner(env={"COLUMNS": str(WIDTH)}).invoke(cli, ["setup", game])
    assert result.exit_code == 0, result.output
    assert max(map(len, result.output.splitlines())) <= WIDTH
    assert tomllib.loads(result.output) == games.get(game).default_setup()
