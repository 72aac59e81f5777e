"""The Python API: every command of the command line as one call, for notebooks and scripts.

Each command is one function of the same name (``search-gain`` is
``search_gain``) returning a result object: ``simulate`` a ``Run``;
``tournament``, ``sweep``, ``ladder``, ``restrict``, ``tune``, ``skill``,
the designer's studies (``survey``, ``compensate``, ``cards``), ``train``,
``search_gain`` and ``bench`` a ``Result``; ``setup`` the setup table's
text; ``compare`` an ``analyses.compare.Comparison``; ``report`` the path
written. A result has ``.to_polars()`` and ``.to_pandas()`` (its main
table) and ``.verdict`` where the command has one. The click command line
(``playtest.cli``) parses options, calls these functions and prints.

The functions live in one module per study (``run``, ``replay``,
``studies``, ``skilled_play``, ``training``, ``benchmarks``, ``designer``;
``results`` holds ``Run`` and ``Result``) and are all names of this package.

Adding a command: write ``def NAME(game, *, ...)`` in its study's module that refuses bad input
(one ``RunError``/``SetupError``/``StrategyError`` naming what is wrong)
before anything is played or written, plays through ``simulate``, and returns
a ``Result`` (or a result class of its own with ``to_polars``/``to_pandas``);
give it a numpydoc docstring whose Example runs in a second (it is a doctest
of ``make test``); add it to ``__all__`` here; then make the click command a thin call to it.

Examples
--------
>>> from playtest import api
>>> run = api.simulate("forks", players=4, games=50, seed=7, strategies=["greedy", "random"] * 2)
>>> run.to_polars().height       # one row per (game, seat)
200
>>> run.verdict.kind in ("balanced", "unbalanced", "inconclusive")
True
"""

from playtest.api.results import Run, Result, load_run, verdict
from playtest.api.run import GAMES, prepare, check, provenance, model_caveats, simulate, compare
from playtest.api.replay import trace, traced, replay, narrated, replay_run, scenario
from playtest.api.studies import tournament, sweep, report, UNFAIR_STUDIES, unfair
from playtest.api.skilled_play import ladder, restrict, tune, skill, by_model
from playtest.api.training import train, search_gain
from playtest.api.benchmarks import bench
from playtest.api.designer import (games, strategies, setup, table_counts, survey, knob_row, with_knob, compensate,
                                   card_plan, cards, setup_table)
from simulator.core.batch import RunError as RunError  # what the functions raise on bad input
from simulator.core.run_options import RunOptions, check_threads

__all__ = ["GAMES", "RunOptions", "Run", "Result", "load_run", "prepare", "check", "provenance", "model_caveats", "simulate",
           "check_threads", "verdict", "compare", "trace", "traced", "replay", "narrated", "replay_run", "scenario",
           "tournament", "sweep", "ladder", "restrict", "tune", "report", "train", "UNFAIR_STUDIES", "unfair", "games",
           "strategies", "setup", "table_counts", "survey", "knob_row", "with_knob", "compensate", "card_plan",
           "cards", "search_gain", "bench", "skill", "by_model", "setup_table"]
