"""``playtest train``: fit the learned model of a game by expert iteration (``studies.train``)."""

import shlex
import sys

import click

from playtest import api, options, terminal


@click.command()
@options.game()
@options.out("the model (.npy), with what it was trained for in FILE.json beside it; play it with "
             "--param learned=@FILE.npy", kind="file", required=True)
@options.seed(2 ** 62)
@click.option("--rounds", type=click.IntRange(1, 100), default=4, show_default=True,
              help="Rounds of expert iteration.")
@options.games(300, per="round", maximum=1_000_000)
@click.option("--budget", type=click.IntRange(1, 1 << 20), default=None,
              help="Iterations per decision of the expert (round 0: mcts; later rounds: the guided search "
                   "expert) [default: 4 x expert's iterations in the game].")
@click.option("--design", type=click.Choice(["linear", "tanh", "relu"]), default=None,
              help="The model: linear, or one hidden layer with tanh or relu units [default: the --start model's, "
                   "else linear].")
@click.option("--hidden", type=click.IntRange(1, 256), default=None,
              help="Hidden units of a network design [default: the --start model's, else 16].")
@click.option("--deals", type=click.IntRange(2, 1_000_000), default=2000, show_default=True,
              help="Validation deals per round (learned in one seat, the strongest heuristic in the others, "
                   "seats rotated); a round's model is kept when it beats the kept one on them: its paired 95% "
                   "interval above 0.")
@click.option("--start", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A model file (.npy, e.g. strategies/GAME/learned.npy) to start from: validated first as "
                   "round -1 and kept, so round 0's expert is the guided search it steers and a round's model is "
                   "kept only when it beats it.")
@click.option("--warm-start", "warm", is_flag=True,
              help="Fit each round's model starting from the kept model's weights (the --start model's, until a "
                   "round beats it) rather than from scratch.")
@click.option("--target", type=click.Choice(["share", "choice"]), default="share", show_default=True,
              help="What the model is fitted to: the seats' final win shares in the expert's games, or the moves "
                   "the game's expert chose (each legal move scored; needs --start).")
@options.players()
@options.variant()
@options.setup()
@options.threads()
def train(game, out, seed, rounds, games, budget, design, hidden, deals, start, warm, target, players, variant,
          setup, threads):
    """Train the learned model of GAME (played by learned and guiding expert) by expert iteration, for the table
    given by --players, --variant and --setup, and write the kept generation's model to --out."""
    def report(r):
        gain = "" if r.gain is None else (f", {r.gain[0]:+.2f} points ({r.gain[1]:+.2f} to {r.gain[2]:+.2f}) over "
                                          f"the kept model: {'kept' if r.kept else 'not kept'}")
        what = "the starting model" if r.round < 0 else f"round {r.round}: {r.rows:,} positions"
        terminal.echo(f"{what}, learned vs the strongest heuristic "
                      f"{100 * r.share:.2f}% ({100 * r.lo:.2f} to {100 * r.hi:.2f}){gain}, {r.seconds:.0f} s")

    model = None
    if start is not None:
        from strategies import model_files

        try:
            model = model_files.read(start)
        except ValueError as error:
            raise click.UsageError(f"--start {start} is not a model file ({error})") from None
    command = shlex.join(["playtest", *sys.argv[1:]]) if sys.argv[1:2] == ["train"] else None
    result = api.train(game, seed=seed, rounds=rounds, games=games, budget=budget, design=design, hidden=hidden,
                       deals=deals, players=players, variant=variant, setup=setup, threads=threads, start=model,
                       warm=warm, target=target, out=out, command=command, on_round=report)
    best = result.info["best"]
    terminal.echo(f"{'the starting model' if best < 0 else f'round {best}'} is the kept generation; its model is in:")
    click.echo(f"  {out}")   # paths are printed whole
    terminal.echo(f"and what it was trained for in {out.rsplit('.', 1)[0]}.json")
