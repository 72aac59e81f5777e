"""Fair Enough (2-5 players): research from a face-up row, then a Collecting-phase countdown with special cards."""

from pathlib import Path

from simulator.core.game import Game
from simulator.fair_enough import engine, reference
from simulator.fair_enough.layout import GAME_COLUMNS, MAX_PLAYERS, MIN_PLAYERS, SEAT_COLUMNS
from simulator.fair_enough.narrate import narrate
from simulator.fair_enough.scenario import scenario
from simulator.fair_enough.setup import VARIANTS, compile_setup

__all__ = ["GAME"]

GAME = Game(
    name="fair-enough",
    title="Fair Enough",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    variants=VARIANTS,
    setup_path=Path(__file__).with_name("setup.toml"),
    compile_setup=compile_setup,
    seat_columns=SEAT_COLUMNS,
    game_columns=GAME_COLUMNS,
    engine_version="3",  # 3: ranks and wins with the setup table's seat_bonus
    engine=engine,
    narrate=narrate,
    reference=reference.replay,
    play_reference=reference.play,
    bench_games=400_000,
    scenario=scenario,
)
