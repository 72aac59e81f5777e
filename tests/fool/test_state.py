"""The Fool! engine as a state: determinize, copy_state, the state verbs one by one, the safety cap.

States are reached by playing random legal actions from Python with the
jit-compiled verbs; a determinized state is checked against what the seat saw
before, and ``determinize``'s draws against the exact distribution over the
hidden arrangements (enumerated by brute force, cards as distinct objects).
"""

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from simulator.core.bound import unbound
from simulator.core.kernels import bind
from simulator.core.rng import randint
from simulator.core.setup import SetupError
from simulator.core.state import H_TO_MOVE, is_terminal
from simulator.fool import GAME, engine as E
from simulator.fool.layout import MAX_ACTIONS, OBS_SIZE
from simulator.fool.reference import RefereeError, replay
from strategies.fool import dispatch

from .helpers import config, run_games, trace_one

apply, choose, result = unbound("apply", "choose", "result")  # play_on's bound names

PARAMS = np.zeros((8, 2))
NO_TRACE = np.zeros(0, np.int64)
# the parts of the state every seat sees (the hands' contents are checked separately)
PUBLIC = (E.ST_HEAD, E.ST_HAND_N, E.ST_UNPLAYED, E.ST_TRICK_SEAT, E.ST_TRICK_COLOUR, E.ST_TRICK_VALUE, E.ST_FOOLED,
          E.ST_VOIDS, E.ST_TOTALS, E.ST_STATS)


def play_on(state, arrays, sids, params, trace, scores, standing, seat_stats, game_stats):
    """Template: play the state to its end with the seated strategies; write its result."""
    while not is_terminal(state):
        action = choose(state, arrays, sids, params)
        apply(state, arrays, action, trace, False)
    result(state, arrays, scores, standing, seat_stats, game_stats)


@pytest.fixture(scope="module")
def finish():
    """``finish(state, cfg, sids) -> outputs``: the game played on from ``state`` (compiled, not cached)."""
    choose = bind(E.choose, cache=False, parallel=False, decide=dispatch)
    play = bind(play_on, cache=False, parallel=False, choose=choose, apply=E.apply, result=E.result,
                is_terminal=is_terminal)

    def run(state, cfg, sids):
        players = cfg.players
        out = (np.zeros(players, np.int32), np.zeros(players, np.int64),
               np.zeros((players, len(E.SEAT_COLUMNS)), np.int32), np.zeros(len(E.GAME_COLUMNS), np.int32))
        play(state, cfg.arrays, sids, PARAMS[:players], NO_TRACE, *out)
        return out
    return run


def random_state(cfg, seed, game, steps, pick):
    """The state after ``steps`` random legal actions (chosen by ``pick``) of game ``game`` of run ``seed``."""
    state = E.new_state(cfg.arrays, PARAMS[:cfg.players])
    E.reset(state, cfg.arrays, seed, game, NO_TRACE, False)
    actions = np.zeros(MAX_ACTIONS, np.int64)
    for _ in range(steps):
        if state[E.ST_HEAD][H_TO_MOVE] < 0:
            break
        n = E.legal_actions(state, cfg.arrays, actions)
        E.apply(state, cfg.arrays, actions[pick.randrange(n)], NO_TRACE, False)
    return state


def seen_by(state, cfg, seat):
    """Everything ``seat`` may know: its observation, its hand in order, and the public arrays."""
    obs = np.zeros(OBS_SIZE, np.int64)
    E.observe(state, cfg.arrays, seat, obs)
    n = state[E.ST_HAND_N][seat]
    return [obs, state[E.ST_HAND_C][seat, :n].copy(), state[E.ST_HAND_V][seat, :n].copy()] + \
        [state[k].copy() for k in PUBLIC]


def hands(state, seats):
    """The (colour, value) cards held by each of ``seats``."""
    return [[(int(state[E.ST_HAND_C][p, j]), int(state[E.ST_HAND_V][p, j])) for j in range(state[E.ST_HAND_N][p])]
            for p in seats]


