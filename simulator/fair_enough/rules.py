"""Fair Enough's moves on a game state (see ``simulator.fair_enough.engine``).

Every function is jit-compiled with ``cache=True, inline="always"``: the
state verbs of the engine are built from them, and inlining keeps the
verbs free of calls and of reference counting. The moves of a turn
(``take``, ``refill``, ``collect_options``, ``place``, ``close_fair``) take
the state and the setup's arrays and read the slots they need by name; the
small steps they are made of take the arrays they change.

The state is declared below slot by slot (``STATE``, the ``ST_*``
constants; ``simulator.core.slots``). Its arrays: ``head`` is the state's
int64 head (fields ``HD_*`` below, after the common ``H_*`` of
``simulator.core.state``); ``pub`` is everything every
seat sees, laid out as the observation vector (``layout.OBS_*``; the private
slots from ``OBS_MY_HAND_KIND`` on stay 0), so hand sizes, placed piles and
secured flags are read from it; ``hand[seat]`` and ``placed[seat]`` hold
card ids; a hand's summary ``hstat[seat]`` holds the count per kind, then
the total value (``HS_VALUE``), then the specials (``HS_SPECIALS + special - QUEUE``);
a collection ``coll[seat]`` the count per kind, then the value
(``CL_VALUE``); ``counts[seat]`` the seat columns counted during the game
(``layout.SC_*``); ``hidden[card]`` is 1 while ``card`` is in the hand it was
dealt to and nobody else has seen it.
"""

import numba as nb
import numpy as np

from simulator.core.rng import shuffle
from simulator.core.slots import Slots
from simulator.core.state import H_TO_MOVE, H_TRACE, HEAD, ST_HEAD, ST_RNGS
from simulator.fair_enough.layout import (A_PLACE, A_RESEARCH, A_SECURE, A_TARGET, HAND_MAX, MAX_ACTIONS, MAX_KINDS,
                                          MAX_TIMES, NONE, OBS_COLLECTED_N, OBS_DECK, OBS_DISCARD, OBS_HAND_N,
                                          OBS_MY_HAND_KIND, OBS_MY_HAND_SPECIAL, OBS_MY_HAND_VALUE, OBS_MY_KIND,
                                          OBS_PLACED_KIND, OBS_PLACED_N, OBS_PLACED_VALUE, OBS_ROW_KIND, OBS_ROW_N,
                                          OBS_ROW_SPECIAL, OBS_ROW_VALUE, OBS_SEAT, OBS_SECURED, OBS_SIZE, OPT_A, OPT_B,
                                          OPT_KIND, OPT_OWNER, OPT_SPECIAL, OPT_TIME, OPT_VALUE, OPT_WIDTH, PREORDER,
                                          QUEUE, R_PLAYERS, SC_COLLECTED, SC_COLLECTED_VALUE, SC_HAND_PENALTY,
                                          SC_LARGEST, SC_LOST_CLOSE, SC_LOST_SOLD, SC_QUEUE, SC_SET_BONUS, SEAT_COLUMNS,
                                          SECURE, SOLD_OUT, STANDING_SCALE, TR_SHUFFLE)

# head slots of a Fair Enough state
(HD_RECORD,      # 1 while the trace is being written
 HD_ROUND,       # current round, 0-based (= rounds once the game is over)
 HD_START,       # seat holding the Starting Player Card
 HD_TURN,        # research turns taken this round
 HD_TIME,        # remaining time of the Collecting phase
 HD_FIRST,       # first seat to secure this round (-1: nobody yet)
 HD_OUT,         # seats that have secured this round
 HD_DECK_POS,    # next card of the deck (deck[HD_DECK_POS:HD_DECK_N] is still to draw)
 HD_DECK_N,
 HD_DISC_N,      # cards on the discard pile
 HD_ROW_N,       # face-up cards
 HD_PENDING,     # TARGET: hand index of the card being placed with Sold Out
 HD_AFTER,       # TARGET: the time after placing it, before the target's time comes back
 HD_ZERO,        # Collecting phases ended by time 0
 HD_RESHUFFLES,  # discard pile shuffled into the deck
 ) = range(HEAD, HEAD + 15)
