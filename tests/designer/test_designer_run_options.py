"""The designer's studies (survey, compensate, cards) take one ``RunOptions`` as ``api.simulate`` does: the
same games as with the keywords, and no run keyword beside it."""

import pytest
from polars.testing import assert_frame_equal

from playtest import api
from simulator.core.batch import RunError
from simulator.core.run_options import RunOptions


def test_a_survey_of_a_record_plays_the_games_of_its_keywords(tmp_path):
    by_keywords = api.survey("forks", out=tmp_path / "keywords", counts=[2, 3], games=40, seed=5,
                             strategies=["greedy", "random"], rotate_seats=True)
    record = RunOptions("forks", players=2, games=40, seed=5, strategies=["greedy", "random"], rotate_seats=True)
    by_record = api.survey(record, out=tmp_path / "record", counts=[2, 3])
    assert_frame_equal(by_record.frame, by_keywords.frame)
    assert by_record.frame["players"].to_list() == [2, 3]


def test_cards_of_a_record_play_the_games_of_its_keywords():
    by_keywords = api.cards("forks", players=2, games=100, seed=3, names=["value 3"])
    by_record = api.cards(RunOptions("forks", players=2, games=100, seed=3), names=["value 3"])
    assert_frame_equal(by_record.frame, by_keywords.frame)
    assert by_record.frame.height > 0
    _, _, base = api.card_plan(RunOptions("forks", players=2, games=100, seed=3), names=["value 3"])
    assert (base.players, base.games, base.seed) == (2, 100, 3)


def test_a_compensation_of_a_record_searches_as_its_keywords_do():
    by_keywords = api.compensate("forks", players=2, games=100, seed=1, step=5)
    by_record = api.compensate(RunOptions("forks", players=2, games=100, seed=1), step=5)
    assert_frame_equal(by_record.frame, by_keywords.frame)
    assert by_record.info["compensation"].games == 100


@pytest.mark.parametrize("study, keywords", [
    (api.survey, dict(out="never-written", seed=3)),
    (api.compensate, dict(games=200)),
    (api.cards, dict(strategies=["greedy"])),
    (api.card_plan, dict(players=3)),
])
def test_a_run_keyword_beside_a_record_is_refused(tmp_path, monkeypatch, study, keywords):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RunError, match="give .* in it, not beside it"):
        study(RunOptions("forks", players=2, games=100), **keywords)
    assert list(tmp_path.iterdir()) == []
