"""Shared helpers for the Unfair mechanics-lab tests."""

import pytest

from simulator.core.setup import merge
from simulator.unfair.setup import load_setup


@pytest.fixture
def table():
    """A function returning the default setup table with the given overrides merged in."""
    def make(override=None):
        return merge(load_setup(), override or {})
    return make
