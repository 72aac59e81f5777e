"""Fair Enough fast engine: the game as a steppable state (the verbs of ``simulator.core.state``).

A state is the tuple of the slots ``STATE`` declared in
``simulator.fair_enough.rules`` (read as ``state[ST_HAND]`` and so on): the
head (the common fields of ``simulator.core.state``, then the fields
``HD_*``), the streams and the game arrays, then per-thread buffers (the
observation, the options and their action ids shown to a strategy, the
deciding seat's stream and parameters for the dispatcher, and the scratch of
``determinize``). ``new_state`` and ``copy_state`` are generated from that
declaration (``simulator.core.slots``).

Decisions are ``layout.RESEARCH`` (two turns per seat and round from the
start player), ``COLLECT`` (clockwise over the seats that have not secured)
and ``TARGET`` (the same seat again, after it chose to place a card with
Sold Out); the actions are the ids of ``simulator.fair_enough.layout``.
Chance (turning up cards, reshuffling the discard pile, revealing the time
card) runs inside ``reset`` and ``apply``.

Every verb is jit-compiled with ``cache=True`` and creates no array
(``allocation_free`` in ``GAME``); ``choose`` is the kernel template that
``simulator.core.kernels.bind_engine`` compiles against a strategy
dispatcher ``decide(sid, seat, rngs, params, rng, par, kind, opt, n_options,
obs) -> int``.
"""

import numba as nb
import numpy as np

from simulator.core.bound import unbound
from simulator.core.cards import fresh_deck, rank_table, sort_by_rank, sort_range
from simulator.core.inlining import VERBS
from simulator.core.rng import next_u64, randint, seed_game, shuffle
from simulator.core.state import (H_FINISHED, H_KIND, H_TO_MOVE, ST_HEAD, ST_RNGS, copy_2d, decision_kind, illegal,
                                  to_move)
from simulator.core.state import no_horizon_mark as horizon_mark  # noqa: F401 (the state API)
from simulator.fair_enough.features import N_FEATURES, OBS_SIZE, SEAT_FEATURE, features  # noqa: F401 (the state API)
from simulator.fair_enough.layout import (A_PLACE, A_TARGET, COLLECT, GC_FINISHED, GC_RESHUFFLES, GC_ROUNDS, GC_ZERO,
                                          HAND_MAX, K_PLACE, K_TARGET, OBS_HAND_N, OBS_KINDS, OBS_MY_HAND_KIND,
                                          OBS_N_TIMES, OBS_PENDING_KIND, OBS_PENDING_VALUE, OBS_PLAYERS, OBS_ROUND,
                                          OBS_ROUNDS, OBS_SECURED, OBS_START, OBS_TIME, OBS_TIMES_ALL, OBS_TIMES_USED,
                                          OBS_TIME_CARD, RESEARCH, R_KINDS, R_N_TIMES, R_PLAYERS, R_ROUNDS, SC_FIRST,
                                          SOLD_OUT, TARGET, TR_PLACE, TR_SECURE, TR_TAKE)
from simulator.fair_enough.rules import (HD_AFTER, HD_DECK_N, HD_DECK_POS, HD_FIRST, HD_OUT, HD_PENDING, HD_RECORD,
                                         HD_RESHUFFLES, HD_ROUND, HD_ROW_N, HD_START, HD_TIME, HD_TURN, HD_ZERO, STATE,
                                         ST_ACT, ST_COLL, ST_COUNTS, ST_DECK, ST_DISCARD, ST_HAND, ST_HAND_STAT,
                                         ST_HIDDEN, ST_OBS, ST_OPT, ST_PAR, ST_PLACED, ST_POOL, ST_PUBLIC, ST_RANKS,
                                         ST_RNG, ST_TIMES, close_fair, collect_options, draw, emit, place, refill,
                                         research_options, research_positions, score, secure, summarize_hand, take,
                                         target_options, time_after, to_hand, view)

# the names the templates here are bound with (simulator.core.bound)
decide = unbound("decide")


@nb.njit(cache=True)
def _face_ranks(arrays):
    """The ``rank_table`` ordering the card ids by their face (kind, value, special), then by id. Jit-compiled."""
    card_kind, card_value, card_special = arrays[0], arrays[1], arrays[2]
    n = card_kind.size
    key = np.empty(n, np.int64)
    for c in range(n):
        key[c] = ((card_kind[c] * 1024 + card_value[c]) * 8 + card_special[c]) * n + c
    return rank_table(key)


