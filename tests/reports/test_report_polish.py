"""Issue 27's report details: no game-length rows that repeat "every game lasted N rounds", and columns
aligned as a whole (a note that begins with a number is not pushed to the right)."""

import polars as pl
import pytest

from playtest import api
from reports import run_report
from reports.tables import Table


@pytest.fixture(scope="module")
def seats():
    """Forks at 4 players, where every game lasts 4 rounds."""
    return api.simulate("forks", players=4, games=60, seed=9).seats()


def feel_rows(seats):
    section = run_report.feel_section(seats, "t-", "seat")
    return section, {row[0]: row for row in section.tables[0].rows}


def test_one_game_length_is_said_in_words_without_a_mean_and_sd_that_repeat_it(seats):
    assert seats["rounds"].n_unique() == 1
    section, rows = feel_rows(seats)
    assert section.text == [f"Every game lasted {seats['rounds'][0]} rounds."]
    assert not set(run_report.ONE_LENGTH_METRICS) & set(rows)
    assert {"games", "mean score spread", "tie rate"} <= set(rows)


def test_games_of_different_lengths_keep_the_length_rows_and_their_figure(seats):
    longer = seats.with_columns(pl.when(pl.col("game") < 10).then(pl.col("rounds") + 1).otherwise(pl.col("rounds"))
                                .alias("rounds"))
    section, rows = feel_rows(longer)
    assert section.text == [] and set(run_report.ONE_LENGTH_METRICS) <= set(rows)
    assert [f.name for f in section.figures] == ["t-score-distributions", "t-game-length"]


@pytest.mark.parametrize("rows, text", [
    ([["mean rounds", "4.00", "4 to 5; t interval"], ["tie rate", "1.0%", "share of games; Wilson"]], {0, 2}),
    ([["Players", "4"], ["Game", "forks"], ["Seed", "0"]], {0}),
    ([["Players", "4"], ["Game", "forks"], ["Variant", "standard"]], {0, 1}),
    ([["a", "", "1"], ["b", "", "2"]], {0}),
])
def test_a_column_is_aligned_as_text_when_at_least_half_its_cells_are_words(rows, text):
    assert Table("t", ["x"] * len(rows[0]), rows).text_columns == text


def test_the_page_aligns_a_notes_column_as_one_even_where_a_note_begins_with_a_number(tmp_path):
    from reports.build import render
    from reports.section import Section

    table = Table("Feel", ["Measure", "Value", "Note"], [["mean rounds", "4.20", "3 to 5; t interval over games"],
                                                        ["tie rate", "1.0%", "share of games; Wilson"]])
    page = render([Section("Run", "run", tables=[table])], tmp_path / "r.html", title="t", source="s").read_text()
    body = page[page.index("<tbody>"):page.index("</tbody>")]
    classes = [cell.split('">')[0] for cell in body.split('<td class="')[1:]]
    assert ["t" in c.split() for c in classes] == [True, False, True] * 2
