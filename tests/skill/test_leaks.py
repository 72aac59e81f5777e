"""No hidden information leaks into ``expert`` or ``learned``, and the check catches a player that peeks.

Two states S and S' share the deciding seat's observation (S' is S with
everything that seat cannot see redealt by ``determinize``); a player that
sees only what its seat sees takes the same action in both. The control is
the same search and learned player compiled with ``determinize`` replaced by
a no-op, so that they play on the real hidden cards: the same check must
find a pair S, S' on which it decides differently. Fair Enough (hidden hands
and deck), at a small budget.
"""

import numba as nb
import numpy as np
import pytest

from simulator.core.kernels import bind_choose, bind_search, bonus_result, engine_verbs
from simulator.core.rng import new_stream
from simulator.core.state import to_move
from tests.contract.test_engine_contract import Engine

GAME = "fair-enough"
WORLDS = 4   # states S' per state S


@nb.njit(cache=True)
def peek(state, arrays, seat, rng):
    """A ``determinize`` that leaves the real hidden cards in place: the peeking control."""
    return


@pytest.fixture(scope="module")
def engine():
    return Engine(GAME)


def seated(engine, name):
    """``(sids, params)`` of a table with ``name`` in every seat."""
    sids, params, _ = engine.strategies.seats([name], engine.players)
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


def peeking_players(engine, name):
    """The player ``name`` compiled with ``peek`` for ``determinize``."""
    sset, game = engine.strategies, engine.game
    verbs = dict(engine_verbs(game), result=bonus_result(game, cache=False),
                 choose=bind_choose(game, sset.dispatch, cache=False), determinize=peek)
    new_search, search, learned = bind_search(verbs, cache=False, search_sid=sset.search_sid,
                                              learned_sid=sset.learned_sid, lookahead=sset.lookahead,
                                              nrt=not game.allocation_free)
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


@pytest.mark.parametrize("name", ["expert@24", "learned"])
def test_the_players_decide_alike_on_states_their_seat_cannot_tell_apart(engine, name):
    assert disagreements(engine, kernels_players(engine, name)) == []


@pytest.mark.parametrize("name", ["expert@24", "learned"])
def test_the_check_catches_the_same_player_peeking_at_the_hidden_cards(engine, name):
    assert disagreements(engine, peeking_players(engine, name)) != []
