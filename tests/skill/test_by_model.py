"""playtest skill: the first-seat edge by player model, and the sentence that compares the models.

The statistics are checked by simulation with known truth (vectorised numpy,
fixed seeds); the command by a tiny Forks study; bad input by one error line.
"""

import json
import shutil

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from analyses import by_model
from analyses.runs import open_run
from analyses.verdict import seat_verdict
from playtest.cli import cli

RNG_SEED = 20261203


def first_seat_draws(rng, edges, studies, games, players=4, tie=0.04):
    """Seat 0's win in ``games`` games of ``studies`` studies for each true edge (points): 1 with probability
    1/players + edge - tie/2, a two-way shared win (0.5) with probability ``tie``, else 0; the mean is
    1/players + edge - tie/2 + tie/2 = 1/players + edge. Models drawn independently of each other."""
    edges = np.asarray(edges, dtype=float) / 100
    u = rng.random((studies, len(edges), games))
    win = 1 / players + edges[None, :, None] - tie / 2
    return np.where(u < win, 1.0, np.where(u < win + tie, 0.5, 0.0))


def study_words(wins, players=4):
    """``change``'s word for every step of every study (studies x steps), as ``steps`` computes it."""
    _, lo, hi = by_model.edge_interval(wins, players)
    count = wins.shape[1] - 1
    _, dlo, dhi = by_model.paired_difference(wins[:, :-1], wins[:, 1:], count)
    return by_model.change(lo[:, :-1], hi[:, :-1], lo[:, 1:], hi[:, 1:], dlo, dhi)


def test_the_first_seat_interval_covers_the_true_edge_95_percent_of_the_time():
    rng = np.random.default_rng(RNG_SEED)
    wins = first_seat_draws(rng, [3.0], 4000, 1500)[:, 0]
    edge, lo, hi = by_model.edge_interval(wins, 4)
    assert abs(((lo <= 3.0) & (3.0 <= hi)).mean() - 0.95) < 0.012
    assert abs(edge.mean() - 3.0) < 0.05


def test_the_paired_interval_covers_the_true_difference_when_the_models_share_the_deals():
    """Both models see the same luck (one uniform per game decides both), so the pairing narrows the interval;
    it must still cover the true difference 95% of the time, and be narrower than a two-sample one."""
    rng = np.random.default_rng(RNG_SEED + 1)
    u = rng.random((4000, 1200))
    before, after = (u < 0.25).astype(float), (u < 0.29).astype(float)
    d, lo, hi = by_model.paired_difference(before, after)
    assert abs(((lo <= 4.0) & (4.0 <= hi)).mean() - 0.95) < 0.015
    two_sample = 1.96 * np.sqrt(before.var(axis=1) / 1200 + after.var(axis=1) / 1200) * 100
    assert np.median((hi - lo) / 2) < 0.5 * np.median(two_sample)


def test_equal_edges_are_called_different_at_most_5_percent_of_the_time_over_all_steps():
    rng = np.random.default_rng(RNG_SEED + 2)
    words = study_words(first_seat_draws(rng, [2.0, 2.0, 2.0], 4000, 3000))
    any_claim = (words != by_model.AGREE).any(axis=1).mean()
    assert 0.025 < any_claim < 0.06     # Bonferroni over the two steps: about 5%, not far less


def test_a_growing_edge_is_found_and_named_and_never_read_the_wrong_way():
    """Truth 0, +3, +8 points: the first step starts from an edge whose interval mostly holds zero (so
    "rises"; "grows" or "reverses" when that interval happens to miss zero, about 2.5% of the time each),
    the second goes from one positive edge to a larger one ("grows")."""
    rng = np.random.default_rng(RNG_SEED + 3)
    words = study_words(first_seat_draws(rng, [0.0, 3.0, 8.0], 2000, 8000))
    assert (words[:, 0] == "rises").mean() > 0.85
    assert (words[:, 0] == "reverses").mean() < 0.045 and (words[:, 0] == "grows").mean() < 0.045
    assert (words[:, 1] == "grows").mean() > 0.97
    assert not np.isin(words, ["shrinks", "falls"]).any()      # never the wrong direction


