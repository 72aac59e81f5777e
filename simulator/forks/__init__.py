"""Forks: 2nd Edition (2-6 players): drafting with simultaneous picks; marketing totals decide signs."""

from pathlib import Path

from simulator.core.game import Game
from simulator.forks import cards, engine, layout, reference
from simulator.forks.narrate import narrate
from simulator.forks.setup import VARIANTS, compile_setup

__all__ = ["GAME"]

GAME = Game(
    name="forks",
    title="Forks: 2nd Edition",
    min_players=2,
    max_players=6,
    default_players=4,
    variants=VARIANTS,
    setup_path=Path(__file__).with_name("setup.toml"),
    compile_setup=compile_setup,
    seat_columns=engine.SEAT_COLUMNS,
    game_columns=engine.GAME_COLUMNS,
    engine_version="4",  # 4: seat columns dealt_values, invested_values (3: seat_bonus)
    engine=engine,
    narrate=narrate,
    reference=reference.replay,
    max_actions=layout.MAX_ACTIONS,
    max_keys=layout.MAX_KEYS,
    game_entries=layout.GAME_SLOTS,
    allocation_free=True,
    # where the search's horizon stops a rollout (engine.horizon_mark)
    evaluation_point=("the end of a round: once its marketing cards are revealed, the standing is the final scoring "
                      "applied to the marketing totals and the investments so far"),
    action_classes=("market-held",),  # engine.action_class
    play_reference=reference.play_random,
    card_candidates=cards.candidates,
    card_holdings=cards.holdings,
    expert_horizon=1,  # the expert's random rollouts stop at the end of the round
    # `playtest train` records a seat's features at its decisions (the measurements that chose it: bench/journal/)
    recorded_at_decision=True,
    bench_games=1_000_000,
    bench_end_to_end_games=10_000_000,
    bench_learned_games=20_000,  # the all-learned table: enough for a second
    example_strategy="docs/examples/contrarian.py",
    bench_search_target=1_000_000,  # iterations/s over 2 threads that issue 14 asks for
    open_tables=("players", "deck.extra"),
)
