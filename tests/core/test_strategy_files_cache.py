"""Kernels bound to a user strategy file are compiled once and cached on disk, keyed by the file, what it
imports and the data it froze in; an edited file gets new kernels, never stale machine code."""

import shutil
import sys
from pathlib import Path

import numba as nb
import polars as pl
import pytest
from numba.core import types

from playtest import api
from simulator.core.batch import play_chunk
from simulator.core.kernel_cache import CACHE_ENV, cache_in, cache_root
from strategies import user_files
from strategies.games import strategy_set

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "contrarian.py"
LINEUP = ["contrarian", "random", "greedy", "random"]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder for this test alone."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    return tmp_path / "cache"


def kernel_folders():
    return sorted(p.name for p in (cache_root() / "kernels" / "forks").iterdir())


def load(path):
    return user_files.load(path, strategy_set("forks").decision, "forks")


def test_the_second_load_of_a_file_plays_from_the_cache_and_plays_the_same_games(cache):
    spec, sset = api.prepare("forks", seed=3, games=64, strategies=LINEUP, strategy_files=[EXAMPLE])
    run, _ = sset.kernels()
    first = play_chunk(spec, run, 0, 64)
    decide = sset.get("contrarian")[1].decide
    assert sum(decide.stats.cache_misses.values()) == 1 and not decide.stats.cache_hits
    # the engine calls decide with the types the game declares (literal constants aside)
    assert {tuple(types.unliteral(t) for t in sig) for sig in decide.signatures} == {sset.decision.types}

    spec, sset = api.prepare("forks", seed=3, games=64, strategies=LINEUP, strategy_files=[EXAMPLE])
    run, _ = sset.kernels()
    again = play_chunk(spec, run, 0, 64)
    decide = sset.get("contrarian")[1].decide
    assert sum(decide.stats.cache_hits.values()) == 1 and not decide.stats.cache_misses
    assert again.equals(first)
    assert first.filter(pl.col("seat") == 0)["strategy"].unique().to_list() == ["contrarian"]
    assert len(kernel_folders()) == 1


def test_an_edited_file_compiles_its_decide_alone_and_plays_with_the_kernels_already_compiled(cache, tmp_path):
    path = tmp_path / "contrarian.py"
    path.write_text(EXAMPLE.read_text().replace("PARAMS = [1.0]", "PARAMS = [2.0]"))
    first = api.prepare("forks", seed=3, games=64, strategies=LINEUP, strategy_files=[EXAMPLE])
    edited = api.prepare("forks", seed=3, games=64, strategies=LINEUP, strategy_files=[path])
    frames = []
    for spec, sset in (first, edited):
        run, _ = sset.kernels()
        frames.append(play_chunk(spec, run, 0, 64))
    assert run.stats.cache_hits and not run.stats.cache_misses  # the edited file's kernels: loaded, not compiled
    assert not frames[0].equals(frames[1])  # and it plays its own decide


def test_an_edited_file_gets_kernels_of_its_own_and_an_unchanged_one_does_not(cache, tmp_path):
    path = tmp_path / "contrarian.py"
    shutil.copy(EXAMPLE, path)
    sset = strategy_set("forks")
    sset.add_file(path)
    sset.kernels()  # binds (compiling decide alone); the kernels themselves compile on first use
    assert len(kernel_folders()) == 1
    sset = strategy_set("forks")
    sset.add_file(path)
    sset.kernels()
    assert len(kernel_folders()) == 1
    path.write_text(path.read_text().replace("PARAMS = [1.0]", "PARAMS = [2.0]"))
    sset = strategy_set("forks")
    sset.add_file(path)
    sset.kernels()
    assert len(kernel_folders()) == 2


def test_the_fingerprint_follows_the_file_its_imports_and_its_frozen_data(tmp_path, monkeypatch):
    helpers = tmp_path / "lib"
    helpers.mkdir()
    (helpers / "my_weights.py").write_text("SCALE = 2\n")
    monkeypatch.syspath_prepend(str(helpers))
    data = tmp_path / "weights.txt"
    data.write_text("1.0 2.0 3.0\n")
    path = tmp_path / "weighted.py"
    path.write_text(f"import numpy as np\nfrom my_weights import SCALE\nfrom simulator.forks.layout import INVEST\n"
                    f"NAME = 'weighted'\nWEIGHTS = np.loadtxt({str(data)!r})\n\n"
                    f"def decide(kind, opt_dest, opt_value, n_options, obs, params, rng):\n"
                    f"    return 0 if WEIGHTS[0] * SCALE > 0 or kind == INVEST else 1\n")
    first = load(path).fingerprint
    assert load(path).fingerprint == first  # stable
    data.write_text("1.0 2.0 4.0\n")  # the array numba would freeze into the machine code
    assert load(path).fingerprint != first
    data.write_text("1.0 2.0 3.0\n")
    assert load(path).fingerprint == first
    (helpers / "my_weights.py").write_text("SCALE = 2  # a helper module outside the installation\n")
    changed = load(path).fingerprint
    assert changed != first
    sources = user_files.imported_sources(sys.modules[load(path).decide.py_func.__module__])
    # a project module counts with its whole package folder; numpy (installed) does not count
    assert str(Path(sys.modules["simulator.forks.layout"].__file__).resolve()) in sources
    assert str(Path(sys.modules["simulator.forks.engine"].__file__).resolve()) in sources
    assert not any("numpy" in s for s in sources)
    del sys.modules["my_weights"]


def double(x):
    return 2 * x


def test_cache_in_writes_to_the_folder_or_declines_an_unusable_one(tmp_path):
    compiled = nb.njit(double)
    assert cache_in(compiled, tmp_path / "here")
    assert compiled(21) == 42
    assert list((tmp_path / "here").glob("*.nbi"))
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert not cache_in(nb.njit(double), blocker / "there")


def test_the_cache_lives_under_the_environment_variable_or_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert cache_root() == tmp_path / "mine"
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "playtest"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_root() == Path.home() / ".cache" / "playtest"


def test_a_decide_returning_a_narrower_integer_plays_as_one_returning_int64(cache, tmp_path):
    body = ("import numpy as np\nNAME = '{name}'\n\ndef decide(kind, opt_dest, opt_value, n_options, obs, params, "
            "rng):\n    return {value}\n")
    wide, narrow = tmp_path / "wide.py", tmp_path / "narrow.py"
    wide.write_text(body.format(name="wide", value="n_options - 1"))
    narrow.write_text(body.format(name="narrow", value="np.int32(n_options - 1)"))
    frames = []
    for path, name in ((wide, "wide"), (narrow, "narrow")):
        spec, sset = api.prepare("forks", seed=4, games=64, strategies=[name, "random", "greedy", "random"],
                                 strategy_files=[path])
        frames.append(play_chunk(spec, sset.kernels()[0], 0, 64).drop("strategy"))
    assert frames[0].equals(frames[1])