@pytest.mark.parametrize("intervals, word", [
    ((1, 3, -3, -1, -5, -1), "reverses"),
    ((1, 3, 4, 6, 1, 4), "grows"),
    ((-3, -1, -6, -4, -4, -1), "grows"),
    ((4, 6, 1, 3, -4, -1), "shrinks"),
    ((-6, -4, -3, -1, 1, 4), "shrinks"),
    ((-1, 1, 2, 4, 1, 4), "rises"),
    ((-1, 1, -4, -2, -4, -1), "falls"),
    ((-1, 2, -1, 2, -0.5, 0.5), by_model.AGREE),
    ((1, 3, 4, 6, -0.5, 4), by_model.AGREE),     # no overlap of the edges, but the paired difference holds zero
])
def test_change_words(intervals, word):
    assert str(by_model.change(*intervals)) == word


def edges_frame(rows):
    return pl.DataFrame([{"model": m, "first_seat_edge": e, "low": lo, "high": hi, "verdict": "inconclusive",
                          "verdict_sentence": "Inconclusive at ±1.0 points: ..."} for m, e, lo, hi in rows])


def changes_frame(rows):
    return pl.DataFrame([{"before": a, "after": b, "difference": d, "low": lo, "high": hi, "games": 7000,
                          "change": c} for a, b, d, lo, hi, c in rows])


def test_the_sentence_claims_a_trend_only_where_every_step_shows_it():
    edges = edges_frame([("random", 1.8, 1.0, 2.6), ("banker", 7.6, 6.8, 8.4), ("mcts@64", 9.9, 9.0, 10.8)])
    grows = by_model.sentence(edges, changes_frame([("random", "banker", 5.8, 4.6, 7.0, "grows"),
                                                    ("banker", "mcts@64", 2.3, 1.1, 3.5, "grows")]))
    assert grows.startswith("The first player's edge grows with skill at every step (random → banker → mcts@64")
    mixed = by_model.sentence(edges, changes_frame([("random", "banker", 5.8, 4.6, 7.0, "grows"),
                                                    ("banker", "mcts@64", 2.3, -0.1, 4.7, by_model.AGREE)]))
    assert mixed.startswith("The first-seat edge changes at some steps only: from random to banker it grows")
    assert "from banker to mcts@64 the models agree within the intervals (+2.30 points (-0.10 to +4.70))" in mixed
    assert "grows with skill" not in mixed
    agree = by_model.sentence(edges, changes_frame([("random", "banker", 5.8, -0.4, 7.0, by_model.AGREE),
                                                    ("banker", "mcts@64", 2.3, -0.1, 4.7, by_model.AGREE)]))
    assert agree.startswith("The models agree within the intervals: the first-seat edge is +1.80 (+1.00 to "
                            "+2.60) with random; +7.60 (+6.80 to +8.40) with banker; +9.90")
    assert "simultaneous 95% intervals over the 2 steps" in agree
    one = by_model.sentence(edges.head(1), pl.DataFrame(schema={"change": pl.String}))
    assert one.startswith("One model only (random), so no comparison")
    assert [s.split(":")[0] for s in by_model.verdict_sentences(edges)] == [
        "With `random` in every seat", "With `banker` in every seat", "With `mcts@64` in every seat"]
    named = edges.with_columns(verdict_sentence=pl.format("Inconclusive at ±1.0 points with `{}` in every seat: ...",
                                                          "model"))
    assert by_model.verdict_sentences(named) == named["verdict_sentence"].to_list()


