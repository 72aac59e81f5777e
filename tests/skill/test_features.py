"""The feature functions of the learned evaluation (``simulator/GAME/features.py``), for every game.

* on observations of played games the features are finite, exactly
  ``N_FEATURES`` entries are written and nothing past them, and the same
  observation always gives the same features;
* a seat's features do not change when ``determinize`` redraws what it cannot see;
* no feature is constant over the game's player counts;
* ``features`` allocates nothing (numba's allocation counters);
* a constructed observation gives the values the rulebook implies (worked by hand below);
* fitted by least squares on the games of 80% of the seeds, the features predict the held-out seats' win
  shares better than the fair share does.
"""

import math

import numba as nb
import numpy as np
import pytest
from features_support import record
from numba.core.runtime import _nrt_python as _nrt
from numba.core.runtime import rtsys

from simulator import games

GAMES = ["forks", "fool", "fair-enough", "fauch-fertig"]


def engine(name):
    return games.get(name).engine


@pytest.mark.parametrize("name", GAMES)
def test_the_interface(name):
    e = engine(name)
    layout = __import__(f"{e.__name__.rsplit('.', 1)[0]}.layout", fromlist=["OBS_SIZE"])
    assert e.OBS_SIZE == layout.OBS_SIZE
    assert 0 < e.N_FEATURES <= 96


@pytest.mark.parametrize("name", GAMES)
def test_features_of_played_games_are_finite_and_fill_exactly_n_features(name):
    g = games.get(name)
    e = g.engine
    cfg = g.configure(g.default_players)
    state = e.new_state(cfg.arrays, np.zeros((cfg.players, 1)))
    none = np.empty(0, np.int64)
    actions = np.empty(g.max_actions, np.int64)
    obs = np.zeros(e.OBS_SIZE, np.int64)
    rng = np.random.default_rng(3)
    checked = 0
    for game in range(3):
        e.reset(state, cfg.arrays, 5, game, none, False)
        while state[0][0] >= 0 and checked < 400:
            for seat in range(cfg.players):
                e.observe(state, cfg.arrays, seat, obs)
                before = obs.copy()
                out = np.full(e.N_FEATURES + 3, np.nan)
                out[e.N_FEATURES:] = 7.0
                e.features(obs, out)
                assert np.isfinite(out[:e.N_FEATURES]).all()
                assert (out[e.N_FEATURES:] == 7.0).all()        # nothing written past N_FEATURES
                assert (obs == before).all()                    # the observation is only read
                again = np.full(e.N_FEATURES, -5.0)
                e.features(obs.copy(), again)
                assert (again == out[:e.N_FEATURES]).all()      # a function of the observation alone
                checked += 1
            n = e.legal_actions(state, cfg.arrays, actions)
            e.apply(state, cfg.arrays, int(actions[rng.integers(n)]), none, False)
    assert checked > 50


@pytest.mark.parametrize("name", GAMES)
def test_a_seats_features_do_not_change_when_what_it_cannot_see_is_redrawn(name):
    g = games.get(name)
    e = g.engine
    cfg = g.configure(g.default_players)
    state, world = (e.new_state(cfg.arrays, np.zeros((cfg.players, 1))) for _ in range(2))
    none = np.empty(0, np.int64)
    actions = np.empty(g.max_actions, np.int64)
    obs = np.zeros(e.OBS_SIZE, np.int64)
    live, redrawn = np.zeros(e.N_FEATURES), np.zeros(e.N_FEATURES)
    rng = np.random.default_rng(6)
    stream = np.array([1, 2, 3, 4], np.uint64)
    compared = 0
    for game in range(2):
        e.reset(state, cfg.arrays, 9, game, none, False)
        while state[0][0] >= 0:
            for seat in range(cfg.players):
                e.copy_state(state, world)
                e.determinize(world, cfg.arrays, seat, stream)
                e.observe(state, cfg.arrays, seat, obs)
                e.features(obs, live)
                e.observe(world, cfg.arrays, seat, obs)
                e.features(obs, redrawn)
                assert (live == redrawn).all()
                compared += 1
            n = e.legal_actions(state, cfg.arrays, actions)
            e.apply(state, cfg.arrays, int(actions[rng.integers(n)]), none, False)
    assert compared > 50


