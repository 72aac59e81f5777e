"""``playtest train``: fit the learned player of a game by expert iteration (``playtest.train``)."""

import click

from playtest import api
from simulator import games as game_registry


@click.command()
@click.argument("game", type=click.Choice(game_registry.names()), metavar="GAME")
@click.option("--out", "-o", type=click.Path(dir_okay=False), required=True,
              help="The model file (.npy) to write; play it with --param learned=@FILE.")
@click.option("--seed", type=click.IntRange(0, 2 ** 62), default=0, show_default=True,
              help="Run seed of the recorded games (validation deals: seed + 1).")
@click.option("--rounds", type=click.IntRange(1, 100), default=4, show_default=True,
              help="Rounds of expert iteration.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=300, show_default=True,
              help="Games recorded per round.")
@click.option("--budget", type=click.IntRange(1, 1 << 20), default=64, show_default=True,
              help="Iterations per decision of the expert (mcts).")
@click.option("--design", type=click.Choice(["linear", "tanh", "relu"]), default="linear", show_default=True,
              help="The model: linear, or one hidden layer with tanh or relu units.")
@click.option("--hidden", type=click.IntRange(1, 256), default=16, show_default=True,
              help="Hidden units of a network design.")
@click.option("--deals", type=click.IntRange(2, 1_000_000), default=300, show_default=True,
              help="Validation deals per round (learned in one seat, the strongest heuristic in the others, "
                   "seats rotated).")
@click.option("--players", "-p", type=int, default=None, help="Number of players [default: the game's usual count].")
@click.option("--threads", type=click.IntRange(1, 1024), default=1, show_default=True,
              help="Threads of the recorded games and of the validation matches (the same model on any count).")
def train(game, out, seed, rounds, games, budget, design, hidden, deals, players, threads):
    """Train the learned player of GAME by expert iteration and write the strongest round's model to --out."""
    def report(r):
        click.echo(f"round {r.round}: {r.rows:,} positions, learned vs the strongest heuristic "
                   f"{100 * r.share:.2f}% ({100 * r.lo:.2f} to {100 * r.hi:.2f}), {r.seconds:.0f} s")

    result = api.train(game, seed=seed, rounds=rounds, games=games, budget=budget, design=design, hidden=hidden,
                       deals=deals, players=players, threads=threads, out=out, on_round=report)
    click.echo(f"round {result.info['best']} is the strongest: its model is in {out}")
