"""One game of a run told move by move (``trace``, ``replay``, ``replay_run``), and scenario files."""

import dataclasses
from pathlib import Path

import numpy as np

from playtest.api.results import load_run
from playtest.api.run import options_of
from simulator import games as game_registry
from simulator.core import output, worker
from simulator.core.batch import RunError, StrategyFailure, blame, chunk_bounds, trace_one
from simulator.core.run_options import MAX_SEED
from simulator.core.setup import SetupError, read_toml
from strategies.games import strategy_set
from studies import runs


def trace(game, *, game_index, rotation=None, **options):
    """Play game ``game_index`` of a run alone: ``game`` and ``options`` are ``simulate``'s (a game's name and
    the run keywords, ``seed`` among them, or a ``RunOptions``); the run's number of games does not matter.

    Returns ``(spec, trace, scores, seat_stats, game_stats)``; it is the same
    game as that row of the batch.
    """
    if isinstance(game_index, bool) or not isinstance(game_index, int) or not 0 <= game_index <= MAX_SEED - 1:
        raise RunError(f"the game index must be a whole number from 0 to 2**63-2, got {game_index!r}")
    run = options_of(trace, game, **options)
    spec, sset = runs.prepare(dataclasses.replace(run, games=game_index + 1))
    return traced(spec, sset, game_index, rotation)


def traced(spec, sset, game_index, rotation):
    """``trace``'s result for a prepared run; the rotation must be one the run has."""
    players = spec.config.players
    if spec.rotate_seats and not (isinstance(rotation, int) and 0 <= rotation < players):
        raise RunError(f"this run rotates seats: give --rotation from 0 to {players - 1}")
    if not spec.rotate_seats and rotation is not None:
        raise RunError("--rotation needs a run with rotated seats (--rotate-seats)")
    _, trace_game = sset.kernels_for(spec.sids)
    try:
        return (spec, *worker.call(trace_one, spec, trace_game, game_index, rotation))
    except (StrategyFailure, KeyboardInterrupt):
        raise
    except Exception as error:  # raised by a strategy inside the kernel: one line naming it
        blame(spec, trace_game, game_index, 1, [s.name for s in sset.extra], error)


def replay(game, *, game_index, rotation=None, **options):
    """The lines telling game ``game_index`` of a run move by move (checked by the reference engine).

    Examples
    --------
    >>> api.replay("forks", seed=0, game_index=3, players=2)[0]
    'game 3 of seed 0'
    """
    return narrated(trace(game, game_index=game_index, rotation=rotation, **options), game_index)


def narrated(traced_game, game_index):
    spec, tr, scores, _, _ = traced_game
    lines = spec.game.narrate(spec.config, tr, spec.strategies)
    return [f"game {game_index} of seed {spec.seed}"] + lines + [f"scores: {', '.join(map(str, scores.tolist()))}"]


def replay_run(path, *, game_index, rotation=None):
    """``replay`` of game ``game_index`` of the run in directory ``path``, every option read from its manifest.

    Refuses an index that is not in the run (beyond its games, or in a chunk
    that was never written) and a run whose strategy file is gone or has
    changed since (its checksum differs from the manifest's), or a run
    played by another engine version.

    Examples
    --------
    >>> import tempfile
    >>> run = api.simulate("forks", players=2, games=10, seed=4, out=tempfile.mkdtemp() + "/run")
    >>> api.replay_run(run.dir, game_index=5) == api.replay("forks", seed=4, game_index=5, players=2)
    True
    """
    path = Path(path)
    m = load_run(path).manifest
    try:
        files, checksums = list(m["strategy_files"]), list(m.get("strategy_checksums", []))
        games, chunk_size = int(m["games"]), int(m["chunk_size"])
        options = dict(players=m["players"], seed=m["seed"], strategies=m["strategies"], variant=m["variant"],
                       setup=m["setup"], strategy_files=files, rotate_seats=bool(m["rotate_seats"]), games=games,
                       chunk_size=chunk_size)
        params = np.array(m["strategy_params"], dtype=np.float64)
        game = m["game"]
    except (KeyError, TypeError, ValueError) as exc:
        raise RunError(f"the manifest of {path} is damaged or from an older playtest ({exc}); "
                       f"replay with the options of the run instead") from None
    engine_version = game_registry.get(game).engine_version
    if m.get("engine_version") != engine_version:
        raise RunError(f"the run {path} was played by {game} engine version {m.get('engine_version')}, this playtest "
                       f"has version {engine_version}, whose games differ: its games cannot be replayed")
    if not isinstance(options["setup"], dict) or isinstance(chunk_size, bool) or chunk_size < 1 or games < 1:
        raise RunError(f"the manifest of {path} is damaged (its setup, games or chunk_size); replay with the "
                       f"options of the run instead")
    if len(checksums) != len(files):
        raise RunError(f"the manifest of {path} records no checksum of its strategy files, so playtest cannot "
                       f"check they are unchanged; replay with the options of the run instead")
    for f, digest in zip(files, checksums):
        if not Path(f).is_file():
            raise RunError(f"the run's strategy file {f} no longer exists")
        if output.checksum(Path(f).read_bytes()) != digest:
            raise RunError(f"the run's strategy file {f} has changed since the run, so its games cannot be "
                           f"replayed; restore the file or play the run again")
    if isinstance(game_index, bool) or not isinstance(game_index, int) or not 0 <= game_index < games:
        raise RunError(f"game {game_index} is not in the run {path}: it has games 0 to {games - 1}")
    spec, sset = runs.prepare(options_of(replay_run, game, **options))
    chunk = game_index // chunk_size
    if str(chunk) not in m.get("chunk_files", {}):
        first, count = chunk_bounds(spec, chunk)
        raise RunError(f"game {game_index} is not in the run {path}: its chunk (games {first} to "
                       f"{first + count - 1}) was not written")
    if params.ndim != 2 or params.shape[0] != spec.config.players:
        raise RunError(f"the manifest of {path} is damaged: strategy_params is not one vector per seat")
    spec.params = params  # the vectors the run played, whatever their length
    return narrated(traced(spec, sset, game_index, rotation), game_index)


def scenario(path):
    """Play a scenario file; return ``(lines, result)`` from the game's scenario hook.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "s.toml"
    >>> _ = path.write_text('game = "nothing"')
    >>> api.scenario(path)
    Traceback (most recent call last):
    ...
    simulator.games.UnknownGame: unknown game 'nothing' (choose from forks, fool, fauch-fertig, fair-enough)
    """
    table = read_toml(path)
    name = table.get("game")
    if not isinstance(name, str):
        raise SetupError("game", f"the scenario file {path} must name its game, e.g. game = \"fool\"")
    g = game_registry.get(name)
    if g.scenario is None:
        raise SetupError("game", f"{g.title} does not support scenario files yet")
    return g.scenario(table, strategy_set(name))