@pytest.mark.parametrize("name", GAMES)
def test_no_feature_is_constant_over_the_player_counts(name):
    g = games.get(name)
    X = np.concatenate([record(name, 6, players=p, seed=p)[0] for p in range(g.min_players, g.max_players + 1)])
    constant = [j for j in range(X.shape[1]) if X[:, j].min() == X[:, j].max()]
    assert constant == []


@nb.njit
def _call_many(features, obs, out, times):
    for _ in range(times):
        features(obs, out)


@pytest.mark.parametrize("name", GAMES)
def test_features_allocate_nothing(name):
    e = engine(name)
    X, _, _, _ = record(name, 1, seed=2)  # compiles the verbs; a real observation follows
    g = games.get(name)
    cfg = g.configure(g.default_players)
    state = e.new_state(cfg.arrays, np.zeros((cfg.players, 1)))
    e.reset(state, cfg.arrays, 1, 0, np.empty(0, np.int64), False)
    obs = np.zeros(e.OBS_SIZE, np.int64)
    e.observe(state, cfg.arrays, 0, obs)
    out = np.zeros(e.N_FEATURES)
    _call_many(e.features, obs, out, 1)
    counts = []
    _nrt.memsys_enable_stats()  # numba's counters (its own tests switch them on with NUMBA_NRT_STATS)
    try:
        for times in (1, 1000):
            start = rtsys.get_allocation_stats().alloc
            _call_many(e.features, obs, out, times)
            counts.append(rtsys.get_allocation_stats().alloc - start)
    finally:
        _nrt.memsys_disable_stats()
    assert counts[1] == counts[0]


def _forks_obs():
    from simulator.forks import layout as L
    obs = np.zeros(L.OBS_SIZE, np.int64)
    obs[L.OBS_MARKETING:L.OBS_MARKETING + 5] = [10, 20, 5, 15, 0]
    obs[L.OBS_MINE:L.OBS_MINE + 5] = [7, 0, 12, 3, 0]
    obs[L.OBS_TIEBREAK:L.OBS_TIEBREAK + 5] = [0, 1, 2, 3, 4]
    obs[L.OBS_DESTINATIONS], obs[L.OBS_TOP] = 5, 3
    obs[L.OBS_ROUND], obs[L.OBS_ROUNDS], obs[L.OBS_PLAYERS], obs[L.OBS_SEAT] = 2, 4, 4, 3
    return obs


def _forks_expected():
    # places by marketing: dest 1 (20) first, 3 (15), 0 (10), 2 (5), 4 (0); the top 3 score positive
    # score: +7 (dest 0, third) - 12 (dest 2, fourth) + 3 (dest 3, second) = -2; scale 20 points
    # the cut lies between 10 (third) and 5 (fourth): 7.5
    soft = 7 * math.tanh(2.5 / 10) - 12 * math.tanh(2.5 / 10) + 3 * math.tanh(7.5 / 10)
    return {0: -2 / 20, 1: -2 / 20 * 0.5, 2: soft / 20,
            3: 0.0, 4: 3 / 20, 5: 7 / 20, 6: 12 / 20, 7: 0.0,   # bands: safe top, top-2, top-1, top, the rest
            8: 22 / 20, 9: 12 / 22, 10: 3 / 5, 11: (10 - 5) / 20, 12: 0.5, 13: soft / 20 * 0.5, 14: 1.0,
            15: 0.0, 16: 0.0, 17: 1.0, 18: 0.0, 19: 0.0}


