"""``playtest warm [GAME...]``: compile the kernels of games ahead of use, in parallel, with a progress bar."""

import os
import time

import click

from playtest import compile_ahead, compile_notice, options, terminal
from simulator import games as game_registry

__all__ = ["warm"]


def kernels(game, search):
    """The names (``compile_ahead.KERNELS``) of the kernels the first runs of a game's commands compile: the
    batch kernel, the kernel for strategy files and, with ``search`` (where the game has the search player),
    the batch kernel with the search and learned players."""
    from strategies.games import strategy_set

    return ["batch", "files"] + (["search"] if search and strategy_set(game).search_sid >= 0 else [])


def processes():
    """Child processes compiling at a time: one per core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@click.command()
@options.game(many=True, required=False)
@click.option("--search", is_flag=True, help="Also the kernels with the search player (mcts) and the learned player.")
def warm(game, search):
    """Compile the kernels of each GAME (default: every game) now, so that later commands start at once.

    Each kernel not cached yet compiles in a process of its own, as many at a time as there are cores.
    Compiled code is cached (see `PLAYTEST_CACHE_DIR` in the README) until playtest's sources change; a
    kernel already cached is left as it is.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    todo = [(name, kernel) for name in (game or game_registry.names()) for kernel in kernels(name, search)]
    started, at_once = time.perf_counter(), processes()
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=compile_notice.console(), transient=True) as bar, \
            compile_ahead.Ahead() as ahead:
        task = bar.add_task(f"compiling in up to {at_once} processes", total=len(todo))
        compiled = ahead.run(todo, at_once, on_done=lambda *_: bar.advance(task))
    terminal.echo(f"{len(todo)} kernels ready in {time.perf_counter() - started:.1f} s; {compiled} compiled, "
                  f"up to {at_once} at a time")
