"""Scenario play shows a strategy the observation batch play shows it.

A probe decision function reports every decision it is asked (the kind, the
options and the whole observation) and chooses at random. The numba engine
plays games with the probe in every seat and traces them; the reference engine
replays each trace, and at every decision asks the probe again through
``observe.numba_player`` (the path scenario files use), so that the probe
reports the observation ``observe.py`` builds from the reference ``Table``.
The two reports must agree value by value.

The probe cannot hand the kernel's ``obs`` out as an array: decision functions
are compiled inside the kernel without numba's reference counting, so they can
neither allocate nor box an array, and the ``params`` row they get is a copy
made for each call. It reports one scalar at a time through ``nb.objmode``
into ``SEEN``.

Only ``obs[OBS_SCRATCH:]`` is left out: the layout gives it to strategies as
working space that the engine never writes or reads, so it holds whatever the
last strategy left there, not part of the position.
"""

import numba as nb
import numpy as np
import pytest

from simulator.core.kernels import bind_engine
from simulator.core.rng import randint
from simulator.fauch_fertig import GAME, engine, layout
from simulator.fauch_fertig.layout import ACTION, KEEP, OBS_COMMUNITY_DONE, OBS_SCRATCH, OBS_SEAT, PAY
from simulator.fauch_fertig.observe import numba_player
from simulator.fauch_fertig.reference import Table, TraceSource
from strategies.registry import make_dispatch

# one worker runs the whole module: its kernels are compiled uncached, once in every process that needs them
pytestmark = pytest.mark.xdist_group("tests/fauch_fertig/test_observe.py")

SEEN = []   # one (kind, options, observation) per decision the probe was asked, in order

FIELDS = sorted((value, name) for name, value in vars(layout).items()
                if name.startswith("OBS_") and not name.endswith("_SIZE"))


def field(i):
    """The layout's name for index ``i`` of ``obs``, e.g. ``OBS_OWNER[17]``."""
    start, name = max((s, n) for s, n in FIELDS if s <= i)
    return f"{name}[{i - start}]"


@nb.njit
def _report(part, values, n):
    """Append ``values[:n]`` to part ``part`` of the last decision in ``SEEN``, one scalar at a time."""
    for i in range(n):
        v = values[i]
        with nb.objmode():
            SEEN[-1][part].append(v)


@nb.njit
def probe(kind, options, n, obs, params, rng):
    """Report the decision to ``SEEN``, then choose uniformly at random."""
    with nb.objmode():
        SEEN.append((kind, [], []))
    _report(1, options, n)
    _report(2, obs, OBS_SCRATCH)
    return randint(rng, n)


class Observed(TraceSource):
    """Replays a kernel trace, showing the probe at each decision what ``observe.py`` builds.

    The probe's choice is ignored (its stream is the one of game 0, see
    ``numba_player``): the replay follows the trace.
    """

    def __init__(self, trace, seats):
        super().__init__(trace)
        self.seats = seats

    def action(self, table, player, legal):
        self.seats[player.seat](table, player, "action", legal, None)
        return super().action(table, player, legal)

    def keep(self, table, player, drawn):
        self.seats[player.seat](table, player, "keep", drawn, None)
        return super().keep(table, player, drawn)

    def pay(self, table, player, card):
        self.seats[player.seat](table, player, "pay", [False, True], None)
        return super().pay(table, player, card)


@pytest.fixture(scope="module")
def probe_trace():
    return bind_engine(GAME, make_dispatch([probe]), cache=False, search=False).trace_game


def kernel_decisions(trace_game, config, seed, game):
    """Play one game with the probe in every seat; return its trace and what the probe was shown."""
    players = config.players
    trace = np.zeros(config.trace_len, np.int64)
    SEEN.clear()
    n = trace_game(config.arrays, np.zeros(players, np.int64), np.zeros((players, 1)), seed, game,
                   np.zeros(players, np.int32), np.zeros(players, np.int64),
                   np.zeros((players, len(engine.SEAT_COLUMNS)), np.int32), np.zeros(len(engine.GAME_COLUMNS), np.int32), trace)
    assert n > 0, f"the probe in seat {-n - 1} chose illegally"
    return trace[:n], list(SEEN)


def reference_decisions(config, trace, seed):
    """Replay ``trace`` with the reference engine; return what the probe was shown there."""
    SEEN.clear()
    source = Observed(trace, [numba_player(probe, (), seed, s) for s in range(config.players)])
    Table(config, source).play()
    source.check_consumed()
    return list(SEEN)


GAMES = 12
SEED = 17


@pytest.mark.parametrize("players, supply", [(2, None), (3, None), (4, None), (3, 40)])
def test_observe_builds_the_observation_the_kernel_shows(players, supply, probe_trace):
    """Every decision of 12 random games, with the unlimited coin supply or a box of ``supply`` coins."""
    config = GAME.configure(players, override=supply and {"game": {"coin_supply": supply}})
    kinds, completed = set(), False
    for game in range(GAMES):
        trace, kernel = kernel_decisions(probe_trace, config, SEED, game)
        reference = reference_decisions(config, trace, SEED)
        assert len(reference) == len(kernel)
        for d, ((kind, options, obs), (ref_kind, ref_options, ref_obs)) in enumerate(zip(kernel, reference)):
            where = f"game {game}, decision {d} (kind {kind}, seat {obs[OBS_SEAT]})"
            assert (ref_kind, ref_options) == (kind, options), where
            wrong = [f"{field(i)}: kernel {a}, observe {b}" for i, (a, b) in enumerate(zip(obs, ref_obs)) if a != b]
            assert not wrong, f"{where}: " + "; ".join(wrong)
            kinds.add(kind)
            completed |= any(obs[OBS_COMMUNITY_DONE:OBS_COMMUNITY_DONE + players])
    assert kinds == {ACTION, KEEP, PAY}
    assert completed, "no game completed a community card: the comparison never saw one done"
