"""Fair Enough (2-5 players): research from a face-up row, then a Collecting-phase countdown with special cards."""

from pathlib import Path

from simulator.core.game import Game
from simulator.fair_enough import cards, engine, layout, reference, rules
from simulator.fair_enough.narrate import narrate
from simulator.fair_enough.scenario import scenario
from simulator.fair_enough.setup import VARIANTS, compile_setup

__all__ = ["GAME"]

GAME = Game(
    name="fair-enough",
    title="Fair Enough",
    min_players=layout.MIN_PLAYERS,
    max_players=layout.MAX_PLAYERS,
    default_players=4,
    variants=VARIANTS,
    setup_path=Path(__file__).with_name("setup.toml"),
    compile_setup=compile_setup,
    seat_columns=layout.SEAT_COLUMNS,
    game_columns=layout.GAME_COLUMNS,
    engine_version="3",  # 3: ranks and wins with the setup table's seat_bonus
    engine=engine,
    narrate=narrate,
    reference=reference.replay,
    max_actions=layout.MAX_ACTIONS,
    max_keys=layout.MAX_KEYS,
    game_entries=rules.GAME_SLOTS,  # the state's slots from here on are per-thread buffers
    allocation_free=True,
    evaluation_point=None,  # none: the end of a round was tried, and the search was far weaker (bench/journal/)
    action_classes=("sold-out",),  # engine.action_class
    standing_point=layout.STANDING_SCALE,
    play_reference=reference.play,
    card_candidates=cards.candidates,
    card_holdings=cards.holdings,
    # `playtest train` records a seat's features at its decisions (the measurements that chose it: bench/journal/)
    recorded_at_decision=True,
    bench_games=400_000,
    example_strategy="docs/examples/hoarder.py",
    scenario=scenario,
)