def _fool_obs():
    from simulator.fool import layout as L
    obs = np.zeros(L.OBS_SIZE, np.int64)
    obs[L.OBS_PLAYERS], obs[L.OBS_SEAT], obs[L.OBS_COLOURS], obs[L.OBS_DISCS] = 4, 1, 4, 1
    obs[L.OBS_DEAL], obs[L.OBS_TRICK], obs[L.OBS_LEADER], obs[L.OBS_TALLIES] = 4, 6, 3, 2
    obs[L.OBS_EMPTY_HAND], obs[L.OBS_WILD_PENALTY], obs[L.OBS_LOSS_LIMIT], obs[L.OBS_TALLY_LIMIT] = 10, 5, 80, 6
    obs[L.OBS_TOTAL:L.OBS_TOTAL + 4] = [-20, 10, 10, -40]
    obs[L.OBS_COUNT:L.OBS_COUNT + 4] = [5, 4, 8, 2]
    obs[L.OBS_PASSING + 1] = 1
    # my hand: a wild, colour 1 values 3 and 9, colour 3 value 12; unseen: a wild, colour 1 {2, 5, 17},
    # colour 2 {4, 6}, colour 4 {7, 8}
    obs[L.OBS_MINE:L.OBS_MINE + 5] = [1, (1 << 3) | (1 << 9), 0, 1 << 12, 0]
    obs[L.OBS_UNSEEN:L.OBS_UNSEEN + 5] = [1, (1 << 2) | (1 << 5) | (1 << 17), (1 << 4) | (1 << 6), 0,
                                          (1 << 7) | (1 << 8)]
    return obs


def _fool_expected():
    # totals: mine 10, others -20, 10, -40: level with the best, 10 + 50/3 above their mean, tied first of 4
    # progress: the lowest total -40 is half the loss limit 80, the tallies 2 of 6 a third: 0.5
    # my penalty: wild 5 + 3 + 9 + 12 = 29; unseen: 8 cards worth 5 + 24 + 10 + 15 = 54, 6.75 each
    # projected: the best other is seat 2, 10 - 8 x 6.75 = -44; mine 10 - 29 = -19
    rank = (3 - 0.5) / 3
    return {0: 0.0, 1: (10 + 50 / 3) / 80, 2: rank, 3: 10 / 80, 4: 0.5, 5: 0.0, 6: rank * 0.5,
            7: 4 / 12, 8: 29 / 80, 9: 2 / 12, 10: 2 / 12, 11: 5 / 12, 12: (-19 + 44) / 80, 13: 1.0, 14: 1 / 3,
            15: 2 / 4,           # void in colours 2 and 4
            16: 1 / 12,          # the 12 of colour 3 (nothing of it unseen); nothing above the unseen 17
            17: 0.0,             # nothing below the unseen 2 of colour 1
            18: 2 / 12, 19: 2 / 4, 20: 1 / 3, 21: 0.4, 22: 6 / 12,
            23: 1.0, 24: 0.0, 25: 0.0, 26: 0.0, 27: 0.0}


def _fair_enough_obs():
    from simulator.fair_enough import layout as L
    obs = np.zeros(L.OBS_SIZE, np.int64)
    obs[L.OBS_PLAYERS], obs[L.OBS_SEAT], obs[L.OBS_ROUNDS], obs[L.OBS_ROUND], obs[L.OBS_START] = 4, 2, 6, 3, 1
    obs[L.OBS_KINDS] = 9
    obs[L.OBS_TIMES_USED:L.OBS_TIMES_USED + 4] = [19, 31, 16, 22]  # round 3's time card is up: Collecting
    obs[L.OBS_TIME_CARD], obs[L.OBS_TIME] = 22, 11
    obs[L.OBS_ROW_N] = 3
    obs[L.OBS_ROW_KIND:L.OBS_ROW_KIND + 3] = [1, -1, 4]
    obs[L.OBS_HAND_N:L.OBS_HAND_N + 4] = [3, 6, 7, 2]
    obs[L.OBS_COLLECTED_N:L.OBS_COLLECTED_N + 4] = [12, 5, 10, 10]
    obs[L.OBS_PLACED_N + 2], obs[L.OBS_PLACED_VALUE + 2] = 2, 9
    obs[L.OBS_PLACED_KIND + 2 * L.MAX_KINDS + 0] = 1
    obs[L.OBS_PLACED_KIND + 2 * L.MAX_KINDS + 6] = 1
    for k, n in ((0, 4), (1, 2), (2, 1), (5, 3)):
        obs[L.OBS_MY_KIND + k] = n
    for k, n in ((1, 1), (2, 2), (7, 1)):
        obs[L.OBS_MY_HAND_KIND + k] = n
    obs[L.OBS_MY_HAND_VALUE] = 14
    obs[L.OBS_MY_HAND_SPECIAL + L.QUEUE], obs[L.OBS_MY_HAND_SPECIAL + L.SOLD_OUT] = 1, 2
    return obs


