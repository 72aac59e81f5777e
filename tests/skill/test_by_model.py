"""playtest skill: the strongest model's answer, each model's strength and first-seat edge, the study sized for
the answer, progress, Ctrl-C and resume.

The statistics are checked by simulation with known truth (vectorised numpy,
fixed seeds); the command by a tiny Forks study; bad input by one error line.
"""

import json
import shlex
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


def row(model, edge, lo, hi, verdict="inconclusive", largest=0):
    return {"model": model, "first_seat_edge": edge, "low": lo, "high": hi, "verdict": verdict,
            "largest_seat": largest, "largest_edge": -3.0, "largest_low": -4.0, "largest_high": -2.0}


def test_the_answer_quotes_the_strongest_model_and_how_far_it_is_ahead():
    case, sentence = by_model.answer_sentence(row("expert", 2.12, 1.15, 3.08, "unbalanced"),
                                              row("learned", 2.0, 0.9, 3.1), (4.2, 2.5, 5.9), (0.12, -0.6, 0.84),
                                              6000, 1.0)
    assert case == "settled"
    assert sentence.startswith("With the strongest player measured, `expert` (ahead of `learned` by 4.20 points "
                               "per seat, +2.50 to +5.90), the first player's edge is +2.12 (+1.15 to +3.08) "
                               "points: unbalanced at ±1.0.")
    assert sentence.endswith("The next strongest, `learned`, agrees within ±1.0 points: with it the edge is "
                             "+2.00 (+0.90 to +3.10), and from `learned` to `expert` it moves by +0.12 points "
                             "(-0.60 to +0.84, paired over 6,000 games).")


def test_edges_not_shown_to_differ_but_not_shown_within_the_margin_leave_the_levelling_off_open():
    """The Forks case: the paired move +2.19 (-0.45 to +4.83) holds 0 but reaches beyond ±1, so the two
    strongest are not said to agree; the same move inside ±1 (the narrower interval of more games) settles it."""
    top, second = row("learned", 0.45, -0.75, 1.69), row("pusher", -1.30, -3.64, 1.16)
    case, sentence = by_model.answer_sentence(top, second, (4.05, 2.95, 5.14), (2.19, -0.45, 4.83), 2000, 1.0)
    assert case == "not shown levelled off"
    assert "agrees" not in sentence
    assert sentence.endswith("Whether it has levelled off with skill is not shown: with `pusher` it is -1.30 "
                             "(-3.64 to +1.16), and from `pusher` to `learned` it moves by +2.19 points (-0.45 to "
                             "+4.83, paired over 2,000 games), an interval reaching beyond ±1.0 points; more games "
                             "(-n) would narrow it.")
    assert by_model.answer_sentence(top, second, (4.05, 2.95, 5.14), (0.2, -0.9, 0.95), 2000, 1.0)[0] == "settled"
    assert by_model.answer_sentence(top, second, (4.05, 2.95, 5.14), (0.2, -0.9, 0.95), 2000, 0.5)[0] == \
        "not shown levelled off"


def test_two_level_models_whose_edges_differ_do_not_settle_it_and_both_figures_are_given():
    case, sentence = by_model.answer_sentence(row("learned", 5.56, 4.1, 7.0, "unbalanced"),
                                              row("mcts@256", 0.06, -1.2, 1.3), (0.4, -1.0, 1.8),
                                              (5.5, 3.6, 7.4), 6000, 1.0)
    assert case == "not settled by skill"
    assert sentence.startswith("Skilled play does not settle it")
    assert "+5.56 (+4.10 to +7.00) points with `learned` (unbalanced at ±1.0)" in sentence
    assert "+0.06 (-1.20 to +1.30) with `mcts@256` (inconclusive at ±1.0)" in sentence


def test_an_edge_that_still_moves_between_the_two_strongest_has_not_levelled_off():
    case, sentence = by_model.answer_sentence(row("expert", 3.0, 2.0, 4.0, "unbalanced", largest=2),
                                              row("learned", 1.0, 0.0, 2.0), (3.0, 1.0, 5.0), (2.0, 1.2, 2.8),
                                              6000, 1.0)
    assert case == "not levelled off"
    assert "unbalanced at ±1.0 (seat 2's edge is -3.00 (-4.00 to -2.00))" in sentence
    assert "It has not levelled off with skill: with `learned` it is +1.00 (+0.00 to +2.00)" in sentence