N_HEAD = HEAD + 15

# hand-summary columns (``hstat[seat]``): the count per kind (0..MAX_KINDS - 1), then these
HS_VALUE = MAX_KINDS             # total value of the collection cards in hand
HS_SPECIALS = HS_VALUE + 1       # HS_SPECIALS + s - QUEUE: specials s (QUEUE..SOLD_OUT) in hand
HS_WIDTH = HS_SPECIALS + 3
# collection columns (``coll[seat]``): the count per kind, then
CL_VALUE = MAX_KINDS             # total value secured
CL_WIDTH = CL_VALUE + 1

# the state (``simulator.core.slots``; the common head and streams come first)
STATE = Slots(N_HEAD, "cards", "players", "params")
ST_DECK = STATE.slot(np.int64, "cards")                        # the deck, top at HD_DECK_POS
ST_DISCARD = STATE.slot(np.int64, "cards")                     # the discard pile, HD_DISC_N cards
ST_ROW = STATE.slot(np.int64, 3)                               # the face-up row, HD_ROW_N cards
ST_TIMES = STATE.slot(np.int64, MAX_TIMES)                     # the time deck, in the order it is revealed
ST_HAND = STATE.slot(np.int64, ("players", HAND_MAX))          # hands (card ids; sizes in the public view)
ST_HAND_STAT = STATE.slot(np.int64, ("players", HS_WIDTH))     # hand summaries (HS_* columns)
ST_PLACED = STATE.slot(np.int64, ("players", HAND_MAX))        # placed, unsecured cards
ST_COLL = STATE.slot(np.int64, ("players", CL_WIDTH))          # collections (CL_* columns)
ST_PUBLIC = STATE.slot(np.int64, OBS_SIZE)                     # what every seat sees (layout.OBS_*)
ST_COUNTS = STATE.slot(np.int64, ("players", len(SEAT_COLUMNS)))  # seat columns counted during the game
ST_HIDDEN = STATE.slot(np.uint8, "cards")                      # 1: a dealt card only its holder has seen
GAME_SLOTS = STATE.end_of_game()                               # the rest are per-thread buffers
ST_OBS = STATE.slot(np.int64, OBS_SIZE)                        # the observation shown to a strategy
ST_OPT = STATE.slot(np.int64, (MAX_ACTIONS, OPT_WIDTH))        # its options
ST_ACT = STATE.slot(np.int64, MAX_ACTIONS)                     # their action ids
ST_RNG = STATE.slot(np.uint64, 4)                              # the deciding seat's stream
ST_PAR = STATE.slot(np.float64, "params")                      # the deciding seat's parameters
ST_POOL = STATE.slot(np.int64, "cards")                        # determinize: the cards it redeals
ST_RANKS = STATE.slot(np.int64, (3, "cards"))                  # determinize: the card ids by face (cards.rank_table)


@nb.njit(cache=True, inline="always")
def emit(head, trace, x):
    """Append ``x`` to the trace when recording. Jit-compiled."""
    if head[HD_RECORD]:
        trace[head[H_TRACE]] = x
        head[H_TRACE] += 1


@nb.njit(cache=True, inline="always")
def discard_card(head, discard, pub, card):
    """Put ``card`` on the discard pile. Jit-compiled."""
    discard[head[HD_DISC_N]] = card
    head[HD_DISC_N] += 1
    pub[OBS_DISCARD] = head[HD_DISC_N]


