"""``playtest warm [GAME...]``: compile the kernels of games ahead of use, with a progress bar."""

import click

from playtest import compile_notice, options, terminal
from simulator import games as game_registry
from simulator.core import worker

__all__ = ["warm"]


def steps(game, search):
    """``[(what, compile)]`` for a game: each a kernel the first run of a command would compile (or load)."""
    from playtest import api
    from simulator.core import batch

    spec, sset = api.prepare(game, games=1, strategies=["random"])

    def batch_kernel(run_chunk):
        def compile_it():
            run_chunk(spec.config.arrays, spec.sids, spec.params, 0, 0, 0,
                      *batch.allocate(spec.game, spec.config.players, 0))
        return compile_it

    title = spec.game.title
    out = [(f"{title}: the batch kernel", batch_kernel(sset.kernels()[0])),
           (f"{title}: the kernel for strategy files", batch_kernel(sset.slot_kernels()[0]))]
    if search and sset.search_sid >= 0:
        out.append((f"{title}: the batch kernel with the search and learned players",
                    batch_kernel(sset.kernels(search=True)[0])))
    return out


@click.command()
@options.game(many=True, required=False)
@click.option("--search", is_flag=True, help="Also the kernels with the search player (mcts) and the learned player.")
def warm(game, search):
    """Compile the kernels of each GAME (default: every game) now, so that later commands start at once.

    Compiled code is cached (see `PLAYTEST_CACHE_DIR` in the README) until playtest's sources change; a
    kernel already cached is only loaded.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    console = compile_notice.console()
    todo = [step for name in (game or game_registry.names()) for step in steps(name, search)]
    before = compile_notice.seconds()
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=console, transient=True) as bar:
        task = bar.add_task("compiling", total=len(todo))
        for what, compile_it in todo:
            bar.update(task, description=what)
            worker.call(compile_it)
            bar.advance(task)
    terminal.echo(f"{len(todo)} kernels ready; compiled in {compile_notice.seconds() - before:.1f} s")
