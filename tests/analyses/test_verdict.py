"""The balance verdict, checked by simulation with known truth (vectorised numpy, fixed seeds).

Each check uses enough replications (2,000-4,000) that a departure of 0.02
from the nominal rate is several standard errors wide.
"""

import numpy as np
import polars as pl
import pytest
from synthetic_runs import rotated_frame

from analyses import planning
from analyses.moments import SeatMoments, seat_moments
from analyses.verdict import decide, kinds, player_model, seat_verdict, simultaneous_edges, wald_test

P = 4


def multinomial_moments(rng, shares, games, reps):
    """Batched moments of ``reps`` runs of independent games without ties (a win vector is one-hot)."""
    counts = rng.multinomial(games, shares, size=reps).astype(float)
    return SeatMoments(games, counts, counts[:, :, None] * np.eye(len(shares)))


def games_with_ties(rng, shares, reps, games, tie_rate):
    """Win vectors of independent games: the winner from ``shares``; in ``tie_rate`` of the games the
    winner shares the top with a uniformly chosen other seat (half a win each)."""
    winner = (rng.random((reps, games, 1)) > np.cumsum(shares)).sum(axis=2)
    other = (winner + rng.integers(1, P, (reps, games))) % P
    tie = rng.random((reps, games)) < tie_rate
    w = np.zeros((reps, games, P))
    np.put_along_axis(w, winner[..., None], np.where(tie, 0.5, 1.0)[..., None], axis=2)
    np.put_along_axis(w, other[..., None], np.where(tie, 0.5, 0.0)[..., None], axis=2)
    truth = (1 - tie_rate) * shares + tie_rate * (0.5 * shares + 0.5 * (1 - shares) / (P - 1))
    return w, truth - 1 / P


def covered(moments, truth):
    """Share of replications whose simultaneous intervals cover every seat's true edge."""
    _, lo, hi = simultaneous_edges(moments)
    return float(((lo <= truth) & (truth <= hi)).all(axis=-1).mean())


def verdicts(moments, margin):
    _, lo, hi = simultaneous_edges(moments)
    return kinds(lo, hi, margin / 100)


def rejection_rate(moments):
    return float((wald_test(moments)[1] < 0.05).mean())


def test_simultaneous_intervals_cover_with_ties():
    rng = np.random.default_rng(1)
    w, truth = games_with_ties(rng, np.array([0.28, 0.25, 0.24, 0.23]), 3000, 600, 0.15)
    assert covered(SeatMoments.of_units(w), truth) == pytest.approx(0.95, abs=0.02)


def test_chi_square_size_with_equal_seats_and_ties():
    rng = np.random.default_rng(2)
    w, _ = games_with_ties(rng, np.full(P, 0.25), 3000, 600, 0.15)
    assert rejection_rate(SeatMoments.of_units(w)) == pytest.approx(0.05, abs=0.02)


def test_equivalence_test_at_the_margin_rarely_says_balanced():
    # seat 0's true edge is exactly the margin (1 point); the others share the loss
    rng = np.random.default_rng(3)
    moments = multinomial_moments(rng, np.array([0.26, 0.25 - 0.01 / 3, 0.25 - 0.01 / 3, 0.25 - 0.01 / 3]),
                                  60_000, 4000)
    said = verdicts(moments, 1.0)
    assert (said == "balanced").mean() <= 0.05
    assert (said == "unbalanced").mean() <= 0.05
    assert (said == "inconclusive").mean() > 0.9