def assert_legal(state, cfg):
    """Hands and masks agree, no seat holds a colour it showed void in, and the deck is all there."""
    players = cfg.players
    held = Counter()
    for p, hand in enumerate(hands(state, range(players))):
        masks = np.zeros_like(state[E.ST_MASKS][p])
        for c, v in hand:
            assert not (state[E.ST_VOIDS][p] >> c) & 1 or c == 0, f"seat {p} holds colour {c} it showed void in"
            if c == 0:
                masks[0] += 1
            else:
                masks[c] |= 1 << v
            held[(c, v)] += 1
        assert (masks == state[E.ST_MASKS][p]).all()
    unplayed = Counter()
    unplayed[(0, 1)] = int(state[E.ST_UNPLAYED][0])
    for c in range(1, cfg.arrays[2][1] + 1):
        for v in range(64):
            if (int(state[E.ST_UNPLAYED][c]) >> v) & 1:
                unplayed[(c, v)] += 1
    assert +held == +unplayed   # the cards in hands are exactly the cards not yet played


@settings(max_examples=20, derandomize=True, deadline=None)
@given(players=st.sampled_from([4, 7]), game=st.integers(0, 10_000), steps=st.integers(0, 300),
       seat=st.integers(0, 7), draw=st.integers(0, 2**32))
def test_a_determinized_state_keeps_what_the_seat_saw_and_is_legal(players, game, steps, seat, draw, finish):
    cfg = config(players)
    seat %= players
    state = random_state(cfg, 3, game, steps, random.Random(game))
    before = seen_by(state, cfg, seat)
    others = [p for p in range(players) if p != seat]
    hidden = sorted(c for h in hands(state, others) for c in h)
    rng = np.array([draw + 1, 2, 3, 4], np.uint64)
    E.determinize(state, cfg.arrays, seat, rng)
    after = seen_by(state, cfg, seat)
    for a, b in zip(before, after):
        assert (a == b).all()
    assert sorted(c for h in hands(state, others) for c in h) == hidden
    assert_legal(state, cfg)
    scores, _, _, game_stats = finish(state, cfg, np.zeros(players, np.int64))   # it plays on to an end
    assert game_stats[0] >= 1 and scores.sum() <= 10 * game_stats[0] * players


def test_the_verbs_step_the_same_games_as_the_batch_kernel(kernels):
    """reset, legal_actions, choose's pick and apply one at a time give the batch kernel's rows."""
    run_chunk, _ = kernels
    cfg = config(5)
    sids = np.zeros(5, np.int64)       # random: its pick is the stream's, replayed here
    scores, seat_stats, game_stats, _ = run_games(run_chunk, cfg, sids, PARAMS[:5], 8, 0, 3)
    actions = np.zeros(MAX_ACTIONS, np.int64)
    for g in range(3):
        state = E.new_state(cfg.arrays, PARAMS[:5])
        E.reset(state, cfg.arrays, 8, g, NO_TRACE, False)
        while state[E.ST_HEAD][H_TO_MOVE] >= 0:
            p = state[E.ST_HEAD][H_TO_MOVE]
            n = E.legal_actions(state, cfg.arrays, actions)
            E.apply(state, cfg.arrays, actions[randint(state[E.ST_RNGS][1 + p], n)], NO_TRACE, False)
        out = (np.zeros(5, np.int32), np.zeros(5, np.int64), np.zeros((5, len(E.SEAT_COLUMNS)), np.int32),
               np.zeros(4, np.int32))
        E.result(state, cfg.arrays, *out)
        assert (out[0] == scores[g]).all() and (out[2] == seat_stats[g]).all() and (out[3] == game_stats[g][:4]).all()  # the leader columns: the game loop


def arrangements(pool, sizes, voids):
    """Exact probabilities of each hidden arrangement (a sorted hand per seat) under a uniform consistent deal."""
    counts = Counter()
    for perm in itertools.permutations(range(len(pool))):
        at, key = 0, []
        for size, void in zip(sizes, voids):
            hand = [pool[i] for i in perm[at:at + size]]
            if any(c != 0 and (void >> c) & 1 for c, _ in hand):
                break
            key.append(tuple(sorted(hand)))
            at += size
        else:
            counts[tuple(key)] += 1
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()}


