"""Fair Enough fast engine: flat arrays, no allocation inside a game.

``play_game`` is a kernel template (the batch loop and tracer are shared) that
``simulator.core.kernels.bind_engine`` compiles against a strategy
dispatcher ``decide(sid, seat, rngs, params, rng, par, kind, opt, n_options,
obs) -> int`` (see ``simulator.fair_enough.layout`` for the decisions, the
observation and the trace layout). The helpers below are jit-compiled with
``cache=True``.

The scratch of one thread (``new_scratch``) is a tuple of arrays that
``play_game`` unpacks once per game; helpers take the arrays they need as
arguments (taking arrays out of a tuple costs reference counting on every
call). Small counters live in ``st`` (indices ``ST_*``); the per-seat
counters a strategy may see (hand sizes, placed piles, secured flags) live
directly in ``obs``. A hand's summary ``hstat[seat]`` holds the count per
kind, then the total value (``H_VALUE``), then the specials (``H_SPECIAL +
special``); a collection's ``coll[seat]`` the count per kind, then the value.
"""

import numba as nb
import numpy as np

from simulator.core.cards import fresh_deck
from simulator.core.rng import seed_game, shuffle
from simulator.fair_enough.layout import (COLLECT, G_RESHUFFLES, G_ROUNDS, G_ZERO, MAX_KINDS, MAX_TIMES, NONE,
                                          OBS_COLLECTED_N, OBS_DECK, OBS_DISCARD, OBS_HAND_N, OBS_KINDS,
                                          OBS_MY_HAND_KIND, OBS_MY_HAND_SPECIAL, OBS_MY_HAND_VALUE, OBS_MY_KIND,
                                          OBS_N_TIMES, OBS_PENDING_KIND, OBS_PENDING_VALUE, OBS_PLACED_KIND,
                                          OBS_PLACED_N, OBS_PLACED_VALUE, OBS_PLAYERS, OBS_ROUND, OBS_ROUNDS,
                                          OBS_ROW_KIND, OBS_ROW_N, OBS_ROW_SPECIAL, OBS_ROW_VALUE, OBS_SEAT,
                                          OBS_SECURED, OBS_SIZE, OBS_START, OBS_TIME, OBS_TIME_CARD, OBS_TIMES_ALL,
                                          OBS_TIMES_USED, OPT_A, OPT_B, OPT_KIND, OPT_OWNER, OPT_SPECIAL, OPT_TIME,
                                          OPT_VALUE, OPT_WIDTH, PREORDER, QUEUE, R_HAND_MAX, R_KINDS, R_N_TIMES,
                                          R_PLAYERS, R_ROUNDS, RESEARCH, S_COLLECTED, S_COLLECTED_VALUE, S_FIRST,
                                          S_HAND_PENALTY, S_LARGEST, S_LOST_CLOSE, S_LOST_SOLD, S_QUEUE, S_SET_BONUS,
                                          SECURE, SOLD_OUT, STANDING_SCALE, T_PLACE, T_SECURE, T_SHUFFLE, T_TAKE,
                                          TARGET)

ALLOCATION_FREE = True  # play_game creates no arrays or views: compiled without reference counting

ST_DECK_POS, ST_DECK_N, ST_DISC_N, ST_ROW_N, ST_T, ST_RECORD = range(6)
H_VALUE = MAX_KINDS          # hstat column: total value of the collection cards in hand
H_SPECIAL = MAX_KINDS        # hstat column H_SPECIAL + s: specials s (QUEUE..SOLD_OUT) in hand
H_WIDTH = MAX_KINDS + 4
C_VALUE = MAX_KINDS          # coll column: total value secured


