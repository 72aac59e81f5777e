"""``playtest bench [GAME...]`` (``make bench``): the speed of every game's engine, as a table."""

import click

from playtest import api, options, terminal
from studies.bench import PARTS

__all__ = ["bench"]

RESULTS = "bench/results.md"   # the whole benchmark, as `make bench` writes it


@click.command()
@options.game(many=True, required=False)
@options.games(None, per="measurement", default_text="sized per game")
@click.option("--part", "parts", multiple=True, type=click.Choice(PARTS),
              help="Only this part besides the kernel's games/s (repeat for several) [default: all].")
@options.out(f"the tables (Markdown) [default: {RESULTS} for a whole run: every game, every part, each game's own "
             "games; a partial run is printed only, so it never replaces the whole benchmark]", kind="file")
def bench(game, games, parts, out):
    """Measure games/s of each GAME's engine (default: every game; numba and reference), its cold and warm
    start, and write a table."""
    whole = not game and not parts and games is None
    api.bench(names=list(game) or None, games=games, parts=list(parts) or None,
              out=RESULTS if out is None and whole else out, on_line=terminal.echo)
    if out is None and not whole:
        terminal.echo(f"\nnot written: {RESULTS} holds the whole benchmark (every game and part); --out FILE "
                      "writes this partial one")