def _fair_enough_expected():
    # collection 4 + 2 + 1 + 3 = 10 cards, sets of 4 and 3: bonus 10 + 5 = 15
    # hand: values 14, three specials: penalty 2 x 14 + 30 = 58; estimated score 5.5 x 10 + 15 - 58 = 12
    # the hand would complete kind 1 (2 + 1) and kind 2 (1 + 2): +5 +5; placed kind 0 makes 5 of it: +5
    # collected 10 against 12, 5, 10: 2 behind the best, 1 above the mean 9, second with one tie of four
    progress = 3.5 / 6
    return {0: 12 / 50, 1: 12 / 50 * progress, 2: -0.2, 3: 0.1, 4: (3 - 1 - 0.5) / 3, 5: -0.2 * progress,
            6: 15 / 50, 7: 10 / 20, 8: 4 / 10, 9: 1 / 5, 10: 58 / 50, 11: 4 / 10, 12: 0.5, 13: 0.0, 14: 1.0,
            15: 10 / 50, 16: 2 / 5, 17: 9 / 20, 18: 5 / 50, 19: 0.0, 20: 11 / 22, 21: 1.0,
            22: (7 - 11 / 3) / 10, 23: progress,
            24: 1 / 3,       # the face-up kind 1 (2 collected + 1 in hand); kind 4 is not held; a special
            25: 1 / 4, 26: 2 / 3, 27: 0.0, 28: 0.0, 29: 1.0, 30: 0.0}


def _fauch_fertig_obs():
    from simulator.fauch_fertig import layout as L
    obs = np.zeros(L.OBS_SIZE, np.int64)
    obs[L.OBS_PLAYERS], obs[L.OBS_SEAT], obs[L.OBS_EGGS], obs[L.OBS_ROUND] = 3, 1, 12, 10
    obs[L.OBS_COINS], obs[L.OBS_PILE] = 1, 30
    obs[L.OBS_PLACED:L.OBS_PLACED + 3] = [5, 3, 7]
    obs[L.OBS_OWNER:L.OBS_OWNER + L.N_CARDS] = -1
    # (card id, owner, eggs on it, colour, number, condition)
    cards = [(0, 1, 0, 0, 1, (L.C_COLOUR, 4, 0, 0)),     # blue 1: 4 blue cards
             (2, 1, 0, 0, 2, (L.C_RANGE, 6, 1, 4)),      # blue 2: 6 cards 1-4
             (20, 1, 0, 1, 3, (L.C_SETS, 2, 3, 0)),      # green 3: 2 sets of 3
             (64, 1, 1, 4, 0, (L.C_BONUS, 0, 0, 0)),     # black: black-card bonus, one egg taken
             (33, 1, 1, 2, 1, (L.C_FREE, 0, 0, 0)),      # purple 1: free egg, taken
             (48, 0, 0, 3, 1, (L.C_BLACK, 2, 0, 0)),     # red 1 of seat 0: 2 black cards
             (4, -1, 0, 0, 3, (L.C_COLOUR, 4, 0, 0)),    # blue 3 in the market
             (65, -1, 0, 4, 0, (L.C_FREE, 0, 0, 0))]     # black in the market
    for card, owner, eggs, colour, number, cond in cards:
        obs[L.OBS_OWNER + card], obs[L.OBS_EGGS_ON + card] = owner, eggs
        obs[L.OBS_CARD_COLOUR + card], obs[L.OBS_CARD_NUMBER + card] = colour, number
        obs[L.OBS_CARD_COND + 4 * card:L.OBS_CARD_COND + 4 * card + 4] = cond
        if owner >= 0:
            obs[L.OBS_COLOUR_COUNT + 5 * owner + colour] += 1
            obs[L.OBS_NUMBER_COUNT + 9 * owner + number] += number > 0
    obs[L.OBS_MARKET:L.OBS_MARKET + 3] = [4, 65, -1]
    obs[L.OBS_MARKET_COINS:L.OBS_MARKET_COINS + 3] = [1, 2, 0]
    obs[L.OBS_COMMUNITY_N] = 3
    obs[L.OBS_COMMUNITY:L.OBS_COMMUNITY + 4] = [L.C_COLOUR, 5, -1, 0]   # seats 0 and 1: 5 of one colour
    obs[L.OBS_COMMUNITY + 4:L.OBS_COMMUNITY + 8] = [L.C_BLACK, 4, 0, 0]  # seats 1 and 2: done
    obs[L.OBS_COMMUNITY_DONE + 1] = 1
    obs[L.OBS_COMMUNITY + 8:L.OBS_COMMUNITY + 12] = [L.C_BLACK, 4, 0, 0]  # seats 2 and 0: not seat 1's
    return obs


