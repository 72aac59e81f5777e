"""The Fair Enough state API: action ids, copies, determinization and the finished column."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from simulator.core.rng import new_stream
from simulator.core.state import H_KIND, H_TO_MOVE, ST_HEAD
from simulator.fair_enough import engine
from simulator.fair_enough.layout import (A_PLACE, A_RESEARCH, A_SECURE, A_TARGET, COLLECT, GAME_COLUMNS, GC_FINISHED,
                                          GC_ROUNDS, HAND_MAX, MAX_ACTIONS, NONE, OBS_COLLECTED_N, OBS_HAND_N,
                                          OBS_PENDING_KIND, OBS_PENDING_VALUE, OBS_PLACED_N, OBS_SIZE, OPT_A, OPT_B,
                                          OPT_KIND, OPT_OWNER, OPT_SPECIAL, OPT_VALUE, QUEUE, RESEARCH, R_N_TIMES,
                                          SEAT_COLUMNS, SECURE, SOLD_OUT, TARGET)
from simulator.fair_enough.rules import (HD_DECK_N, HD_DECK_POS, HD_DISC_N, HD_PENDING, HD_RESHUFFLES, HD_ROUND,
                                         HD_ROW_N, HS_SPECIALS, HS_VALUE, ST_COLL, ST_COUNTS, ST_DECK, ST_DISCARD,
                                         ST_HAND, ST_HAND_STAT, ST_HIDDEN, ST_OPT, ST_PLACED, ST_PUBLIC, ST_ROW,
                                         ST_TIMES)

from .helpers import config_for

NO_TRACE = np.zeros(0, np.int64)
SMALL = {"deck": {"kinds": 2, "values": [1, 2, 3, 4, 5, 6], "queue": 1, "preorder": 1, "sold_out": 1}}


def fresh(config, seed, game):
    state = engine.new_state(config.arrays, np.zeros((config.players, 1)))
    engine.reset(state, config.arrays, seed, game, NO_TRACE, False)
    return state


def play(state, config, pick, steps=10**9):
    """Apply up to ``steps`` actions drawn uniformly (by ``pick``) from ``legal_actions``; return the actions."""
    actions, played = np.zeros(MAX_ACTIONS, np.int64), []
    while state[ST_HEAD][H_TO_MOVE] >= 0 and len(played) < steps:
        n = engine.legal_actions(state, config.arrays, actions)
        assert n > 0
        played.append(int(actions[pick.integers(n)]))
        engine.apply(state, config.arrays, played[-1], NO_TRACE, False)
    return played


def outputs(state, config):
    p = config.players
    out = (np.zeros(p, np.int32), np.zeros(p, np.int64), np.zeros((p, len(SEAT_COLUMNS)), np.int32),
           np.zeros(len(GAME_COLUMNS), np.int32))
    engine.result(state, config.arrays, *out)
    return out


def observation(state, config, seat):
    obs = np.zeros(OBS_SIZE, np.int64)
    engine.observe(state, config.arrays, seat, obs)
    return obs


def secured_cards(state, config):
    """The cards in no pile, hand or row: the secured collections (which hold counts, not card ids)."""
    h = state[ST_HEAD]
    located = [state[ST_DECK][h[HD_DECK_POS]:h[HD_DECK_N]], state[ST_DISCARD][:h[HD_DISC_N]], state[ST_ROW][:h[HD_ROW_N]]]
    for q in range(config.players):
        located += [state[ST_HAND][q, :state[ST_PUBLIC][OBS_HAND_N + q]], state[ST_PLACED][q, :state[ST_PUBLIC][OBS_PLACED_N + q]]]
    located = np.concatenate(located)
    assert len(set(located.tolist())) == len(located), "a card is in two places"
    return np.setdiff1d(np.arange(config.arrays[0].size), located)


def test_action_ids_name_the_options_the_strategy_is_shown():
    config = config_for(4)
    kind_, value_, special_ = config.arrays[:3]
    state, pick = fresh(config, 3, 0), np.random.default_rng(0)
    actions, seen = np.zeros(MAX_ACTIONS, np.int64), set()
    while state[ST_HEAD][H_TO_MOVE] >= 0:
        p, kind = state[ST_HEAD][H_TO_MOVE], state[ST_HEAD][H_KIND]
        n = engine.legal_actions(state, config.arrays, actions)
        opt = state[ST_OPT]  # the option rows a strategy is shown, filled with the ids
        ids = actions[:n]
        assert len(set(ids.tolist())) == n and ids.max() < MAX_ACTIONS
        for k, a in enumerate(ids):
            if kind == RESEARCH:
                taken = [x for x in (opt[k, OPT_A], opt[k, OPT_B]) if x >= 0]
                pairs = [(), (0,), (1,), (2,), (0, 1), (0, 2), (1, 2)]
                assert a == A_RESEARCH + pairs.index(tuple(taken))
            elif kind == COLLECT and opt[k, OPT_SPECIAL] == SECURE:
                assert k == 0 and a == A_SECURE
            elif kind == COLLECT:
                card = state[ST_HAND][p, (a - A_PLACE) // 4]
                assert (a - A_PLACE) % 4 == opt[k, OPT_SPECIAL] and special_[card] == NONE
                assert (kind_[card], value_[card]) == (opt[k, OPT_KIND], opt[k, OPT_VALUE])
            else:
                q, j = divmod(a - A_TARGET, HAND_MAX)
                card = state[ST_PLACED][q, j]
                assert q == opt[k, OPT_OWNER] and (kind_[card], value_[card]) == (opt[k, OPT_KIND], opt[k, OPT_VALUE])
            seen.add((kind, int(a) >= A_TARGET))
        engine.apply(state, config.arrays, actions[pick.integers(n)], NO_TRACE, False)
    assert {(RESEARCH, False), (COLLECT, False)} <= seen


def test_every_game_is_finished_after_six_rounds(kernels, strategies):
    config = config_for(3, "variante")
    sids, params, _ = strategies.seats(["random", "banker", "aggressor"], 3)
    count = 300
    out = (np.zeros((count, 3), np.int32), np.zeros((count, 3), np.int64),
           np.zeros((count, 3, len(SEAT_COLUMNS)), np.int32), np.zeros((count, len(GAME_COLUMNS)), np.int32))
    status = np.ones(count, np.int32)
    kernels[0](config.arrays, sids, params, 4, 0, count, *out, status)
    assert not status.any()
    assert GAME_COLUMNS[GC_FINISHED] == "finished"
    assert (out[3][:, GC_FINISHED] == 1).all() and (out[3][:, GC_ROUNDS] == 6).all()


@settings(max_examples=25, derandomize=True, deadline=None)
@given(players=st.integers(2, 5), small=st.booleans(), game=st.integers(0, 10**6), steps=st.integers(0, 150),
       seat=st.integers(0, 4))
def test_a_determinized_state_is_legal_and_keeps_what_the_seat_has_seen(players, small, game, steps, seat):
    config = config_for(players, "variante" if game % 2 else "standard",
                        SMALL if small and players <= 3 else None)  # the small deck deals at most 3 seats
    seat %= players
    before = fresh(config, 8, game)
    play(before, config, np.random.default_rng(game), steps)
    after = engine.new_state(config.arrays, np.zeros((players, 1)))
    engine.copy_state(before, after)
    engine.determinize(after, config.arrays, seat, new_stream(game))
    # what the seat sees, and everything public, is unchanged
    assert (observation(before, config, seat) == observation(after, config, seat)).all()
    for k in (ST_HEAD, ST_DISCARD, ST_ROW, ST_PLACED, ST_COLL, ST_PUBLIC, ST_COUNTS):
        assert (before[k] == after[k]).all()
    assert (before[ST_HAND][seat] == after[ST_HAND][seat]).all() and (before[ST_HAND_STAT][seat] == after[ST_HAND_STAT][seat]).all()
    for q in range(players):  # cards others took from the row stay in their slots; dealt cards stay dealt
        n = before[ST_PUBLIC][OBS_HAND_N + q]
        seen = before[ST_HIDDEN][before[ST_HAND][q, :n]] == 0
        assert (before[ST_HAND][q, :n][seen] == after[ST_HAND][q, :n][seen]).all()
        assert (after[ST_HIDDEN][after[ST_HAND][q, :n]][~seen] == 1).all()
    h = before[ST_HEAD]
    deck = slice(h[HD_DECK_POS], h[HD_DECK_N])
    if h[HD_RESHUFFLES]:  # the deck is the discard pile everyone saw, reordered
        assert sorted(before[ST_DECK][deck]) == sorted(after[ST_DECK][deck])
    revealed = h[HD_ROUND] + (0 if h[H_KIND] == RESEARCH else 1) if h[H_TO_MOVE] >= 0 else 6
    assert (before[ST_TIMES][:revealed] == after[ST_TIMES][:revealed]).all()
    assert sorted(before[ST_TIMES][:config.arrays[4][R_N_TIMES]]) == sorted(after[ST_TIMES][:config.arrays[4][R_N_TIMES]])
    # card conservation: every card once, and the rest is exactly the secured collections
    rest = secured_cards(after, config)
    assert (rest == secured_cards(before, config)).all()
    assert len(rest) == after[ST_PUBLIC][OBS_COLLECTED_N:OBS_COLLECTED_N + players].sum()
    # each hand summary matches its cards, and the game plays on to a legal end
    for q in range(players):
        cards = after[ST_HAND][q, :after[ST_PUBLIC][OBS_HAND_N + q]]
        summary = np.zeros_like(after[ST_HAND_STAT][q])
        for c in cards:
            if config.arrays[2][c] == NONE:
                summary[config.arrays[0][c]] += 1
                summary[HS_VALUE] += config.arrays[1][c]
            else:
                summary[HS_SPECIALS + config.arrays[2][c] - QUEUE] += 1
        assert (summary == after[ST_HAND_STAT][q]).all()
    play(after, config, np.random.default_rng(2))
    assert outputs(after, config)[3][GC_FINISHED] == 1


def test_determinize_draws_every_hidden_arrangement_equally_often():
    # 10 cards, 2 players: seat 0 sees its 3 cards and the row; seat 1's 3 dealt cards and the
    # one card left in the deck are hidden from it: 4! arrangements (which card stays in the deck,
    # the order of seat 1's hand), and 6! orders of the time deck, of which we count the first card
    config = config_for(2, override={"deck": {"kinds": 2, "values": [1, 2, 3, 4, 5], "queue": 0, "preorder": 0,
                                              "sold_out": 0}})
    start = fresh(config, 1, 0)
    hidden = sorted(start[ST_HAND][1, :3].tolist() + [start[ST_DECK][9]])
    cells = {perm: i for i, perm in enumerate(itertools.permutations(hidden))}
    times = sorted(config.arrays[3].tolist())
    work = engine.new_state(config.arrays, np.zeros((2, 1)))
    rng = new_stream(99)
    arrangement, first_time = np.zeros(len(cells)), np.zeros(len(times))
    draws = 12_000
    for _ in range(draws):
        engine.copy_state(start, work)
        engine.determinize(work, config.arrays, 0, rng)
        arrangement[cells[tuple(work[ST_HAND][1, :3].tolist()) + (int(work[ST_DECK][9]),)]] += 1
        first_time[times.index(work[ST_TIMES][0])] += 1
        assert (work[ST_HAND][0] == start[ST_HAND][0]).all()
    assert chisquare(arrangement).pvalue > 0.001
    assert chisquare(first_time).pvalue > 0.001
    assert arrangement.min() > 0


def at_target(config, seed):
    """A state at a ``TARGET`` decision (a card being placed with Sold Out), reached by uniform play."""
    for game in range(200):
        state, pick = fresh(config, seed, game), np.random.default_rng(game)
        while state[ST_HEAD][H_TO_MOVE] >= 0:
            if state[ST_HEAD][H_KIND] == TARGET:
                return state
            play(state, config, pick, 1)
    raise AssertionError("no Sold Out was played in 200 games")


def test_determinize_for_another_seat_keeps_the_card_placed_with_sold_out_and_plays_on():
    """At a Sold Out's target decision every seat knows the card being placed (``OBS_PENDING_*``) and that the
    placer holds the Sold Out card: determinizing for another seat redeals neither (issue 43: it did, and random
    play from there crashed the process)."""
    config = config_for(4)
    kind_, value_, special_ = config.arrays[0], config.arrays[1], config.arrays[2]
    worlds = []
    for seed in range(3):
        state = at_target(config, seed)
        placer, pending, pub = int(state[ST_HEAD][H_TO_MOVE]), state[ST_HEAD][HD_PENDING], state[ST_PUBLIC]
        for seat in range(config.players):
            world = engine.new_state(config.arrays, np.zeros((config.players, 1)))
            engine.copy_state(state, world)
            engine.determinize(world, config.arrays, seat, new_stream(10 * seed + seat))
            card = world[ST_HAND][placer, pending]
            assert (kind_[card], value_[card], special_[card]) == (pub[OBS_PENDING_KIND], pub[OBS_PENDING_VALUE], NONE)
            held = world[ST_HAND][placer, :pub[OBS_HAND_N + placer]]
            assert (special_[held] == SOLD_OUT).any()
            worlds.append(world)
    for i, world in enumerate(worlds):  # only once every world is consistent: an inconsistent one can crash
        play(world, config, np.random.default_rng(i))
        assert outputs(world, config)[3][GC_FINISHED] == 1
