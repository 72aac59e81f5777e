import base64
import json
import re

import polars as pl
import pytest
from click.testing import CliRunner

from playtest.cli_unfair import parse_beans, unfair


def run(*args):
    return CliRunner().invoke(unfair, list(args))


def test_dice_json_prints_the_exact_table():
    res = run("dice", "--goal", "double", "--beans", "0..5", "--json", "--trials", "2000")
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["dice"]
    assert [r["exact_fraction"] for r in rows] == ["6/36", "16/36", "24/36", "30/36", "34/36", "36/36"]
    assert [r["beans"] for r in rows] == [0, 1, 2, 3, 4, 5]


def test_dice_prints_its_conclusion_then_a_table_of_95_percent_intervals():
    res = run("dice", "--beans", "0..2", "--trials", "2000", "--seed", "4")
    assert res.exit_code == 0, res.output
    said = " ".join(res.output.split())
    # two dice: 6 doubles in 36 rolls; a bean moves one die by 1, so one bean also saves the 10 rolls 1 apart
    assert said.startswith("Magic beans take the chance of rolling a double from 6/36 = 16.7% with 0 beans to "
                           "24/36 = 66.7% with 2 beans; the largest step is from 0 to 1 bean, 6/36 to 16/36 "
                           "(+27.8 points).")
    lines = res.output.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("Beans held"))
    assert "Simulated" in lines[header - 1] + lines[header] and not re.search(r"\bse\b", res.output)
    assert [line.split()[:2] for line in lines[header + 2:header + 5]] == [["0", "6/36"], ["1", "16/36"],
                                                                          ["2", "24/36"]]
    assert "Every ± is a 95% interval" in said
    one = " ".join(run("dice", "--beans", "3", "--trials", "200").output.split())
    assert one.startswith("With 3 beans held, the chance of rolling a double is 30/36 = 83.3%.")


@pytest.mark.parametrize("command", ["wishing-well", "fame", "gems", "panoramas"])
def test_every_study_prints_the_conclusion_of_its_report_section_first(command):
    from reports.unfair_answers import ANSWERS
    from playtest import api

    res = run(command, "--trials", "50", "--seed", "3")
    assert res.exit_code == 0, res.output
    conclusion, summary = ANSWERS[command](api.unfair(command, trials=50, seed=3).info["tables"])
    assert " ".join(res.output.split()).startswith(conclusion)
    assert summary.rows and all(re.search(r"\bse\b", h.lower()) is None for h in summary.header)


@pytest.mark.parametrize("text, beans", [("0..5", [0, 1, 2, 3, 4, 5]), ("2", [2]), ("0,2,4", [0, 2, 4])])
def test_bean_lists(text, beans):
    assert parse_beans(text) == beans


def test_bad_bean_list_is_a_usage_error():
    res = run("dice", "--beans", "a..b")
    assert res.exit_code == 2 and "--beans" in res.output


def test_sum_goal_without_target_is_refused():
    res = run("dice", "--goal", "at-least")
    assert res.exit_code == 2 and "target" in res.output


def test_bad_setup_file_names_the_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[gems]\ncounts = [1, 1, 1, 1, 1, 1, 1, 1, 1]\n")
    res = run("gems", "--setup", str(path), "--trials", "10")
    assert res.exit_code == 2
    assert "error: setup table: gems.counts: must total 25 tokens" in res.output


@pytest.mark.parametrize("command, tables", [
    ("wishing-well", ["wishing well"]), ("fame", ["fame by round", "mythic markers at game end"]),
    ("gems", ["facility value", "supply"]), ("panoramas", ["panoramas"])])
def test_every_study_prints_json(command, tables):
    res = run(command, "--trials", "50", "--first-date", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert list(out) == tables
    assert all(row["rounds"] == 6 for rows in out.values() for row in rows)


TITLES = ["Unfair: rolling a double with magic beans", "Unfair: Wishing Well or Wandering Merchant",
          "Unfair: fame plans and Mythic markers", "Unfair: gemstone value and supply",
          "Unfair: panorama building policies"]
FIGURES = ["unfair-dice", "unfair-wishing-well", "unfair-fame", "unfair-gems", "unfair-panoramas"]
PNG = b"\x89PNG\r\n\x1a\n"


TABLES = ["unfair-dice-double", "unfair-wishing-well-wishing-well", "unfair-fame-fame-by-round",
          "unfair-fame-mythic-markers-at-game-end", "unfair-gems-facility-value", "unfair-gems-supply",
          "unfair-panoramas-panoramas"]


def _csvs_behind_the_figures(data_dir):
    """Every figure and every table has its data beside the report, and nothing else is written."""
    names = FIGURES + TABLES
    assert sorted(p.name for p in data_dir.glob("*.csv")) == sorted(f"{name}.csv" for name in names)
    assert all(pl.read_csv(data_dir / f"{name}.csv").height > 0 for name in names)


def test_report_is_one_html_file_with_embedded_figures_and_csv_data(tmp_path):
    out = tmp_path / "lab.html"
    res = run("report", "--out", str(out), "--trials", "50", "--seed", "3")
    assert res.exit_code == 0, res.output
    assert res.output.strip().splitlines()[-1] == str(out)
    text = out.read_text()
    assert text.index("does not simulate the base game of Unfair") < text.index("<h2>")
    assert all(f"<h2>{title}</h2>" in text for title in TITLES)
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)"', text)
    assert len(images) == 5 and all(base64.b64decode(i).startswith(PNG) for i in images)
    assert "https://" not in text and "http://" not in text.replace("http://www.w3.org", "")
    _csvs_behind_the_figures(tmp_path / "lab-data")


def test_markdown_report_writes_png_files(tmp_path):
    out = tmp_path / "lab.md"
    res = run("report", "--out", str(out), "--format", "md", "--trials", "50", "--first-date")
    assert res.exit_code == 0, res.output
    text = out.read_text()
    assert all(f"## {title}" in text for title in TITLES) and "First Date" in text
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert images == [f"lab-data/{name}.png" for name in FIGURES]
    assert all((tmp_path / path).read_bytes().startswith(PNG) for path in images)
    _csvs_behind_the_figures(tmp_path / "lab-data")


def test_report_with_a_bad_setup_prints_one_error_and_writes_nothing(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[gems]\ncounts = [1, 1, 1, 1, 1, 1, 1, 1, 1]\n")
    res = run("report", "--out", str(tmp_path / "lab.html"), "--setup", str(path), "--trials", "10")
    assert res.exit_code == 2
    assert res.output.splitlines() == ["error: setup table: gems.counts: must total 25 tokens (gems.tokens), got 9"]
    assert list(tmp_path.iterdir()) == [path]