def _fauch_fertig_expected():
    # seat 1's display: blue 1, blue 2, green 3, purple 1, black. Open: 4 blue (has 2: two away),
    # 6 cards 1-4 (has 1, 2, 3, 1: two away), 2 sets of 3 (two 1s, a 2, a 3: one 1 and two more of a
    # number: three away). Eggs in reach 1/4 + 1/4 + 1/8. Seat 0's 2 black cards: two away (1/4).
    # Eggs placed 5, 3, 7: last, 4 behind the best, 3 below the mean; the best other with reach is seat 2 (7).
    # Community 0 (seats 0 and 1 together: 2 blue, 1 green, 1 purple, 1 red) needs 3 more of one colour.
    # The market's blue 3 brings all three open cards closer; the black card none.
    progress = 7 / 12
    reach = 1 / 4 + 1 / 4 + 1 / 8
    return {0: -4 / 12, 1: -3 / 12, 2: 0.0, 3: 3 / 12, 4: progress, 5: -4 / 12 * progress, 6: 0.0,
            7: reach / 4, 8: (3 + reach - 7) / 12, 9: (3 + reach - 7) / 12 * progress,
            10: 0.0, 11: 2 / 4, 12: 3 / 10, 13: 5 / 20, 14: 1 / 4, 15: (1 / 8) / 2, 16: 1 / 10, 17: 3 / 6,
            18: 3 / 4, 19: 3 / 8, 20: 1 / 2, 21: 10 / 30, 22: 30 / 72, 23: 1.0, 24: 0.0, 25: 1.0, 26: 0.0}


HAND_CHECKED = {"forks": (_forks_obs, _forks_expected), "fool": (_fool_obs, _fool_expected),
                "fair-enough": (_fair_enough_obs, _fair_enough_expected),
                "fauch-fertig": (_fauch_fertig_obs, _fauch_fertig_expected)}


@pytest.mark.parametrize("name", GAMES)
def test_values_of_a_constructed_observation(name):
    e = engine(name)
    make_obs, expected = HAND_CHECKED[name]
    out = np.full(e.N_FEATURES, np.nan)
    e.features(make_obs(), out)
    for j, value in expected().items():
        assert out[j] == pytest.approx(value, abs=1e-9), j
    assert len(expected()) == e.N_FEATURES


@pytest.mark.parametrize("name", GAMES)
def test_features_predict_held_out_win_shares(name):
    n_games, every = GAMES_TO_FIT[name]
    X, y, game, _ = record(name, n_games, seed=4, every=every)
    players = games.get(name).default_players
    test = game % 5 == 0
    A = np.column_stack([np.ones(len(X)), X])
    w = np.linalg.lstsq(A[~test], y[~test], rcond=None)[0]
    brier = np.mean((A[test] @ w - y[test]) ** 2)
    fair = np.mean((1 / players - y[test]) ** 2)
    assert brier < 0.98 * fair


