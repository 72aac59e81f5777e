"""Kernels bound to user strategy files are cached in a temporary folder for the test session, never in the
user's cache (``simulator.core.kernel_cache``); subprocesses (Dask workers) inherit it, and so do the workers
of ``pytest -n`` (pytest-xdist), which share the folder of the process that started them."""

import functools
import os
import shutil
import tempfile

import pytest

from playtest.environment import INLINE  # numba-free, like all of the playtest package's own import

# before anything is compiled: the engines' verbs called, not inlined, which halves the suite's compiling (most of
# its time) for slower play (simulator.core.inlining); PLAYTEST_INLINE=always runs it on the inlined kernels
os.environ.setdefault(INLINE, "never")

from simulator.core.kernel_cache import CACHE_ENV  # noqa: E402 (after the setting above)

_OWNED = []  # the folder this process made (the controller, or a run without -n)


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        _OWNED.append(tempfile.mkdtemp(prefix="playtest-test-cache-"))
        os.environ[CACHE_ENV] = _OWNED[0]


def pytest_unconfigure(config):
    for folder in _OWNED:
        shutil.rmtree(folder, ignore_errors=True)


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
