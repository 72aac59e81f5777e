"""Fixtures for the Fair Enough tests: the strategy set and its cached kernels."""

import pytest

from strategies.fair_enough import strategy_set


@pytest.fixture(scope="session")
def strategies():
    return strategy_set()


@pytest.fixture(scope="session")
def kernels(strategies):
    return strategies.kernels()
