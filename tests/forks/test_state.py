"""The Forks state API: determinize keeps what a seat has seen and yields legal games drawn with the
right frequencies and the ``finished`` column (a copy playing on like the original: tests/contract)."""

import copy
import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from playtest import api
from simulator.core.rng import new_stream
from simulator.core.setup import SetupError
from simulator.core.state import H_KIND, H_TO_MOVE, H_TRACE, ST_HEAD
from simulator.forks import GAME
from simulator.forks import engine as E
from simulator.forks.layout import (HD_ROUND, INVEST, KEEP, MARKET, MAX_ACTIONS, ST_DECK, ST_HAND,
                                    ST_HAND_N, ST_MARKET, ST_MKT, ST_TAKEN)
from simulator.forks.reference import replay
from strategies.forks import strategy_set

MIXED = ["greedy", "leader", "pusher", "hedger", "random", "greedy"]


def random_action(state, cfg, rng):
    actions = np.empty(MAX_ACTIONS, np.int64)
    n = E.legal_actions(state, cfg.arrays, actions)
    return int(actions[rng.integers(n)])


def started(cfg, game, steps, rng):
    """A state of game ``game`` (seed 5) after ``steps`` random actions, and its trace so far."""
    _, params, _ = strategy_set().seats(MIXED[:cfg.players], cfg.players)
    state = E.new_state(cfg.arrays, params)
    trace = np.zeros(cfg.trace_len, np.int64)
    E.reset(state, cfg.arrays, 5, game, trace, True)
    for _ in range(steps):
        E.apply(state, cfg.arrays, random_action(state, cfg, rng), trace, True)
    return state, trace


def outputs(cfg, state):
    scores, standing = np.zeros(cfg.players, np.int32), np.zeros(cfg.players, np.int64)
    seat_stats, game_stats = np.zeros((cfg.players, len(E.SEAT_COLUMNS)), np.int32), np.zeros(2, np.int32)
    E.result(state, cfg.arrays, scores, standing, seat_stats, game_stats)
    return scores, seat_stats, game_stats


def deal_starts(cfg):
    """Deck position of each round's first dealt card, from the setup table."""
    row = cfg.setup["players"][str(cfg.players)]
    pos, n, starts = row["remove"] + row["initial_marketing"], cfg.info["cards"], []
    for _ in range(cfg.info["rounds"]):
        starts.append(pos)
        pos += 3 * cfg.players
        pos += min(row["reveal_after_round"], n - pos)
    return starts


def seen(cfg, state, seat):
    """Everything ``seat`` has seen, read from the state by the rules: public table and own cards."""
    players, head = cfg.players, state[ST_HEAD]
    r, second = int(head[HD_ROUND]), head[H_KIND] != INVEST
    deck, taken, market = state[ST_DECK], state[ST_TAKEN], state[ST_MARKET]
    row = cfg.setup["players"][str(players)]
    obs = np.zeros(35, np.int64)
    E.observe(state, cfg.arrays, seat, obs)
    left = (seat - 1) % players
    starts = deal_starts(cfg)
    out = {"obs": obs.tolist(), "head": head.tolist(), "marketing": state[ST_MKT].tolist(),
           "hand": state[ST_HAND][seat, :state[ST_HAND_N][seat]].tolist(),
           "hand sizes": state[ST_HAND_N].tolist(),
           "initial marketing": deck[row["remove"]:row["remove"] + row["initial_marketing"]].tolist(),
           "marketed": market[:r].tolist(), "my marketing": market[:, seat].tolist(),
           "my picks": taken[:, seat].tolist()}
    for t in range(min(r + 1, len(starts))):
        at = starts[t]
        out[f"dealt {t}"] = deck[at + 3 * seat: at + 3 * seat + 3].tolist()
        if t < r or second:
            out[f"passed to me {t}"] = [int(deck[at + 3 * left + j]) for j in range(3) if j != taken[t, left]]
        if t < r:
            end = starts[t + 1] if t + 1 < len(starts) else cfg.info["cards"]
            out[f"revealed {t}"] = deck[at + 3 * players: end].tolist()
    return out


