"""The search player against another search at equal budget, paired on the same deals (issue 30).

Each *arm* is one run of ``playtest simulate GAME --rotate-seats``: ``mcts``
(with a parameter vector) in one seat, the game's strongest heuristic
(``STRONGEST`` in ``strategies/GAME``) in the others, the same seed and so
the same deals for both arms. The baseline arm runs the code of a git commit
(``SEARCH_BASELINE`` by default: the search before move keys, whose nodes
were action ids), exported the way ``make bench`` exports its baseline
(``studies.bench.baseline.export_commit``: same interpreter and packages,
its own numba cache; one export for all the games of a command);
``--baseline here`` runs this tree with another
vector instead (to try an exploration constant or a rollout policy). The
figure is the mean over deals of ``mcts``'s win share in a deal (its mean
over the rotations), new minus baseline, with a 95% interval that takes the
deal as the unit; each arm's own win share and wall time are printed beside
it (the wall time includes compiling).

    playtest search-gain fool forks -n 200 --threads 1
    playtest search-gain forks --param 256,1.0 --baseline here --baseline-param 256,0.7

``playtest.api.search_gain`` validates and calls ``measure`` once per game
(the command ``playtest search-gain`` is a thin layer over it, in
``playtest.cli_skill``); this module imports neither.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

SEARCH_BASELINE = "1924533"   # the search whose tree nodes were action ids, visit ties to the lowest id


def lineup(game, budget=None):
    """The seats of an arm: ``mcts`` (``mcts@budget`` with a budget) and three of the strongest heuristic."""
    from simulator import games
    from strategies.games import strategy_set

    players = games.get(game).default_players
    player = "mcts" if budget is None else f"mcts@{budget}"
    return [player] + [strategy_set(game).strongest] * (players - 1)


def play_arm(game, out, *, deals, seed, threads, strategies, param=None, pythonpath=None):
    """Run the arm's ``playtest simulate`` into ``out`` in a fresh process (the code under ``pythonpath``, with its
    own numba cache, when given); return its wall time in seconds. Raises ``RuntimeError`` with its error."""
    env = dict(os.environ)
    if pythonpath is not None:
        env.update(PYTHONPATH=str(pythonpath), NUMBA_CACHE_DIR=str(Path(pythonpath) / ".numba"))
    command = [sys.executable, "-m", "playtest", "simulate", game, "--games", str(deals), "--seed", str(seed),
               "--threads", str(threads), "--rotate-seats", "--out", str(out)]
    for name in strategies:
        command += ["-s", name]
    if param is not None:
        command += ["--param", f"{strategies[0]}={param}"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=pythonpath, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[3:])} failed: {done.stderr.strip() or done.stdout.strip()}")
    return time.perf_counter() - start


def deal_wins(out, player):
    """``player``'s win share per deal of the run in ``out`` (its mean over the rotations): columns game, win."""
    from simulator.core.output import read_seats

    seats = read_seats(out)
    return (seats.filter(pl.col("strategy").cast(pl.String) == player).group_by("game")
            .agg(pl.col("win").mean()).sort("game"))


def mean_and_half(values, confidence=0.95):
    """Mean of ``values`` and the half-width of its normal-approximation interval (``analyses.intervals``)."""
    from analyses.intervals import mean_interval

    values = np.asarray(values, dtype=float)
    mean = float(values.mean())
    low, _ = mean_interval(mean, values.std(ddof=1), values.size, confidence)
    return mean, mean - float(low)


def paired_gain(new, baseline):
    """``(deals, mean gain, half-width)`` of the new arm's per-deal win share minus the baseline's, over the
    deals both played (frames of ``deal_wins``)."""
    both = new.join(baseline, on="game", suffix="_baseline")
    if both.height < 2:
        raise ValueError("the two arms share fewer than 2 deals: no interval")
    mean, half = mean_and_half(both["win"] - both["win_baseline"])
    return both.height, mean, half


def measure(game, *, deals, seed, threads, budget=None, param=None, baseline_path=None, baseline_param=None,
            echo=None):
    """Play both arms of ``game`` on the same deals and return its row: ``game``, ``deals`` (paired), ``gain``
    (new minus baseline, win share), ``low``, ``high`` (95%), and per arm its ``*_share`` and ``*_seconds``.

    The baseline arm runs the code under ``baseline_path`` (an exported
    commit), or this tree when None (then ``baseline_param`` should differ
    from ``param``); ``echo`` (if given) is called with one line per arm and
    one for the gain.
    """
    echo = echo or (lambda line: None)
    strategies = lineup(game, budget)
    row = {}  # each arm's share and seconds
    with tempfile.TemporaryDirectory(prefix="playtest-search-gain-") as runs:
        arms = {}
        for arm, path, vector in (("baseline", baseline_path, baseline_param), ("new", None, param)):
            out = Path(runs) / arm
            seconds = play_arm(game, out, deals=deals, seed=seed, threads=threads, strategies=strategies,
                               param=vector, pythonpath=path)
            arms[arm] = deal_wins(out, strategies[0])
            mean, half = mean_and_half(arms[arm]["win"])
            row.update({f"{arm}_share": mean, f"{arm}_seconds": seconds})
            echo(f"{game} {arm} ({'this tree' if path is None else 'the exported commit'}, {strategies[0]}"
                 f"{'' if vector is None else ' ' + vector}): mcts wins {100 * mean:.2f}% +- {100 * half:.2f} "
                 f"of {arms[arm].height} deals against {len(strategies) - 1} x {strategies[1]}, {seconds:.0f} s")
        n, mean, half = paired_gain(arms["new"], arms["baseline"])
        echo(f"{game}: paired gain (new minus baseline) {100 * mean:+.2f} points +- {100 * half:.2f} "
             f"over {n} deals (95%, deal as the unit)")
    return {"game": game, "deals": n, "gain": mean, "low": mean - half, "high": mean + half, **row}
