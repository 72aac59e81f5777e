"""Fool! (4-8 players): trick-taking where the worst card of a trick sits out the next one."""

from simulator.core.game import Game
from simulator.fool import cards, engine, layout, reference
from simulator.fool.narrate import narrate
from simulator.fool.scenario import scenario
from simulator.fool.setup import SETUP_PATH, VARIANTS, compile_setup

__all__ = ["GAME"]

GAME = Game(
    name="fool",
    title="Fool!",
    min_players=4,
    default_players=4,
    max_players=8,
    variants=VARIANTS,
    setup_path=SETUP_PATH,
    compile_setup=compile_setup,
    seat_columns=engine.SEAT_COLUMNS,
    game_columns=engine.GAME_COLUMNS,
    engine_version="5",  # 5: seat columns wilds_dealt, tops_dealt, wilds_played (4: seat_bonus)
    engine=engine,
    narrate=narrate,
    reference=reference.replay,
    max_actions=layout.MAX_ACTIONS,
    max_keys=layout.MAX_KEYS,
    game_entries=engine.GAME_SLOTS,  # the state's slots from here on are per-thread buffers
    allocation_free=True,
    # where the search's horizon 1 stops a rollout (engine.horizon_mark)
    evaluation_point="the end of the deal: once it is scored, the standing is the game totals so far",
    action_classes=("wild-over-lead",),  # engine.action_class
    scenario=scenario,
    play_reference=reference.play_random,
    card_candidates=cards.candidates,
    card_holdings=cards.holdings,
    expert_horizon=1,  # the expert's random rollouts stop at the end of the deal
    # `playtest train` records a seat's features right after its moves (the measurements that chose it: bench/journal/)
    recorded_at_decision=False,
    bench_games=400_000,
    example_strategy="docs/examples/bold.py",
)
