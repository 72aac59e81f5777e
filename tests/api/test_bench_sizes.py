"""The benchmark's per-game sizes come from each game's descriptor, so a new game (Nim too) is measured without
an edit to studies.bench."""

import dataclasses
import types

from studies.bench import search_rates as bench
from simulator import games


def test_the_search_target_is_the_games_descriptor_field(monkeypatch):
    nim = dataclasses.replace(games.get("nim"), bench_search_target=123_456)
    monkeypatch.setattr(bench, "game_registry", types.SimpleNamespace(get={"nim": nim}.__getitem__))
    assert bench.search_target("nim") == 123_456