@nb.njit(cache=True)
def new_scratch(arrays, params):
    """Allocate the working arrays for one thread. Jit-compiled."""
    card_kind, card_value, card_special, time_cards, rules = arrays
    players = rules[R_PLAYERS]
    n = card_kind.size
    hmax = rules[R_HAND_MAX]
    max_opt = max(1 + 4 * hmax, players * hmax, 7)
    return (np.zeros(8, np.int64),                     # st: counters
            np.empty(n, np.int64),                     # deck
            np.empty(n, np.int64),                     # discard pile
            np.empty(3, np.int64),                     # face-up row
            np.empty((players, hmax), np.int64),       # hands
            np.zeros((players, H_WIDTH), np.int64),    # hand summaries
            np.empty((players, hmax), np.int64),       # placed, unsecured cards
            np.zeros((players, MAX_KINDS + 1), np.int64),  # collections: per kind, then value
            np.empty(MAX_TIMES, np.int64),             # time deck
            np.zeros(OBS_SIZE, np.int64),              # observation
            np.empty((max_opt, OPT_WIDTH), np.int64),  # options shown to the strategy
            np.empty((max_opt, 2), np.int64),          # what each option refers to
            np.empty((players + 1, 4), np.uint64),     # random streams: chance, then one per seat
            np.empty(4, np.uint64),                    # the deciding seat's stream
            np.empty(params.shape[1], np.float64))     # the deciding seat's parameters


@nb.njit(cache=True, inline="always")
def _emit(st, trace, x):
    """Append ``x`` to the trace when recording. Jit-compiled."""
    if st[ST_RECORD]:
        trace[st[ST_T]] = x
        st[ST_T] += 1


@nb.njit(cache=True, inline="always")
def _discard(st, discard, obs, card):
    """Put ``card`` on the discard pile. Jit-compiled."""
    discard[st[ST_DISC_N]] = card
    st[ST_DISC_N] += 1
    obs[OBS_DISCARD] = st[ST_DISC_N]


@nb.njit(cache=True, inline="always")
def _draw(st, deck, discard, chance, obs, game_stats, trace):
    """Top card of the deck, reshuffling the discard pile into it when empty; -1 if both are empty. Jit-compiled."""
    if st[ST_DECK_POS] == st[ST_DECK_N]:
        k = st[ST_DISC_N]
        if k == 0:
            return -1
        for i in range(k):
            deck[i] = discard[i]
        shuffle(deck, k, chance)
        st[ST_DECK_POS] = 0
        st[ST_DECK_N] = k
        st[ST_DISC_N] = 0
        obs[OBS_DISCARD] = 0
        game_stats[G_RESHUFFLES] += 1
        _emit(st, trace, T_SHUFFLE)
        _emit(st, trace, k)
        for i in range(k):
            _emit(st, trace, deck[i])
    card = deck[st[ST_DECK_POS]]
    st[ST_DECK_POS] += 1
    obs[OBS_DECK] = st[ST_DECK_N] - st[ST_DECK_POS]
    return card


@nb.njit(cache=True, inline="always")
def _refill(st, deck, discard, row, obs, chance, card_kind, card_value, card_special, game_stats, trace):
    """Turn up cards until three lie face up (or deck and discard pile are both empty). Jit-compiled."""
    while st[ST_ROW_N] < 3:
        card = _draw(st, deck, discard, chance, obs, game_stats, trace)
        if card < 0:
            break
        row[st[ST_ROW_N]] = card
        st[ST_ROW_N] += 1
    n = st[ST_ROW_N]
    obs[OBS_ROW_N] = n
    for i in range(3):
        if i < n:
            obs[OBS_ROW_KIND + i] = card_kind[row[i]]
            obs[OBS_ROW_VALUE + i] = card_value[row[i]]
            obs[OBS_ROW_SPECIAL + i] = card_special[row[i]]
        else:
            obs[OBS_ROW_KIND + i] = -1
            obs[OBS_ROW_VALUE + i] = 0
            obs[OBS_ROW_SPECIAL + i] = NONE


@nb.njit(cache=True, inline="always")
def _to_hand(hand, hstat, obs, p, card, card_kind, card_value, card_special):
    """Add ``card`` to seat ``p``'s hand. Jit-compiled."""
    n = obs[OBS_HAND_N + p]
    hand[p, n] = card
    obs[OBS_HAND_N + p] = n + 1
    sp = card_special[card]
    if sp == NONE:
        hstat[p, card_kind[card]] += 1
        hstat[p, H_VALUE] += card_value[card]
    else:
        hstat[p, H_SPECIAL + sp] += 1


