"""Shared fixtures for the Fool! tests: the built-in strategies and their compiled kernels."""

import pytest

from strategies.fool import strategy_set


@pytest.fixture(scope="session")
def strategies():
    return strategy_set()


@pytest.fixture(scope="session")
def kernels(strategies):
    return strategies.kernels()
