"""Every wait for numba's compiler speaks: what is compiled, while it is, and for how long in all.

``install()`` (done once by the command line, for every command) listens to
numba's compile events. When a kernel starts compiling (not when it is
loaded from the cache), standard error shows it: a live line naming the
kernel and the function being compiled in a terminal, one line per kernel
in a log (output captured in memory gets none). ``seconds()`` is the time
spent compiling so far, which a command's last line reports apart from its
play time.

Kernels are named by the label ``simulator.core.kernels.bind_engine`` gives
them (``playtest_label``, e.g. "Forks: batch kernel"); a function compiled
alone is named by its own name. A wait for a kernel compiled by a child
process (``waiting``, ``playtest.compile_ahead``) is said and counted as a
compile here.
"""

import contextlib
import functools
import sys
import threading
import time

from numba.core import event

from playtest import terminal

__all__ = ["install", "seconds", "waiting", "closing_line"]

_state = {"seconds": 0.0, "installed": False}
_local = threading.local()


def name_of(dispatcher):
    """The label of a compiled kernel, else its function's name without a cache tag."""
    label = getattr(dispatcher, "playtest_label", None)
    return label or getattr(dispatcher, "py_func", dispatcher).__name__


def announce(console, what):
    """Say that ``what`` compiles (see the module docstring); returns the live line to stop when it is done, or
    None."""
    if not has_descriptor(sys.stderr):
        return None
    text = f"compiling {what} (first run of this version of playtest; a minute or two, then cached)"
    if console.is_terminal and not live():
        status = console.status(text)
        status.start()
        return status
    if not console.is_terminal:
        console.print(text)
    return None


class Notice(event.Listener):
    """Says on standard error what numba compiles (see the module docstring)."""

    def __init__(self):
        self.console = console()
        self.status = None

    def on_start(self, ev):
        depth = getattr(_local, "depth", 0)
        _local.depth = depth + 1
        what = name_of(ev.data["dispatcher"])
        if depth == 0:
            _local.started, _local.top = time.perf_counter(), what
            self.status = announce(self.console, what)
        elif self.status is not None:
            self.status.update(f"compiling {_local.top}: {what}")

    def on_end(self, ev):
        _local.depth -= 1
        if _local.depth == 0:
            _state["seconds"] += time.perf_counter() - _local.started
            if self.status is not None:
                self.status.stop()
                self.status = None


def has_descriptor(stream):
    """True for a terminal, a pipe or a file; False for output captured in memory (a test's ``CliRunner``),
    which gets no notices: whether a test compiles depends on what ran before it."""
    try:
        stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False
    return True


def live():
    """True while a live display (a command's progress bar, which then says it compiles) is on screen."""
    import rich

    return any(getattr(c, "_live_stack", None) for c in (rich.get_console(), console()))


@functools.cache
def console():
    """The console on standard error the notices print to (a progress bar shown on it silences the live line)."""
    return terminal.console(err=True)


def install():
    """Start listening to numba's compiles in this process (once)."""
    if not _state["installed"]:
        event.register("numba:compile", Notice())
        _state["installed"] = True


@contextlib.contextmanager
def waiting(what):
    """While this process waits for ``what`` to be compiled by another (``playtest.compile_ahead``): say so as
    a compile here is said (once ``install``ed), and count the wait in ``seconds()``."""
    status = announce(console(), what) if _state["installed"] else None
    started = time.perf_counter()
    try:
        yield
    finally:
        _state["seconds"] += time.perf_counter() - started
        if status is not None:
            status.stop()


def seconds():
    """Seconds spent compiling in this process so far (nested compiles counted once)."""
    return _state["seconds"]


def closing_line(total, compiled):
    """The line a command that compiled ends with on standard error: its ``total`` wall seconds, split into
    ``compiled`` seconds of compiling and the rest; None when it compiled nothing or its standard error is
    captured in memory (as the notices)."""
    if compiled <= 0 or not has_descriptor(sys.stderr):
        return None
    return f"done in {total:.1f} s: compiling {compiled:.1f} s, the rest {max(total - compiled, 0.0):.1f} s"
