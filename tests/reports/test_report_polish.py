"""Issue 27's report details: no game-length rows that repeat "every game lasted N rounds", and columns
aligned as a whole (a note that begins with a number is not pushed to the right)."""

import re

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
    assert "t-game-length" not in [f.name for f in section.figures]
    assert not set(run_report.ONE_LENGTH_METRICS) & set(rows)
    assert {"games", "mean score spread", "tie rate"} <= set(rows)


def test_games_of_different_lengths_keep_the_length_rows_and_their_figure(seats):
    longer = seats.with_columns(pl.when(pl.col("game") < 10).then(pl.col("rounds") + 1).otherwise(pl.col("rounds"))
                                .alias("rounds"))
    section, rows = feel_rows(longer)
    assert section.text == [] and set(run_report.ONE_LENGTH_METRICS) <= set(rows)
    assert "t-game-length" in [f.name for f in section.figures]


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


@pytest.fixture(scope="module")
def designs(tmp_path_factory):
    """Two Forks designs on one seed (the second with two scoring destinations) and a 3-player run."""
    root = tmp_path_factory.mktemp("designs")
    api.simulate("forks", players=4, games=400, seed=5, out=root / "a")
    api.simulate("forks", players=4, games=400, seed=5, setup={"deck": {"top": 2}}, out=root / "b")
    api.simulate("forks", players=3, games=50, seed=5, out=root / "three")
    return root


def test_a_report_on_two_designs_opens_with_b_against_a(designs):
    from reports.build import sections

    a, b = designs / "a", designs / "b"
    versus = run_report.comparison_section(a, b, 1.0)
    assert versus.title == "B against A: b against a"
    assert versus.verdict == api.compare(a, b, margin=1.0).sentence()
    assert [f.name for f in versus.figures] == ["a-b-changes"]
    data = versus.figures[0].data
    assert data["what"].to_list() == ["seat 0", "seat 1", "seat 2", "seat 3", "largest seat edge"]
    assert (data["lo"] <= data["change"]).all() and (data["change"] <= data["hi"]).all()
    assert versus.tables[0].rows == [["setup.deck.top", "3", "2"]]
    assert any(t.startswith("Paired: both runs used seed 5") for t in versus.text)
    parts = [s.kind for s in sections([a, b])]
    assert parts == ["run", "run"]  # sections() alone stacks; write_report puts the comparison first


def test_the_written_report_puts_the_comparison_first_only_for_two_comparable_runs(designs, tmp_path):
    from reports.build import write_report

    page = write_report([designs / "a", designs / "b"], tmp_path / "ab.html").read_text()
    assert page.index("B against A: b against a") < page.index("Forks: 2nd Edition: 4 players")
    for dirs in ([designs / "a", designs / "three"], [designs / "a", designs / "b", designs / "a"]):
        page = write_report(dirs, tmp_path / "other.html").read_text()
        assert "B against A" not in page


def test_differences_name_every_changed_key_of_nested_tables():
    a = {"deck": {"top": 3, "values": [1, 2]}, "players": {"4": {"remove": 4}}, "same": 1}
    b = {"deck": {"top": 2, "values": [1, 2]}, "players": {"4": {"remove": 5}, "6": {"remove": 1}}, "same": 1}
    assert run_report.differences(a, b) == [("deck.top", 3, 2), ("players.4.remove", 4, 5),
                                            ("players.6", None, {"remove": 1})]


def test_the_run_report_shows_no_parameters_for_a_strategy_without_them_and_whole_wins(study, tmp_path):
    from reports.build import write_report

    html = write_report([study["plain"]], tmp_path / "r.html").read_text()
    # not the row of zeros the manifest pads a strategy without parameters with
    assert re.search(r"Strategy parameters</td><td[^>]*>greedy: none</td>", html)
    text = write_report([study["plain"]], tmp_path / "r.md", fmt="md").read_text()
    header = next(line for line in text.splitlines() if line.startswith("| Seat | Strategy | Games | Wins"))
    assert "a k-way tie for first counts 1/k" in header
    cells = [line.split("|")[4].strip() for line in text.splitlines() if line.startswith("| 0 | greedy")]
    assert cells and all(c.replace(",", "").isdigit() for c in cells)
