"""The HTML report rendered in headless Chromium: every figure must load (no network needed)."""

import re
import shutil
import subprocess

import pytest

from reports.build import write_report

CHROMIUM = shutil.which("chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
# Injected into a copy of the report: after loading, the title counts images and images that decoded.
PROBE = ("<script>window.addEventListener('load', function () { var all = Array.from(document.images);"
         " document.title = 'FIGURES ' + all.length + ' ' +"
         " all.filter(function (i) { return i.complete && i.naturalWidth > 0; }).length; });</script>")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian package chromium; .ci/run installs it)")
def test_every_figure_loads_in_chromium(study, tmp_path):
    report = write_report([study["plain"], study["sweep"], study["tournament"]], tmp_path / "report.html")
    probe = tmp_path / "probe.html"
    probe.write_text(report.read_text().replace("</body>", PROBE + "</body>"))
    result = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                             "--virtual-time-budget=10000", "--dump-dom", probe.as_uri()],
                            capture_output=True, text=True, timeout=120)
    title = re.search(r"<title>FIGURES (\d+) (\d+)</title>", result.stdout)
    assert title, f"Chromium did not finish the page: {result.stderr[-2000:]}"
    assert title.group(1) == title.group(2) == "7"
