"""The suite plays on kernels whose engine verbs are called (``PLAYTEST_INLINE=never``, tests/conftest.py); the
kernels users run inline them (``simulator.core.inlining``). This test holds the two to the same fixed-seed
output: a Forks run of four strategies, seats rotated, is played by a ``playtest simulate`` process on the inlined kernels and
in this process on the called ones, and every row must be the same."""

import os
import subprocess
import sys

from playtest import api
from playtest.environment import INLINE

LINEUP = ["greedy", "pusher", "hedger", "random"]


def test_inlined_and_called_verbs_play_the_same_games(tmp_path):
    assert os.environ[INLINE] == "never"  # this process plays on the called verbs
    inlined, called = tmp_path / "inlined", tmp_path / "called"
    command = [sys.executable, "-m", "playtest", "simulate", "forks", "--players", "4", "--games", "1000",
               "--seed", "11", "--rotate-seats", "--out", str(inlined)]
    for name in LINEUP:
        command += ["-s", name]
    subprocess.run(command, env={**os.environ, INLINE: "always"}, check=True, capture_output=True, timeout=600)
    api.simulate("forks", players=4, games=1000, seed=11, strategies=LINEUP, rotate_seats=True, out=called)
    inlined_rows, called_rows = api.load_run(inlined).seats(), api.load_run(called).seats()
    assert inlined_rows.height == 4 * 4 * 1000  # every deal in every rotation, a row per seat
    assert inlined_rows.equals(called_rows)