GAMES_TO_FIT = {"forks": (300, 1), "fool": (100, 5), "fair-enough": (150, 2),
                "fauch-fertig": (60, 2)}  # games of random play, every n-th decision


def test_fauch_fertig_deficit_is_zero_exactly_when_the_condition_holds():
    from simulator.fauch_fertig import layout as L
    from simulator.fauch_fertig.conditions import holds
    from simulator.fauch_fertig.features import MAX_DEFICIT, deficit
    cfg = games.get("fauch-fertig").configure(4)
    conds = {tuple(int(x) for x in c) for c in cfg.arrays[2]}
    conds |= {(L.C_RUNS, 2, 4, 0), (L.C_RUNS, 1, 3, 0), (L.C_SETS, 3, 3, 0), (L.C_COLOURS, 3, 4, 0),
              (L.C_COLOUR, 5, -1, 0), (L.C_RANGE, 8, 1, 4), (L.C_DISTINCT, 8, 0, 0), (L.C_BLACK, 4, 0, 0)}
    conds = sorted(c for c in conds if c[0] not in (L.C_FREE, L.C_PAY, L.C_BONUS))
    rng = np.random.default_rng(8)
    obs = np.zeros(L.OBS_SIZE, np.int64)
    colours, numbers = np.zeros((1, 5), np.int64), np.zeros((1, 9), np.int64)
    met = 0
    for _ in range(400):
        cards = rng.choice(L.N_CARDS, size=rng.integers(0, 30), replace=False)
        colours[:] = 0
        numbers[:] = 0
        for card in cards:
            colours[0, L.card_colour(card)] += 1
            numbers[0, L.card_number(card)] += L.card_number(card) > 0
        obs[L.OBS_COLOUR_COUNT:L.OBS_COLOUR_COUNT + 5] = colours[0]
        obs[L.OBS_NUMBER_COUNT:L.OBS_NUMBER_COUNT + 9] = numbers[0]
        for kind, a, b, c in conds:
            d = deficit(obs, kind, a, b, c, 0, -1, -1, -1)
            assert 0 <= d <= MAX_DEFICIT
            assert (d == 0) == holds(kind, a, b, c, colours, numbers, 0), (kind, a, b, c, colours, numbers)
            met += d == 0
    assert met > 100


def test_fauch_fertig_deficits_worked_by_hand():
    from simulator.fauch_fertig import layout as L
    from simulator.fauch_fertig.features import deficit
    obs = np.zeros(L.OBS_SIZE, np.int64)
    obs[L.OBS_NUMBER_COUNT + 1:L.OBS_NUMBER_COUNT + 9] = [1, 1, 1, 1, 0, 1, 1, 1]   # numbers 1-4 and 6-8
    assert deficit(obs, L.C_RUNS, 2, 4, 0, 0, -1, -1, -1) == 1      # 1-4 and, with a 5, 5-8
    assert deficit(obs, L.C_RUNS, 2, 4, 0, 0, -1, -1, 5) == 0       # the added 5
    assert deficit(obs, L.C_SETS, 2, 3, 0, 0, -1, -1, -1) == 4      # two more of each of two numbers
    assert deficit(obs, L.C_DISTINCT, 7, 0, 0, 0, -1, -1, -1) == 0
    obs[L.OBS_COLOUR_COUNT:L.OBS_COLOUR_COUNT + 5] = [3, 0, 1, 0, 1]
    obs[L.OBS_COLOUR_COUNT + 5:L.OBS_COLOUR_COUNT + 10] = [0, 2, 1, 0, 0]   # seat 1
    assert deficit(obs, L.C_COLOURS, 2, 4, 0, 0, -1, -1, -1) == 5     # 2 + 0 + 1 + 0 of the 8 needed
    assert deficit(obs, L.C_COLOURS, 2, 4, 0, 0, 1, -1, -1) == 2      # with seat 1: 2 + 2 + 2 + 0 of 8
    assert deficit(obs, L.C_COLOUR, 4, -1, 0, 0, -1, -1, -1) == 1
    assert deficit(obs, L.C_COLOUR, 4, 1, 0, 0, -1, 1, -1) == 3       # green: none, plus the added green
