"""`playtest replay RUN_DIR --game N [--rotation R]`: every option comes from the run's manifest."""

import shutil
from pathlib import Path

import polars as pl

from cli_support import invoke

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "contrarian.py"


def test_replay_by_directory_equals_replay_with_the_runs_options(tmp_path):
    strategy = tmp_path / "contrarian.py"
    shutil.copy(EXAMPLE, strategy)
    table = tmp_path / "t.toml"
    table.write_text("[tiebreak]\norder = ['grey', 'blue', 'yellow', 'green', 'red']\n")
    options = ["--players", 3, "--seed", 9, "--strategy-file", strategy, "-s", "contrarian", "-s", "greedy",
               "-s", "random", "--param", "contrarian=2.5", "--setup", table, "--rotate-seats"]
    out = tmp_path / "run"
    assert invoke("simulate", "forks", *options, "--games", 60, "--chunk-size", 25, "--out", out).exit_code == 0
    by_dir = invoke("replay", out, "--game", 41, "--rotation", 2)
    by_options = invoke("replay", "forks", *options, "--game", 41, "--rotation", 2)
    assert by_dir.exit_code == 0, by_dir.output
    assert by_dir.output == by_options.output
    row = (pl.read_parquet(out / "seats" / "*.parquet").filter((pl.col("game") == 41) & (pl.col("rotation") == 2))
           .sort("seat"))
    assert by_dir.output.splitlines()[-1] == f"scores: {', '.join(map(str, row['score'].to_list()))}"

    outside = invoke("replay", out, "--game", 60, "--rotation", 0)
    assert outside.exit_code == 2 and outside.output == f"error: game 60 is not in the run {out}: it has games 0 to 59\n"
    no_rotation = invoke("replay", out, "--game", 3)
    assert no_rotation.exit_code == 2 and "give --rotation from 0 to 2" in no_rotation.output
    retyped = invoke("replay", out, "--game", 3, "--seed", 9)
    assert retyped.exit_code == 2 and "drop --seed" in retyped.output

    strategy.write_text(strategy.read_text().replace("params[0] * opt_value[k]", "opt_value[k]"))
    changed = invoke("replay", out, "--game", 3, "--rotation", 0)
    assert changed.exit_code == 2
    assert changed.output == (f"error: the run's strategy file {strategy.resolve()} has changed since the run, so "
                              f"its games cannot be replayed; restore the file or play the run again\n")


def test_replay_refuses_a_game_whose_chunk_was_never_written_and_an_unknown_target(tmp_path):
    out = tmp_path / "run"
    assert invoke("simulate", "forks", "--games", 300, "--chunk-size", 100, "--out", out).exit_code == 0
    (out / "seats" / "part-000001.parquet").unlink()
    manifest = (out / "manifest.json").read_text().replace('"1": [', '"x1": [')  # as if chunk 1 never finished
    (out / "manifest.json").write_text(manifest)
    missing = invoke("replay", out, "--game", 150)
    assert missing.exit_code == 2 and "its chunk (games 100 to 199) was not written" in missing.output
    assert invoke("replay", out, "--game", 250).exit_code == 0
    nothing = invoke("replay", tmp_path / "nowhere", "--game", 1)
    assert nothing.exit_code == 2 and "nowhere' is neither a game (forks, fool" in nothing.output
    no_run = invoke("replay", tmp_path, "--game", 1)
    assert no_run.exit_code == 2 and "is not a playtest run directory" in no_run.output
    bad_rotation = invoke("replay", "forks", "--game", 1, "--rotation", 7)
    assert bad_rotation.exit_code == 2 and "--rotation needs a run with rotated seats" in bad_rotation.output