def known_held(cfg, state, seat):
    """Cards ``seat`` passed in completed rounds that its left neighbour has not marketed since."""
    players, r = cfg.players, int(state[ST_HEAD][HD_ROUND])
    deck, taken, market = state[ST_DECK], state[ST_TAKEN], state[ST_MARKET]
    right = (seat + 1) % players
    passed = {int(deck[at + 3 * seat + j]) for t, at in enumerate(deal_starts(cfg)[:r]) for j in range(3)
              if j != taken[t, seat]}
    return passed - set(market[:r, right].tolist())


def rebuilt_trace(cfg, state):
    """The trace of the game in ``state`` so far, rebuilt from its deck and choice log."""
    card_dest, card_value = cfg.arrays[0], cfg.arrays[1]
    deck, taken, market = state[ST_DECK], state[ST_TAKEN], state[ST_MARKET]
    players = cfg.players

    def code(c):
        return int(100 * card_dest[c] + card_value[c])

    out = [cfg.info["cards"]] + [code(c) for c in deck]
    for t, at in enumerate(deal_starts(cfg)):
        triples = [deck[at + 3 * q: at + 3 * q + 3] for q in range(players)]
        out += [code(triples[q][taken[t, q]]) for q in range(players) if taken[t, q] >= 0]
        for q in range(players):
            if market[t, q] < 0:
                continue
            if cfg.variant == "merge":
                out.append(code(market[t, q]))
            else:
                left = (q - 1) % players
                pair = [c for j, c in enumerate(triples[left]) if j != taken[t, left]]
                assert market[t, q] in pair
                out.append(code(pair[0] if pair[1] == market[t, q] else pair[1]))
    return np.array(out, np.int64)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(players=st.integers(2, 6), variant=st.sampled_from(["standard", "merge"]), game=st.integers(0, 10**6),
       progress=st.floats(0, 1), seat=st.integers(0, 5), draw=st.integers(0, 2**31))
def test_determinized_state_keeps_what_the_seat_saw_and_plays_on_as_a_legal_game(players, variant, game, progress,
                                                                                  seat, draw):
    cfg = GAME.configure(players, variant)
    seat %= players
    rng = np.random.default_rng(draw)
    state, trace = started(cfg, game, int(progress * (2 * players * cfg.info["rounds"] - 1)), rng)
    before, held = seen(cfg, state, seat), known_held(cfg, state, seat)
    E.determinize(state, cfg.arrays, seat, new_stream(draw))
    assert seen(cfg, state, seat) == before
    right = (seat + 1) % players
    holding = set(state[ST_HAND][right, :state[ST_HAND_N][right]].tolist()) | {int(state[ST_MARKET][state[ST_HEAD][HD_ROUND],
                                                                                                  right])}
    assert held <= holding
    assert sorted(state[ST_DECK].tolist()) == list(range(cfg.info["cards"]))
    prefix = rebuilt_trace(cfg, state)
    assert prefix.size == state[ST_HEAD][H_TRACE]
    trace[:prefix.size] = prefix
    while state[ST_HEAD][H_TO_MOVE] >= 0:
        E.apply(state, cfg.arrays, random_action(state, cfg, rng), trace, True)
    scores, seat_stats, game_stats = outputs(cfg, state)
    ref = replay(cfg, trace[:state[ST_HEAD][H_TRACE]])  # raises at an illegal pick or a deck that is not the table
    assert ref.scores == scores.tolist() and ref.gained == seat_stats[:, 0].tolist()
    assert ref.rounds == game_stats[0]


def test_determinize_resamples_the_other_seats_hands():
    cfg = GAME.configure(4)
    state, _ = started(cfg, 3, 20, np.random.default_rng(1))  # round 1, second picks under way
    work = E.new_state(cfg.arrays, np.zeros((4, 1)))
    hands = set()
    for k in range(30):
        E.copy_state(state, work)
        E.determinize(work, cfg.arrays, 0, new_stream(k))
        hands.add(tuple(work[ST_HAND][1, :work[ST_HAND_N][1]].tolist()))
        assert work[ST_HAND][0].tolist() == state[ST_HAND][0].tolist()
    assert len(hands) > 20


def tiny_config(variant):
    """Two players, eight cards (red and green 1-4), two removed, one round: few enough to enumerate."""
    setup = copy.deepcopy(GAME.default_setup())
    setup["deck"] = {"destinations": ["red", "green"], "values": [1, 2, 3, 4], "top": 1, "extra": {}}
    setup["tiebreak"] = {"order": ["red", "green"]}
    setup["players"] = {"2": {"remove": 2, "initial_marketing": 0, "remove_values": [], "reveal_after_round": 0}}
    return GAME.compile_setup(setup, 2, variant)


