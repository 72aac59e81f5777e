"""The benchmark's comparison with the reference kernels names the reference commit and shows each ratio
closely enough to be read against issue 45's 0.97x."""

from studies.bench.baseline import BASELINE
from studies.bench.markdown import markdown
from studies.bench.tables import Bench


def test_the_reference_section_names_the_commit_and_a_ratio_just_under_the_target_reads_under_it():
    found = Bench(state_api=[{"game": "forks", "threads": 1, "before": 100_000.0, "state_api": 96_510.0}])
    text = markdown(found, parts=("state-api",))
    section = text[text.index("## Today's kernels against issue 45's reference"):]
    assert f"| game | threads | {BASELINE} | today | ratio |" in section
    assert "| forks | 1 | 100,000/s | 96,510/s | 0.965x |" in section   # two decimals would show 0.97x
