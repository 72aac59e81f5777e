"""Compile a game's kernels ahead, in child processes, while this process compiles or plays something else.

numba compiles one kernel at a time on one core, and a cold command that
needs two independent kernels (``playtest skill`` needs the heuristics' batch
kernel and the one with the search and learned players) would pay their sum.
A child process started here (``python -m playtest.compile_ahead GAME
KERNEL PARENT``) compiles a kernel into numba's cache (the versioned folder of
``simulator.core.compile_cache``, under ``$PLAYTEST_CACHE_DIR``, with the
parent's ``PLAYTEST_INLINE``), while this process goes on; before this
process first calls that kernel it waits for the child (``Ahead.ready``) and
then loads the kernel from the cache, so a kernel is never compiled twice at
once. A kernel found in the cache starts no child. A child that fails (its
own error, a signal, an unwritable cache) is said in one line and the kernel
is compiled here instead.

Children end with their parent: ``Ahead`` kills the ones still running when
it is left (Ctrl-C included), and a child whose parent has gone (ended by
``os._exit`` or killed) stops itself within ``POLL`` seconds.

The kernels are named: ``batch`` (every built-in heuristic), ``files`` (the
kernel for user strategy files) and ``search`` (the batch kernel with the
search and learned players).
"""

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

from playtest import compile_notice, terminal

__all__ = ["KERNELS", "Ahead", "compile_kernel", "in_cache", "kernel_for", "kernel_of"]

KERNELS = {"batch": "the batch kernel",
           "files": "the kernel for strategy files",
           "search": "the batch kernel with the search and learned players"}
POLL = 0.1     # seconds between checks of a child (the parent's wait, the child's watch of its parent)
GRACE = 2.0    # seconds a child gets to end after SIGTERM before it is killed


def kernel_of(sset, name):
    """The batch kernel ``name`` (a key of ``KERNELS``) of a game's ``StrategySet``: ``run_chunk`` as a run
    calls it."""
    if name == "files":
        return sset.slot_kernels()[0]
    return sset.kernels(search=name == "search")[0]


def kernel_for(sset, strategies):
    """The name of the batch kernel a lineup of built-in strategies (names) plays on: ``search`` when a seat
    plays the search, ``expert`` or ``learned`` player, else ``batch`` (as ``StrategySet.kernels_for``)."""
    players = {sid for sid in (sset.search_sid, sset.learned_sid) if sid >= 0}
    return "search" if any(sset.get(name)[0] in players for name in strategies) else "batch"


def compile_kernel(game, name):
    """Compile (or load from the cache) the batch kernel ``name`` of ``game`` by calling it for no game; returns
    the kernel."""
    from simulator.core import batch
    from simulator.core.run_options import RunOptions
    from studies import runs

    spec, sset = runs.prepare(RunOptions(game, games=1, strategies=["random"]))
    kernel = kernel_of(sset, name)
    kernel(spec.config.arrays, spec.sids, spec.params, 0, 0, 0, *batch.allocate(spec.game, spec.config.players, 0))
    return kernel


def in_cache(game, name):
    """True when numba's cache holds machine code of the kernel ``name`` of ``game`` for this version of the
    sources, this machine and this numba: its first call would load it, not compile it.

    Reads numba's cache index (``numba.core.caching``, whose key is the
    signature, the machine and hashes of the function's bytecode): an entry
    with this machine and bytecode for any signature counts, since a game's
    batch kernel is compiled for one signature.
    """
    from strategies.games import strategy_set

    dispatcher = kernel_of(strategy_set(game), name)
    cache, codegen = dispatcher._cache, dispatcher.targetctx.codegen()
    wanted = cache._index_key((), codegen)[1:]
    return any(key[1:] == wanted for key in cache._cache_file._load_index())


def describe(game, name):
    """Kernel ``name`` of ``game`` as the notices name it: "Forks: the batch kernel"."""
    from simulator import games

    return f"{games.get(game).title}: {KERNELS[name]}"


def command(game, name):
    """The command line of a child compiling kernel ``name`` of ``game`` for this process (this module run by
    this Python, given this process's id)."""
    return [sys.executable, "-m", "playtest.compile_ahead", game, name, str(os.getpid())]