def posterior(variant, deck, taken):
    """Exact distribution of (seat 0's hand, its marketing card, removed cards) given what seat 1 has seen
    at its second pick (its deal, its pick, the pair seat 0 passed), by enumerating every deck order and
    every choice of seat 0 (random play)."""
    perms = np.array(list(itertools.permutations(range(8))))
    mine = [int(c) for j, c in enumerate(deck[5:8]) if j != taken[1]]  # what seat 1 passed to seat 0
    seen_pair = [int(deck[2 + j]) for j in range(3) if j != taken[0]]
    counts = Counter()
    for t0 in range(3):
        passed = perms[:, [2 + j for j in range(3) if j != t0]]
        match = (perms[:, 5:8] == deck[5:8]).all(1) & (passed == seen_pair).all(1)
        for world in perms[match]:
            invested = int(world[2 + t0])
            removed = tuple(sorted(world[:2].tolist()))
            if variant == "merge":
                hand = [invested] + mine
                for k in range(3):
                    counts[(tuple(hand[:k] + hand[k + 1:]), hand[k], removed)] += 1
            else:
                for k in range(2):
                    counts[((invested, mine[k]), mine[1 - k], removed)] += 1
    return counts


@pytest.mark.parametrize("variant", ["standard", "merge"])
def test_determinize_draws_each_hidden_arrangement_with_its_posterior_frequency(variant):
    cfg = tiny_config(variant)
    rng = np.random.default_rng(4)
    state, _ = started(cfg, 9, 3, rng)  # both first picks and seat 0's second pick are made
    assert state[ST_HEAD][H_TO_MOVE] == 1 and state[ST_HEAD][H_KIND] == (MARKET if variant == "merge" else KEEP)
    truth = posterior(variant, state[ST_DECK].copy(), state[ST_TAKEN][0].tolist())
    work = E.new_state(cfg.arrays, np.zeros((2, 1)))
    draws = Counter()
    n = 600 * len(truth)
    for k in range(n):
        E.copy_state(state, work)
        E.determinize(work, cfg.arrays, 1, new_stream(k))
        hand = tuple(work[ST_HAND][0, :work[ST_HAND_N][0]].tolist())
        draws[(hand, int(work[ST_MARKET][0, 0]), tuple(sorted(work[ST_DECK][:2].tolist())))] += 1
    assert set(draws) == set(truth)
    keys = sorted(truth)
    total = sum(truth.values())
    expected = [n * truth[key] / total for key in keys]
    assert stats.chisquare([draws[key] for key in keys], expected).pvalue > 0.001


def test_finished_column_is_one_for_every_game():
    rows = api.simulate("forks", players=3, games=500, seed=8, variant="merge").seats()
    assert "finished" in rows.columns
    assert rows["finished"].cast(int).to_list() == [1] * (3 * 500)


def test_a_table_that_lasts_more_rounds_than_the_engine_plays_is_refused():
    setup = copy.deepcopy(GAME.default_setup())
    setup["deck"]["values"] = list(range(1, 60))
    with pytest.raises(SetupError, match="at most 15"):
        GAME.compile_setup(setup, 2, "standard")


def test_removing_a_value_no_card_has_is_refused():
    setup = copy.deepcopy(GAME.default_setup())
    setup["players"]["4"]["remove_values"] = [99]
    with pytest.raises(SetupError, match=r"players\.4\.remove_values: no card has the value\(s\) 99"):
        GAME.compile_setup(setup, 4, "standard")


@pytest.mark.parametrize("where, value", [("values", 100), ("extra", 120)])
def test_a_card_value_above_99_is_refused(where, value):
    """A card's trace code and move key are 100 * destination + value, so values stop at 99."""
    setup = copy.deepcopy(GAME.default_setup())
    if where == "values":
        setup["deck"]["values"] = setup["deck"]["values"][:-1] + [value]
    else:
        setup["deck"]["extra"]["red"] = value
    with pytest.raises(SetupError, match=rf"deck\.{where}: card values must be at most 99 .* got {value}"):
        GAME.compile_setup(setup, 3, "standard")
    setup = copy.deepcopy(GAME.default_setup())
    setup["deck"]["extra"]["red"] = 99
    assert 99 in GAME.compile_setup(setup, 3, "standard").arrays[1]   # 99 is taken
