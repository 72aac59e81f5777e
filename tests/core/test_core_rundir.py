"""Run directories are playtest's own: --force, --resume with chunk checksums, damaged manifests.

``--force`` empties only what playtest wrote (and refuses a folder holding
anything else); ``--resume`` verifies every chunk against the checksum and
game range in the manifest, plays missing, damaged or substituted chunks
again and ends identical to an uninterrupted run.
"""

import json
import shutil

import polars as pl
import pytest

from playtest import api
from simulator.core import output, rundir
from simulator.core.batch import RunError

RUN = dict(games=4000, chunk_size=1000, seed=3)


def simulate(out, **kw):
    return api.simulate("forks", out=out, **{**RUN, **kw})


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted run and its rows."""
    out = tmp_path_factory.mktemp("ref") / "run"
    simulate(out)
    return out, pl.read_parquet(out / "seats" / "*.parquet")


def copy_of(reference, tmp_path):
    out = tmp_path / "run"
    shutil.copytree(reference[0], out)
    return out


def mark_incomplete(out):
    manifest = output.read_manifest(out)
    manifest["complete"] = False
    output.write_manifest(out, manifest)


def test_manifest_records_each_chunk_with_its_range_and_checksum(reference):
    out, _ = reference
    records = output.read_manifest(out)["chunk_files"]
    assert sorted(records, key=int) == ["0", "1", "2", "3"]
    for chunk, (first, games, digest) in records.items():
        assert (first, games) == (int(chunk) * 1000, 1000)
        path = output.chunk_path(out, int(chunk))
        assert digest == output.checksum(path.read_bytes())
        assert pl.read_parquet(path)["game"].to_list() == [g for g in range(first, first + games) for _ in range(4)]


def test_force_refuses_a_folder_holding_a_users_file_and_deletes_nothing(reference, tmp_path):
    out = copy_of(reference, tmp_path)
    (out / "notes.txt").write_text("mine\n")
    (out / "seats" / "extra.parquet").write_bytes(b"mine too")
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    with pytest.raises(RunError, match=r"refusing to replace .*: it holds notes.txt, seats/extra.parquet"):
        simulate(out, force=True)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert (out / "notes.txt").read_text() == "mine\n"


def test_force_replaces_a_run_and_a_half_written_one(reference, tmp_path):
    out = copy_of(reference, tmp_path)
    (out / "seats" / "part-000009.parquet.tmp").write_bytes(b"half")
    (out / "manifest.json").unlink()  # a run stopped before its first manifest
    simulate(out, force=True, seed=4)
    assert output.read_manifest(out)["seed"] == 4 and output.read_manifest(out)["complete"]
    assert sorted(p.name for p in (out / "seats").iterdir()) == [f"part-{c:06d}.parquet" for c in range(4)]


def test_a_folder_that_is_not_a_run_is_refused_with_the_options_the_command_has(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("x")
    with pytest.raises(RunError, match="already exists; use --force to replace it or --resume"):
        simulate(out)
    with rundir.claim(tmp_path / "fresh", rundir.SWEEP, force=False):
        pass
    with pytest.raises(RunError) as refused:
        with rundir.claim(out, rundir.SWEEP, force=False):
            pass
    assert str(refused.value).endswith("already exists; use --force to replace it")
    with pytest.raises(RunError, match="it holds thesis.tex"):
        with rundir.claim(out, rundir.TOURNAMENT, force=True):
            pass
    assert (out / "thesis.tex").exists()


def test_a_claimed_directory_is_removed_when_the_command_fails(tmp_path):
    with pytest.raises(ValueError):
        with rundir.claim(tmp_path / "sweep", rundir.SWEEP, force=False) as out:
            (out / "summary.csv").write_text("a\n")
            raise ValueError("the grid is bad")
    assert not (tmp_path / "sweep").exists()


@pytest.mark.parametrize("tamper", ["copied over", "truncated", "deleted", "flipped byte"])
def test_resume_plays_a_damaged_chunk_again(reference, tmp_path, tamper):
    out = copy_of(reference, tmp_path)
    mark_incomplete(out)
    one, two = output.chunk_path(out, 1), output.chunk_path(out, 2)
    if tamper == "copied over":
        shutil.copy(one, two)  # games 1000-1999 twice, 2000-2999 missing
    elif tamper == "truncated":
        two.write_bytes(two.read_bytes()[:-100])
    elif tamper == "deleted":
        two.unlink()
    else:
        data = bytearray(two.read_bytes())
        data[len(data) // 2] ^= 1
        two.write_bytes(bytes(data))
    run = simulate(out, resume=True)
    assert run.manifest["complete"] and run.manifest["games_done"] == 4000
    assert run.manifest.get("replayed_chunks", []) == ([] if tamper == "deleted" else [2])
    assert pl.read_parquet(out / "seats" / "*.parquet").equals(reference[1])


@pytest.mark.parametrize("name", ["part-000003.parquet", "part-000009.parquet", "part-3x.parquet"])
def test_resume_refuses_a_chunk_file_the_manifest_does_not_list_and_deletes_nothing(reference, tmp_path, name):
    out = copy_of(reference, tmp_path)
    manifest = output.read_manifest(out)
    del manifest["chunk_files"]["3"]
    manifest["complete"] = False
    output.write_manifest(out, manifest)
    part = out / "seats" / "part-000003.parquet"
    part.rename(part.with_name(name))
    before = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    with pytest.raises(RunError, match=f"seats/{name} is not in its manifest.json"):
        simulate(out, resume=True)
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == before


@pytest.mark.parametrize("change, shown", [
    (dict(seed=4), "seed (the run there: 3, this command: 4)"),
    (dict(strategies=["greedy"]), "strategies (the run there: ['random', 'random', 'random', 'random'], this "
                                  "command: ['greedy', 'greedy', 'greedy', 'greedy'])"),
    (dict(setup={"deck": {"top": 2}}), "setup.deck.top (the run there: 3, this command: 2)"),
    (dict(games=3000), "the run there has 4,000 games and this command 3,000; give at least as many"),
])
def test_a_refused_resume_shows_both_values(reference, tmp_path, change, shown):
    out = copy_of(reference, tmp_path)
    mark_incomplete(out)
    with pytest.raises(RunError) as err:
        simulate(out, resume=True, **change)
    assert shown in str(err.value)


@pytest.mark.parametrize("games, short", [(4000, False), (3500, True)])
def test_a_run_resumed_with_more_games_plays_on_to_the_run_of_that_many(reference, tmp_path, games, short):
    """4,000 games (or 3,500: a last chunk of 500) resumed with 6,000: the whole chunks are kept, a short last
    chunk is played again in full, and the rows are those of a 6,000-game run from the start."""
    out = tmp_path / "run"
    simulate(out, games=games)
    kept = {c: (out / "seats" / f"part-{c:06d}.parquet").read_bytes() for c in range(3)}
    run = simulate(out, games=6000, resume=True)
    assert run.manifest["games"] == run.manifest["games_done"] == 6000 and "replayed_chunks" not in run.manifest
    assert run.manifest["resumed_with_games"] == (3000 if short else 4000)
    assert {c: (out / "seats" / f"part-{c:06d}.parquet").read_bytes() for c in range(3)} == kept
    whole = tmp_path / "whole"
    simulate(whole, games=6000)
    assert pl.read_parquet(out / "seats" / "*.parquet").equals(pl.read_parquet(whole / "seats" / "*.parquet"))


def test_a_run_played_on_stops_by_its_interval_where_a_run_started_with_that_many_would(tmp_path):
    """--until-ci counts the chunks kept once: 3,500 games (a short last chunk) resumed at 6,000 with a target
    the fifth chunk meets stop where a 6,000-game run from the start stops, with the same rows."""
    simulate(tmp_path / "short", games=3500)
    played_on = simulate(tmp_path / "short", games=6000, resume=True, until_ci=0.0135)
    fresh = simulate(tmp_path / "fresh", games=6000, until_ci=0.0135)
    assert played_on.manifest["games_done"] == fresh.manifest["games_done"] == 5000
    assert pl.read_parquet(tmp_path / "short" / "seats" / "*.parquet").equals(
        pl.read_parquet(tmp_path / "fresh" / "seats" / "*.parquet"))


@pytest.mark.parametrize("damage, reason", [
    (lambda m: "{\"game\": \"forks\", ", "is damaged"),
    (lambda m: "[1, 2]", "not a JSON object"),
    (lambda m: json.dumps({**m, "chunk_files": {"1": [0, 1000, "ab"]}}), "entry '1' does not describe a chunk"),
    (lambda m: json.dumps({**m, "chunk_files": [1, 2]}), "chunk_files is not a table"),
])
def test_a_damaged_manifest_is_one_clear_error(reference, tmp_path, damage, reason):
    out = copy_of(reference, tmp_path)
    (out / "manifest.json").write_text(damage(output.read_manifest(out)))
    with pytest.raises(RunError, match=reason):
        simulate(out, resume=True)
    assert sorted(p.name for p in (out / "seats").iterdir()) == [f"part-{c:06d}.parquet" for c in range(4)]


def test_resume_refuses_a_folder_holding_foreign_files(reference, tmp_path):
    out = copy_of(reference, tmp_path)
    mark_incomplete(out)
    (out / "seats" / "mine.parquet").write_bytes(b"x")
    with pytest.raises(RunError, match="refusing to resume the run in .*seats/mine.parquet"):
        simulate(out, resume=True)
