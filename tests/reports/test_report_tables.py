"""Report table cells: human column names, percentages and points with fixed decimals, no scientific
notation, long tables folded."""

import polars as pl

from reports.tables import COLLAPSE_ROWS, Table, label, p_is, p_value, pct, pct_interval, points, text


def test_numbers_never_use_scientific_notation():
    assert text(88650.0) == "88,650"
    assert text(88650.5) == "88,650"
    assert text(123456789) == "123,456,789"
    assert text(0.00001234) == "0.000"
    assert text(3.14159) == "3.14"
    assert "e" not in text(1e-9) and "e" not in text(1e12)


def test_shares_and_differences_keep_their_decimals():
    assert pct(0.06196) == "6.2%"
    assert pct(0.005) == "0.5%"
    assert pct_interval(0.2681, 0.2744) == "26.8% to 27.4%"
    assert points(0.0206) == "+2.06" and points(-0.0206) == "-2.06" and points(0.0206, False) == "2.06"


def test_p_values_read_without_exponents():
    assert p_value(3e-12) == "< 0.0001"
    assert p_value(0.00321) == "0.0032"
    assert p_value(0.0496) == "0.050"
    assert p_is(3e-12) == "p < 0.0001" and p_is(0.2) == "p = 0.200"


def test_generic_tables_get_human_headers_and_percentages():
    frame = pl.DataFrame({"win_share": [0.2713], "sim_p": [0.25], "games": [2000], "p_95": [0.004],
                          "net_95": [0.25]})
    table = Table.of("t", frame)
    assert table.header == ["Win share", "Simulated chance", "Games", "± p (95%)", "± net (95%)"]
    assert table.rows == [["27.1%", "25.0%", "2,000", "0.4%", "0.250"]]
    assert label("git_revision") == "Git revision" and label("mean_rounds") == "Mean rounds"


def test_long_tables_fold():
    short = Table.of("t", pl.DataFrame({"x": list(range(COLLAPSE_ROWS))}))
    long = Table.of("t", pl.DataFrame({"x": list(range(COLLAPSE_ROWS + 1))}))
    assert not short.collapsed and long.collapsed