@nb.njit(cache=True, inline="always")
def _from_hand(hand, hstat, obs, p, i, card_kind, card_value, card_special):
    """Remove the card at hand index ``i`` of seat ``p`` (the last card fills the gap). Jit-compiled."""
    n = obs[OBS_HAND_N + p] - 1
    card = hand[p, i]
    hand[p, i] = hand[p, n]
    obs[OBS_HAND_N + p] = n
    sp = card_special[card]
    if sp == NONE:
        hstat[p, card_kind[card]] -= 1
        hstat[p, H_VALUE] -= card_value[card]
    else:
        hstat[p, H_SPECIAL + sp] -= 1
    return card


@nb.njit(cache=True, inline="always")
def _secure(placed, coll, obs, p, card_kind, card_value):
    """Seat ``p`` secures its placed cards and drops out of the phase. Jit-compiled."""
    n = obs[OBS_PLACED_N + p]
    for j in range(n):
        card = placed[p, j]
        coll[p, card_kind[card]] += 1
        coll[p, C_VALUE] += card_value[card]
        obs[OBS_PLACED_KIND + p * MAX_KINDS + card_kind[card]] = 0
    obs[OBS_COLLECTED_N + p] += n
    obs[OBS_PLACED_N + p] = 0
    obs[OBS_PLACED_VALUE + p] = 0
    obs[OBS_SECURED + p] = 1


@nb.njit(cache=True, inline="always")
def _view(hstat, coll, obs, p, kinds):
    """Write seat ``p``'s private part of the observation (its hand and collection). Jit-compiled."""
    obs[OBS_SEAT] = p
    for k in range(kinds):
        obs[OBS_MY_HAND_KIND + k] = hstat[p, k]
        obs[OBS_MY_KIND + k] = coll[p, k]
    for s in range(1, 4):
        obs[OBS_MY_HAND_SPECIAL + s] = hstat[p, H_SPECIAL + s]
    obs[OBS_MY_HAND_VALUE] = hstat[p, H_VALUE]


@nb.njit(cache=True, inline="always")
def _research_options(opt, row_n):
    """Fill the research options for a row of ``row_n`` cards (none, singles, pairs); return their number.
    Jit-compiled."""
    opt[0, OPT_A] = -1
    opt[0, OPT_B] = -1
    n = 1
    for a in range(row_n):
        opt[n, OPT_A] = a
        opt[n, OPT_B] = -1
        n += 1
    for a in range(row_n):
        for b in range(a + 1, row_n):
            opt[n, OPT_A] = a
            opt[n, OPT_B] = b
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def _take(st, row, hand, hstat, obs, p, a, b, card_kind, card_value, card_special):
    """Seat ``p`` takes the face-up cards at positions ``a`` and ``b`` (-1 = none); the rest keep
    their order. Jit-compiled."""
    if a >= 0:
        _to_hand(hand, hstat, obs, p, row[a], card_kind, card_value, card_special)
    if b >= 0:
        _to_hand(hand, hstat, obs, p, row[b], card_kind, card_value, card_special)
    k = 0
    for i in range(st[ST_ROW_N]):
        if i != a and i != b:
            row[k] = row[i]
            k += 1
    st[ST_ROW_N] = k


@nb.njit(cache=True, inline="always")
def _collect_options(hand, hstat, placed, obs, opt, ref, p, time, players, card_kind, card_value, card_special):
    """Fill the Collecting-phase options of seat ``p`` (row 0 = secure); return their number. Jit-compiled.

    A Sold Out row is listed when the highest placed, unsecured card would
    give back enough time; the target itself is a second decision.
    """
    opt[0, OPT_KIND] = -1
    opt[0, OPT_VALUE] = 0
    opt[0, OPT_SPECIAL] = SECURE
    opt[0, OPT_OWNER] = p
    opt[0, OPT_TIME] = time
    has_queue = hstat[p, H_SPECIAL + QUEUE] > 0
    has_preorder = hstat[p, H_SPECIAL + PREORDER] > 0
    best_back = -1  # highest value among placed, unsecured cards (the most time Sold Out can give back)
    if hstat[p, H_SPECIAL + SOLD_OUT] > 0:
        for q in range(players):
            for j in range(obs[OBS_PLACED_N + q]):
                best_back = max(best_back, card_value[placed[q, j]])
    n = 1
    for i in range(obs[OBS_HAND_N + p]):
        card = hand[p, i]
        if card_special[card] != NONE:
            continue
        v = card_value[card]
        for sp in range(4):
            if sp == NONE:
                after = time - v
                ok = after >= 0
            elif sp == QUEUE:
                after = time - 2 * v
                ok = has_queue and after >= 0
            elif sp == PREORDER:
                after = time
                ok = has_preorder
            else:
                after = time - v
                ok = best_back >= 0 and after + best_back >= 0
            if ok:
                opt[n, OPT_KIND] = card_kind[card]
                opt[n, OPT_VALUE] = v
                opt[n, OPT_SPECIAL] = sp
                opt[n, OPT_OWNER] = p
                opt[n, OPT_TIME] = after
                ref[n, 0] = i
                ref[n, 1] = sp
                n += 1
    return n


