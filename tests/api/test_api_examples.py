"""The examples in ``playtest.api``'s docstrings run, and print what they say (doctests of ``make test``).

One test per docstring, so that ``pytest -n`` spreads them over its workers (run as one test they took about
two minutes of one worker on a cold numba cache)."""

import doctest

import pytest

from playtest import api

COMMANDS = ("simulate", "compare", "verdict", "replay", "replay_run", "scenario", "tournament", "sweep", "ladder",
            "restrict", "tune", "report", "games", "strategies", "setup", "survey", "compensate", "cards",
            "skill", "unfair", "train", "bench", "search_gain")
EXAMPLES = {t.name.rpartition(".")[2]: t
            for t in doctest.DocTestFinder().find(api, "api", globs={"api": api, **vars(api)}) if t.examples}


def test_every_command_of_the_api_has_an_example():
    assert [c for c in COMMANDS if c not in EXAMPLES] == []


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_passes(name):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(EXAMPLES[name])
    assert runner.summarize(verbose=False).failed == 0