_allocate = STATE.allocator()
_copy_game = STATE.copier()


@nb.njit(cache=True)
def new_state(arrays, params):
    """Allocate one thread's state (the slots ``ST_*`` of ``simulator.fair_enough.rules``); it holds no game until
    ``reset``. Jit-compiled."""
    state = _allocate(arrays[0].size, arrays[4][R_PLAYERS], max(1, params.shape[1]))
    state[ST_HEAD][H_TO_MOVE] = -1
    copy_2d(state[ST_RANKS], _face_ranks(arrays))
    return state


@nb.njit(cache=True, _nrt=False, inline="always")
def _start_research(head, pub, r, start):
    """Round ``r`` begins: the start player has the first research turn. Jit-compiled."""
    head[HD_ROUND] = r
    head[HD_START] = start
    head[HD_TURN] = 0
    head[H_TO_MOVE] = start
    head[H_KIND] = RESEARCH
    pub[OBS_ROUND] = r
    pub[OBS_START] = start


@nb.njit(cache=True, _nrt=False, inline="always")
def _start_collecting(head, pub, times, players):
    """Reveal the round's time card; the start player has the first Collecting turn. Jit-compiled."""
    r = head[HD_ROUND]
    time = times[r]
    pub[OBS_TIME_CARD] = time
    pub[OBS_TIMES_USED + r] = time
    for q in range(players):
        pub[OBS_SECURED + q] = 0
    head[HD_TIME] = time
    head[HD_FIRST] = -1
    head[HD_OUT] = 0
    head[H_TO_MOVE] = head[HD_START]
    head[H_KIND] = COLLECT
    pub[OBS_TIME] = time


@nb.njit(cache=True, _nrt=False, inline="always")
def _next_collector(head, pub, players):
    """The turn passes clockwise to the next seat that has not secured. Jit-compiled."""
    p = (head[H_TO_MOVE] + 1) % players
    while pub[OBS_SECURED + p] == 1:
        p = (p + 1) % players
    head[H_TO_MOVE] = p
    head[H_KIND] = COLLECT
    pub[OBS_TIME] = head[HD_TIME]


@nb.njit(cache=True, _nrt=False, inline="always")
def _end_round(head, pub, counts, rounds):
    """The Collecting phase is over: the first to secure takes the Starting Player Card; the next round
    begins, or the game ends. Jit-compiled."""
    first = head[HD_FIRST]
    counts[first, SC_FIRST] += 1
    r = head[HD_ROUND] + 1
    if r < rounds:
        _start_research(head, pub, r, first)
    else:
        head[HD_ROUND] = r
        head[HD_START] = first
        head[H_TO_MOVE] = -1
        head[H_FINISHED] = 1
        pub[OBS_TIME] = 0


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def reset(state, arrays, seed, game, trace, record):
    """Deal game ``game`` of run ``seed``: shuffle deck and time deck, deal three cards each, turn up the
    row; the start player (seat 0) is to research. With ``record`` the trace goes to ``trace``.
    Jit-compiled."""
    head, rngs, deck, discard = state[ST_HEAD], state[ST_RNGS], state[ST_DECK], state[ST_DISCARD]
    times = state[ST_TIMES]
    hand, hstat, coll, pub = state[ST_HAND], state[ST_HAND_STAT], state[ST_COLL], state[ST_PUBLIC]
    counts, hidden = state[ST_COUNTS], state[ST_HIDDEN]
    card_kind, card_value, card_special, time_cards, rules = arrays
    players, n_times, n_cards = rules[R_PLAYERS], rules[R_N_TIMES], card_kind.size
    head[:] = 0
    head[HD_RECORD] = 1 if record else 0
    head[HD_DECK_N] = n_cards
    pub[:] = 0
    hstat[:] = 0
    coll[:] = 0
    counts[:] = 0
    hidden[:] = 0
    seed_game(rngs, seed, game)
    chance = rngs[0]
    fresh_deck(deck, n_cards, chance)
    for i in range(n_times):
        times[i] = time_cards[i]
    shuffle(times, n_times, chance)
    emit(head, trace, n_cards)
    for i in range(n_cards):
        emit(head, trace, deck[i])
    emit(head, trace, n_times)
    for i in range(n_times):
        emit(head, trace, times[i])
    pub[OBS_PLAYERS] = players
    pub[OBS_ROUNDS] = rules[R_ROUNDS]
    pub[OBS_KINDS] = rules[R_KINDS]
    pub[OBS_N_TIMES] = n_times
    for i in range(n_times):  # the time deck's cards, ascending (insertion sort)
        t = time_cards[i]
        j = i
        while j > 0 and pub[OBS_TIMES_ALL + j - 1] > t:
            pub[OBS_TIMES_ALL + j] = pub[OBS_TIMES_ALL + j - 1]
            j -= 1
        pub[OBS_TIMES_ALL + j] = t
    for p in range(players):
        for _ in range(3):
            card = draw(head, deck, discard, chance, pub, trace)
            to_hand(hand, hstat, pub, p, card, card_kind, card_value, card_special)
            hidden[card] = 1
    refill(state, arrays, trace)
    _start_research(head, pub, 0, 0)


