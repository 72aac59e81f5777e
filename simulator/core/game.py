"""The uniform description every game engine gives of itself.

A game package (``simulator.<game>``) exposes one ``GAME`` object. Everything
generic (the batch runner, the output writer, the CLI, the registry) works
from it, so a new game plugs in without edits elsewhere.

Kernel contract (``simulator.core.kernels.bind_engine`` builds both from the
engine's state verbs, the shared game loop and a strategy dispatcher)::

    run_chunk(arrays, sids, params, seed, start, count,
              scores, standing, seat_stats, game_stats, status)
        plays games start..start+count-1 in parallel; row k of each output
        holds game start+k. ``standing`` orders seats (higher is better,
        equal means a shared place); ``status[k]`` is 0, 1+seat of a
        strategy that returned an illegal choice, or -1 (``RAISED``) when a
        strategy raised in that game (its rows are then not a game).

    trace_game(arrays, sids, params, seed, game,
               scores, standing, seat_stats, game_stats, trace) -> int
        plays one game exactly as run_chunk does, writes its action trace into
        ``trace`` and returns the trace length (negative: -(1+seat) of an
        illegal choice).
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from simulator.core.setup import merge, read_toml


@dataclass(frozen=True)
class Config:
    """A validated setup for one player count and variant, ready for the kernels.

    ``arrays`` is the tuple of numpy arrays the kernels read; ``setup`` is the
    full merged table (written to the manifest); ``info`` holds derived facts
    (e.g. the number of rounds) for narration and reports.
    """

    game: str
    players: int
    variant: str
    setup: dict
    arrays: tuple
    trace_len: int
    info: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Game:
    """What the generic machinery needs to know about one game."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    variants: tuple
    setup_path: Path
    compile_setup: Callable  # (setup: dict, players: int, variant: str) -> Config
    seat_columns: tuple      # names of seat_stats columns
    game_columns: tuple      # names of game_stats columns; the first is "rounds"
    engine_version: str      # bump when the engine's behaviour changes
    engine: object           # module with the state verbs (simulator.core.state) and the choose template
    narrate: Callable        # (config, trace, strategy_names) -> list[str]
    reference: Callable      # (config, trace) -> the reference engine's replay result
    scenario: Callable | None = None  # (table: dict, strategies: StrategySet) -> (lines, result dict)
    play_reference: Callable | None = None  # (config, seed) -> one game by the reference engine,
    #                                         `random` in every seat (for the benchmark)
    bench_games: int = 200_000  # games per benchmark measurement
    open_tables: tuple = ("players",)  # setup tables where --setup may add keys (see core.setup.merge)

    def default_setup(self):
        """Return the game's shipped setup table as a dict."""
        return read_toml(self.setup_path)

    def configure(self, players, variant="standard", override=None):
        """Merge ``override`` (a dict) over the default table, validate it and compile it."""
        setup = self.default_setup()
        if override:
            setup = merge(setup, override, self.open_tables)
        return self.compile_setup(setup, players, variant)
