"""A run seated: ``prepare`` turns a ``RunOptions`` into the ``RunSpec`` the batch runner plays, with the game's
strategy set (its kernels), before anything is played or written."""

from pathlib import Path

from simulator.core import output
from simulator.core.batch import RunSpec
from strategies.games import strategy_set


def prepare(options):
    """``(spec, strategy_set)`` of the run ``options`` (a ``simulator.core.run_options.RunOptions``).

    Loads the strategy files into a fresh strategy set of the game and seats
    the strategies: an unknown name, a lineup of the wrong length or a
    parameter vector the strategy does not take is a ``StrategyError``.
    Nothing is played or written. The spec keeps ``options`` as they are.
    """
    sset = strategy_set(options.game)
    for f in options.strategy_files:
        sset.add_file(f)
    sids, matrix, names = sset.seats(list(options.strategies), options.players, options.params)
    checksums = [output.checksum(Path(f).read_bytes()) for f in options.strategy_files]
    return RunSpec(options, names, sids, matrix, checksums), sset
