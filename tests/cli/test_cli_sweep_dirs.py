"""Sweep and tournament directories are playtest's own, as run directories are."""


from cli_support import invoke

GRID = 'players = 2\ngames = 200\nseed = 9\nstrategies = ["random"]\n[setup.players.2]\ninitial_marketing = [2, 3]\n'


def test_a_sweep_directory_is_refused_without_force_and_replaced_with_it(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text(GRID)
    out = tmp_path / "s"
    args = ["sweep", "forks", "--grid", grid, "--out", out, "--no-report"]
    assert invoke(*args).exit_code == 0
    again = invoke(*args)
    assert again.exit_code == 2
    assert again.output == f"error: sweep directory {out} already exists; use --force to replace it\n"
    run = sorted((out / "runs").iterdir())[0]
    (run / "seats" / "notes.txt").write_text("mine\n")
    refused = invoke(*args, "--force")
    assert refused.exit_code == 2 and f"it holds runs/{run.name}/seats/notes.txt" in refused.output
    assert (out / "sweep.json").is_file() and (run / "manifest.json").is_file()  # nothing was deleted
    (run / "seats" / "notes.txt").unlink()
    assert invoke(*args, "--force").exit_code == 0


def test_a_refused_sweep_or_tournament_leaves_nothing_behind(tmp_path):
    grid = tmp_path / "grid.toml"
    grid.write_text(GRID.replace('["random"]', '["genius"]'))
    refused = invoke("sweep", "forks", "--grid", grid, "--out", tmp_path / "s")
    assert refused.exit_code == 2 and "unknown strategy 'genius'" in refused.output
    assert not (tmp_path / "s").exists()
    bad_games = invoke("tournament", "forks", "-s", "greedy", "-s", "random", "-p", 2, "-n", 0, "--out",
                       tmp_path / "t")
    assert bad_games.exit_code == 2 and "'--games'" in bad_games.output and "x>=1" in bad_games.output
    assert not (tmp_path / "t").exists()
    user_folder = tmp_path / "mine"
    user_folder.mkdir()
    (user_folder / "paper.tex").write_text("x")
    forced = invoke("tournament", "forks", "-s", "greedy", "-s", "random", "-p", 2, "-n", 100, "--out",
                    user_folder, "--force")
    assert forced.exit_code == 2 and "it holds paper.tex" in forced.output and "--resume" not in forced.output
    assert [p.name for p in user_folder.iterdir()] == ["paper.tex"]
