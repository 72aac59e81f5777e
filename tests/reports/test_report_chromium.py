"""Reports rendered in headless Chromium at 1280 px: every figure loads (no network needed), the verdict
is the first text under the title, and nothing is wider than the window."""

import json
import re
import shutil
import subprocess

import polars as pl
import pytest

from analyses import sweep
from analyses.verdict import seat_verdict
from analyses.runs import open_run
from reports.build import write_report

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900"]
# Injected into a copy of the report: after loading, a <pre id="probe"> holds what the page looks like.
PROBE = """<script>window.addEventListener('load', function () {
  var all = Array.from(document.images);
  var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, null);
  var seen = false, first = null, node;
  while ((node = walker.nextNode())) {
    if (!node.textContent.trim() || node.parentElement.closest('script')) continue;
    if (node.parentElement.closest('h1')) { seen = true; continue; }
    if (seen) { first = node.parentElement.closest('p, div, section, table, figure, details'); break; }
  }
  var probe = document.createElement('pre');
  probe.id = 'probe';
  probe.textContent = JSON.stringify({
    images: all.length, loaded: all.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length,
    first_class: first ? first.className : null, first_text: first ? first.textContent.trim() : null,
    page_width: document.documentElement.scrollWidth, window_width: window.innerWidth,
    scrolling_tables: Array.from(document.querySelectorAll('.scroll')).filter(function (d) {
      return d.scrollWidth > d.clientWidth + 1; }).map(function (d) {
      var c = d.querySelector('caption'); return c ? c.textContent.trim() : '?'; })});
  document.body.appendChild(probe);
});</script>"""

pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="Chromium is not installed (Debian package chromium; .ci/run installs it)")


def rendered(report, tmp_path):
    """What the probe saw of ``report`` in Chromium."""
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    result = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                             "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                            capture_output=True, text=True, timeout=180)
    found = re.search(r'<pre id="probe">(.*?)</pre>', result.stdout, re.S)
    assert found, f"Chromium did not finish the page: {result.stderr[-2000:]}"
    return json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def expected_start(kind, path):
    """Text the verdict box must contain, worked out from the run files, not from the report code."""
    if kind in ("plain", "rotated"):
        return seat_verdict(open_run(path).seats, 1.0).sentence()
    if kind == "sweep":
        _, summary = sweep.load(path)
        best = summary.filter(pl.col("unplayable").is_null()).sort("max_edge").row(0, named=True)
        return f"players.4.remove = {best['players.4.remove']}"
    return "greedy is the strongest strategy"  # greedy against random, 500 deals: far apart


@pytest.mark.parametrize("kind", ["plain", "rotated", "sweep", "tournament"])
def test_verdict_first_and_nothing_overflows(study, tmp_path, kind):
    page = rendered(write_report([study[kind]], tmp_path / "report.html"), tmp_path)
    assert page["images"] >= 1 and page["loaded"] == page["images"]
    assert page["first_class"] == "verdict", page
    assert expected_start(kind, study[kind]) in page["first_text"]
    assert page["window_width"] == 1280
    assert page["page_width"] <= 1280, f"the page is {page['page_width']} px wide"
    if kind == "sweep":  # its table of every configuration fits without scrolling sideways
        assert page["scrolling_tables"] == [], page["scrolling_tables"]


def test_every_figure_of_a_combined_report_loads(study, tmp_path):
    report = write_report([study["plain"], study["sweep"], study["tournament"]], tmp_path / "report.html")
    page = rendered(report, tmp_path)
    assert page["images"] == page["loaded"] == 7  # 3 for the run (scores, length, comeback), 1 for the sweep, 3 for the tournament


def test_ladder_report_verdict_first_and_nothing_overflows(ladder_dir, tmp_path):
    page = rendered(write_report([ladder_dir], tmp_path / "report.html"), tmp_path)
    assert page["images"] == page["loaded"] == 2
    assert page["first_class"] == "verdict", page
    assert "first-seat edge" in page["first_text"] and "at 2 iterations" in page["first_text"]
    assert page["page_width"] <= page["window_width"] == 1280, f"the page is {page['page_width']} px wide"
