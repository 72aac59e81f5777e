"""The skill ladder report, built from a real (tiny) Forks ladder: the verdict first, the two figures with
their data, the table with its CSV, provenance folded; Markdown; the command line and bad input."""

import base64
import json
import re
import shutil

import polars as pl
import pytest
from click.testing import CliRunner
from scipy import stats

from analyses import ladder
from analyses.runs import NotARun, open_run
from analyses.verdict import seat_verdict
from playtest import cli_analysis
from reports.build import write_report
from reports.ladder_report import ladder_units

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report(ladder_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder-report") / "ladder.html"
    write_report([ladder_dir], out)
    return out, out.read_text()


def seats_run(ladder_dir, budget):
    return open_run(ladder_dir / f"{budget:05d}-seats").seats


def test_the_page_opens_with_the_verdict_on_the_first_seat_edge(report, ladder_dir):
    _, page = report
    title = re.search(r"<h1>(.*?)</h1>", page).group(1)
    assert title == "Skill ladder: Forks: 2nd Edition, 4 players, 2 to 4 iterations (forks)"
    after = page[page.index("</h1>") + len("</h1>"):]
    verdict = re.match(r"\s*<section class=\"ladder\">\s*<p class=\"verdict\">(.*?)</p>", after, re.S)
    assert verdict, after[:300]
    sentence = verdict.group(1)
    for budget in (2, 4):  # both ends, with the first seat's edge and simultaneous interval from the run itself
        first = next(e for e in seat_verdict(seats_run(ladder_dir, budget), 1.0).edges if e.seat == 0)
        assert f"{first.edge:+.2f}" in sentence and f"{first.lo:+.2f} to {first.hi:+.2f}" in sentence
    # the change: the first seat's win at 4 iterations minus at 2, deal by deal (both runs played the same deals)
    wins = [seats_run(ladder_dir, b).filter(pl.col("seat") == 0).sort("game")["win"].to_numpy() for b in (2, 4)]
    ci = stats.ttest_rel(wins[1], wins[0]).confidence_interval()
    assert f"{100 * (wins[1] - wins[0]).mean():+.2f} points ({100 * ci.low:+.2f} to {100 * ci.high:+.2f}" in sentence
    assert sentence.startswith("No clear change") == (ci.low <= 0 <= ci.high)
    assert "±1.0 points" in sentence


def test_figures_are_embedded_with_the_data_they_draw(report, ladder_dir):
    out, page = report
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)"[^>]*data-figure="([^"]+)"', page)
    assert [name for _, name in images] == ["forks-seat-edges", "forks-win-shares"]
    for png, name in images:
        assert base64.b64decode(png).startswith(PNG)
        assert f'href="ladder-data/{name}.csv"' in page
    edges = pl.read_csv(out.parent / "ladder-data" / "forks-seat-edges.csv")
    assert edges.height == 2 * 4  # every seat at both levels
    for budget in (2, 4):
        expected = seat_verdict(seats_run(ladder_dir, budget), 1.0).edges
        drawn = edges.filter(pl.col("budget") == budget).sort("seat")
        assert drawn["edge_points"].to_list() == pytest.approx([e.edge for e in expected])
        assert drawn["edge_points_lo"].to_list() == pytest.approx([e.lo for e in expected])
    shares = pl.read_csv(out.parent / "ladder-data" / "forks-win-shares.csv")
    assert shares["budget"].to_list() == [2, 4]
    assert (shares["below_share_lo"] <= shares["below_share"]).all()
    assert (shares["field_share"] <= shares["field_share_hi"]).all()
    assert "fair share (25.0%" in page


def test_table_with_its_csv_and_provenance_folded(report, ladder_dir):
    out, page = report
    table = pl.read_csv(out.parent / "ladder-data" / "forks-ladder.csv")
    assert table.columns == [ladder_units(ladder.table(ladder_dir)[1].columns).get(c, c)
                             for c in ladder.table(ladder_dir)[1].columns]
    assert "first_edge_points_lo" in table.columns and "below_share_hi" in table.columns
    row = ladder.table(ladder_dir)[1].row(0, named=True)
    assert "<th>First-seat edge, points (simultaneous 95% interval)</th>" in page
    cell = f"{row['first_edge']:+.2f} ({row['first_lo']:+.2f} to {row['first_hi']:+.2f})"
    assert re.search(f'<td class="[ a-z]*">{re.escape(cell)}</td>', page)   # the class depends on the text's length
    assert 'href="ladder-data/forks-ladder.csv"' in page
    folded = page[page.index('<details class="provenance">'):]
    assert page.index("<table>") < page.index('<details class="provenance">')
    manifest = json.loads((ladder_dir / "ladder.json").read_text())
    for text in ("Budgets (iterations per decision)", ">2, 4<",
                 f">{manifest['field']}<", "00002-below: mcts@2, random, random, random", "Git revision"):
        assert text in folded, text


def test_markdown_report(ladder_dir, tmp_path):
    out = write_report([ladder_dir], tmp_path / "ladder.md", fmt="md")
    text = out.read_text()
    assert text.startswith("# Skill ladder: Forks")
    assert text.split("\n\n")[1].startswith("> **") and "first-seat edge" in text.split("\n\n")[1]
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(images) == 2 and all((tmp_path / p).read_bytes().startswith(PNG) for p in images)


def test_report_command_and_a_broken_ladder(ladder_dir, tmp_path):
    out = tmp_path / "r.html"
    result = CliRunner().invoke(cli_analysis.report, [str(ladder_dir), "--out", str(out), "--margin", "5"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == str(out) and "±5.0 points" in out.read_text()
    broken = tmp_path / "broken"
    shutil.copytree(ladder_dir, broken)
    (broken / "ladder.json").write_text("{")
    result = CliRunner().invoke(cli_analysis.report, [str(broken), "--out", str(tmp_path / "b.html")])
    assert result.exit_code == 2 and result.output.startswith("error: ") and len(result.output.splitlines()) == 1
    assert not (tmp_path / "b.html").exists()
    shutil.rmtree(broken / "00004-field")  # a run of the ladder is missing
    (broken / "ladder.json").write_text((ladder_dir / "ladder.json").read_text())
    with pytest.raises(NotARun, match="not a complete skill ladder"):
        write_report([broken], tmp_path / "c.html")


def test_the_ladder_command_writes_its_report_beside_its_runs(ladder_dir):
    page = (ladder_dir / "report.html").read_text()
    assert "<h1>Skill ladder: Forks: 2nd Edition" in page
    assert re.match(r"\s*<section class=\"ladder\">\s*<p class=\"verdict\">", page[page.index("</h1>") + 5:])
