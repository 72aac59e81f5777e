"""Fauch & Fertig as a steppable state: copies, determinize, the action ids and the ``finished`` column."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from playtest import api
from simulator.core.batch import traced_game
from simulator.core.kernels import bind
from simulator.core.rng import seed_stream
from simulator.core.state import H_KIND, H_TO_MOVE, ST_HEAD, ST_RNGS, finished, is_terminal
from simulator.fauch_fertig import GAME, engine
from simulator.fauch_fertig.layout import (ACTION, A_DECLINE, A_KEEP, KEEP, MAX_ACTIONS, N_CARDS, OBS_CARD, OBS_OWNER,
                                           OBS_SCRATCH, OBS_SIZE, PAY)
from simulator.fauch_fertig.turn import (HD_CARD, HD_DISCARD, HD_DRAWN, HD_END, HD_POS, ST_DISCARD, ST_DISCARDER,
                                         ST_DRAWN, ST_MARKET_CARDS, ST_PICKS, ST_PILE, ST_VIEW)
from strategies.fauch_fertig import dispatch

MIX = {2: ["chaser", "random"], 3: ["farmer", "specialist", "random"], 4: ["random", "chaser", "farmer", "specialist"]}


@pytest.fixture(scope="module")
def choose():
    return bind(engine.choose, cache=False, parallel=False, decide=dispatch)


class Game:
    """One game driven verb by verb from Python, with its trace."""

    def __init__(self, config, strategies, choose, names, seed, game):
        self.config, self.arrays, self.choose = config, config.arrays, choose
        self.sids, self.params, _ = strategies.seats(names, config.players)
        self.state = engine.new_state(self.arrays, self.params)
        self.trace = np.zeros(config.trace_len, np.int64)
        engine.reset(self.state, self.arrays, seed, game, self.trace, True)

    def step(self):
        action = self.choose(self.state, self.arrays, self.sids, self.params)
        assert 0 <= action < MAX_ACTIONS, "a built-in strategy chose illegally"
        assert action in self.legal()
        engine.apply(self.state, self.arrays, action, self.trace, True)

    def play(self, steps=None):
        """Play ``steps`` decisions (all of them with None), fewer if the game ends first."""
        done = 0
        while not is_terminal(self.state) and (steps is None or done < steps):
            self.step()
            done += 1

    def legal(self):
        actions = np.empty(MAX_ACTIONS, np.int64)
        return list(actions[:engine.legal_actions(self.state, self.arrays, actions)])

    def outputs(self):
        p = self.config.players
        out = (np.empty(p, np.int32), np.empty(p, np.int64), np.zeros((p, len(GAME.seat_columns)), np.int32),
               np.zeros(len(GAME.game_columns), np.int32))
        engine.result(self.state, self.arrays, *out)
        return out

    def obs(self, seat):
        obs = np.zeros(OBS_SIZE, np.int64)
        engine.observe(self.state, self.arrays, seat, obs)
        return obs[:OBS_SCRATCH]


def where(state):
    """Every card's place: the pile, the discard pile, a pending blind draw, the market or a display."""
    head = state[ST_HEAD]
    return {"pile": list(state[ST_PILE][head[HD_POS]:head[HD_END]]),
            "discard": list(state[ST_DISCARD][:head[HD_DISCARD]]),
            "drawn": list(state[ST_DRAWN][:head[HD_DRAWN]]),
            "market": [c for c in state[ST_MARKET_CARDS] if c >= 0],
            "displays": [c for c in range(N_CARDS) if state[ST_VIEW][OBS_OWNER + c] >= 0]}


def known_to(state, seat):
    """What ``seat`` knows beyond its observation: the head, the streams of the seats, the discard pile's
    owners and its own discards, the drawn cards when they are its own, every game array but the piles."""
    head = state[ST_HEAD]
    d = head[HD_DISCARD]
    drawing = head[H_TO_MOVE] == seat and head[H_KIND] == KEEP
    skip = {0, ST_RNGS, ST_PILE, ST_DISCARD, ST_DISCARDER, ST_DRAWN, ST_VIEW}
    return {"head": list(head), "seat streams": state[ST_RNGS][1:].tolist(),
            "discarder": list(state[ST_DISCARDER][:d]),
            "own discards": [c for c, s in zip(state[ST_DISCARD][:d], state[ST_DISCARDER][:d]) if s == seat],
            "drawn": list(state[ST_DRAWN][:head[HD_DRAWN]]) if drawing else None,
            "view": list(state[ST_VIEW][:OBS_SCRATCH]),
            "tables": [state[i].tolist() for i in range(2, ST_PICKS) if i not in skip]}