@nb.njit(cache=True, inline="always")
def draw(head, deck, discard, chance, pub, trace):
    """Top card of the deck, reshuffling the discard pile into it when empty; -1 if both are empty.
    Jit-compiled."""
    if head[HD_DECK_POS] == head[HD_DECK_N]:
        k = head[HD_DISC_N]
        if k == 0:
            return -1
        for i in range(k):
            deck[i] = discard[i]
        shuffle(deck, k, chance)
        head[HD_DECK_POS] = 0
        head[HD_DECK_N] = k
        head[HD_DISC_N] = 0
        pub[OBS_DISCARD] = 0
        head[HD_RESHUFFLES] += 1
        emit(head, trace, TR_SHUFFLE)
        emit(head, trace, k)
        for i in range(k):
            emit(head, trace, deck[i])
    card = deck[head[HD_DECK_POS]]
    head[HD_DECK_POS] += 1
    pub[OBS_DECK] = head[HD_DECK_N] - head[HD_DECK_POS]
    return card


@nb.njit(cache=True, inline="always")
def refill(state, arrays, trace):
    """Turn up cards until three lie face up (or deck and discard pile are both empty). Jit-compiled."""
    head, deck, discard, row, pub = state[ST_HEAD], state[ST_DECK], state[ST_DISCARD], state[ST_ROW], state[ST_PUBLIC]
    chance, card_kind, card_value, card_special = state[ST_RNGS][0], arrays[0], arrays[1], arrays[2]
    while head[HD_ROW_N] < 3:
        card = draw(head, deck, discard, chance, pub, trace)
        if card < 0:
            break
        row[head[HD_ROW_N]] = card
        head[HD_ROW_N] += 1
    n = head[HD_ROW_N]
    pub[OBS_ROW_N] = n
    for i in range(3):
        if i < n:
            pub[OBS_ROW_KIND + i] = card_kind[row[i]]
            pub[OBS_ROW_VALUE + i] = card_value[row[i]]
            pub[OBS_ROW_SPECIAL + i] = card_special[row[i]]
        else:
            pub[OBS_ROW_KIND + i] = -1
            pub[OBS_ROW_VALUE + i] = 0
            pub[OBS_ROW_SPECIAL + i] = NONE


@nb.njit(cache=True, inline="always")
def tally(hstat, p, card, step, card_kind, card_value, card_special):
    """Count ``card`` into seat ``p``'s hand summary (``step`` = 1) or out of it (-1). Jit-compiled."""
    sp = card_special[card]
    if sp == NONE:
        hstat[p, card_kind[card]] += step
        hstat[p, HS_VALUE] += step * card_value[card]
    else:
        hstat[p, HS_SPECIALS + sp - QUEUE] += step


@nb.njit(cache=True, inline="always")
def to_hand(hand, hstat, pub, p, card, card_kind, card_value, card_special):
    """Add ``card`` to seat ``p``'s hand. Jit-compiled."""
    n = pub[OBS_HAND_N + p]
    hand[p, n] = card
    pub[OBS_HAND_N + p] = n + 1
    tally(hstat, p, card, 1, card_kind, card_value, card_special)


@nb.njit(cache=True, inline="always")
def from_hand(hand, hstat, pub, hidden, p, i, card_kind, card_value, card_special):
    """Remove the card at hand index ``i`` of seat ``p`` (the last card fills the gap); it is seen from now
    on. Jit-compiled."""
    n = pub[OBS_HAND_N + p] - 1
    card = hand[p, i]
    hand[p, i] = hand[p, n]
    pub[OBS_HAND_N + p] = n
    hidden[card] = 0
    tally(hstat, p, card, -1, card_kind, card_value, card_special)
    return card


@nb.njit(cache=True, inline="always")
def summarize_hand(hand, hstat, pub, p, card_kind, card_value, card_special):
    """Recompute seat ``p``'s hand summary from its cards. Jit-compiled."""
    for c in range(hstat.shape[1]):
        hstat[p, c] = 0
    for i in range(pub[OBS_HAND_N + p]):
        tally(hstat, p, hand[p, i], 1, card_kind, card_value, card_special)


