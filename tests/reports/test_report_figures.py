"""Report figures: edges around a zero line in points, whole-number ticks, no one-value distributions,
legends off the data, 200 dpi; the sweep's marks; the head-to-head interval's coverage."""

import numpy as np
import polars as pl
import pytest

from reports import figures
from reports.sweep_report import near_best
from reports.tournament_report import clustered_share


def test_a_one_value_length_distribution_is_not_drawn():
    one = pl.DataFrame({"rounds": [4], "games": [100], "share": [1.0]})
    two = pl.DataFrame({"rounds": [3, 4], "games": [40, 60], "share": [0.4, 0.6]})
    assert figures.game_length("g", one) is None
    fig = figures.game_length("g", two)
    ticks = fig.figure.axes[0].get_xticks()
    assert np.allclose(ticks, np.round(ticks))


def test_seat_edges_are_points_around_zero_with_the_margin_outside_the_data():
    edges = pl.DataFrame({"seat": [0, 1], "strategy": ["greedy", "(rotated)"], "edge": [2.0, -2.0],
                          "lo": [1.0, -3.5], "hi": [3.0, -0.5]})
    fig = figures.seat_edges("e", edges, margin=1.0)
    ax = fig.figure.axes[0]
    left, right = ax.get_xlim()
    assert left == pytest.approx(-right) and right > 3.5  # centred on the fair share, every interval shown
    rows = dict(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels())))
    assert [rows[y] for y in sorted(rows, reverse=True)] == ["seat 0 (greedy)", "seat 1 (rotated)"]  # top down
    legend = ax.get_legend()
    assert legend.get_bbox_to_anchor().x0 >= ax.get_window_extent().x1  # right of the plot
    png = fig.png()
    width = int.from_bytes(png[16:20], "big")
    assert width >= 200 * 6  # a 7-inch figure at 200 dpi (less the trimmed margins)


def test_score_histograms_name_the_strategies_in_percent():
    seats = pl.DataFrame({"seat": [0, 1] * 50, "strategy": ["greedy", "random"] * 50,
                          "score": np.arange(100) % 7})
    fig = figures.score_distributions("s", seats)
    axes = [ax for ax in fig.figure.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == ["seat 0 (greedy)", "seat 1 (random)"]
    assert axes[0].yaxis.get_major_formatter()(10, 0).endswith("%")
    heights = [p.get_data().values for ax in axes for p in ax.patches]
    assert len(heights) == 2 and all(h.sum() == pytest.approx(100) for h in heights)


def test_identical_seats_get_a_panel_each_on_shared_axes_rather_than_one_on_top_of_another():
    rng = np.random.default_rng(3)
    seats = pl.DataFrame({"seat": np.tile(np.arange(6), 200), "strategy": ["random"] * 1200,
                          "score": rng.integers(0, 20, 1200)})
    fig = figures.score_distributions("s", seats)
    axes = [ax for ax in fig.figure.axes if ax.get_visible()]
    assert [ax.get_title() for ax in axes] == [f"seat {s} (random)" for s in range(6)]
    assert all(len(ax.patches) == 1 for ax in axes)  # one distribution per panel
    assert len({ax.get_xlim() for ax in axes}) == 1 and len({ax.get_ylim() for ax in axes}) == 1
    assert len(fig.figure.axes) == 8  # two rows of four, the last two hidden
    data = fig.data.group_by("seat").agg(pl.col("games").sum()).sort("seat")
    assert data["games"].to_list() == [200] * 6


def test_configurations_whose_bounds_overlap_the_fairest_cannot_be_told_apart():
    played = pl.DataFrame({"config": [0, 1, 2, 3], "max_edge": [0.010, 0.020, 0.045, 0.030],
                           "max_edge_lo": [0.0, 0.015, 0.035, 0.019], "max_edge_hi": [0.020, 0.025, 0.055, 0.041]})
    best, near = near_best(played)
    # the fairest reaches 0.020; config 1 starts at 0.015, config 3 at 0.019, config 2 at 0.035
    assert best == 0 and near == {1, 3}


@pytest.mark.parametrize("deal_spread", [0.0, 0.4])
def test_head_to_head_interval_covers_the_true_share(deal_spread):
    """Coverage with known truth: 4,000 tournaments of 300 deals, 3 comparisons per deal that share the
    deal's luck (deal_spread > 0 correlates them); the 95% interval should hold about 95% of the time."""
    rng = np.random.default_rng(11)
    truth, reps, deals = 0.6, 4000, 300
    p = np.clip(truth + deal_spread * rng.uniform(-1, 1, (reps, deals)), 0, 1)  # mean 0.6 exactly
    meetings = np.full((reps, deals), 3)
    wins = rng.binomial(3, p)
    share, lo, hi = clustered_share(wins, meetings)
    covered = ((lo <= truth) & (truth <= hi)).mean()
    assert 0.935 <= covered <= 0.965, covered
    # the naive interval that treats every comparison as independent is too narrow once deals matter
    naive = 1.96 * np.sqrt(share * (1 - share) / meetings.sum(axis=1))
    naive_cover = (np.abs(share - truth) <= naive).mean()
    assert naive_cover < 0.93 if deal_spread else naive_cover > 0.93
