"""The Unfair report sections: one per study, every table in full, a figure with its data."""

from reports.unfair import unfair_sections
from simulator.unfair import fame, gems
from simulator.unfair.setup import load_setup

PNG = b"\x89PNG\r\n\x1a\n"


def test_every_study_has_a_section_with_its_tables_and_a_figure():
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
        assert s.text and s.tables
        (figure,) = s.figures
        assert figure.png().startswith(PNG) and figure.data.height > 0
    # every table of a study, in full, with the First Date game length
    expected = {2: fame.fame_tables(setup, first_date=True, trials=300, seed=2),
                3: gems.gems_tables(setup, first_date=True, trials=300, seed=2)}
    for index, tables in expected.items():
        assert [(t.caption, len(t.rows)) for t in sections[index].tables] == \
            [(name, df.height) for name, df in tables.items()]
    for s in studies[1:]:
        for t in s.tables:
            assert {row[t.header.index("rounds")] for row in t.rows} == {"6"}
    (dice_table,) = sections[0].tables
    fractions = [row[dice_table.header.index("exact_fraction")] for row in dice_table.rows]
    assert fractions == ["6/36", "16/36", "24/36", "30/36", "34/36", "36/36"]
    assert "[gems]" in setup_section.code and "trials each, seed 2" in setup_section.text[0]