@nb.njit(cache=True, inline="always")
def secure(placed, coll, pub, p, card_kind, card_value):
    """Seat ``p`` secures its placed cards and drops out of the phase. Jit-compiled."""
    n = pub[OBS_PLACED_N + p]
    for j in range(n):
        card = placed[p, j]
        coll[p, card_kind[card]] += 1
        coll[p, CL_VALUE] += card_value[card]
        pub[OBS_PLACED_KIND + p * MAX_KINDS + card_kind[card]] = 0
    pub[OBS_COLLECTED_N + p] += n
    pub[OBS_PLACED_N + p] = 0
    pub[OBS_PLACED_VALUE + p] = 0
    pub[OBS_SECURED + p] = 1


@nb.njit(cache=True, inline="always")
def view(hstat, coll, obs, p):
    """Write seat ``p``'s private part of the observation (its hand and collection). Jit-compiled."""
    obs[OBS_SEAT] = p
    for k in range(MAX_KINDS):
        obs[OBS_MY_HAND_KIND + k] = hstat[p, k]
        obs[OBS_MY_KIND + k] = coll[p, k]
    obs[OBS_MY_HAND_SPECIAL] = 0
    for s in range(1, 4):
        obs[OBS_MY_HAND_SPECIAL + s] = hstat[p, HS_SPECIALS + s - QUEUE]
    obs[OBS_MY_HAND_VALUE] = hstat[p, HS_VALUE]


@nb.njit(cache=True, inline="always")
def research_action(a, b):
    """The action id of taking row positions ``a`` and ``b`` (-1 = none, ``a < b``). Jit-compiled."""
    if a < 0:
        return A_RESEARCH
    if b < 0:
        return A_RESEARCH + 1 + a
    return A_RESEARCH + 3 + a + b  # (0, 1) -> 4, (0, 2) -> 5, (1, 2) -> 6


@nb.njit(cache=True, inline="always")
def research_positions(action):
    """The row positions ``(a, b)`` (-1 = none) a research action id takes. Jit-compiled."""
    i = action - A_RESEARCH
    if i == 0:
        return -1, -1
    if i <= 3:
        return i - 1, -1
    a = 0 if i < 6 else 1
    return a, i - 3 - a


@nb.njit(cache=True, inline="always")
def research_options(opt, act, row_n):
    """Fill the research options for a row of ``row_n`` cards (none, singles, pairs) and their action ids;
    return their number. Jit-compiled."""
    opt[0, OPT_A] = -1
    opt[0, OPT_B] = -1
    act[0] = A_RESEARCH
    n = 1
    for a in range(row_n):
        opt[n, OPT_A] = a
        opt[n, OPT_B] = -1
        act[n] = research_action(a, -1)
        n += 1
    for a in range(row_n):
        for b in range(a + 1, row_n):
            opt[n, OPT_A] = a
            opt[n, OPT_B] = b
            act[n] = research_action(a, b)
            n += 1
    return n


@nb.njit(cache=True, inline="always")
def take(state, arrays, p, a, b):
    """Seat ``p`` takes the face-up cards at positions ``a`` and ``b`` (-1 = none); the rest keep
    their order. Jit-compiled."""
    head, row, hand, hstat, pub = state[ST_HEAD], state[ST_ROW], state[ST_HAND], state[ST_HAND_STAT], state[ST_PUBLIC]
    card_kind, card_value, card_special = arrays[0], arrays[1], arrays[2]
    if a >= 0:
        to_hand(hand, hstat, pub, p, row[a], card_kind, card_value, card_special)
    if b >= 0:
        to_hand(hand, hstat, pub, p, row[b], card_kind, card_value, card_special)
    k = 0
    for i in range(head[HD_ROW_N]):
        if i != a and i != b:
            row[k] = row[i]
            k += 1
    head[HD_ROW_N] = k


@nb.njit(cache=True, inline="always")
def time_after(time, value, sp):
    """The time left after placing a card of ``value`` with special ``sp`` (Sold Out: before its target's
    time comes back). Jit-compiled."""
    if sp == QUEUE:
        return time - 2 * value
    if sp == PREORDER:
        return time
    return time - value