@nb.njit(cache=True, inline="always")
def _target_options(placed, obs, opt, ref, after, players, card_kind, card_value):
    """Fill the Sold Out targets: placed, unsecured cards whose time back keeps ``after`` >= 0. Jit-compiled."""
    n = 0
    for q in range(players):
        for j in range(obs[OBS_PLACED_N + q]):
            card = placed[q, j]
            v = card_value[card]
            if after + v >= 0:
                opt[n, OPT_KIND] = card_kind[card]
                opt[n, OPT_VALUE] = v
                opt[n, OPT_SPECIAL] = SOLD_OUT
                opt[n, OPT_OWNER] = q
                opt[n, OPT_TIME] = after + v
                ref[n, 0] = q
                ref[n, 1] = j
                n += 1
    return n


@nb.njit(cache=True, inline="always")
def _place(st, discard, hand, hstat, placed, obs, p, i, sp, target_seat, target_j, seat_stats,
           card_kind, card_value, card_special):
    """Seat ``p`` places hand card ``i`` with special ``sp``; Sold Out first removes placed card
    ``target_j`` of ``target_seat``. Return ``(card, special card or -1, target card or -1)``.
    Jit-compiled."""
    card = hand[p, i]
    target = -1
    if sp == SOLD_OUT:
        q, j = target_seat, target_j
        n = obs[OBS_PLACED_N + q] - 1
        target = placed[q, j]
        placed[q, j] = placed[q, n]
        obs[OBS_PLACED_N + q] = n
        obs[OBS_PLACED_VALUE + q] -= card_value[target]
        obs[OBS_PLACED_KIND + q * MAX_KINDS + card_kind[target]] -= 1
        _discard(st, discard, obs, target)
        seat_stats[q, S_LOST_SOLD] += 1
    special = -1
    if sp != NONE:
        s = 0
        while card_special[hand[p, s]] != sp:
            s += 1
        special = hand[p, s]
        seat_stats[p, S_QUEUE + sp - QUEUE] += 1
        _discard(st, discard, obs, special)
        if s > i:  # remove the higher index first so the lower one stays put
            _from_hand(hand, hstat, obs, p, s, card_kind, card_value, card_special)
            _from_hand(hand, hstat, obs, p, i, card_kind, card_value, card_special)
        else:
            _from_hand(hand, hstat, obs, p, i, card_kind, card_value, card_special)
            _from_hand(hand, hstat, obs, p, s, card_kind, card_value, card_special)
    else:
        _from_hand(hand, hstat, obs, p, i, card_kind, card_value, card_special)
    m = obs[OBS_PLACED_N + p]
    placed[p, m] = card
    obs[OBS_PLACED_N + p] = m + 1
    obs[OBS_PLACED_VALUE + p] += card_value[card]
    obs[OBS_PLACED_KIND + p * MAX_KINDS + card_kind[card]] += 1
    return card, special, target


