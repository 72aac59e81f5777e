"""The tests cache compiled code in the project's ``.pytest_cache/playtest`` (``PLAYTEST_CACHE_DIR``: numba's
machine code and the user strategies', ``simulator.core.compile_cache``), never in the user's cache, and keep
it between sessions (its folders are named after the sources they were compiled from, so none is reused
after an edit); subprocesses (Dask workers, the command-line tests) inherit it, and so do the workers of
``pytest -n`` (pytest-xdist). A ``PLAYTEST_CACHE_DIR`` already set (an empty folder, to time a cold suite) is
kept."""

import functools
import os
from pathlib import Path

import pytest

from playtest.environment import INLINE  # numba-free, like all of the playtest package's own import

# before anything is compiled: the engines' verbs called, not inlined, which halves the suite's compiling (most of
# its time) for slower play (simulator.core.inlining); PLAYTEST_INLINE=always runs it on the inlined kernels
os.environ.setdefault(INLINE, "never")
# before simulator is imported, which points numba's cache into it (simulator.core.compile_cache)
os.environ.setdefault("PLAYTEST_CACHE_DIR", str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "playtest"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under ``pytest -n --dist loadgroup``: the tests of one file with the same parameters run in one worker
    (so a parametrized module fixture, such as one game's compiled search, is built once), different
    parameters spread over the workers, and all of tests/reports runs in one worker, since its tests share the
    runs of its session fixtures. A test that names its group itself (an ``xdist_group`` mark, as the engine
    contract groups each game's tests) keeps it.

    ``tryfirst``: pytest-xdist turns the marks into groups in a hook of its own (it appends ``@group`` to each
    test's id), which must see them; without it the marks came too late and every test was scheduled alone.
    pytest 9.2 broke that suffix (pytest-dev/pytest-xdist#1386), hence ``pytest<9.2`` in pyproject.toml. A
    group's name must not end in ``]``: xdist reads a test id ending in ``]`` as having no group."""
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        path = item.path.relative_to(config.rootpath)
        if path.parts[:2] == ("tests", "reports"):
            group = "reports"
        else:
            group = f"{path}:{item.callspec.id}" if hasattr(item, "callspec") else str(path)
        item.add_marker(pytest.mark.xdist_group(group))


@functools.cache
def _builtins(game):
    from strategies.games import strategy_set

    return strategy_set(game)


@pytest.fixture(scope="module")
def strategies(request):
    """The built-in ``StrategySet`` of the game whose folder the test is in (tests/fool -> fool, tests/fair_enough
    -> fair-enough); one per process, so its compiled kernels are loaded once."""
    return _builtins(request.path.parent.name.replace("_", "-"))


@pytest.fixture(scope="module")
def kernels(strategies):
    """``(run_chunk, trace_game)`` of ``strategies`` (the built-ins; no search player)."""
    return strategies.kernels()
