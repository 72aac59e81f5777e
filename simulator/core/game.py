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
        strategy that returned an illegal choice (``standing[k, 0]`` is then
        the value it returned), or -1 (``RAISED``) when a strategy raised in
        that game (its rows are then not a game).

    trace_game(arrays, sids, params, seed, game,
               scores, standing, seat_stats, game_stats, trace) -> int
        plays one game exactly as run_chunk does, writes its action trace into
        ``trace`` and returns the trace length (negative: -(1+seat) of an
        illegal choice, whose value is ``standing[0]``).
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from simulator.core.setup import SetupError, did_you_mean, merge, read_toml


class InvalidGame(ValueError):
    """A game description or engine module that breaks the contract of ``simulator.core.state``."""


# what every engine module defines: the state verbs and the choose template (its constants are the descriptor's)
ENGINE_NAMES = ("new_state", "reset", "legal_actions", "apply", "result", "observe", "copy_state", "determinize",
                "horizon_mark", "move_key", "action_class", "choose")


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
    # the engine's constants: the kernels and the search bind them from here (simulator.core.kernels)
    max_actions: int         # every action id is below this (MAX_ACTIONS in the kernels)
    max_keys: int            # every move key (move_key) is below this (MAX_KEYS)
    game_entries: int        # state entries from here on are per-thread buffers, not part of the game
    allocation_free: bool = False  # the verbs create no arrays: the game is compiled without reference counting
    evaluation_point: str | None = None  # where a search with a horizon stops its rollouts (one line), or None
    action_classes: tuple = ()  # the names of the classes action_class reports as bits (mcts:no-CLASS)
    standing_point: int = 1  # standing units per point of score (simulator.core.seat_bonus)
    scenario: Callable | None = None  # (table: dict, strategies: StrategySet) -> (lines, result dict)
    play_reference: Callable | None = None  # (config, seed) -> one game by the reference engine,
    #                                         `random` in every seat (for the benchmark)
    # what `playtest cards` asks about (simulator.core.card_rows): None, the game has no cards to take out
    card_candidates: Callable | None = None  # (table, players) -> {card: (what removing it means, setup override)}
    card_holdings: Callable | None = None    # (table, players) -> [Holding]: the "who holds it" rows
    # `playtest train`'s defaults: the expert's rollout horizon (evaluation points ahead; 0 to the end of the game)
    # and where a seat's features are recorded (True: at its decisions; False: after its moves)
    expert_horizon: int = 0
    recorded_at_decision: bool = True
    # `playtest bench`'s sizes
    bench_games: int = 200_000  # games per benchmark measurement
    bench_end_to_end_games: int = 2_000_000  # games of the end-to-end run (play and write)
    bench_learned_games: int = 2_000  # games of the all-learned table
    bench_search_target: int = 200_000  # search iterations per second over two threads the game should reach
    example_strategy: str | None = None  # a user strategy file shipped as an example (from the repository's root)
    open_tables: tuple = ("players",)  # setup tables where --setup may add keys (see core.setup.merge)

    def validate(self):
        """Check the description and the engine's constants and verbs; raise ``InvalidGame`` (one line) if not.

        ``simulator.games.get`` calls it when a game is first loaded, so a
        new game that misses a verb or declares an unusable constant is
        refused before anything is compiled.
        """
        def refuse(what):
            raise InvalidGame(f"game {self.name!r}: {what}")

        if not 1 <= self.min_players <= self.default_players <= self.max_players:
            refuse(f"players must satisfy 1 <= min {self.min_players} <= default {self.default_players} <= max "
                   f"{self.max_players}")
        if not self.game_columns or self.game_columns[0] != "rounds" or "finished" not in self.game_columns:
            refuse(f"game_columns must start with 'rounds' and include 'finished', got {self.game_columns}")
        if not isinstance(self.engine_version, str) or not self.engine_version:
            refuse("engine_version must be a non-empty string")
        missing = [v for v in ENGINE_NAMES if not hasattr(self.engine, v)]
        if missing:
            refuse(f"its engine module lacks {', '.join(missing)} (see simulator.core.state)")
        for name, least in (("max_actions", 1), ("max_keys", 1), ("game_entries", 2), ("standing_point", 1),
                            ("expert_horizon", 0), ("bench_games", 1), ("bench_end_to_end_games", 1),
                            ("bench_learned_games", 1), ("bench_search_target", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                refuse(f"{name} must be a whole number of at least {least}, got {value!r}")
        if not isinstance(self.allocation_free, bool):
            refuse(f"allocation_free must be True or False, got {self.allocation_free!r}")
        point = self.evaluation_point
        if not (point is None or (isinstance(point, str) and point and "\n" not in point)):
            refuse(f"evaluation_point must be None or one line saying where it is, got {point!r}")
        if self.expert_horizon and point is None:
            refuse(f"expert_horizon {self.expert_horizon} stops rollouts at evaluation points, and the game has "
                   f"none: use 0")
        if not isinstance(self.recorded_at_decision, bool):
            refuse(f"recorded_at_decision must be True or False, got {self.recorded_at_decision!r}")
        if (self.card_candidates is None) != (self.card_holdings is None):
            refuse("card_candidates and card_holdings go together: give both or neither")
        classes = self.action_classes
        if (not isinstance(classes, tuple) or not all(isinstance(c, str) and c for c in classes)
                or len(set(classes)) != len(classes) or len(classes) > 62):
            refuse(f"action_classes must be a tuple of at most 62 distinct names, got {classes!r}")
        return self

    def default_setup(self):
        """Return the game's shipped setup table as a dict."""
        return read_toml(self.setup_path)

    def configure(self, players, variant="standard", override=None):
        """Merge ``override`` (a dict) over the default table, validate it and compile it."""
        if variant not in self.variants:
            hint = did_you_mean(variant, self.variants)
            raise SetupError("variant", f"unknown variant {variant!r} for {self.name}{hint} (choose from "
                                        f"{', '.join(self.variants)})")
        setup = self.default_setup()
        if override:
            setup = merge(setup, override, self.open_tables)
        return self.compile_setup(setup, players, variant)
