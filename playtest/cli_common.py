"""What the command modules share: ``--param`` parsing, the run options (one ``RunOptions`` record, built
from the command line), and the exit after Ctrl-C or SIGTERM.

``playtest.cli`` and its command modules (``cli_skill``, ``cli_designer``, ...) import these from here,
so no command module imports ``playtest.cli`` back.
"""

import os
import shutil
import sys
from pathlib import Path

import click
import numpy as np

from simulator.core import worker
from simulator.core.run_options import CHUNK_SIZE, GAMES, RunOptions
from simulator.core.setup import read_toml
from strategies import model_files
from strategies.registry import StrategyError


def parse_params(items):
    """``--param NAME=V1,V2,...`` items as a dict; ``NAME=@FILE`` reads ``params`` from a TOML file such as
    the one ``playtest tune`` writes, or the numbers of a ``.npy`` or ``.txt`` file (a learned model, as
    ``playtest train`` writes). The values are checked against the strategy later."""
    params = {}
    for item in items:
        name, _, values = (part.strip() for part in item.partition("="))
        if values.startswith("@"):
            if name in params:
                raise StrategyError(f"--param {name} is given twice")
            params[name] = _params_file(values[1:])
            continue
        try:
            vector = [float(v) for v in values.split(",")]
        except ValueError:
            vector = []
        if not name or not vector:
            raise StrategyError(f"--param {item!r} is not NAME=number,number,...")
        if name in params:
            raise StrategyError(f"--param {name} is given twice")
        params[name] = vector
    return params


def _params_file(path):
    if Path(path).suffix in MODEL_SUFFIXES:
        return _model_file(Path(path))
    table = read_toml(path)
    vector = table.get("params")
    if not isinstance(vector, list) or not vector or not all(isinstance(v, (int, float)) for v in vector):
        raise StrategyError(f"--param: {path} has no 'params' list of numbers")
    return [float(v) for v in vector]


LONG_PARAMS = 12   # playtest strategies abbreviates longer parameter vectors (a learned model)
MODEL_SUFFIXES = (".npy", ".txt")   # --param NAME=@FILE: a vector of numbers (a learned model), not a TOML table


def _model_file(path):
    """The numbers of a ``.npy`` file or a text file (separated by spaces, commas or new lines), as a list."""
    try:
        values = (model_files.read(path) if path.suffix == ".npy"
                  else np.array(path.read_text().replace(",", " ").split(), dtype=np.float64))
    except (OSError, ValueError) as exc:
        raise StrategyError(f"--param: {path} is not a file of numbers ({exc})") from None
    if values.ndim != 1 or values.size == 0 or not np.issubdtype(values.dtype, np.number):
        raise StrategyError(f"--param: {path} must hold one flat list of numbers, got shape {values.shape}")
    return [float(v) for v in values]


def run_record(game, players, seed, strategies, strategy_files, params, variant, setup, rotate_seats, *,
                games=GAMES, chunk_size=CHUNK_SIZE, threads=None, leader_record=True):
    """The ``RunOptions`` of a command, built once from its command-line options (``--param`` items parsed
    here); it goes to the API as it is. A command that plays one run (``simulate``, ``replay GAME``) plays it;
    a study over tables (``survey``, ``compensate``, ``cards``) plays it with the player count, seed or setup
    table it varies replaced."""
    return RunOptions(game, players=players, seed=seed, games=games, strategies=strategies,
                      strategy_files=strategy_files, params=parse_params(params), variant=variant, setup=setup,
                      rotate_seats=rotate_seats, chunk_size=chunk_size, threads=threads,
                      leader_record=leader_record)


def interrupted(message, scratch=None):
    """Say ``message`` and exit with code 130 after Ctrl-C or SIGTERM (the run has cleaned up by then).

    A kernel still running on a worker thread (a long slice, or a strategy
    that never returns) cannot be stopped from Python, so the process then
    ends with ``os._exit`` after removing the ``scratch`` directory.
    """
    click.echo(message, err=True)
    if worker.still_running():
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    sys.exit(130)