@nb.njit(cache=True, _nrt=False, inline="always")
def _options(state, arrays, act):
    """Fill the options of the pending decision into the state's option buffer and their action ids into
    ``act``; return their number. Jit-compiled."""
    head, placed, pub, opt = state[ST_HEAD], state[ST_PLACED], state[ST_PUBLIC], state[ST_OPT]
    card_kind, card_value, players = arrays[0], arrays[1], arrays[4][R_PLAYERS]
    kind = head[H_KIND]
    if kind == RESEARCH:
        return research_options(opt, act, head[HD_ROW_N])
    if kind == COLLECT:
        return collect_options(state, arrays, act)
    return target_options(placed, pub, opt, act, head[HD_AFTER], players, card_kind, card_value)


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def legal_actions(state, arrays, actions):
    """Write the legal action ids of the seat to move into ``actions`` (size ``layout.MAX_ACTIONS`` holds
    any list), in the order of the options its strategy is shown; return their number. Jit-compiled."""
    return _options(state, arrays, actions)


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def move_key(state, arrays, action):
    """The move ``action`` of the seat to move as every seat sees it (``layout``, "Move keys"): research and
    secure as they are, a placement by the placed card's id and the special, a Sold Out target by its public
    pile position. Jit-compiled."""
    if action < A_PLACE:
        return np.int64(action)
    if action < A_TARGET:
        i, sp = (action - A_PLACE) // 4, (action - A_PLACE) % 4
        return K_PLACE + 4 * state[ST_HAND][state[ST_HEAD][H_TO_MOVE], i] + sp
    return K_TARGET + action - A_TARGET


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def observe(state, arrays, seat, obs):
    """Write what ``seat`` sees into ``obs`` (``layout.OBS_SIZE``): the public table and its own hand and
    collection. Jit-compiled."""
    pub = state[ST_PUBLIC]
    for i in range(OBS_MY_HAND_KIND):
        obs[i] = pub[i]
    view(state[ST_HAND_STAT], state[ST_COLL], obs, seat)


def choose(state, arrays, sids, params):
    """Kernel template: the strategy of the seat to move picks one of its options; return its action id,
    or -1 for an index out of range. Calls the bound global ``decide``."""
    obs, opt, act, rng, par = state[ST_OBS], state[ST_OPT], state[ST_ACT], state[ST_RNG], state[ST_PAR]
    p = to_move(state)
    n = _options(state, arrays, act)
    observe(state, arrays, p, obs)
    k = decide(sids[p], p, state[ST_RNGS], params, rng, par, decision_kind(state), opt, n, obs)
    if k < 0 or k >= n:
        return illegal(state, k)
    return act[k]