@nb.njit(cache=True, inline="always")
def _close_fair(st, discard, placed, coll, obs, p, players, seat_stats, card_kind, card_value):
    """The time hit zero on seat ``p``'s turn: ``p`` secures, every other unsecured pile is discarded.
    Jit-compiled."""
    _secure(placed, coll, obs, p, card_kind, card_value)
    for q in range(players):
        if obs[OBS_SECURED + q] == 0:
            n = obs[OBS_PLACED_N + q]
            seat_stats[q, S_LOST_CLOSE] += n
            for j in range(n):
                _discard(st, discard, obs, placed[q, j])
            obs[OBS_PLACED_N + q] = 0
            obs[OBS_PLACED_VALUE + q] = 0
            for k in range(MAX_KINDS):
                obs[OBS_PLACED_KIND + q * MAX_KINDS + k] = 0


@nb.njit(cache=True, inline="always")
def _score(hstat, coll, obs, players, kinds, scores, standing, seat_stats):
    """Final scoring: values + 5 x (n - 2) per kind with n >= 3 - 2 x hand values - 10 per special. Jit-compiled."""
    for p in range(players):
        bonus = 0
        largest = 0
        for k in range(kinds):
            n = coll[p, k]
            if n >= 3:
                bonus += 5 * (n - 2)
            largest = max(largest, n)
        specials = hstat[p, H_SPECIAL + QUEUE] + hstat[p, H_SPECIAL + PREORDER] + hstat[p, H_SPECIAL + SOLD_OUT]
        penalty = 2 * hstat[p, H_VALUE] + 10 * specials
        seat_stats[p, S_COLLECTED] = obs[OBS_COLLECTED_N + p]
        seat_stats[p, S_COLLECTED_VALUE] = coll[p, C_VALUE]
        seat_stats[p, S_SET_BONUS] = bonus
        seat_stats[p, S_HAND_PENALTY] = penalty
        seat_stats[p, S_LARGEST] = largest
        scores[p] = coll[p, C_VALUE] + bonus - penalty
        standing[p] = scores[p] * STANDING_SCALE + largest


@nb.njit(cache=True, inline="always")
def _new_game(arrays, st, deck, discard, row, hand, hstat, coll, times, obs, rngs, seed, game,
              seat_stats, game_stats, trace):
    """Reset the state, shuffle deck and time deck, deal three cards each and turn up the row.
    Jit-compiled."""
    card_kind, card_value, card_special, time_cards, rules = arrays
    players, n_times, n_cards = rules[R_PLAYERS], rules[R_N_TIMES], card_kind.size
    seed_game(rngs, seed, game)
    fresh_deck(deck, n_cards, rngs[0])
    for i in range(n_times):
        times[i] = time_cards[i]
    shuffle(times, n_times, rngs[0])
    record = st[ST_RECORD]
    st[:] = 0
    st[ST_RECORD] = record
    st[ST_DECK_N] = n_cards
    obs[:] = 0
    hstat[:] = 0
    coll[:] = 0
    seat_stats[:] = 0
    game_stats[:] = 0
    _emit(st, trace, n_cards)
    for i in range(n_cards):
        _emit(st, trace, deck[i])
    _emit(st, trace, n_times)
    for i in range(n_times):
        _emit(st, trace, times[i])
    obs[OBS_PLAYERS] = players
    obs[OBS_ROUNDS] = rules[R_ROUNDS]
    obs[OBS_KINDS] = rules[R_KINDS]
    obs[OBS_N_TIMES] = n_times
    for i in range(n_times):  # the time deck's cards, ascending (insertion sort)
        t = time_cards[i]
        j = i
        while j > 0 and obs[OBS_TIMES_ALL + j - 1] > t:
            obs[OBS_TIMES_ALL + j] = obs[OBS_TIMES_ALL + j - 1]
            j -= 1
        obs[OBS_TIMES_ALL + j] = t
    for p in range(players):
        for _ in range(3):
            card = _draw(st, deck, discard, rngs[0], obs, game_stats, trace)
            _to_hand(hand, hstat, obs, p, card, card_kind, card_value, card_special)
    _refill(st, deck, discard, row, obs, rngs[0], card_kind, card_value, card_special, game_stats, trace)


