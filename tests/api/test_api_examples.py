"""The examples in ``playtest.api``'s docstrings run, and print what they say (doctests of ``make test``)."""

import doctest

from playtest import api


def test_every_public_function_of_the_api_has_an_example_and_the_examples_pass():
    finder = doctest.DocTestFinder()
    tests = {t.name.rpartition(".")[2]: t for t in finder.find(api, "api", globs={"api": api, **vars(api)})}
    commands = ("simulate", "compare", "verdict", "replay", "replay_run", "scenario", "tournament", "sweep", "ladder",
                "restrict", "tune", "report", "games", "strategies", "setup_table", "survey", "compensate", "cards",
                "by_model", "unfair", "train", "bench", "search_gain")
    assert [c for c in commands if c not in tests or not tests[c].examples] == []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in tests.values():
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
