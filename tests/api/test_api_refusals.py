"""API calls refuse bad input in one line before anything is played or written."""

import pytest

from playtest import api
from simulator.core.batch import RunError
from simulator.games import UnknownGame


def test_train_refuses_an_out_that_is_not_a_npy_file_in_an_existing_folder(tmp_path):
    with pytest.raises(RunError, match=r"must be a \.npy file"):
        api.train("nim", out=tmp_path / "model.txt")
    with pytest.raises(RunError, match="the folder of .* does not exist"):
        api.train("nim", out=tmp_path / "missing" / "model.npy")
    assert list(tmp_path.iterdir()) == []


def test_train_refuses_a_player_count_outside_the_games_range():
    with pytest.raises(RunError, match=r"Nim \(example game\) takes 2 to 4 players, got 5"):
        api.train("nim", players=5)


def test_unfair_refuses_an_unknown_study():
    with pytest.raises(RunError, match=r"unknown Unfair study 'dicey' \(choose from dice, wishing-well, fame"):
        api.unfair("dicey")


def test_bench_refuses_an_unknown_part_or_game_or_no_games_and_writes_nothing(tmp_path):
    out = tmp_path / "results.md"
    with pytest.raises(RunError, match=r"unknown bench part\(s\) 'kernel' \(choose from reference, start"):
        api.bench(names=["forks"], parts=["kernel"], out=out)
    with pytest.raises(RunError, match="at least 1, got 0"):
        api.bench(names=["forks"], games=0, out=out)
    with pytest.raises(UnknownGame, match="nogame"):
        api.bench(names=["nogame"], out=out)
    assert list(tmp_path.iterdir()) == []


def test_bench_writes_only_the_parts_it_measured(tmp_path):
    out = tmp_path / "results.md"
    r = api.bench(names=["fool"], games=500, parts=[], out=out)   # the kernel alone: well under a second
    row = r.to_polars().row(0, named=True)
    assert row["game"] == "fool" and row["players"] == 4 and row["numba_1_thread"] > 0
    assert row["reference"] is None and row["warm_start_s"] is None and r.verdict is None
    assert all(frame.height == 0 for name, frame in r.info.items() if name in ("end_to_end", "search"))
    text = out.read_text()
    assert text == r.info["markdown"] and "## " not in text   # no section of a part that was not measured
    assert f"| fool | 4 | {row['numba_1_thread']:,.0f}/s |" in text and "| - | - | - | - |" in text


def test_search_gain_refuses_bad_input_before_playing():
    with pytest.raises(RunError, match="deals must be a whole number of at least 2"):
        api.search_gain(["forks"], deals=1, baseline="here")
    with pytest.raises(RunError, match="the number of threads must be from 1 to"):
        api.search_gain(["forks"], threads=0, baseline="here")
    with pytest.raises(UnknownGame, match="nogame"):
        api.search_gain(["forks", "nogame"], baseline="here")
    with pytest.raises(RunError, match=r"no baseline: `git archive no-such-commit` failed"):
        api.search_gain(["forks"], deals=2, baseline="no-such-commit")
