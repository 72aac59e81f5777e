"""Nim (2-4 players), the example game: the template a new game copies (docs/CONTRIBUTING-GAMES.md).

Registered as a hidden game (``simulator.games.EXAMPLES``): the engine
contract (tests/contract) and ``playtest simulate nim`` play it, the game list
does not show it.
"""

from pathlib import Path

from simulator.core.game import Game
from simulator.example import engine, layout, reference
from simulator.example.narrate import narrate
from simulator.example.setup import VARIANTS, compile_setup

__all__ = ["GAME"]

GAME = Game(
    name="nim",
    title="Nim (example game)",
    min_players=2,
    max_players=4,
    default_players=2,
    variants=VARIANTS,
    setup_path=Path(__file__).with_name("setup.toml"),
    compile_setup=compile_setup,
    seat_columns=engine.SEAT_COLUMNS,
    game_columns=engine.GAME_COLUMNS,
    engine_version="1",
    engine=engine,
    narrate=narrate,
    reference=reference.replay,
    max_actions=layout.MAX_ACTIONS,
    max_keys=layout.MAX_KEYS,
    game_entries=layout.GAME_SLOTS,
    allocation_free=True,
    evaluation_point=None,
    action_classes=("take-most", "take-one"),  # engine.action_class
    play_reference=reference.play_random,
    # what `playtest cards`, `train` and `bench` read (simulator.core.game.Game says what each means)
    card_candidates=None,  # a pile of counters: no cards to take out
    card_holdings=None,
    expert_horizon=0,  # no evaluation point: the expert's rollouts play to the end
    recorded_at_decision=True,
    bench_games=200_000,
    bench_end_to_end_games=2_000_000,
    bench_learned_games=2_000,
    bench_search_target=200_000,
)
