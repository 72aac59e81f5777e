"""Fauch & Fertig (2-4 players): buy dragon cards from a coin-laden market, meet their conditions, place eggs."""

from pathlib import Path

from simulator.core.game import Game
from simulator.fauch_fertig import cards, engine, layout, reference, turn
from simulator.fauch_fertig.narrate import narrate
from simulator.fauch_fertig.scenario import scenario
from simulator.fauch_fertig.setup import VARIANTS, compile_setup

__all__ = ["GAME"]

GAME = Game(
    name="fauch-fertig",
    title="Fauch & Fertig",
    min_players=2,
    max_players=4,
    default_players=4,
    variants=VARIANTS,
    setup_path=Path(__file__).with_name("setup.toml"),
    compile_setup=compile_setup,
    seat_columns=engine.SEAT_COLUMNS,
    game_columns=engine.GAME_COLUMNS,
    engine_version="5",  # 5: seat columns dealt_kinds, bought_kinds (4: seat_bonus)
    engine=engine,
    narrate=narrate,
    reference=reference.replay,
    max_actions=layout.MAX_ACTIONS,
    max_keys=layout.MAX_KEYS,
    game_entries=turn.ST_PICKS,  # the state entries from ST_PICKS on are per-thread buffers
    allocation_free=True,
    evaluation_point=None,  # none: the end of a round was tried, and the search was far weaker (bench/journal/)
    action_classes=("blind",),  # engine.action_class
    standing_point=engine.STANDING_COINS,
    play_reference=reference.play,
    scenario=scenario,
    card_candidates=cards.candidates,
    card_holdings=cards.holdings,
    # the recorder takes a seat's features for `playtest train` right after its moves: its learned player does
    # not look ahead, so it is recorded where it scores
    recorded_at_decision=False,
    bench_games=100_000,
    example_strategy="docs/examples/magpie.py",
)
