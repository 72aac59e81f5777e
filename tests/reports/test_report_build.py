"""A generated report opened and checked: the verdict first in every section, embedded 200-dpi figures
with their CSV data, readable tables, folded provenance, Markdown files."""

import base64
import re
import struct
from html.parser import HTMLParser

import polars as pl
import pytest

from analyses import sweep
from analyses.runs import NotARun, open_run
from reports.build import write_report

PNG = b"\x89PNG\r\n\x1a\n"


class Outline(HTMLParser):
    """Headings, the class of the first element after each h2, images, links, table headers and text."""

    def __init__(self):
        super().__init__()
        self.headings, self.after_h2, self.images, self.links, self.headers = [], [], [], [], []
        self.text, self._in, self._want_next = [], None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self._want_next and tag in ("p", "figure", "section", "details", "div"):
            self.after_h2.append(attrs.get("class"))
            self._want_next = False
        if re.fullmatch(r"h[1-6]", tag):
            self._in = tag
            self.headings.append("")
        elif tag == "th":
            self._in = tag
            self.headers.append("")
        elif tag == "img":
            self.images.append(attrs)
        elif tag == "a":
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None
            if tag == "h2":
                self._want_next = True

    def handle_data(self, data):
        self.text.append(data)
        if self._in == "th":
            self.headers[-1] += data
        elif self._in:
            self.headings[-1] += data


@pytest.fixture(scope="module")
def html_report(study, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "study.html"
    write_report([study["plain"], study["rotated"], study["sweep"], study["tournament"]], out)
    outline = Outline()
    outline.feed(out.read_text())
    return out, outline


def test_every_section_opens_with_its_verdict(html_report):
    _, outline = html_report
    for expected in ["Seats in detail", "Duplicate deals (rotated seats)", "Game feel",
                     "Setup-table sweep (sweep)", "Strategy tournament (tournament)"]:
        assert expected in outline.headings, expected
    assert any(h.startswith("Forks: 2nd Edition: 4 players, 2,000 games") for h in outline.headings)
    assert any("800 deals x 3 rotations" in h for h in outline.headings)
    assert outline.after_h2 == ["verdict"] * 4  # run, rotated run, sweep, tournament


def test_every_figure_is_a_crisp_embedded_png_with_its_data(html_report):
    out, outline = html_report
    # run: seat edges + scores + comeback; rotated: strategy shares + seat edges + scores + comeback; sweep: 1;
    # tournament: 3
    assert len(outline.images) == 11
    for img in outline.images:
        prefix = "data:image/png;base64,"
        assert img["src"].startswith(prefix)
        png = base64.b64decode(img["src"][len(prefix):])
        assert png.startswith(PNG)
        shown = int(re.fullmatch(r"width: (\d+)px", img["style"]).group(1))
        assert struct.unpack(">I", png[16:20])[0] >= 2 * shown  # 200 dpi shown at 96 px per inch
        data = out.parent / "study-data" / f"{img['data-figure']}.csv"
        assert f"study-data/{data.name}" in outline.links
        assert pl.read_csv(data).height > 0


def test_no_length_figure_when_every_game_lasts_the_same(html_report, study):
    _, outline = html_report
    assert open_run(study["plain"]).seats["rounds"].n_unique() == 1  # every Forks game lasts 4 rounds
    assert not [i for i in outline.images if "game-length" in i["data-figure"]]
    assert "Every game lasted 4 rounds." in "".join(outline.text)


def test_tables_read_as_words_and_percentages(html_report):
    out, outline = html_report
    # grid axes keep their setup-table keys (players.4.initial_marketing), as a designer writes them in a grid
    assert not [h for h in outline.headers if "_" in h and "." not in h], "a raw column name is shown"
    page = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "", out.read_text())
    assert not re.search(r"\d\.?\d*e[+-]\d", page), "scientific notation"
    assert re.search(r"<td[^>]*>\d{1,2}\.\d%</td>", page)  # win shares as percentages with one decimal