@nb.njit(cache=True, inline="always")
def collect_options(state, arrays, act):
    """Fill the Collecting-phase options of the seat to move (row 0 = secure) into the option buffer and their
    action ids into ``act``; return their number. Jit-compiled.

    A Sold Out row is listed when the highest placed, unsecured card would
    give back enough time; the target itself is a second decision.
    """
    head, hand, hstat, placed = state[ST_HEAD], state[ST_HAND], state[ST_HAND_STAT], state[ST_PLACED]
    pub, opt = state[ST_PUBLIC], state[ST_OPT]
    card_kind, card_value, card_special, players = arrays[0], arrays[1], arrays[2], arrays[4][R_PLAYERS]
    p, time = head[H_TO_MOVE], head[HD_TIME]
    opt[0, OPT_KIND] = -1
    opt[0, OPT_VALUE] = 0
    opt[0, OPT_SPECIAL] = SECURE
    opt[0, OPT_OWNER] = p
    opt[0, OPT_TIME] = time
    act[0] = A_SECURE
    has_queue = hstat[p, HS_SPECIALS] > 0
    has_preorder = hstat[p, HS_SPECIALS + PREORDER - QUEUE] > 0
    best_back = -1  # highest value among placed, unsecured cards (the most time Sold Out can give back)
    if hstat[p, HS_SPECIALS + SOLD_OUT - QUEUE] > 0:
        for q in range(players):
            for j in range(pub[OBS_PLACED_N + q]):
                best_back = max(best_back, card_value[placed[q, j]])
    n = 1
    for i in range(pub[OBS_HAND_N + p]):
        card = hand[p, i]
        if card_special[card] != NONE:
            continue
        v = card_value[card]
        for sp in range(4):
            after = time_after(time, v, sp)
            if sp == NONE:
                ok = after >= 0
            elif sp == QUEUE:
                ok = has_queue and after >= 0
            elif sp == PREORDER:
                ok = has_preorder
            else:
                ok = best_back >= 0 and after + best_back >= 0
            if ok:
                opt[n, OPT_KIND] = card_kind[card]
                opt[n, OPT_VALUE] = v
                opt[n, OPT_SPECIAL] = sp
                opt[n, OPT_OWNER] = p
                opt[n, OPT_TIME] = after
                act[n] = A_PLACE + 4 * i + sp
                n += 1
    return n


@nb.njit(cache=True, inline="always")
def target_options(placed, pub, opt, act, after, players, card_kind, card_value):
    """Fill the Sold Out targets (placed, unsecured cards whose time back keeps ``after`` >= 0) and their
    action ids; return their number. Jit-compiled."""
    n = 0
    for q in range(players):
        for j in range(pub[OBS_PLACED_N + q]):
            card = placed[q, j]
            v = card_value[card]
            if after + v >= 0:
                opt[n, OPT_KIND] = card_kind[card]
                opt[n, OPT_VALUE] = v
                opt[n, OPT_SPECIAL] = SOLD_OUT
                opt[n, OPT_OWNER] = q
                opt[n, OPT_TIME] = after + v
                act[n] = A_TARGET + HAND_MAX * q + j
                n += 1
    return n


