"""``playtest bench [GAME...]`` (``make bench``): the speed of every game's engine, as a table."""

import click

from playtest import api, options, terminal
from studies.bench import PARTS

__all__ = ["bench"]


@click.command()
@options.game(many=True, required=False)
@options.games(None, per="measurement", default_text="sized per game")
@click.option("--part", "parts", multiple=True, type=click.Choice(PARTS),
              help="Only this part besides the kernel's games/s (repeat for several) [default: all].")
@options.out("the table (Markdown)", kind="file", default="bench/results.md")
def bench(game, games, parts, out):
    """Measure games/s of each GAME's engine (default: every game; numba and reference), its cold and warm
    start, and write a table."""
    api.bench(names=list(game) or None, games=games, parts=list(parts) or None, out=out, on_line=terminal.echo)
