"""Kernel binding: cached kernels are keyed by the sources of the strategies they were built from."""

import importlib
import sys

from simulator.core.kernels import source_fingerprint


def test_fingerprint_changes_when_a_strategy_source_changes(tmp_path, monkeypatch):
    package = tmp_path / "my_strategies"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "heuristics.py").write_text("def decide(params, rng):\n    return 0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("my_strategies.heuristics")
    before = source_fingerprint([module.decide])
    assert source_fingerprint([module.decide]) == before
    (package / "heuristics.py").write_text("def decide(params, rng):\n    return 1\n")
    assert source_fingerprint([module.decide]) != before
    del sys.modules["my_strategies.heuristics"], sys.modules["my_strategies"]