@nb.njit(cache=True, _nrt=False, inline="always")
def _finish_place(state, arrays, i, target_seat, target_j, sp, after, trace):
    """The seat to move places hand card ``i`` with ``sp`` (Sold Out removing ``target_j`` of
    ``target_seat``), leaving ``after`` time; the phase closes at 0, else the turn passes. Jit-compiled."""
    head, pub, counts, rules = state[ST_HEAD], state[ST_PUBLIC], state[ST_COUNTS], arrays[4]
    players = rules[R_PLAYERS]
    p = head[H_TO_MOVE]
    card, special, target = place(state, arrays, p, i, sp, target_seat, target_j)
    emit(head, trace, TR_PLACE)
    emit(head, trace, card)
    emit(head, trace, special)
    emit(head, trace, target)
    head[HD_TIME] = after
    if after == 0:
        close_fair(state, arrays, p)
        head[HD_ZERO] += 1
        if head[HD_FIRST] < 0:
            head[HD_FIRST] = p
        _end_round(head, pub, counts, rules[R_ROUNDS])
    else:
        _next_collector(head, pub, players)


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def apply(state, arrays, action, trace, record):
    """The seat to move takes ``action`` (an id listed by ``legal_actions``); chance runs up to the next
    decision or the end of the game. With ``record`` the trace goes on in ``trace``. Jit-compiled."""
    head, times, hand, placed = state[ST_HEAD], state[ST_TIMES], state[ST_HAND], state[ST_PLACED]
    coll, pub, counts = state[ST_COLL], state[ST_PUBLIC], state[ST_COUNTS]
    card_kind, card_value, rules = arrays[0], arrays[1], arrays[4]
    players = rules[R_PLAYERS]
    head[HD_RECORD] = 1 if record else 0
    p = head[H_TO_MOVE]
    kind = head[H_KIND]
    if kind == RESEARCH:
        a, b = research_positions(action)
        emit(head, trace, TR_TAKE)
        emit(head, trace, a)
        emit(head, trace, b)
        take(state, arrays, p, a, b)
        refill(state, arrays, trace)
        head[HD_TURN] += 1
        if head[HD_TURN] < 2 * players:
            head[H_TO_MOVE] = (head[HD_START] + head[HD_TURN]) % players
        else:
            _start_collecting(head, pub, times, players)
    elif kind == COLLECT:
        if action < A_PLACE:  # secure
            emit(head, trace, TR_SECURE)
            secure(placed, coll, pub, p, card_kind, card_value)
            if head[HD_FIRST] < 0:
                head[HD_FIRST] = p
            head[HD_OUT] += 1
            if head[HD_OUT] == players:
                _end_round(head, pub, counts, rules[R_ROUNDS])
            else:
                _next_collector(head, pub, players)
            return
        i, sp = (action - A_PLACE) // 4, (action - A_PLACE) % 4
        after = time_after(head[HD_TIME], card_value[hand[p, i]], sp)
        if sp == SOLD_OUT:  # the target is the next decision
            head[HD_PENDING] = i
            head[HD_AFTER] = after
            head[H_KIND] = TARGET
            pub[OBS_PENDING_KIND] = card_kind[hand[p, i]]
            pub[OBS_PENDING_VALUE] = card_value[hand[p, i]]
            return
        _finish_place(state, arrays, i, -1, -1, sp, after, trace)
    else:
        q, j = (action - A_TARGET) // HAND_MAX, (action - A_TARGET) % HAND_MAX
        after = head[HD_AFTER] + card_value[placed[q, j]]
        _finish_place(state, arrays, head[HD_PENDING], q, j, SOLD_OUT, after, trace)


@nb.njit(cache=True, _nrt=False)
def round_mark(state):
    """The round being played (``HD_ROUND``): it changes when a Collecting phase is over and the next round's
    research begins (``simulator.core.leaders`` records the standing there). Jit-compiled."""
    return state[ST_HEAD][HD_ROUND]


@nb.njit(cache=True, _nrt=False, inline=VERBS)
def result(state, arrays, scores, standing, seat_stats, game_stats):
    """Write the final scores, ``standing`` (score, then largest set), the seat columns of
    ``layout.SEAT_COLUMNS`` and the game columns of ``layout.GAME_COLUMNS`` (``finished`` is always 1:
    six rounds of bounded turns end every game). Jit-compiled."""
    head, hstat, coll = state[ST_HEAD], state[ST_HAND_STAT], state[ST_COLL]
    pub, counts = state[ST_PUBLIC], state[ST_COUNTS]
    rules = arrays[4]
    players = rules[R_PLAYERS]
    for p in range(players):
        for c in range(counts.shape[1]):
            seat_stats[p, c] = counts[p, c]
    score(hstat, coll, pub, players, rules[R_KINDS], scores, standing, seat_stats)
    game_stats[GC_ROUNDS] = head[HD_ROUND]
    game_stats[GC_ZERO] = head[HD_ZERO]
    game_stats[GC_RESHUFFLES] = head[HD_RESHUFFLES]
    game_stats[GC_FINISHED] = head[H_FINISHED]


@nb.njit(cache=True, _nrt=False)
def copy_state(src, dst):
    """Copy the game of ``src`` (head, streams and every game array, not the thread buffers) into ``dst``,
    a state of the same configuration. Jit-compiled."""
    _copy_game(src, dst)


