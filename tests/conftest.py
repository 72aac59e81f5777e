"""Kernels bound to user strategy files are cached in a temporary folder for the test session, never in the
user's cache (``simulator.core.kernel_cache``); subprocesses (Dask workers) inherit it."""

import os
import shutil
import tempfile

from simulator.core.kernel_cache import CACHE_ENV

_SESSION_CACHE = tempfile.mkdtemp(prefix="playtest-test-cache-")


def pytest_configure(config):
    os.environ[CACHE_ENV] = _SESSION_CACHE


def pytest_unconfigure(config):
    shutil.rmtree(_SESSION_CACHE, ignore_errors=True)