def play_game(arrays, sids, params, seed, game, scratch, scores, standing, seat_stats, game_stats,
              trace, record):
    """Kernel template: play game ``game`` of run ``seed``; return the trace length (0 unless ``record``),
    or -(1+seat) if that seat chose illegally.

    Writes the seat scores, ``standing`` (score, then largest set), the seat
    statistics of ``layout.SEAT_COLUMNS`` and the game statistics of
    ``layout.GAME_COLUMNS``. With ``record`` the trace goes to ``trace``.
    """
    card_kind, card_value, card_special, time_cards, rules = arrays
    st, deck, discard, row, hand, hstat, placed, coll, times, obs, opt, ref, rngs, rng, par = scratch
    players, rounds, kinds = rules[R_PLAYERS], rules[R_ROUNDS], rules[R_KINDS]
    chance = rngs[0]
    st[ST_RECORD] = 1 if record else 0
    _new_game(arrays, st, deck, discard, row, hand, hstat, coll, times, obs, rngs, seed, game,
              seat_stats, game_stats, trace)
    start = 0
    for r in range(rounds):
        obs[OBS_ROUND] = r
        obs[OBS_START] = start
        # research: two turns each from the start player
        for turn in range(2 * players):
            p = (start + turn) % players
            _view(hstat, coll, obs, p, kinds)
            n = _research_options(opt, st[ST_ROW_N])
            k = decide(sids[p], p, rngs, params, rng, par, RESEARCH, opt, n, obs)  # noqa: F821 (bound)
            if k < 0 or k >= n:
                return -(1 + p)
            a, b = opt[k, OPT_A], opt[k, OPT_B]
            _emit(st, trace, T_TAKE)
            _emit(st, trace, a)
            _emit(st, trace, b)
            _take(st, row, hand, hstat, obs, p, a, b, card_kind, card_value, card_special)
            _refill(st, deck, discard, row, obs, chance, card_kind, card_value, card_special, game_stats, trace)

        # collecting: the round's time card, turns clockwise from the start player
        time = times[r]
        obs[OBS_TIME_CARD] = time
        obs[OBS_TIMES_USED + r] = time
        for q in range(players):
            obs[OBS_SECURED + q] = 0
        first = -1
        out = 0
        p = start
        while True:
            obs[OBS_TIME] = time
            _view(hstat, coll, obs, p, kinds)
            n = _collect_options(hand, hstat, placed, obs, opt, ref, p, time, players,
                                 card_kind, card_value, card_special)
            k = decide(sids[p], p, rngs, params, rng, par, COLLECT, opt, n, obs)  # noqa: F821 (bound)
            if k < 0 or k >= n:
                return -(1 + p)
            if k == 0:
                _emit(st, trace, T_SECURE)
                _secure(placed, coll, obs, p, card_kind, card_value)
                if first < 0:
                    first = p
                out += 1
                if out == players:
                    break
            else:
                i, sp, after = ref[k, 0], ref[k, 1], opt[k, OPT_TIME]
                q, j = -1, -1
                if sp == SOLD_OUT:
                    obs[OBS_PENDING_KIND] = card_kind[hand[p, i]]
                    obs[OBS_PENDING_VALUE] = card_value[hand[p, i]]
                    m = _target_options(placed, obs, opt, ref, after, players, card_kind, card_value)
                    t = decide(sids[p], p, rngs, params, rng, par, TARGET, opt, m, obs)  # noqa: F821 (bound)
                    if t < 0 or t >= m:
                        return -(1 + p)
                    q, j, after = ref[t, 0], ref[t, 1], opt[t, OPT_TIME]
                card, special, target = _place(st, discard, hand, hstat, placed, obs, p, i, sp, q, j, seat_stats,
                                               card_kind, card_value, card_special)
                _emit(st, trace, T_PLACE)
                _emit(st, trace, card)
                _emit(st, trace, special)
                _emit(st, trace, target)
                time = after
                if time == 0:
                    _close_fair(st, discard, placed, coll, obs, p, players, seat_stats, card_kind, card_value)
                    game_stats[G_ZERO] += 1
                    if first < 0:
                        first = p
                    break
            p = (p + 1) % players
            while obs[OBS_SECURED + p] == 1:
                p = (p + 1) % players
        seat_stats[first, S_FIRST] += 1
        start = first
    obs[OBS_TIME] = 0
    _score(hstat, coll, obs, players, kinds, scores, standing, seat_stats)
    game_stats[G_ROUNDS] = rounds
    return st[ST_T]