@nb.njit(cache=True, _nrt=False, inline="always")
def _shuffle_range(arr, lo, hi, rng):
    """Shuffle ``arr[lo:hi]`` in place (Fisher-Yates, uniform) with the stream ``rng``. Jit-compiled."""
    for i in range(hi - 1, lo, -1):
        j = lo + randint(rng, i - lo + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp


@nb.njit(cache=True, _nrt=False, inline="always")
def _announced(head, hand, pub, card_special):
    """In a ``TARGET`` decision, the placer's cards everyone knows of: the card being placed and the first Sold
    Out card of its hand (the one ``rules.place`` plays); ``(-1, -1)`` at any other decision. Jit-compiled."""
    p = head[H_TO_MOVE]
    if p < 0 or head[H_KIND] != TARGET:
        return -1, -1
    sold_out = -1
    for i in range(pub[OBS_HAND_N + p]):
        if card_special[hand[p, i]] == SOLD_OUT:
            sold_out = hand[p, i]
            break
    return hand[p, head[HD_PENDING]], sold_out


@nb.njit(cache=True, _nrt=False)
def determinize(state, arrays, seat, rng):
    """Resample in place everything ``seat`` cannot see, drawing from the stream ``rng``. Jit-compiled.

    Hidden from ``seat``: the cards still in the other hands that they were
    dealt (cards taken from the face-up row stay where everyone saw them
    go), the order of the deck, the order of the time cards not yet
    revealed, and the chance stream (reseeded from ``rng``). Before the
    first reshuffle nobody has seen a deck card, so the others' dealt cards
    and the deck are redealt from one pool; after it the deck holds cards
    everyone saw on the discard pile, so it is only reordered and the dealt
    cards are redealt among the other hands. Hand sizes, the slots of the
    seen cards and everything public stay as they are: in a ``TARGET``
    decision that includes the card being placed with Sold Out (shown in
    ``OBS_PENDING_KIND``) and the Sold Out card it is played with, which stay
    in the placer's hand.
    """
    head, rngs, deck, times, hand = state[ST_HEAD], state[ST_RNGS], state[ST_DECK], state[ST_TIMES], state[ST_HAND]
    hstat, pub, hidden, pool = state[ST_HAND_STAT], state[ST_PUBLIC], state[ST_HIDDEN], state[ST_POOL]
    card_kind, card_value, card_special, rules = arrays[0], arrays[1], arrays[2], arrays[4]
    players = rules[R_PLAYERS]
    pending, sold_out = _announced(head, hand, pub, card_special)
    m = 0
    for q in range(players):
        if q != seat:
            for i in range(pub[OBS_HAND_N + q]):
                card = hand[q, i]
                if hidden[card] and card != pending and card != sold_out:
                    pool[m] = card
                    m += 1
                    hidden[card] = 0
                    hand[q, i] = -1
    lo, hi = head[HD_DECK_POS], head[HD_DECK_N]
    unseen_deck = head[HD_RESHUFFLES] == 0
    ranks = state[ST_RANKS]
    if unseen_deck:
        for i in range(lo, hi):
            pool[m] = deck[i]
            m += 1
    else:
        sort_by_rank(deck, lo, hi, ranks)
        _shuffle_range(deck, lo, hi, rng)
    sort_by_rank(pool, 0, m, ranks)
    shuffle(pool, m, rng)
    for q in range(players):
        if q != seat:
            for i in range(pub[OBS_HAND_N + q]):
                if hand[q, i] < 0:
                    m -= 1
                    hand[q, i] = pool[m]
                    hidden[pool[m]] = 1
            summarize_hand(hand, hstat, pub, q, card_kind, card_value, card_special)
    if unseen_deck:
        for i in range(lo, hi):
            m -= 1
            deck[i] = pool[m]
    if head[H_TO_MOVE] >= 0:  # the time cards not revealed yet
        first = head[HD_ROUND] + (0 if head[H_KIND] == RESEARCH else 1)
        sort_range(times, first, rules[R_N_TIMES])
        _shuffle_range(times, first, rules[R_N_TIMES], rng)
    for x in range(4):
        rngs[0, x] = next_u64(rng)


@nb.njit(cache=True, _nrt=False)
def action_class(state, arrays, action):
    """Bit mask of the descriptor's ``action_classes`` that ``action`` of the seat to move belongs to. Jit-compiled.

    ``sold-out`` (bit 0): placing a card with the Sold Out special.
    """
    return 1 if A_PLACE <= action < A_TARGET and (action - A_PLACE) % 4 == SOLD_OUT else 0