class Child:
    """A child process compiling one kernel; its standard error goes to a file, read once it has ended."""

    def __init__(self, game, name):
        self.game, self.name = game, name
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(command(game, name), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=self.log)

    @property
    def what(self):
        return describe(self.game, self.name)

    def wait(self):
        """Wait for the child (interruptible); None when it compiled the kernel, else why not (one line)."""
        while self.process.poll() is None:
            time.sleep(POLL)
        self.log.seek(0)
        lines = [line.strip() for line in self.log.read().splitlines() if line.strip()]
        self.log.close()
        if self.process.returncode == 0:
            return None
        if self.process.returncode < 0:
            return f"it was stopped by signal {-self.process.returncode}"
        return lines[-1] if lines else f"it exited with code {self.process.returncode}"

    def stop(self):
        """End the child now (it may be inside LLVM, which no signal handler interrupts: it runs none)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(GRACE)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Ahead:
    """The kernels being compiled ahead for this process; a context manager that stops its children on exit.

    ``start(game, name)`` starts a child unless the kernel is cached or one
    is already compiling it; ``ready(game, name)`` waits for that child and,
    if it failed, compiles the kernel here; ``gate(simulate, sset)`` makes
    every run wait so; ``run(pairs, processes, on_done)`` compiles many
    kernels in at most ``processes`` children at a time.
    """

    def __init__(self):
        self.children = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for child in self.children.values():
            child.stop()
        self.children.clear()

    def start(self, game, name):
        """Start compiling kernel ``name`` of ``game`` in a child process; True if a child was started."""
        if (game, name) in self.children or in_cache(game, name):
            return False
        try:
            self.children[game, name] = Child(game, name)
        except OSError as exc:  # no process to be had: the kernel compiles here when it is needed
            terminal.echo(f"note: could not start a process to compile {describe(game, name)} ({exc}); it "
                          f"compiles here when needed", err=True, indent="  ")
            return False
        return True

    def ready(self, game, name):
        """Return once kernel ``name`` of ``game`` is in the cache or loaded: wait for its child if one was
        started (the wait counts as compiling, ``compile_notice``), else do nothing; a child that failed is
        said in one line on standard error and the kernel is compiled here (on the worker thread)."""
        child = self.children.pop((game, name), None)
        if child is None:
            return
        with compile_notice.waiting(f"{child.what} in a process of its own"):
            failed = child.wait()
        if failed is not None:
            compile_here(child, failed)

    def gate(self, simulate, sset):
        """``simulate`` (``api.simulate``'s keywords, ``strategies`` among them) that first waits, with
        ``ready``, for the kernel its lineup plays on (of ``sset``, the game's ``StrategySet``)."""
        def play(game, *, strategies, **keywords):
            self.ready(game, kernel_for(sset, strategies))
            return simulate(game, strategies=strategies, **keywords)

        return play

    def run(self, pairs, processes, on_done=None):
        """Compile every ``(game, name)`` of ``pairs``, at most ``processes`` children at a time, each kernel
        not cached in a child of its own; ``on_done(game, name)`` after each. Kernels of one game share most
        of their callees (the engine's verbs, the built-in strategies), which the first to finish leaves in
        the cache for the next, so a kernel starts only while no other kernel of its game compiles: side by
        side run the kernels of different games. A child that failed is said and its kernel compiled here,
        after the others. Returns the number of kernels that were not cached."""
        todo, started, failed = list(pairs), 0, []
        while todo or self.children:
            busy = {game for game, _ in self.children}
            free = [pair for pair in todo if pair[0] not in busy]
            while free and len(self.children) < processes:
                game, name = pair = free.pop(0)
                todo.remove(pair)
                if self.start(game, name):
                    started += 1
                    free = [other for other in free if other[0] != game]
                elif on_done:
                    on_done(game, name)
            for key, child in list(self.children.items()):
                if child.process.poll() is not None:
                    del self.children[key]
                    why = child.wait()
                    if why is not None:
                        failed.append((child, why))
                    elif on_done:
                        on_done(*key)
            time.sleep(POLL)
        for child, why in failed:
            compile_here(child, why)
            if on_done:
                on_done(child.game, child.name)
        return started


def compile_here(child, why):
    """After ``child`` failed (``why``, one line): say so in one line on standard error and compile its kernel in
    this process, on the worker thread (``simulator.core.worker``: Ctrl-C stays heard)."""
    from simulator.core import worker

    terminal.echo(f"note: compiling {child.what} in a process of its own failed ({why}); compiling it here",
                  err=True, indent="  ")
    worker.call(compile_kernel, child.game, child.name)


def watch_parent(parent):
    """In a child: end this process as soon as its parent, process ``parent``, has gone (this process's parent
    is another), even if it went before this was called."""
    def watch():
        while os.getppid() == parent:
            time.sleep(POLL)
        os._exit(1)

    threading.Thread(target=watch, name="playtest-parent-watch", daemon=True).start()


def main(argv):
    """The child: ``python -m playtest.compile_ahead GAME KERNEL PARENT``; exit 0 once the kernel is in the
    cache, else one line on standard error and exit 1. Ctrl-C and SIGTERM end it at once, even inside LLVM, and
    so does the end of process ``PARENT``."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    import playtest

    try:
        game, name, parent = argv
        watch_parent(int(parent))
        if name not in KERNELS:
            raise ValueError(f"unknown kernel {name!r} (choose from {', '.join(KERNELS)})")
        if playtest.ENVIRONMENT_PROBLEM:
            raise ValueError(playtest.ENVIRONMENT_PROBLEM)
        compile_kernel(game, name)
    except Exception as exc:  # any failure is one line for the parent, which then compiles the kernel itself
        text = " ".join(str(exc).split()) or type(exc).__name__
        print(f"{type(exc).__name__}: {text}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