def binding_state(cfg):
    """A late state whose hidden cards are few and where two seats' different voids rule deals out."""
    pick = random.Random(1)
    actions = np.zeros(MAX_ACTIONS, np.int64)
    for game in range(500):
        state = E.new_state(cfg.arrays, PARAMS[:cfg.players])
        E.reset(state, cfg.arrays, 17, game, NO_TRACE, False)
        while state[E.ST_HEAD][H_TO_MOVE] >= 0:
            seat = state[E.ST_HEAD][H_TO_MOVE]
            others = [p for p in range(cfg.players) if p != seat]
            pool = [c for h in hands(state, others) for c in h]
            present = sum(1 << c for c, _ in pool)
            binding = {int(state[E.ST_VOIDS][p] & present) for p in others} - {0}
            if 5 <= len(pool) <= 8 and len(binding) >= 2:   # two seats with different voids that matter
                sizes = [len(h) for h in hands(state, others)]
                exact = arrangements(pool, sizes, [int(state[E.ST_VOIDS][p]) for p in others])
                if 4 <= len(exact) <= 60 and len(exact) < len(arrangements(pool, sizes, [0] * len(sizes))):
                    return state, seat, others, exact
            n = E.legal_actions(state, cfg.arrays, actions)
            E.apply(state, cfg.arrays, actions[pick.randrange(n)], NO_TRACE, False)
    raise AssertionError("no late state with a binding void found")


def test_determinize_draws_each_hidden_arrangement_with_its_probability():
    cfg = config(4)
    state, seat, others, exact = binding_state(cfg)
    work = E.new_state(cfg.arrays, PARAMS[:4])
    rng = np.array([12345, 678, 9, 10], np.uint64)
    draws = 20_000
    seen = Counter()
    for _ in range(draws):
        E.copy_state(state, work)
        E.determinize(work, cfg.arrays, seat, rng)
        seen[tuple(tuple(sorted(h)) for h in hands(work, others))] += 1
    assert set(seen) <= set(exact)          # never an arrangement a void rules out
    keys = sorted(exact)
    observed = [seen[k] for k in keys]
    expected = [exact[k] * draws for k in keys]
    assert chisquare(observed, expected).pvalue > 0.001


def test_determinize_reseeds_chance_so_later_deals_differ():
    cfg = config(4)
    state = random_state(cfg, 2, 0, 3, random.Random(0))
    first = state[E.ST_RNGS][0].copy()
    E.determinize(state, cfg.arrays, 0, np.array([1, 2, 3, 4], np.uint64))
    assert (state[E.ST_RNGS][0] != first).any()
    assert (state[E.ST_RNGS][1:] == random_state(cfg, 2, 0, 3, random.Random(0))[E.ST_RNGS][1:]).all()   # seat streams kept


def capped(players, deals):
    return GAME.configure(players, override={"game": {"max_deals": deals}})


def test_finished_is_one_for_every_game_of_the_shipped_tables(kernels, strategies):
    run_chunk, _ = kernels
    for players in (4, 8):
        sids, params, _ = strategies.seats((["random", "counter", "shedder", "cautious", "wild_saver"] * 2)[:players], players)
        *_, game_stats, status = run_games(run_chunk, config(players), sids, params, 4, 0, 2000)
        assert not status.any() and (game_stats[:, 3] == 1).all()
        assert game_stats[:, 0].max() < config(players).info["max_deals"]


def test_a_game_stopped_by_the_cap_is_recorded_unfinished_and_the_referee_agrees(kernels, strategies):
    run_chunk, trace_game = kernels
    cfg = capped(4, 2)
    assert cfg.info["max_deals"] == 2
    sids, params, _ = strategies.seats(["random"], 4)
    *_, game_stats, _ = run_games(run_chunk, cfg, sids, params, 6, 0, 400)
    rounds, finished = game_stats[:, 0], game_stats[:, 3]
    assert (rounds <= 2).all()
    assert (finished[rounds == 1] == 1).all()   # ended by the rules in the first deal
    assert 0 < (finished == 0).sum() < 400      # both kinds occur
    for g in np.flatnonzero(finished == 0)[:20]:
        trace, scores, _, stats = trace_one(trace_game, cfg, sids, params, 6, int(g))
        result = replay(cfg, trace)
        assert not result.finished and result.deals == 2 and list(scores) == result.totals
        assert stats[3] == 0
        with pytest.raises(RefereeError, match="continue the game"):   # by the rules alone it goes on
            replay(config(4), trace)


def test_the_cap_is_checked():
    for deals in (0, 10_001):
        with pytest.raises(SetupError, match="game.max_deals"):
            capped(4, deals)
    assert GAME.default_setup()["game"]["max_deals"] == 100
