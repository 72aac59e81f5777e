"""A generated report opened and checked: sections, embedded figures, CSV data, Markdown files."""

import base64
import re
from html.parser import HTMLParser

import polars as pl
import pytest

from analyses import sweep
from analyses.runs import NotARun
from reports.build import write_report

PNG = b"\x89PNG\r\n\x1a\n"


class Outline(HTMLParser):
    """Headings and image sources of an HTML page."""

    def __init__(self):
        super().__init__()
        self.headings, self.images, self.links, self._in = [], [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if re.fullmatch(r"h[1-6]", tag):
            self._in = tag
            self.headings.append("")
        elif tag == "img":
            self.images.append(attrs)
        elif tag == "a":
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None

    def handle_data(self, data):
        if self._in:
            self.headings[-1] += data


@pytest.fixture(scope="module")
def html_report(study, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "study.html"
    write_report([study["plain"], study["rotated"], study["sweep"], study["tournament"]], out)
    outline = Outline()
    outline.feed(out.read_text())
    return out, outline


def test_report_has_every_section(html_report):
    _, outline = html_report
    headings = outline.headings
    for expected in ["Configuration and provenance", "Seat advantage", "Duplicate deals (rotated seats)",
                     "Game feel", "Setup-table sweep (sweep)", "Strategy tournament (tournament)"]:
        assert expected in headings, expected
    assert any(h.startswith("Forks: 2nd Edition: 4 players, 2,000 games") for h in headings)
    assert any("800 deals x 3 rotations" in h for h in headings)


def test_every_figure_is_an_embedded_png_with_its_data(html_report):
    out, outline = html_report
    # 3 per run (seat advantage, scores, length) x 2 runs, 3 sweep heatmaps, 1 rating chart
    assert len(outline.images) == 10
    for img in outline.images:
        prefix = "data:image/png;base64,"
        assert img["src"].startswith(prefix)
        assert base64.b64decode(img["src"][len(prefix):]).startswith(PNG)
        data = out.parent / "study-data" / f"{img['data-figure']}.csv"
        assert f"study-data/{data.name}" in outline.links
        assert pl.read_csv(data).height > 0


def test_report_shows_provenance_and_setup(html_report, study):
    text = html_report[0].read_text()
    assert "git_revision" in text and "seed" in text
    assert "remove = 4" in text  # the Forks 4-player setup row, as TOML
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text


def test_seat_advantage_csv_matches_the_run(html_report, study):
    out, _ = html_report
    data = pl.read_csv(out.parent / "study-data" / "plain-seat-advantage.csv")
    assert data["games"].to_list() == [2000] * 4
    assert data["wins"].sum() == pytest.approx(2000)


def test_sweep_heatmap_data_lists_every_playable_configuration(html_report, study):
    out, _ = html_report
    _, summary = sweep.load(study["sweep"])
    played = summary.filter(pl.col("unplayable").is_null())
    # remove + initial marketing must leave a multiple of 12 cards of 55: (4, 3) and (6, 1) only
    assert sorted(zip(played["players.4.remove"], played["players.4.initial_marketing"])) == [(4, 3), (6, 1)]
    heat = pl.read_csv(out.parent / "study-data" / "sweep-max_edge.csv")
    assert heat.height == 2


def test_markdown_report_writes_png_files(study, tmp_path):
    out = write_report([study["plain"]], tmp_path / "notes.md", fmt="md")
    text = out.read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(images) == 3
    for path in images:
        assert (tmp_path / path).read_bytes().startswith(PNG)
    assert "## Forks: 2nd Edition" in text and "### Seat advantage" in text


def test_report_refuses_a_directory_that_is_not_a_run(tmp_path):
    with pytest.raises(NotARun):
        write_report([tmp_path], tmp_path / "r.html")
