"""playtest bench: a partial run (some games, some parts or another game count) is printed and never replaces
the whole benchmark in bench/results.md; --out writes it where asked."""

from cli_support import invoke

PARTIAL = ["bench", "fool", "-n", "500", "--part", "reference"]


def test_a_partial_run_is_printed_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*PARTIAL)
    assert result.exit_code == 0, result.output
    assert "fool: " in result.stdout and "not written: bench/results.md holds the whole benchmark" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_a_partial_run_writes_where_out_says(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke(*PARTIAL, "--out", "fool.md")
    assert result.exit_code == 0, result.output
    assert "| fool | 4 |" in (tmp_path / "fool.md").read_text() and "not written" not in result.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["fool.md"]