def test_a_step_between_the_two_skilled_models_is_called_a_disagreement_not_a_trend():
    """Fair Enough's study of 5 December 2026 (docs/skill.md): `learned` +5.82, `mcts@256` +1.94, paired -4.04."""
    (disagree,) = by_model.skilled_disagreement(changes_frame([
        ("random", "builder", -0.56, -2.3, 1.2, by_model.AGREE),
        ("builder", "learned", 4.92, 3.18, 6.66, "grows"),
        ("learned", "mcts@256", -4.04, -5.74, -2.33, "shrinks")]))
    assert disagree.startswith("The two skilled models disagree: from learned to mcts@256 the first seat's edge "
                               "moves by -4.04 points (-5.74 to -2.33)")
    assert by_model.skilled_disagreement(changes_frame([
        ("learned", "mcts@256", -0.71, -2.38, 0.96, by_model.AGREE)])) == []
    # a change between a heuristic and a skilled model is a step in skill, not a disagreement of skilled players
    assert by_model.skilled_disagreement(changes_frame([("builder", "mcts@64", 4.0, 2.0, 6.0, "grows")])) == []
    assert by_model.skilled_disagreement(changes_frame([("builder", "learned", 4.0, 2.0, 6.0, "grows")])) == []
    assert by_model.skilled_disagreement(pl.DataFrame(schema={"before": pl.String, "after": pl.String,
                                                              "change": pl.String})) == []


def test_default_models_follow_the_strategy_set():
    from strategies.games import strategy_set

    sset = strategy_set("fool")
    expected = ["random", sset.strongest] + (["learned"] if "learned" in sset.names() else [])
    assert by_model.default_models(sset) == expected
    assert by_model.default_models(sset, mcts=32) == expected + ["mcts@32"]


# --- a tiny real study through the command line ------------------------------------------------------------