@nb.njit(cache=True, inline="always")
def place(state, arrays, p, i, sp, target_seat, target_j):
    """Seat ``p`` places hand card ``i`` with special ``sp``; Sold Out first removes placed card
    ``target_j`` of ``target_seat``. Return ``(card, special card or -1, target card or -1)``.
    Jit-compiled."""
    head, discard, hand, hstat = state[ST_HEAD], state[ST_DISCARD], state[ST_HAND], state[ST_HAND_STAT]
    placed, pub, counts, hidden = state[ST_PLACED], state[ST_PUBLIC], state[ST_COUNTS], state[ST_HIDDEN]
    card_kind, card_value, card_special = arrays[0], arrays[1], arrays[2]
    card = hand[p, i]
    target = -1
    if sp == SOLD_OUT:
        q, j = target_seat, target_j
        n = pub[OBS_PLACED_N + q] - 1
        target = placed[q, j]
        placed[q, j] = placed[q, n]
        pub[OBS_PLACED_N + q] = n
        pub[OBS_PLACED_VALUE + q] -= card_value[target]
        pub[OBS_PLACED_KIND + q * MAX_KINDS + card_kind[target]] -= 1
        discard_card(head, discard, pub, target)
        counts[q, SC_LOST_SOLD] += 1
    special = -1
    if sp != NONE:
        s = 0
        while card_special[hand[p, s]] != sp:
            s += 1
        special = hand[p, s]
        counts[p, SC_QUEUE + sp - QUEUE] += 1
        discard_card(head, discard, pub, special)
        if s > i:  # remove the higher index first so the lower one stays put
            from_hand(hand, hstat, pub, hidden, p, s, card_kind, card_value, card_special)
            from_hand(hand, hstat, pub, hidden, p, i, card_kind, card_value, card_special)
        else:
            from_hand(hand, hstat, pub, hidden, p, i, card_kind, card_value, card_special)
            from_hand(hand, hstat, pub, hidden, p, s, card_kind, card_value, card_special)
    else:
        from_hand(hand, hstat, pub, hidden, p, i, card_kind, card_value, card_special)
    m = pub[OBS_PLACED_N + p]
    placed[p, m] = card
    pub[OBS_PLACED_N + p] = m + 1
    pub[OBS_PLACED_VALUE + p] += card_value[card]
    pub[OBS_PLACED_KIND + p * MAX_KINDS + card_kind[card]] += 1
    return card, special, target


@nb.njit(cache=True, inline="always")
def close_fair(state, arrays, p):
    """The time hit zero on seat ``p``'s turn: ``p`` secures, every other unsecured pile is discarded.
    Jit-compiled."""
    head, discard, placed, coll = state[ST_HEAD], state[ST_DISCARD], state[ST_PLACED], state[ST_COLL]
    pub, counts = state[ST_PUBLIC], state[ST_COUNTS]
    card_kind, card_value, players = arrays[0], arrays[1], arrays[4][R_PLAYERS]
    secure(placed, coll, pub, p, card_kind, card_value)
    for q in range(players):
        if pub[OBS_SECURED + q] == 0:
            n = pub[OBS_PLACED_N + q]
            counts[q, SC_LOST_CLOSE] += n
            for j in range(n):
                discard_card(head, discard, pub, placed[q, j])
            pub[OBS_PLACED_N + q] = 0
            pub[OBS_PLACED_VALUE + q] = 0
            for k in range(MAX_KINDS):
                pub[OBS_PLACED_KIND + q * MAX_KINDS + k] = 0


@nb.njit(cache=True, inline="always")
def score(hstat, coll, pub, players, kinds, scores, standing, seat_stats):
    """Final scoring: values + 5 x (n - 2) per kind with n >= 3 - 2 x hand values - 10 per special. Jit-compiled."""
    for p in range(players):
        bonus = 0
        largest = 0
        for k in range(kinds):
            n = coll[p, k]
            if n >= 3:
                bonus += 5 * (n - 2)
            largest = max(largest, n)
        specials = hstat[p, HS_SPECIALS] + hstat[p, HS_SPECIALS + PREORDER - QUEUE] + hstat[p, HS_SPECIALS + SOLD_OUT - QUEUE]
        penalty = 2 * hstat[p, HS_VALUE] + 10 * specials
        seat_stats[p, SC_COLLECTED] = pub[OBS_COLLECTED_N + p]
        seat_stats[p, SC_COLLECTED_VALUE] = coll[p, CL_VALUE]
        seat_stats[p, SC_SET_BONUS] = bonus
        seat_stats[p, SC_HAND_PENALTY] = penalty
        seat_stats[p, SC_LARGEST] = largest
        scores[p] = coll[p, CL_VALUE] + bonus - penalty
        standing[p] = scores[p] * STANDING_SCALE + largest
