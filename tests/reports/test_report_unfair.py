"""The Unfair report sections: one per study, a conclusion first, 95% intervals instead of standard errors,
every table in full with its CSV, a figure with its data."""

import re

import polars as pl

from reports.unfair import Z, as_intervals, unfair_sections
from simulator.unfair import fame, gems
from simulator.unfair.setup import load_setup

PNG = b"\x89PNG\r\n\x1a\n"


def test_every_study_has_a_conclusion_a_figure_and_its_tables():
    setup = load_setup()
    sections = unfair_sections(setup, first_date=True, trials=300, seed=2)
    assert [s.title for s in sections] == [
        "Unfair: rolling a double with magic beans", "Unfair: Wishing Well or Wandering Merchant",
        "Unfair: fame plans and Mythic markers", "Unfair: gemstone value and supply",
        "Unfair: panorama building policies", "Setup table"]
    studies, setup_section = sections[:5], sections[5]
    assert [f.name for s in studies for f in s.figures] == [
        "unfair-dice", "unfair-wishing-well", "unfair-fame", "unfair-gems", "unfair-panoramas"]
    for s in studies:
        assert s.verdict.endswith(".") and len(s.verdict) < 400
        (figure,) = s.figures
        assert figure.png().startswith(PNG) and figure.data.height > 0
        assert figure.figure.axes[0].get_legend() is None or \
            figure.figure.axes[0].get_legend().get_bbox_to_anchor().x0 >= figure.figure.axes[0].get_window_extent().x1
        for t in s.tables:
            assert not [h for h in t.header if re.search(r"(^|\s)se(\s|$)", h.lower())], (s.title, t.header)
    # every table of a study in full, with its CSV, with the First Date game length
    expected = {2: fame.fame_tables(setup, first_date=True, trials=300, seed=2),
                3: gems.gems_tables(setup, first_date=True, trials=300, seed=2)}
    for index, tables in expected.items():
        full = [t for t in sections[index].tables if t.name]
        assert [(t.caption, len(t.rows)) for t in full] == [(f"All results: {n}", df.height) for n, df in tables.items()]
    for s in studies[1:]:
        for t in s.tables:
            if "Rounds" in t.header:
                assert {row[t.header.index("Rounds")] for row in t.rows} == {"6"}
    dice_summary = sections[0].tables[0]
    assert [row[1] for row in dice_summary.rows][:2] == ["6/36 = 16.7%", "16/36 = 44.4%"]
    assert all("±" in row[2] for row in dice_summary.rows)
    assert sections[0].verdict.startswith("Magic beans take the chance of rolling a double from 6/36 = 16.7% with 0 "
                                          "beans to 36/36 = 100.0% with 5 beans; the largest step is from 0 to 1 "
                                          "bean, 6/36 to 16/36 (+27.8 points).")
    assert "[gems]" in setup_section.code and "trials each, seed 2" in setup_section.text[0]


def test_standard_errors_become_95_percent_half_widths():
    df = pl.DataFrame({"net": [1.0], "net_se": [0.1], "se_p": [0.01], "seed": [3]})
    out = as_intervals(df)
    assert out.columns == ["net", "net_95", "p_95", "seed"]
    assert out["net_95"][0] == 0.1 * Z and out["p_95"][0] == 0.01 * Z
