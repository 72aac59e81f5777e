"""Fixtures for command-line tests that run `playtest` as a real process."""

import signal
import subprocess
import sys

import pytest


def default_sigint():
    """In the child: Ctrl-C handled as from a terminal, even when the tests run with SIGINT ignored (as in a
    background job): Python installs its Ctrl-C handler only when SIGINT is not ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def playtest_process():
    """Start ``python -m playtest ARGS...`` with its output piped (text); returns the ``Popen``."""
    started = []

    def start(*args):
        run = subprocess.Popen([sys.executable, "-m", "playtest", *map(str, args)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
        started.append(run)
        return run

    yield start
    for run in started:  # a failed test must not leave a run playing
        if run.poll() is None:
            run.kill()
            run.communicate()