def hidden_from(state, seat):
    """The cards ``seat`` cannot place: pile, the others' discards, another seat's drawn cards."""
    head = state[ST_HEAD]
    w = where(state)
    others = [c for c, s in zip(w["discard"], state[ST_DISCARDER][:head[HD_DISCARD]]) if s != seat]
    drawn = w["drawn"] if head[H_TO_MOVE] != seat else []
    return sorted(w["pile"] + others + drawn)


@settings(max_examples=30, derandomize=True, deadline=None)
@given(players=st.integers(2, 4), game=st.integers(0, 10_000), steps=st.integers(0, 160),
       seat=st.integers(0, 3), key=st.integers(0, 2 ** 32))
def test_determinize_keeps_what_the_seat_has_seen(players, game, steps, seat, key, configs, strategies, choose):
    seat %= players
    g = Game(configs[players], strategies, choose, MIX[players], 3, game)
    g.play(steps)
    state = g.state
    before, hidden, obs, legal = known_to(state, seat), hidden_from(state, seat), g.obs(seat), g.legal()
    rng = np.empty(4, np.uint64)
    seed_stream(rng, key, 0, 0)
    engine.determinize(state, g.arrays, seat, rng)
    assert known_to(state, seat) == before
    assert hidden_from(state, seat) == hidden           # the same cards, only their places may change
    np.testing.assert_array_equal(g.obs(seat), obs)
    cards = sorted(c for place in where(state).values() for c in place)
    assert cards == list(range(N_CARDS))                 # every card exactly once
    if state[ST_HEAD][H_TO_MOVE] == seat:
        assert g.legal() == legal                        # the seat's action ids mean the same moves
    g.play()                                             # and the game plays on to its end
    assert is_terminal(state)


def test_a_copy_at_every_decision_plays_the_game_the_kernel_traces(configs, strategies, choose, kernels):
    """Playing each decision from a fresh copy of the state leaves the trace of the batch kernel's game."""
    _, trace_game = kernels
    config = configs[3]
    g = Game(config, strategies, choose, MIX[3], 8, 2)
    n, kernel_trace, *_ = traced_game(GAME, config, trace_game, g.sids, g.params, 8, 2)
    spare = engine.new_state(config.arrays, g.params)
    decisions = 0
    while not is_terminal(g.state):
        engine.copy_state(g.state, spare)
        g.state, spare = spare, g.state                    # play on from the copy
        g.step()
        decisions += 1
    assert decisions > 50
    np.testing.assert_array_equal(g.trace[:n], kernel_trace)
    assert not g.trace[n:].any()


def _late_position(strategies, choose, seat):
    """A 2-player position with few hidden cards, some on the discard pile from the other seat: 100 eggs each,
    so the game runs on until nearly every card is in a display."""
    config = GAME.configure(2, override={"game": {"eggs": 100, "max_rounds": 400}})
    g = Game(config, strategies, choose, ["random"], 1, 0)
    while True:
        g.step()
        head = g.state[ST_HEAD]
        others = sum(s != seat for s in g.state[ST_DISCARDER][:head[HD_DISCARD]])
        if head[H_KIND] == ACTION and 4 <= len(hidden_from(g.state, seat)) <= 5 and others >= 2:
            return g


