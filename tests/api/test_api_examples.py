"""The examples in ``playtest.api``'s docstrings run, and print what they say (doctests of ``make test``).

One test per docstring, so that ``pytest -n`` spreads them over its workers (run as one test they took about
two minutes of one worker on a cold numba cache). The functions live in the package's modules, one per study;
the package's own docstring has the first example."""

import doctest
import pkgutil
import tempfile
from importlib import import_module

import pytest

from playtest import api

COMMANDS = ("simulate", "compare", "verdict", "replay", "replay_run", "scenario", "tournament", "sweep", "ladder",
            "restrict", "tune", "report", "games", "strategies", "setup", "survey", "compensate", "cards",
            "skill", "unfair", "train", "bench", "search_gain")
MODULES = [api, *(import_module(f"{api.__name__}.{m.name}") for m in pkgutil.iter_modules(api.__path__))]
EXAMPLES = {t.name.rpartition(".")[2]: t
            for module in MODULES
            for t in doctest.DocTestFinder().find(module, module.__name__.replace("playtest.", "", 1),
                                                  globs={"api": api, **vars(module)}) if t.examples}


def test_every_command_of_the_api_has_an_example():
    assert [c for c in COMMANDS if c not in EXAMPLES] == []


def test_every_example_is_of_a_name_of_the_api():
    """An example in a module's docstring, or of a function the package does not export, would be found but
    name nothing a user can call as ``api.NAME``."""
    assert sorted(name for name in EXAMPLES if name != "api" and name not in api.__all__) == []


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_passes(name, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))   # the examples' tempfile.mkdtemp(): here, not in /tmp
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(EXAMPLES[name])
    assert runner.summarize(verbose=False).failed == 0
