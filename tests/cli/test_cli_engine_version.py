"""A run made by another engine version (its manifest's ``engine_version``) is never silently mixed with this
engine's games: ``replay RUN_DIR``, ``simulate --resume`` and ``compare`` refuse it in one line, and nothing is
written or deleted."""

import json


from simulator import games
from cli_support import invoke


def files(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_runs_of_another_engine_version_are_refused(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    args = ["--games", 200, "--seed", 4, "--chunk-size", 100]
    assert invoke("simulate", "forks", *args, "--out", old).exit_code == 0
    assert invoke("simulate", "forks", *args, "--out", new).exit_code == 0
    manifest = json.loads((old / "manifest.json").read_text())
    assert manifest["engine_version"] == games.get("forks").engine_version
    manifest.update(engine_version="0", complete=False)  # as if an older engine had played it, interrupted
    (old / "manifest.json").write_text(json.dumps(manifest))
    before = files(old)

    replay = invoke("replay", old, "--game", 1)
    resume = invoke("simulate", "forks", *args, "--out", old, "--resume")
    compare = invoke("compare", old, new)
    for result, says in ((replay, "engine version 0"), (resume, "engine version 0"), (compare, "version 0 against")):
        assert result.exit_code == 2, result.output
        assert result.output.startswith("error:") and len(result.output.splitlines()) == 1
        assert says in result.output and games.get("forks").engine_version in result.output
    assert files(old) == before
    assert invoke("compare", new, new).exit_code == 0  # one engine on both sides: compared as before