def test_determinize_draws_each_hidden_arrangement_equally_often(strategies, choose):
    """Chi-square over every arrangement of the hidden cards over their places (pile order, the other seat's
    discards), 200 draws per arrangement expected; the seat's own discards never move."""
    seat = 0
    g = _late_position(strategies, choose, seat)
    state, head = g.state, g.state[ST_HEAD]
    places = [(ST_DISCARD, i) for i in range(head[HD_DISCARD]) if state[ST_DISCARDER][i] != seat]
    places += [(ST_PILE, i) for i in range(head[HD_POS], head[HD_END])]
    cards = sorted(state[a][i] for a, i in places)
    arrangements = {p: k for k, p in enumerate(itertools.permutations(cards))}
    assert len(arrangements) in (24, 120)
    saved = engine.new_state(g.arrays, g.params)
    engine.copy_state(state, saved)
    rng = np.empty(4, np.uint64)
    seed_stream(rng, 2024, 0, 0)
    draws = 200 * len(arrangements)
    counts = np.zeros(len(arrangements))
    chance = set()
    for _ in range(draws):
        engine.copy_state(saved, state)
        engine.determinize(state, g.arrays, seat, rng)
        counts[arrangements[tuple(state[a][i] for a, i in places)]] += 1
        chance.add(tuple(state[ST_RNGS][0]))
    assert chisquare(counts).pvalue > 1e-3
    assert len(chance) == draws                           # the chance stream is reseeded every time


def test_determinize_resamples_the_cards_another_seat_is_choosing_from(configs, strategies, choose):
    g = Game(configs[2], strategies, choose, ["random"], 6, 0)
    while not (g.state[ST_HEAD][H_KIND] == KEEP and g.state[ST_HEAD][HD_DRAWN] >= 2):
        g.step()
    drawer = g.state[ST_HEAD][H_TO_MOVE]
    drawn = list(g.state[ST_DRAWN][:g.state[ST_HEAD][HD_DRAWN]])
    assert g.legal() == [A_KEEP + c for c in drawn]
    rng = np.empty(4, np.uint64)
    seed_stream(rng, 5, 0, 0)
    engine.determinize(g.state, g.arrays, drawer, rng)
    assert list(g.state[ST_DRAWN][:len(drawn)]) == drawn     # the drawer knows its cards
    seen = set()
    for _ in range(20):
        engine.determinize(g.state, g.arrays, 1 - drawer, rng)
        seen.add(tuple(g.state[ST_DRAWN][:len(drawn)]))
    assert len(seen) > 1                                   # the other seat does not


def test_the_pay_choice_is_two_actions_and_its_card_is_shown(configs, strategies, choose):
    for game in range(50):
        g = Game(configs[4], strategies, choose, ["random"], 7, game)
        while not is_terminal(g.state) and g.state[ST_HEAD][H_KIND] != PAY:
            g.step()
        if not is_terminal(g.state):
            break
    else:
        pytest.fail("no pay choice in 50 games")
    assert g.legal() == [A_DECLINE, A_DECLINE + 1]
    card = g.state[ST_HEAD][HD_CARD]
    assert g.obs(g.state[ST_HEAD][H_TO_MOVE])[OBS_CARD] == card
    assert g.state[ST_VIEW][OBS_OWNER + card] == g.state[ST_HEAD][H_TO_MOVE]   # laid out already
    assert all(g.obs(s)[OBS_CARD] == card for s in range(4))


def test_finished_is_a_game_column_written_by_result(configs, strategies, choose):
    assert "finished" in GAME.game_columns and "finished" not in GAME.seat_columns
    g = Game(configs[2], strategies, choose, ["chaser"], 1, 0)
    g.play()
    *_, game_stats = g.outputs()
    assert finished(g.state) and game_stats[GAME.game_columns.index("finished")] == 1
    capped = Game(GAME.configure(2, override={"game": {"max_rounds": 2}}), strategies, choose, ["random"], 1, 0)
    capped.play()
    *_, game_stats = capped.outputs()
    assert not finished(capped.state)
    assert list(game_stats[:2]) == [2, 0]                  # rounds, finished (the leader columns: the game loop)
    assert g.legal() == [] and capped.legal() == []


def test_finished_reaches_every_row_of_a_run():
    run = api.simulate("fauch-fertig", players=3, games=40, seed=2, setup={"game": {"max_rounds": 12}})
    rows = run.seats()
    finished_col = rows["finished"].to_numpy()
    rounds = rows["rounds"].to_numpy()
    assert set(finished_col) == {0, 1}                   # 12 rounds end some games, not all
    assert (rounds[finished_col == 0] == 12).all() and (rounds[finished_col == 1] <= 12).all()
    for _, group in rows.group_by("game"):
        assert group["finished"].n_unique() == 1