def test_balanced_game_reads_balanced_at_the_planned_size():
    n = planning.games_for_verdict(1.0, P)
    rng = np.random.default_rng(4)
    balanced = (verdicts(multinomial_moments(rng, np.full(P, 0.25), n, 3000), 1.0) == "balanced").mean()
    assert balanced >= 0.8 - 0.02
    # and the plan is not wasteful: two thirds of the games fall short of the power
    fewer = (verdicts(multinomial_moments(rng, np.full(P, 0.25), 2 * n // 3, 3000), 1.0) == "balanced").mean()
    assert fewer < 0.8


def test_real_edge_reads_unbalanced_and_names_the_seat():
    rng = np.random.default_rng(5)
    counts = rng.multinomial(100_000, [0.28, 0.24, 0.24, 0.24], size=50).astype(float)
    said = [decide(SeatMoments(100_000, c, np.diag(c)), 1.0) for c in counts]
    assert all(v.kind == "unbalanced" and v.largest.seat == 0 for v in said)
    v = said[0]
    assert v.largest.lo > 1.0 and v.largest.lo < v.largest.edge < v.largest.hi
    assert "Unbalanced: seat 0 has an edge of +3" in v.sentence()
    assert v.to_dict()["verdict"] == "unbalanced" and v.to_dict()["largest_edge"]["seat"] == 0


def test_games_needed_settles_an_inconclusive_verdict():
    rng = np.random.default_rng(6)
    shares = np.full(P, 0.25)
    c = rng.multinomial(3000, shares).astype(float)
    first = decide(SeatMoments(3000, c, np.diag(c)), 1.0)
    assert first.kind == "inconclusive" and first.games_needed > 3000
    later = verdicts(multinomial_moments(rng, shares, first.games_needed, 2000), 1.0)
    # planned from one run's estimates (power 0.8 if they were the truth): it settles the verdict
    assert (later == "balanced").mean() > 0.5


def deal_units(rng, reps, deals, q, luck, strength, copies):
    """Rotated runs: a deal's cards favour seat F (drawn from ``q``); in each of the P rotations the
    favoured seat wins with probability ``luck``, else the seat holding a strategy drawn from
    ``strength`` (strategy k sits at seat (k - r) mod P in rotation r). ``copies``: every rotation is the
    same game (identical strategies). Returns the deal averages and the true seat edges."""
    favoured = (rng.random((reps, deals, 1)) > np.cumsum(q)).sum(axis=2)
    rotations = 1 if copies else P
    by_luck = rng.random((reps, deals, rotations)) < luck
    strategy = (rng.random((reps, deals, rotations, 1)) > np.cumsum(strength)).sum(axis=3)
    seat_of_strategy = (strategy - np.arange(rotations)) % P
    winner = np.where(by_luck, favoured[..., None], seat_of_strategy)
    units = (winner[..., None] == np.arange(P)).mean(axis=2)
    return units, luck * (np.asarray(q) - 1 / P)


@pytest.mark.parametrize("copies, strength", [(True, [0.25] * 4), (False, [0.55, 0.15, 0.15, 0.15])],
                         ids=["identical-strategies", "mixed-strategies"])
def test_rotated_verdict_clusters_by_deal(copies, strength):
    rng = np.random.default_rng(7)
    q = [0.31, 0.23, 0.23, 0.23]
    units, truth = deal_units(rng, 2500, 400, q, 0.6, strength, copies)
    moments = SeatMoments.of_units(units, rotations=P)
    assert covered(moments, truth) == pytest.approx(0.95, abs=0.02)
    # with equal seats the chi-square keeps its size
    units, _ = deal_units(rng, 2500, 400, [0.25] * 4, 0.6, strength, copies)
    assert rejection_rate(SeatMoments.of_units(units, P)) == pytest.approx(0.05, abs=0.02)


def test_seat_test_plan_reaches_its_power():
    n = planning.games_for_seat_test(1.0, P)
    rng = np.random.default_rng(8)
    shares = np.array([0.26, 0.25 - 0.01 / 3, 0.25 - 0.01 / 3, 0.25 - 0.01 / 3])
    assert rejection_rate(multinomial_moments(rng, shares, n, 4000)) == pytest.approx(0.8, abs=0.02)


def test_until_ci_stop_rule_keeps_coverage():
    # chunks of 400 games until every seat's 95% half-width is below 2 points (at most 40 chunks); then
    # each seat's interval should still cover its true share 95% of the time
    rng = np.random.default_rng(9)
    shares = np.array([0.40, 0.30, 0.20, 0.10])
    counts = rng.multinomial(400, shares, size=(2000, 40)).astype(float).cumsum(axis=1)
    running = np.ones(2000, bool)
    hits = []
    for chunk in range(40):
        m = SeatMoments(400 * (chunk + 1), counts[:, chunk], counts[:, chunk, :, None] * np.eye(P))
        half = planning.half_widths(m)
        stop = running & (half.max(axis=1) < 0.02)
        hits.append((np.abs(m.mean - shares) <= half)[stop])
        running &= ~stop
    assert not running.any()  # the target was reachable
    assert np.concatenate(hits).mean() == pytest.approx(0.95, abs=0.02)


def test_seat_moments_average_rotations_within_a_deal():
    seats = rotated_frame(deals=300, strategies=("A", "B", "C"))
    m = seat_moments(seats)
    deals = (seats.group_by("game", "seat").agg(pl.col("win").mean()).sort("game", "seat")["win"]
             .to_numpy().reshape(-1, 3))
    assert (m.n, m.rotations, m.games) == (300, 3, 900)
    assert m.total == pytest.approx(deals.sum(axis=0))
    assert m.cross == pytest.approx(deals.T @ deals)
    chunks = seat_moments(seats.filter(pl.col("game") < 100)) + seat_moments(seats.filter(pl.col("game") >= 100))
    assert chunks.cross == pytest.approx(m.cross)


def test_unfinished_games_are_left_out_and_said():
    seats = rotated_frame(deals=200, strategies=("A", "B", "C")).filter(pl.col("rotation") == 0).drop("rotation")
    marked = seats.with_columns((pl.col("game") >= 10).cast(pl.Int8).alias("finished"))
    verdict = seat_verdict(marked, manifest={"setup": {"rules": {"max_rounds": 200}}})
    assert verdict.unfinished == 10 and verdict.games == 190
    assert verdict.unfinished_line() == "10 of 200 games hit the 200-round cap and are left out"
    mostly = seat_verdict(seats.with_columns((pl.col("game") < 10).alias("finished")))
    assert mostly.kind == "unfinished"
    assert mostly.sentence().startswith("Not a balance question: 190 of 200 games did not finish")


def test_mixed_lineup_speaks_of_lineups():
    seats = rotated_frame(deals=200, strategies=("A", "B", "C")).filter(pl.col("rotation") == 0)
    verdict = seat_verdict(seats.drop("rotation"))
    assert verdict.subject == "lineups"
    assert "--rotate-seats" in verdict.cannot_tell and "lineup" in verdict.sentence()


@pytest.mark.parametrize("rotated", [False, True])
@pytest.mark.parametrize("order", ["by game", "shuffled"])
def test_moments_in_small_batches_or_slices_equal_the_deals_own_means(monkeypatch, rotated, order):
    """seat_moments streams a frame in game order in batches (a deal's rows carried across a batch boundary)
    and aggregates any other frame in slices of game numbers; both must give the moments of the deals."""
    from analyses import moments

    seats = rotated_frame(deals=300) if rotated else rotated_frame(deals=300).filter(pl.col("rotation") == 0)
    seats = seats.with_columns(((3 * pl.col("game") + pl.col("rotation")) % 17 != 3).alias("finished"))  # some unfinished
    if order == "shuffled":
        seats = seats.sample(fraction=1.0, shuffle=True, seed=5)
    finished = seats.filter("finished")
    deals = (finished.group_by("game", "seat").agg(pl.col("win").mean()).sort("game", "seat")["win"]
             .to_numpy().reshape(-1, 3))
    monkeypatch.setattr(moments, "BATCH_ROWS", 5)  # 5 rows: deals of 3 or 9 rows straddle the batches
    monkeypatch.setattr(moments, "UNIT_SLICE", 7)
    m = seat_moments(seats)
    unfinished = seats.filter(~pl.col("finished"), pl.col("seat") == 0).height
    assert (m.n, m.rotations, m.unfinished) == (deals.shape[0], 3 if rotated else 1, unfinished)
    np.testing.assert_allclose(m.total, deals.sum(axis=0))
    np.testing.assert_allclose(m.cross, deals.T @ deals)


# Issue 27, item 1: few games, many seats. Exact intervals on the effective games hold their coverage
# from 20 games up at 2-8 players (the former t interval covered 0.76 at 8 players and 50 games).
@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
@pytest.mark.parametrize("games", [20, 50, 200])
def test_fixed_seat_intervals_cover_from_twenty_games(players, games):
    rng = np.random.default_rng(100 + players * games)
    for shares in (np.full(players, 1 / players), np.r_[2.0, np.ones(players - 1)] / (players + 1)):
        moments = multinomial_moments(rng, shares, games, 3000)
        assert covered(moments, shares - 1 / players) >= 0.945
        if (shares == 1 / players).all():  # and a game that is fair reads "unbalanced" at most 5% of the time
            assert (verdicts(moments, 1.0) == "unbalanced").mean() <= 0.05


def rotated_units(rng, players, reps, deals, luck, strong=0.7):
    """Rotated runs with every true seat edge 0: a deal favours a random seat, which wins each rotation
    with probability ``luck``; otherwise the strongest strategy wins with probability ``strong`` (and a
    weaker one else). Strategy k sits at seat (k - r) mod P in rotation r. Returns the deal averages."""
    strength = np.r_[strong, np.full(players - 1, (1 - strong) / (players - 1))]
    favoured = rng.integers(0, players, (reps, deals, 1))
    by_luck = rng.random((reps, deals, players)) < luck
    strategy = np.minimum((rng.random((reps, deals, players, 1)) > np.cumsum(strength)).sum(axis=3), players - 1)
    winner = np.where(by_luck, favoured, (strategy - np.arange(players)) % players)
    return (winner[..., None] == np.arange(players)).mean(axis=2)


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
@pytest.mark.parametrize("luck", [0.0, 0.5, 0.95])
def test_rotated_intervals_cover_from_twenty_games(players, luck):
    # below 10 deals each deal counts as one game (their spread is not trusted): at 8 players and 3 deals the
    # pooled design effect alone covered 0.89
    rng = np.random.default_rng(200 + players + int(100 * luck))
    for deals in (-(-20 // players), 10, 40):
        moments = SeatMoments.of_units(rotated_units(rng, players, 3000, deals, luck), rotations=players)
        assert covered(moments, np.zeros(players)) >= 0.945


# Issue 27, item 2: zero variance. Seeds 10, 37, 46 and 50 of `simulate forks --rotate-seats -s greedy -s random
# -s random -s random --until-ci 0.05 --chunk-size 2` stopped after 2 deals with seat 0 at -25.00 (-25.00 to -25.00).
def test_a_handful_of_deals_gives_no_zero_width_interval_and_no_verdict():
    units = np.zeros((2, P))
    units[:, 1] = units[:, 2] = 0.5  # seat 0 never wins in 2 deals of 4 rotations; seat 3 neither
    v = decide(SeatMoments.of_units(units, rotations=P), 1.0)
    assert v.kind == "inconclusive"
    assert all(e.hi - e.lo > 20 for e in v.edges)  # points
    assert v.games_needed is None and "too few deals to plan from: play at least 30 deals" in v.sentence()
    assert np.isnan(v.seat_test.statistic) and "chi-square test of equal shares: not computed" in v.lines()[1]
    assert planning.max_half_width(SeatMoments.of_units(units, rotations=P)) == float("inf")


def test_until_ci_needs_its_minimum_sample_even_when_every_deal_is_the_same():
    units = np.tile([1.0, 0.0, 0.0, 0.0], (planning.MIN_UNITS - 1, 1))
    assert planning.max_half_width(SeatMoments.of_units(units, rotations=P)) == float("inf")
    units = np.tile([1.0, 0.0, 0.0, 0.0], (planning.MIN_UNITS, 1))
    assert 0 < planning.max_half_width(SeatMoments.of_units(units, rotations=P)) < float("inf")


# Issue 27, item 5: two players. Seat 1's edge is minus seat 0's, so one 95% interval, not Bonferroni over two.
def test_two_players_have_one_interval_at_the_nominal_level():
    rng = np.random.default_rng(300)
    shares = np.array([0.53, 0.47])
    moments = multinomial_moments(rng, shares, 2000, 4000)
    assert covered(moments, shares - 0.5) == pytest.approx(0.95, abs=0.01)
    _, lo, hi = simultaneous_edges(moments)
    assert np.allclose(lo[:, 0], -hi[:, 1]) and np.allclose(hi[:, 0], -lo[:, 1])  # mirror images
    n = planning.games_for_verdict(2.0, 2)
    balanced = (verdicts(multinomial_moments(rng, np.full(2, 0.5), n, 4000), 2.0) == "balanced").mean()
    assert balanced == pytest.approx(0.8, abs=0.02)  # planned 0.90 with Bonferroni over the mirror images


# Issue 27, item 4: games_needed is planned for 0.8 as if the estimated edges were exact; what it delivers, from
# inconclusive runs of known truth extended to the games it names: about 2 times in 3 or more (as the sentence says;
# docs/analyses.md lists what it measured, down to 0.65 for an edge 1.5 points out at ±1).
@pytest.mark.parametrize("shares, first, margin, least", [
    ([0.25] * 4, 3000, 1.0, 0.85),                         # seats equal: 0.92 measured
    ([0.26, 0.25, 0.25, 0.24], 3000, 2.0, 0.85),           # edges inside the margin: 0.91
    ([0.27, 0.25, 0.25, 0.23], 2000, 1.0, 2 / 3),          # an edge beyond it: 0.72
    ([0.53, 0.47], 1000, 1.0, 0.8)])                       # two players: 0.87
def test_games_needed_settles_the_verdict_as_often_as_it_says(shares, first, margin, least):
    rng = np.random.default_rng(400)
    shares = np.array(shares)
    settled = []
    for c in rng.multinomial(first, shares, size=300).astype(float):
        v = decide(SeatMoments(first, c, np.diag(c)), margin)
        if v.kind != "inconclusive":
            continue
        if v.games_needed is None:  # "no affordable number settles it" (or too few games to plan from)
            settled.append(False)
            continue
        more = c + rng.multinomial(max(v.games_needed - first, 0), shares)
        settled.append(decide(SeatMoments(max(v.games_needed, first), more, np.diag(more)), margin).kind
                       != "inconclusive")
    assert len(settled) > 150 and np.mean(settled) >= least
    assert "would settle it about 2 times in 3 or more" in v.sentence()


def test_an_unbalanced_verdict_names_every_seat_beyond_the_margin():
    counts = 4 * np.array([2684.0, 2500, 2557, 2259])  # seat 0 +1.84, seat 3 -2.41 points (Fair Enough's trial)
    v = decide(SeatMoments(40_000, counts, np.diag(counts)), 1.0, model="with `random` in every seat")
    assert [e.seat for e in v.beyond()] == [3, 0] and v.to_dict()["beyond_margin"] == [3, 0]
    assert v.sentence().startswith("Unbalanced with `random` in every seat: seat 3 has an edge of -2.41 points (")
    assert ", and seat 0 +1.84 (" not in v.sentence() and "), and" not in v.sentence()
    assert "and seat 0 +1.84 (+" in v.sentence() and "seat 2" not in v.sentence()


def frame_of(lineups, rotated=False):
    """Seat rows of one game per lineup row (strategy per seat), numbered as rotations when ``rotated``."""
    rows = [(0, r if rotated else 0, s, name, 1.0 * (s == 0), len(line)) for r, line in enumerate(lineups)
            for s, name in enumerate(line)]
    frame = pl.DataFrame(rows, schema=["game", "rotation", "seat", "strategy", "win", "players"], orient="row")
    return frame if rotated else frame.drop("rotation")


@pytest.mark.parametrize("lineups, rotated, words", [
    ([["random"] * 4], False, "with `random` in every seat"),
    ([["greedy", "random", "random", "random"]], False, "with `greedy` in seat 0 and `random` elsewhere"),
    ([["a", "b", "a", "c"]], False, "with `a` in seats 0 and 2, `b` in seat 1 and `c` in seat 3"),
    ([["a", "b"]], False, "with `a` in seat 0 and `b` in seat 1"),
    ([["greedy", "random", "random"], ["random", "greedy", "random"], ["random", "random", "greedy"]], True,
     "with `greedy` and 2 `random` rotated through the seats"),
    ([["random"] * 3] * 3, True, "with `random` in every seat"),
])
def test_every_verdict_names_the_players_it_rests_on(lineups, rotated, words):
    assert player_model(frame_of(lineups, rotated)) == words


def test_a_table_cell_shows_an_asymmetric_interval_as_it_is():
    from analyses.verdict import SeatEdge

    assert SeatEdge(0, "x", 25.0, 1.22, 0.91, 1.53).short() == "+1.22 ± 0.31"
    assert SeatEdge(0, "x", 0.0, -25.0, -25.0, 21.97).short() == "-25.00 (-25.00 to +21.97)"


def test_an_edge_at_the_margin_plans_no_absurd_number_of_games():
    counts = np.array([520.0, 480.0])  # seat 0 at +2.00 points, the margin
    v = decide(SeatMoments(1000, counts, np.diag(counts)), 2.0)
    assert v.kind == "inconclusive" and v.games_needed is None
    assert "no affordable number of games settles it" in v.sentence()


def test_the_per_strategy_lines_give_no_interval_from_a_handful_of_deals():
    from analyses.seat_summary import seat_summary

    few = seat_summary(rotated_frame(deals=4, strategies=("A", "B", "C"))).strategy_lines()
    assert few[0].endswith("(no intervals: fewer than 10 deals):") and not any("±" in line for line in few)
    many = seat_summary(rotated_frame(deals=60, strategies=("A", "B", "C"))).strategy_lines()
    assert many[0].endswith("(95% intervals, deals as the unit):") and "±" in many[1] and " to " in many[-1]
