from simulator.unfair.report import report_sections


def test_every_study_renders_markdown_html_and_a_figure(tmp_path):
    sections = report_sections(tmp_path, trials=300, seed=2)
    assert [s.slug for s in sections] == ["unfair-dice", "unfair-wishing-well", "unfair-fame", "unfair-gems",
                                          "unfair-panoramas"]
    for s in sections:
        assert s.figure.parent == tmp_path and s.figure.stat().st_size > 1000
        assert s.figure.read_bytes()[:4] == b"\x89PNG"
        assert s.markdown.startswith(f"## {s.title}") and f"]({s.figure.name})" in s.markdown
        assert f'src="{s.figure.name}"' in s.html
        for name, df in s.tables.items():
            assert f"**{name}**" in s.markdown
            assert s.markdown.count("\n| ") >= df.height
    dice_md = sections[0].markdown
    for fraction in ("6/36", "16/36", "24/36", "30/36", "34/36", "36/36"):
        assert f"| {fraction} |" in dice_md