TINY = ["skill", "forks", "--models", "random,greedy", "--precision", "5", "--max-games", "600",
        "--chunk-size", "200", "--seed", "3", "--threads", "1"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill") / "forks"
    result = CliRunner().invoke(cli, TINY + ["--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    return out, json.loads(result.stdout)


def test_each_model_plays_every_seat_until_the_precision_and_reports_its_first_seat_edge(tiny):
    out, rows = tiny
    assert [r["model"] for r in rows] == ["random", "greedy"]
    for row, run in zip(rows, ["01-random", "02-greedy"]):
        assert {"model", "first_seat_edge", "low", "high", "verdict", "games", "seconds"} <= set(row)
        seats = open_run(out / run).seats
        assert set(seats["strategy"].cast(pl.String).unique()) == {row["model"]}
        assert "rotation" not in seats.columns
        first = seats.filter(pl.col("seat") == 0)["win"].to_numpy()
        assert row["games"] == len(first) == 400  # ±5 points needs about 290 games: the second chunk of 200
        assert row["precise"]
        assert row["first_seat_edge"] == pytest.approx(100 * (first.mean() - 0.25))
        half = (row["high"] - row["low"]) / 2
        assert half < 5 and half == pytest.approx(196 * first.std(ddof=1) / 20, rel=0.01)
        assert row["verdict"] == seat_verdict(seats, 1.0).kind
        assert row["seconds"] > 0


def test_the_report_the_markdown_and_the_table_name_every_model(tiny):
    out, _ = tiny
    page = (out / "report.html").read_text()
    assert "First-seat edge by player model: Forks" in page
    assert "with `random` in every seat" in page and "with `greedy` in every seat" in page
    assert 'data-figure="forks-first-seat"' in page
    markdown = (out / "by_model.md").read_text().splitlines()
    assert markdown[0].startswith("| game | model (every seat) | first-seat edge, points (95%) |")
    assert [line.split(" | ")[1] for line in markdown[2:]] == ["`random`", "`greedy`"]
    result = CliRunner().invoke(cli, ["report", str(out), "--out", str(out.parent / "again.html")])
    assert result.exit_code == 0, result.output


def test_the_terminal_table_fits_80_columns_and_says_whether_the_edges_differ(tiny, tmp_path):
    out = tmp_path / "forks"
    result = CliRunner().invoke(cli, TINY + ["--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-1].startswith(f"runs in {out}")  # the folder's path is as long as the user made it
    assert max(map(len, lines[:-1])) <= 80
    steps = by_model.steps(out)
    word = steps["change"][0]
    text = " ".join(lines)
    assert ("The models agree within the intervals" in text) == (word == by_model.AGREE)
    assert not (out / "report.html").exists()


def test_resume_keeps_the_finished_runs_and_plays_a_model_added_at_the_end(tmp_path):
    out = tmp_path / "study"
    CliRunner().invoke(cli, TINY + ["--out", str(out), "--no-report"])
    before = (out / "01-random" / "manifest.json").read_text()
    result = CliRunner().invoke(cli, TINY[:3] + ["random,greedy,pusher"] + TINY[4:]
                                + ["--out", str(out), "--resume", "--json", "--no-report"])
    assert result.exit_code == 0, result.output
    assert [r["model"] for r in json.loads(result.stdout)] == ["random", "greedy", "pusher"]
    assert (out / "01-random" / "manifest.json").read_text() == before
    assert (out / "03-pusher").is_dir()


def test_resume_replays_a_run_removed_from_the_manifest_and_keeps_the_runs_after_it(tmp_path):
    """A model replayed (say, with a new shipped model) between finished runs: every run stays in the study."""
    out = tmp_path / "study"
    CliRunner().invoke(cli, TINY + ["--out", str(out), "--no-report"])
    manifest = json.loads((out / by_model.MANIFEST).read_text())
    manifest["runs"] = [r for r in manifest["runs"] if r["model"] != "random"]
    (out / by_model.MANIFEST).write_text(json.dumps(manifest))
    shutil.rmtree(out / "01-random")
    result = CliRunner().invoke(cli, TINY + ["--out", str(out), "--resume", "--json", "--no-report"])
    assert result.exit_code == 0, result.output
    assert [r["model"] for r in json.loads(result.stdout)] == ["random", "greedy"]
    assert [r["model"] for r in json.loads((out / by_model.MANIFEST).read_text())["runs"]] == ["random", "greedy"]


@pytest.mark.parametrize("args, message", [
    (["--models", "random,nope"], "unknown strategy 'nope'"),
    (["--models", ""], "give at least one player model"),
    (["--models", " , "], "give at least one player model"),
    (["--models", "random,random"], "repeated: random"),
    (["--models", "random", "--precision", "0"], "--precision"),
    (["--players", "0"], "players.0"),
    (["--threads", "0"], "--threads"),
    (["--models", "random", "--param", "hedger=0.8"], "parameters for hedger: not among the models (random)"),
    (["--models", "random,hedger", "--param", "hedger=0.8,1"], "parameters for 'hedger'"),
])
def test_bad_input_is_one_error_line_and_nothing_is_written(tmp_path, args, message):
    out = tmp_path / "never"
    result = CliRunner().invoke(cli, ["skill", "forks", "--out", str(out)] + args)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("error:") and message in result.output
    assert not out.exists()


def test_a_models_parameters_are_played_by_its_run_only(tmp_path):
    out = tmp_path / "tuned"
    result = CliRunner().invoke(cli, TINY[:3] + ["random,hedger"] + TINY[4:]
                                + ["--param", "hedger=0.8", "--out", str(out), "--json", "--no-report"])
    assert result.exit_code == 0, result.output
    assert {tuple(v) for v in open_run(out / "02-hedger").manifest["strategy_params"]} == {(0.8,)}
    assert json.loads((out / "by_model.json").read_text())["params"] == {"hedger": [0.8]}


def test_resume_refuses_another_study(tiny, tmp_path):
    source, _ = tiny
    result = CliRunner().invoke(cli, TINY[:-4] + ["--seed", "4", "--out", str(source), "--resume"])
    assert result.exit_code == 2 and "differs in seed" in result.output
    taken = CliRunner().invoke(cli, TINY + ["--out", str(source)])
    assert taken.exit_code == 2 and "already exists" in taken.output
