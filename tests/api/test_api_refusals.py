"""API calls refuse bad input in one line before anything is played or written."""

import pytest

from playtest import api
from simulator.core.batch import RunError


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
