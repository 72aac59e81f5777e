"""The user-facing pages (README.md, docs/**/*.md) state current facts: no dates, clock times, load averages or
commit hashes. Dated measurements and history belong in the benchmark journal, bench/journal/."""

import re

import pytest

from console_blocks import ROOT

PAGES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md"))]
MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
DATED = {
    "a date": re.compile(rf"\b(?:19|20)\d\d-[01]\d-[0-3]\d\b|\b\d{{1,2}} {MONTH}\b|\b{MONTH} \d{{1,2}}\b"
                         rf"|\b{MONTH},? (?:19|20)\d\d\b"),
    "a clock time": re.compile(r"\b[0-2]\d:[0-5]\d(?::[0-5]\d)?(?: ?UTC)?\b"),
    "a load average": re.compile(r"\bload average|\bload of \d|\bunder a load\b|\bload \d", re.IGNORECASE),
    "a commit hash": re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b|\bcommit [0-9a-f]{7,40}\b"),
}


def findings(text):
    """``(line number, what, the text found)`` for every date, clock time, load average or commit hash."""
    return [(number, what, found.group(0))
            for number, line in enumerate(text.splitlines(), 1)
            for what, pattern in DATED.items()
            for found in pattern.finditer(line)]


@pytest.mark.parametrize("page", PAGES)
def test_a_user_facing_page_carries_no_date_load_or_commit(page):
    found = findings((ROOT / page).read_text())
    assert not found, f"{page} carries measurements' dates or history (move them to bench/journal/):\n" + \
        "\n".join(f"  line {n}: {what}: {text!r}" for n, what, text in found)


def test_the_scan_finds_what_the_journal_holds_and_spares_plain_facts():
    dated = ("measured on 4 December 2026", "on 2 December", "at 14:05 UTC", "2026-12-05",
             "load average 9-11", "under a load of 5 to 30", "at commit 1924533", "before 1c1bbe9 of", "load 5.7-7.1")
    assert all(findings(line) for line in dated)
    plain = ("1,000,000 games, seed 1", "a 128-bit set", "--scheduler tcp://10.0.0.5:8786", "seat_bonus = [0, 2.5]",
             "`playtest bench --part search`", "the deck for 4 players has only 55 cards", "ratio 1:2")
    assert not any(findings(line) for line in plain)
