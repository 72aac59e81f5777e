"""``RunOptions``: what one run plays and on how many threads, as one typed record.

The command line builds it once from its options, the API from its keywords
(or takes one as it is); it travels unchanged into the run
(``simulator.core.batch.RunSpec`` keeps it) and, pickled, to Dask workers.
Everything about it that can be checked without the strategies is checked
once, when it is built: a bad value raises a ``RunError`` or ``SetupError``
whose message is the one line a user reads. The strategy names and their
parameter vectors are resolved (and refused) by the game's strategy set when
the run is seated (``studies.runs.prepare``).
"""

import functools
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np

from simulator import games as game_registry
from simulator.core.rundir import RunError
from simulator.core.setup import read_toml

GAMES = 100_000           # games of a run unless told: the command line's default and the API's
CHUNK_SIZE = 100_000      # games per chunk (one parquet file each) unless told
MAX_SEED = 2 ** 63 - 1


@dataclass(frozen=True)
class RunOptions:
    """One run: which games are played (game, table, strategies, seed, games) and how (chunks, threads).

    Parameters
    ----------
    game : str
        A registered game's name (``simulator.games``).
    players : int, optional
        None: the game's default player count.
    seed : int
        0 to 2**63-1; game ``i`` of the run uses the random streams of ``(seed, i)``.
    games : int
        At least 1 (deals, with ``rotate_seats``).
    strategies : str or sequence of str
        One name for every seat, or one per seat in seat order; kept as a tuple.
    strategy_files : sequence of path
        User strategy files, kept as resolved paths (text) in the order given.
    params : dict, optional
        Strategy name -> replacement parameter vector (kept as a tuple).
    variant : str
    setup : dict or path, optional
        A table merged over the game's own; a TOML path is read here, so the record holds the table.
    rotate_seats : bool
        Play every deal once per rotation of the strategies over the seats.
    leader_record : bool
        Record who leads after each round (the game columns ``leaders_1_8`` and ``leaders_9_16``, read by
        the comeback curve). False leaves them 0 and skips asking for the standing at each round's end, which
        costs some games the most per game; every other column is unchanged.
    chunk_size : int
        Games per chunk; the rows do not depend on it.
    threads : int, optional
        Numba threads playing the chunks, 1 to the cores numba may use (None: all); the rows do not depend
        on it.

    Attributes
    ----------
    config : simulator.core.game.Config
        The validated table for ``players`` and ``variant`` (built when the record is, not compared).

    Raises
    ------
    RunError, SetupError, UnknownGame
        One line saying which value is wrong.
    """

    game: str
    players: int | None = None
    seed: int = 0
    games: int = GAMES
    strategies: tuple = ("random",)
    strategy_files: tuple = ()
    params: dict = field(default_factory=dict)
    variant: str = "standard"
    setup: dict | None = None
    rotate_seats: bool = False
    leader_record: bool = True
    chunk_size: int = CHUNK_SIZE
    threads: int | None = None
    config: object = field(init=False, compare=False, repr=False)

    def __post_init__(self):
        g = game_registry.get(self.game)
        seed = self.seed
        if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
            raise RunError(f"the seed must be a whole number from 0 to 2**63-1 ({MAX_SEED}), got {seed!r}")
        _whole(self.games, "the number of games")
        _whole(self.chunk_size, "the chunk size")
        check_threads(self.threads)
        if not isinstance(self.rotate_seats, (bool, np.bool_)):
            raise RunError(f"rotate_seats must be True or False, got {self.rotate_seats!r}")
        if not isinstance(self.leader_record, (bool, np.bool_)):
            raise RunError(f"leader_record must be True or False, got {self.leader_record!r}")
        names = (self.strategies,) if isinstance(self.strategies, str) else tuple(self.strategies)
        if not names or not all(isinstance(n, str) for n in names):
            raise RunError(f"strategies must be one strategy name or one per seat, got {self.strategies!r}")
        params = dict(self.params or {})
        if not all(isinstance(n, str) for n in params):
            raise RunError(f"params must map strategy names to parameter vectors, got {self.params!r}")
        setup = read_toml(self.setup) if isinstance(self.setup, (str, Path)) else self.setup
        players = g.default_players if self.players is None else self.players
        keep = functools.partial(object.__setattr__, self)
        keep("game", g.name)
        keep("players", players)
        keep("seed", int(seed))
        keep("games", int(self.games))
        keep("chunk_size", int(self.chunk_size))
        keep("rotate_seats", bool(self.rotate_seats))
        keep("leader_record", bool(self.leader_record))
        keep("strategies", names)
        keep("strategy_files", tuple(str(Path(f).resolve()) for f in self.strategy_files))
        keep("params", {n: tuple(v) if isinstance(v, (list, tuple, np.ndarray)) else v for n, v in params.items()})
        keep("setup", setup)
        keep("config", g.configure(players, self.variant, setup))


def _whole(value, what):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < 1:
        raise RunError(f"{what} must be a whole number of at least 1, got {value!r}")


def check_threads(threads):
    """Refuse a thread count that is not None (all cores) or a whole number from 1 to the cores numba may use."""
    cores = numba.config.NUMBA_NUM_THREADS
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or not 1 <= threads <= cores):
        raise RunError(f"the number of threads must be from 1 to {cores} (the cores numba may use), got {threads!r}")
