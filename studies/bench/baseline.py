"""The kernels of a reference commit, measured beside today's in the same `make bench` run.

The reference kernels are not kept in the tree (they would be dead code); they
are read from the git history instead: ``BASELINE`` is issue 45's reference,
the kernels before the engines' named state and the strategy-file slots of
today's house, which issue 45 asks every kernel to stay within 0.97x of.
``baseline_process`` exports that commit into a temporary folder (``git
archive``) and starts a Python process that imports the exported code (same
interpreter and packages, its own numba cache), then measures its batch
kernel on request, so that old and new measurements can alternate in one run
(the machine is shared: only ratios taken together mean anything).

Without a git checkout (e.g. an installed package) there is no baseline, and
`make bench` says so instead of printing old figures from elsewhere.
"""

import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numba

from simulator import games as game_registry
from simulator.core.run_options import RunOptions
from studies import runs
from studies.bench.kernel_rates import kernel_rate

BASELINE = "8915dad"  # issue 45's reference: main before the named state and the strategy-file slots

# Run in the exported tree (the baseline's own layout, playtest.bench included): read "game threads games" lines,
# answer each with the old kernel's games/s.
_SERVER = """
import json, sys
from playtest import api
from playtest.bench import kernel_rate
from simulator import games as game_registry
kernels = {}
for line in sys.stdin:
    name, threads, games = line.split()
    if name not in kernels:
        g = game_registry.get(name)
        spec, sset = api.prepare(name, players=g.default_players, seed=1)
        kernels[name] = spec, sset.kernels()[0]
    spec, run_chunk = kernels[name]
    print(json.dumps(kernel_rate(spec, run_chunk, int(games), int(threads))), flush=True)
"""


class Baseline:
    """A running process of the baseline commit's code; ``rate`` asks it for one kernel measurement."""

    def __init__(self, folder):
        self._folder = folder
        env = dict(os.environ, PYTHONPATH=folder.name, NUMBA_CACHE_DIR=str(Path(folder.name) / ".numba"))
        self._process = subprocess.Popen([sys.executable, "-c", _SERVER], cwd=folder.name, env=env, text=True,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def rate(self, game, threads, games):
        """Games/s of the baseline's batch kernel for ``game`` (``random`` in every seat, best of 3)."""
        self._process.stdin.write(f"{game} {threads} {games}\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the baseline {BASELINE} failed: {self._process.stderr.read().strip()}")
        return json.loads(line)

    def close(self):
        self._process.stdin.close()
        self._process.wait()
        self._folder.cleanup()


def export_commit(commit):
    """``(folder, None)``: commit ``commit`` of this checkout exported (``git archive``) into a temporary folder
    (a ``TemporaryDirectory``: its code runs with ``PYTHONPATH`` set to ``folder.name``), or ``(None, reason)``
    when there is no git history to export it from."""
    root = Path(__file__).resolve().parents[2]
    exported = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", commit], capture_output=True)
    if exported.returncode != 0:
        return None, f"`git archive {commit}` failed ({exported.stderr.decode().strip()})"
    folder = tempfile.TemporaryDirectory(prefix=f"playtest-{commit}-")
    with tarfile.open(fileobj=io.BytesIO(exported.stdout)) as tar:
        tar.extractall(folder.name, filter="data")
    return folder, None


def baseline_process():
    """A ``Baseline`` of commit ``BASELINE``, or ``None`` with the reason when there is no git history."""
    folder, reason = export_commit(BASELINE)
    if folder is None:
        return None, f"no baseline: {reason}"
    return Baseline(folder), None


def state_api_rows(names=None, games=None, echo=print):
    """``[(game, threads, baseline games/s, today's games/s)]`` on 1 thread and on all, alternating old and new,
    for the games ``names`` (None: every game).

    Each figure is the best of two alternations of best-of-3 measurements by ``kernel_rate`` of the game's
    default table with seed 1. Returns ``[]`` (after saying why) when the baseline cannot be exported.
    """
    baseline, reason = baseline_process()
    if baseline is None:
        echo(reason)
        return []
    rows = []
    try:
        for name in game_registry.names() if names is None else names:
            g = game_registry.get(name)
            spec, sset = runs.prepare(RunOptions(name, seed=1, games=1))
            run_chunk, _ = sset.kernels()
            n = games or g.bench_games
            for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
                old = new = 0.0
                for _ in range(2):
                    old = max(old, baseline.rate(name, threads, n))
                    new = max(new, kernel_rate(spec, run_chunk, n, threads))
                rows.append((name, threads, old, new))
                echo(f"{name}, {threads} thread(s): {BASELINE} {old:,.0f} games/s, now {new:,.0f} "
                     f"({new / old:.2f}x)")
    finally:
        baseline.close()
    return rows