def test_default_models_follow_the_strategy_set():
    from strategies.games import strategy_set

    sset = strategy_set("fool")
    expected = ["random", "cautious", "learned", "expert"]   # expert: the search seat guided by learned's model
    assert by_model.default_models(sset) == expected
    assert by_model.default_models(sset, mcts=32) == expected + ["mcts@32"]


# --- a tiny real study through the command line ------------------------------------------------------------

TINY = ["skill", "forks", "--models", "random,greedy", "--precision", "5", "-n", "600", "--match-deals", "60",
        "--chunk-size", "200", "--seed", "3", "--threads", "1"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill") / "forks"
    result = CliRunner().invoke(cli, TINY + ["--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    return out, json.loads(result.stdout)


def test_each_model_reports_its_strength_and_its_first_seat_edge_with_its_verdicts_interval(tiny):
    out, found = tiny
    rows = found["models"]
    assert [r["model"] for r in rows] == ["random", "greedy"]
    for row, run in zip(rows, ["01-random", "02-greedy"]):
        assert set(row) == {"model", "strength", "first_seat_edge", "verdict", "games"}
        seats = open_run(out / run).seats
        assert set(seats["strategy"].cast(pl.String).unique()) == {row["model"]}
        assert "rotation" not in seats.columns
        first = seats.filter(pl.col("seat") == 0)["win"].to_numpy()
        assert row["games"] == len(first)
        verdict = seat_verdict(seats, 1.0)
        assert row["verdict"] == verdict.kind
        edge = row["first_seat_edge"]
        assert edge["edge"] == pytest.approx(100 * (first.mean() - 0.25))
        assert (edge["lo"], edge["hi"]) == (verdict.edges[0].lo, verdict.edges[0].hi)   # one interval per figure
    assert rows[0]["strength"] == {"value": 0.0, "lo": 0.0, "hi": 0.0}
    match = open_run(out / "vs-01-02").seats
    assert match["rotation"].n_unique() == 4
    greedy = match.filter(pl.col("strategy").cast(pl.String) == "greedy")
    step = 100 * (greedy.group_by("game").agg(pl.col("win").mean())["win"].mean() - 0.25)
    assert rows[1]["strength"]["value"] == pytest.approx(step)
    assert rows[1]["strength"]["lo"] < step < rows[1]["strength"]["hi"]


def test_a_study_on_the_default_table_has_nothing_more_it_cannot_tell(tiny):
    _, found = tiny
    assert found["answer"]["cannot_tell"] == [] and (found["variant"], found["setup"]) == ("standard", None)


def test_a_study_on_a_designers_table_plays_it_in_every_run_and_says_the_shipped_model_was_not_trained_for_it(
        tmp_path):
    """Three players and a seat bonus of the designer's: every run plays that table, and the answer says that
    `learned`'s shipped model was trained for four players on the default table; a resume with another table
    is refused."""
    table = tmp_path / "my-table.toml"
    table.write_text("[players.3]\nseat_bonus = [0.0, 0.5, 1.0]\n")
    out = tmp_path / "mine"
    words = ["skill", "forks", "--models", "random,learned", "-p", "3", "--setup", str(table), "--precision", "10",
             "-n", "200", "--match-deals", "20", "--chunk-size", "100", "--seed", "3", "--threads", "1",
             "--no-report"]
    result = CliRunner().invoke(cli, words + ["--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["setup"] == {"players": {"3": {"seat_bonus": [0.0, 0.5, 1.0]}}}
    for run in ("01-random", "02-learned", "vs-01-02"):
        manifest = open_run(out / run).manifest
        assert manifest["players"] == 3 and manifest["setup"]["players"]["3"]["seat_bonus"] == [0.0, 0.5, 1.0]
    (caveat,) = found["answer"]["cannot_tell"]
    assert caveat.startswith("how `learned` would play with a model trained for this table")
    assert "4 players" in caveat and "another setup table" in caveat
    text = CliRunner().invoke(cli, words + ["--out", str(tmp_path / "again")])
    assert text.exit_code == 0, text.output
    assert f"Forks: 2nd Edition, 3 players, setup table {table}, seed 3:" in " ".join(text.stdout.split())
    assert "cannot tell: how `learned` would play" in " ".join(text.stdout.split())
    table.write_text("[players.3]\nseat_bonus = [0.0, 1.0, 2.0]\n")
    refused = CliRunner().invoke(cli, words + ["--out", str(out), "--resume"])
    assert refused.exit_code == 2 and "differs in setup" in refused.output


def test_the_answer_is_the_strongest_models(tiny):
    _, found = tiny
    strongest = max(found["models"], key=lambda r: r["strength"]["value"])
    answer = found["answer"]
    assert {"model", "verdict", "sentence", "first_seat_edge"} <= set(answer)          # issue 41's shape
    assert set(answer["first_seat_edge"]) == {"edge", "lo", "hi"}
    assert all(set(r["strength"]) == {"value", "lo", "hi"} for r in found["models"])
    assert answer["model"] == strongest["model"] == "greedy"
    assert answer["first_seat_edge"] == strongest["first_seat_edge"]
    assert answer["verdict"] == strongest["verdict"]
    assert answer["sentence"].startswith("With the strongest player measured, `greedy` (ahead of `random` by ")


def test_the_strongest_plays_on_until_its_verdict_settles_and_the_weaker_rung_does_not(tmp_path):
    """At ±6 points greedy's verdict is inconclusive after the 400 games the precision asks for, and settles
    when it plays on; random keeps its 400 games."""
    out = tmp_path / "sized"
    result = CliRunner().invoke(cli, TINY[:7] + ["2000"] + TINY[8:] + ["--margin", "6", "--out", str(out),
                                                                       "--json", "--no-report"])
    assert result.exit_code == 0, result.output
    games = {r["model"]: r["games"] for r in json.loads(result.stdout)["models"]}
    verdict = json.loads(result.stdout)["answer"]["verdict"]
    assert games["random"] == 400 and 400 < games["greedy"] < 2000
    assert verdict in ("balanced", "unbalanced")
    early = open_run(out / "02-greedy").seats.filter(pl.col("game") < 400)
    assert seat_verdict(early, 6.0).kind == "inconclusive"     # so the extension was needed


def test_the_strongest_stops_where_the_cap_cannot_settle_its_verdict_and_the_answer_says_what_would(tmp_path):
    """At ±6 points greedy's verdict after the 400 games of the precision plans more than 4 times a 500-game cap
    (with a 2,000-game cap it plays on and settles: the test above): it stops at 400 instead of playing to the
    cap, and the answer gives the games its verdict says would settle it."""
    out = tmp_path / "futile"
    result = CliRunner().invoke(cli, TINY[:7] + ["500"] + TINY[8:] + ["--margin", "6", "--out", str(out),
                                                                      "--json", "--no-report"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert {r["model"]: r["games"] for r in found["models"]} == {"random": 400, "greedy": 400}
    verdict = seat_verdict(open_run(out / "02-greedy").seats, 6.0)
    assert verdict.kind == "inconclusive" and verdict.games_needed > 4 * 500
    assert found["answer"]["verdict"] == "inconclusive"
    assert f"inconclusive at ±6.0 (about {verdict.games_needed:,} games in all would settle it)." in \
        found["answer"]["sentence"]


@pytest.mark.parametrize("shares, first, cap, most", [
    ([0.25] * 4, 2000, 8000, 0.05),              # balanced: needs about 35,000 games at ±1, never within 8,000
    ([0.27, 0.25, 0.25, 0.23], 1000, 4000, 0.25),  # an edge beyond the margin: 0.11 of 143 here
    ([0.53, 0.47], 500, 2000, 0.3)])             # two players, the worst case simulated: 0.26 of 157 here
def test_a_run_stopped_because_the_cap_cannot_settle_it_rarely_would_have(shares, first, cap, most):
    """Known truth: runs of ``first`` games whose verdict is inconclusive and ``beyond_cap`` of ``cap`` are played
    on to the cap anyway; at most about 1 in 4 of them would have settled there (what docs/skill.md says)."""
    from analyses.moments import SeatMoments
    from analyses.verdict import decide

    rng = np.random.default_rng(RNG_SEED + 7)
    shares = np.array(shares)
    would = []
    for c in rng.multinomial(first, shares, size=400).astype(float):
        v = decide(SeatMoments(first, c, np.diag(c)), 1.0)
        if by_model.beyond_cap(v, cap):
            more = c + rng.multinomial(cap - first, shares)
            would.append(decide(SeatMoments(cap, more, np.diag(more)), 1.0).kind != "inconclusive")
    assert len(would) > 100 and np.mean(would) <= most


def _sized_verdicts(shares, replications, rng, cap=20_000, chunk=500, precision=2.0, margin=1.0):
    """Known truth: the verdict each of ``replications`` sized runs ends with, a game of true win ``shares`` per
    seat played as ``by_model.play`` plays the strongest model: chunks until every seat's 95% half-width is
    within ``precision`` points (stage 1), then the extensions ``next_games`` plans, each played to its planned
    games (the run plays until the width that reaches them), the verdict read after each."""
    from analyses.moments import SeatMoments
    from analyses.verdict import decide

    study = {"max_games": cap, "chunk_size": chunk}
    shares, found = np.asarray(shares), []
    for _ in range(replications):
        wins, games = np.zeros(shares.size), 0
        while games < cap:
            wins += rng.multinomial(chunk, shares)
            games += chunk
            lo, hi = SeatMoments(games, wins, np.diag(wins)).intervals(0.95)
            if 100 * (hi - lo).max() / 2 <= precision:
                break
        while True:
            verdict = decide(SeatMoments(games, wins, np.diag(wins)), margin)
            planned = by_model.next_games(verdict, games, study)
            if planned is None:
                found.append(verdict.kind)
                break
            planned = -(-planned // chunk) * chunk
            wins += rng.multinomial(planned - games, shares)
            games = planned
    return np.array(found)


@pytest.mark.parametrize("shares", [
    [0.26, 0.24, 0.25, 0.25],       # two seats exactly at the margin, one each side
    [0.51, 0.49]])                  # two players: one interval, no Bonferroni pair to spare
def test_the_sized_study_reading_its_verdict_at_each_look_keeps_its_errors_under_5_percent(shares):
    """Known truth at the margin (±1 point, the defaults: 20,000 games at most, chunks of 500): the sized run
    reads its verdict after stage 1 and after each extension, and still calls the game unbalanced (no edge is
    beyond the margin) at most 5% of the time, and balanced (an edge is not inside it) too."""
    kinds = _sized_verdicts(shares, 1000, np.random.default_rng(RNG_SEED + 11))
    assert np.mean(kinds == "unbalanced") <= 0.05
    assert np.mean(kinds == "balanced") <= 0.05
    assert np.mean(kinds == "inconclusive") >= 0.9   # at the margin, the run ends saying it cannot tell


def test_a_verdict_is_beyond_the_cap_only_when_inconclusive_and_planned_past_it_or_at_the_margin():
    from types import SimpleNamespace as V

    assert by_model.beyond_cap(V(kind="inconclusive", games_needed=8001, deals=400), 2000)
    assert not by_model.beyond_cap(V(kind="inconclusive", games_needed=8000, deals=400), 2000)   # 4 x the cap
    assert by_model.beyond_cap(V(kind="inconclusive", games_needed=None, deals=400), 2000)    # at the margin
    assert not by_model.beyond_cap(V(kind="inconclusive", games_needed=None, deals=10), 2000)  # too few to plan
    assert not by_model.beyond_cap(V(kind="unbalanced", games_needed=None, deals=400), 2000)


def test_the_report_the_markdown_and_the_table_name_every_model(tiny):
    out, _ = tiny
    page = (out / "report.html").read_text()
    assert "The skilled answer: Forks" in page
    assert "With the strongest player measured" in page
    assert "with `random` in every seat" in page and "with `greedy` in every seat" in page
    assert 'data-figure="forks-edge-strength"' in page
    markdown = (out / "by_model.md").read_text().splitlines()
    assert markdown[0].startswith("With the strongest player measured, `greedy`") and markdown[1] == ""
    assert markdown[2].startswith("| game | model (every seat) | strength, points per seat (95%) |")
    assert [line.split(" | ")[1] for line in markdown[4:]] == ["`random`", "`greedy`"]
    result = CliRunner().invoke(cli, ["report", str(out), "--out", str(out.parent / "again.html")])
    assert result.exit_code == 0, result.output


def test_the_sentence_the_markdown_and_the_report_carry_the_strength_interval_of_the_json(tiny):
    out, found = tiny
    s = found["models"][1]["strength"]          # greedy over random: its strength is the difference too
    assert f"by {s['value']:.2f} points per seat, {s['lo']:+.2f} to {s['hi']:+.2f})" in found["answer"]["sentence"]
    shown = f"{s['value']:+.2f} ({s['lo']:+.2f} to {s['hi']:+.2f})"
    assert shown in (out / "by_model.md").read_text()
    assert shown in (out / "report.html").read_text()


def test_the_terminal_opens_with_the_answer_fits_80_columns_and_reports_progress(tiny, tmp_path):
    out = tmp_path / "forks"
    result = CliRunner().invoke(cli, TINY + ["--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    s = tiny[1]["models"][1]["strength"]        # the same study: the table shows the json's interval
    assert f"({s['lo']:+.2f} to {s['hi']:+.2f})" in result.stdout and f"{s['value']:+.2f}" in result.stdout
    assert lines[-1].startswith(f"runs in {out}")  # the folder's path is as long as the user made it
    assert max(len(line) for line in lines[:-1] if str(out) not in line) <= 80
    assert " ".join(lines[1:4]).startswith("With the strongest player measured, `greedy`")
    assert not (out / "report.html").exists()
    progress = result.stderr.splitlines()
    for model in ("random", "greedy"):   # once its kernels are ready (with the wait, when there was one)
        assert any(line.startswith(f"  {model}: 0 / 600 games") for line in progress), progress
    assert any(line.startswith("cross-play 1/1: greedy against random, 2 seats each") for line in progress)
    assert "  greedy vs random: 60 / 60 deals" in progress
    assert max(map(len, progress)) <= 80


def test_resume_keeps_the_finished_runs_and_plays_a_model_added_at_the_end(tmp_path):
    out = tmp_path / "study"
    CliRunner().invoke(cli, TINY + ["--out", str(out), "--no-report"])
    before = (out / "01-random" / "manifest.json").read_text()
    result = CliRunner().invoke(cli, TINY[:3] + ["random,greedy,pusher"] + TINY[4:]
                                + ["--out", str(out), "--resume", "--json", "--no-report"])
    assert result.exit_code == 0, result.output
    assert [r["model"] for r in json.loads(result.stdout)["models"]] == ["random", "greedy", "pusher"]
    assert (out / "01-random" / "manifest.json").read_text() == before
    assert (out / "03-pusher").is_dir() and (out / "vs-02-03").is_dir()


def test_resume_with_a_larger_cap_plays_on_and_a_smaller_one_is_refused(tiny, tmp_path):
    """A study capped at 200 games per model, resumed at the fixture's 600: `random`'s run plays on to where the
    600-game study stopped it (its precision), game for game; the study records the new cap."""
    out = tmp_path / "forks"
    small = CliRunner().invoke(cli, TINY[:7] + ["200"] + TINY[8:] + ["--out", str(out), "--no-report"])
    assert small.exit_code == 0, small.output
    assert open_run(out / "01-random").manifest["games_done"] == 200
    again = CliRunner().invoke(cli, TINY + ["--out", str(out), "--resume", "--json", "--no-report"])
    assert again.exit_code == 0, again.output
    fresh = open_run(tiny[0] / "01-random")
    assert 200 < fresh.manifest["games_done"] == open_run(out / "01-random").manifest["games_done"]
    assert open_run(out / "01-random").seats.equals(fresh.seats)
    assert json.loads((out / "by_model.json").read_text())["max_games"] == 600
    refused = CliRunner().invoke(cli, TINY[:7] + ["400"] + TINY[8:] + ["--out", str(out), "--resume"])
    assert refused.exit_code == 2 and "its cap is 600 games per model and this command's 400" in refused.output


def test_an_unsettled_answer_prints_the_command_that_plays_on_and_it_does(tmp_path):
    out = tmp_path / "forks"
    result = CliRunner().invoke(cli, TINY + ["--out", str(out), "--no-report"])
    assert result.exit_code == 0, result.output
    text = result.stdout.replace(" \\\n", " ")
    hint = text.split("to play on until `greedy`'s verdict would settle (about ")[1]
    needed = int(hint.split(" games")[0].replace(",", ""))
    words = shlex.split(hint.splitlines()[1])
    cap = int(words[words.index("--games") + 1])
    assert words[:2] == ["playtest", "skill"] and words[-3:] == ["--out", str(out), "--resume"]
    assert cap >= needed > 600 and cap % 200 == 0
    again = CliRunner().invoke(cli, words[1:] + ["--no-report", "--json"])
    assert again.exit_code == 0, again.output
    assert open_run(out / "02-greedy").manifest["games_done"] > 600


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
    assert [r["model"] for r in json.loads(result.stdout)["models"]] == ["random", "greedy"]
    assert [r["model"] for r in json.loads((out / by_model.MANIFEST).read_text())["runs"]] == ["random", "greedy"]


def test_ctrl_c_prints_the_command_that_resumes_and_the_resumed_study_prints_its_summary(tmp_path, monkeypatch):
    """Interrupted during the cross-play match: exit 130, the finished runs kept, and the hint is a command that,
    run as printed, finishes the study and prints the answer and the table."""
    from playtest.api import skilled_play

    out = tmp_path / "study one"
    play = skilled_play.simulate

    def interrupted_in_the_match(game, **options):
        if options.get("rotate_seats"):
            raise KeyboardInterrupt
        return play(game, **options)

    monkeypatch.setattr(skilled_play, "simulate", interrupted_in_the_match)
    result = CliRunner().invoke(cli, TINY + ["--out", str(out), "--no-report"])
    assert result.exit_code == 130, result.output
    lines = result.stderr.splitlines()
    command = lines[-1].strip()
    assert lines[-2].endswith("run:") and "interrupted: the finished runs are kept in" in result.stderr
    words = shlex.split(command)
    assert words[:3] == ["playtest", "skill", "forks"] and words[-3:] == ["--out", str(out), "--resume"]
    monkeypatch.setattr(skilled_play, "simulate", play)
    again = CliRunner().invoke(cli, words[1:])
    assert again.exit_code == 0, again.output
    text = again.stdout
    assert "With the strongest player measured, `greedy`" in " ".join(text.split())
    assert "random" in text and "greedy" in text and "runs in" in text
    assert (out / "02-greedy").is_dir() and (out / "vs-01-02").is_dir()


def test_the_resume_command_names_the_table():
    from playtest.cli_skill import resume_command

    study = by_model.settings("forks", 3, ["random"], 1, 2.0, 500, 100, variant="variant-x", setup={"a": 1})
    words = shlex.split(resume_command(study, ["random=1"], "my table.toml", "out"))
    assert words[words.index("--variant") + 1] == "variant-x" and words[words.index("--setup") + 1] == "my table.toml"
    assert "--variant" not in resume_command(by_model.settings("forks", 3, ["random"], 1, 2.0, 500, 100), [], None,
                                             "out")


@pytest.mark.parametrize("args, message", [
    (["--models", "random,nope"], "unknown strategy 'nope'"),
    (["--models", ""], "give at least one player model"),
    (["--models", " , "], "give at least one player model"),
    (["--models", "random,random"], "repeated: random"),
    (["--models", "random", "--precision", "0"], "--precision"),
    (["--players", "0"], "players.0"),
    (["--threads", "0"], "the number of threads must be from 1 to"),
    (["--models", "random", "--param", "hedger=0.8"], "parameters for hedger: not among the models (random)"),
    (["--models", "random,hedger", "--param", "hedger=0.8,1"], "parameters for 'hedger'"),
    (["--models", "random", "--setup", "no-such-table.toml"], "file not found: no-such-table.toml"),
    (["--models", "random", "--variant", "nope"], "unknown variant 'nope'"),
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