def test_provenance_is_folded_at_the_end(html_report):
    text = html_report[0].read_text()
    assert text.count('<details class="provenance">') == 4
    starts = [m.start() for m in re.finditer("<h2>", text)] + [len(text)]
    for start, end in zip(starts, starts[1:]):  # each top-level section ends with its provenance
        part = text[start:end]
        assert part.index('<p class="verdict">') < part.index('<details class="provenance">')
        assert "<h3>" not in part[part.index('<details class="provenance">'):]
    assert "Git revision" in text and "Seed" in text
    assert "remove = 4" in text  # the Forks 4-player setup row, as TOML
    assert "http://" not in text.replace("http://www.w3.org", "") and "https://" not in text


def test_a_rotated_runs_provenance_counts_deals_not_games():
    from reports.section import provenance

    manifest = {"games": 2000, "games_per_second": 17.5, "players": 4}
    plain = dict(provenance(manifest, "x").tables[0].rows)
    rotated = dict(provenance({**manifest, "rotate_seats": True}, "x").tables[0].rows)
    assert "Games per second" in plain and "Deals per second" not in plain
    assert "Deals per second" in rotated and "Games per second" not in rotated
    assert rotated["Deals (each played in every seat rotation)"] == plain["Games"]


def test_seat_edges_csv_matches_the_run(html_report, study):
    out, _ = html_report
    data = pl.read_csv(out.parent / "study-data" / "plain-seat-edges.csv").sort("seat")
    seats = open_run(study["plain"]).seats
    wins = seats.group_by("seat").agg(pl.col("win").sum()).sort("seat")["win"].to_numpy()
    assert data["edge_points"].to_list() == pytest.approx(list(100 * (wins / 2000 - 0.25)))
    assert (data["edge_points_lo"] < data["edge_points"]).all() and (data["edge_points"] < data["edge_points_hi"]).all()


def test_sweep_marks_the_fairest_configuration(html_report, study):
    out, _ = html_report
    _, summary = sweep.load(study["sweep"])
    played = summary.filter(pl.col("unplayable").is_null())
    # remove + initial marketing must leave a multiple of 12 cards of 55: (4, 3) and (6, 1) only
    assert sorted(zip(played["players.4.remove"], played["players.4.initial_marketing"])) == [(4, 3), (6, 1)]
    heat = pl.read_csv(out.parent / "study-data" / "sweep-largest-edge.csv")
    assert heat.height == 2
    fairest = pl.read_csv(out.parent / "study-data" / "sweep-fairest.csv")
    assert fairest["config"][0] == played.sort("max_edge")["config"][0]
    unplayable = pl.read_csv(out.parent / "study-data" / "sweep-unplayable.csv")
    assert unplayable.height == summary.height - 2 and unplayable["unplayable"].str.contains("deal").all()


def test_tournament_head_to_head_counts_finishing_order(html_report, study):
    out, _ = html_report
    matrix = pl.read_csv(out.parent / "study-data" / "tournament-head-to-head.csv")
    # two players, greedy against random: greedy is ahead when its rank is smaller (a level finish is half)
    seats = pl.concat([open_run(d).seats for d in sorted(study["tournament"].iterdir()) if d.is_dir()])
    wide = seats.with_columns(pl.col("strategy").cast(pl.String)).pivot(
        on="strategy", index=["game", "rotation"], values="rank")
    ahead = ((wide["greedy"] < wide["random"]).sum() + 0.5 * (wide["greedy"] == wide["random"]).sum()) / wide.height
    row = matrix.filter((pl.col("a") == "greedy") & (pl.col("b") == "random")).row(0, named=True)
    assert row["ahead_share"] == pytest.approx(ahead)
    assert row["meetings"] == wide.height
    back = matrix.filter((pl.col("a") == "random") & (pl.col("b") == "greedy")).row(0, named=True)
    assert back["ahead_share"] == pytest.approx(1 - ahead)


def test_markdown_report_writes_png_files(study, tmp_path):
    out = write_report([study["plain"]], tmp_path / "notes.md", fmt="md")
    text = out.read_text()
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert len(images) == 3  # seat edges, scores, comeback curve
    for path in images:
        assert (tmp_path / path).read_bytes().startswith(PNG)
    assert text.startswith("# Forks: 2nd Edition") and "\n> **" in text and "### Seats in detail" in text


def test_report_refuses_a_directory_that_is_not_a_run(tmp_path):
    with pytest.raises(NotARun):
        write_report([tmp_path], tmp_path / "r.html")
