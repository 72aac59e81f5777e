"""No hidden information leaks into ``expert`` or ``learned``, and the check catches a player that peeks.

Two states S and S' share the deciding seat's observation (S' is S with
everything that seat cannot see redealt by ``determinize``); a player that
sees only what its seat sees takes the same action in both. The control is
the same search and learned player compiled with ``determinize`` replaced by
a no-op, so that they play on the real hidden cards: the same check must
find a pair S, S' on which it decides differently. Fair Enough (hidden hands
and deck), at a small budget; ``expert`` in both designs (A: the learned
leaf; B: the model's prior over random rollouts).
"""

import numba as nb
import numpy as np
import pytest

from simulator.core.kernels import bind_choose, bind_search, bonus_result, engine_verbs
from simulator.core.rng import new_stream
from simulator.core.search import LEARNED_LEAF, RANDOM_ROLLOUT
from simulator.core.state import to_move
from tests.contract.test_engine_contract import Engine

# one worker runs the whole module: its kernels are compiled uncached, once in every process that needs them
pytestmark = pytest.mark.xdist_group("tests/skill/test_leaks.py")

GAME = "fair-enough"
WORLDS = 4   # states S' per state S


@nb.njit(cache=True)
def peek(state, arrays, seat, rng):
    """A ``determinize`` that leaves the real hidden cards in place: the peeking control."""
    return


@pytest.fixture(scope="module")
def engine():
    return Engine(GAME)


# the players checked: (strategy name, design of expert or None)
PLAYERS = {"expert A": ("expert@24", LEARNED_LEAF), "expert B": ("expert@24", RANDOM_ROLLOUT),
           "learned": ("learned", None)}


def seated(engine, player):
    """``(sids, params)`` of a table with ``player`` (a key of ``PLAYERS``) in every seat."""
    name, design = PLAYERS[player]
    overrides = None
    if design is not None:
        overrides = {name: list(engine.strategies.get(name)[1].params[:-1]) + [float(design)]}
    sids, params, _ = engine.strategies.seats([name], engine.players, overrides=overrides)
    return sids, params


def player(engine, new_search, decide, name):
    """``decide(state)``: the action ``name`` (played by ``decide`` with the buffers of ``new_search``) takes."""
    sids, params = seated(engine, name)

    def choose(state):
        buf = new_search(engine.cfg.arrays, params, sids)
        return int(decide(state, engine.cfg.arrays, sids, params, buf, *engine.outputs()))
    return choose


def kernels_players(engine, name):
    """The player ``name`` as the kernels play it."""
    sset = engine.strategies
    new_search, decide = sset.learned_player() if name == "learned" else sset.search_player()
    return player(engine, new_search, decide, name)


@pytest.fixture(scope="module")
def peeking(engine):
    """``(new_search, search, learned, candidates)`` compiled with ``peek`` for ``determinize`` (once for every player)."""
    sset, game = engine.strategies, engine.game
    verbs = dict(engine_verbs(game), result=bonus_result(game, cache=False),
                 choose=bind_choose(game, sset.dispatch, cache=False), determinize=peek)
    return bind_search(verbs, cache=False, search_sid=sset.search_sid, learned_sid=sset.learned_sid,
                       lookahead=sset.lookahead, nrt=not game.allocation_free)


def peeking_players(engine, peeking, name):
    """The player ``name`` compiled with ``peek`` for ``determinize``."""
    new_search, search, learned, _ = peeking
    return player(engine, new_search, learned if name == "learned" else search, name)


def disagreements(engine, choose):
    """The pairs (state index, world) where ``choose`` takes another action in S' than in S, with S and S'
    sharing the deciding seat's observation (asserted)."""
    found = []
    for i, (state, _) in enumerate(engine.mid_game()):
        seat = int(to_move(state))
        action = choose(engine.copy(state))
        for world in range(WORLDS):
            other = engine.copy(state)
            engine.verbs.determinize(other, engine.cfg.arrays, seat, new_stream(500 + world))
            np.testing.assert_array_equal(engine.observation(other, seat), engine.observation(state, seat))
            if choose(other) != action:
                found.append((i, world))
    return found


@pytest.mark.parametrize("name", PLAYERS)
def test_the_players_decide_alike_on_states_their_seat_cannot_tell_apart(engine, name):
    assert disagreements(engine, kernels_players(engine, name)) == []


@pytest.mark.parametrize("name", PLAYERS)
def test_the_check_catches_the_same_player_peeking_at_the_hidden_cards(engine, peeking, name):
    assert disagreements(engine, peeking_players(engine, peeking, name)) != []
