"""Built-in Fair Enough strategies: numba decision functions.

Each function has the Fair Enough signature (see ``simulator.fair_enough.layout``)::

    decide(kind, opt, n_options, obs, params, rng) -> int

and is jit-compiled (``cache=True``). They read only ``opt`` and ``obs``
(what a player sees: own hand and collection, the face-up row, placed cards,
the time, the time cards revealed, hand sizes) and their own stream ``rng``.

The heuristics share two building blocks: ``research_pick`` (which face-up
cards are worth taking, given how much time is left to place them) and
``collect_pick`` (place or secure, given the risk that someone else hits
zero). Each strategy sets their weights from its parameter vector.
"""

import numba as nb

from simulator.core.rng import randint
from simulator.fair_enough.layout import (COLLECT, MAX_PLAYERS, NONE, OBS_MY_HAND_KIND, OBS_MY_HAND_VALUE,
                                          OBS_MY_KIND, OBS_N_TIMES, OBS_PLACED_N, OBS_PLACED_VALUE, OBS_PLAYERS,
                                          OBS_ROUND, OBS_ROUNDS, OBS_ROW_KIND, OBS_ROW_SPECIAL, OBS_ROW_VALUE,
                                          OBS_SEAT, OBS_SECURED, OBS_TIMES_ALL, OBS_TIMES_USED, OPT_A, OPT_B,
                                          OPT_KIND, OPT_OWNER, OPT_SPECIAL, OPT_TIME, OPT_VALUE, PREORDER, QUEUE,
                                          RESEARCH, SOLD_OUT)


@nb.njit(cache=True)
def random(kind, opt, n, obs, params, rng):
    """Uniform over the legal options of the decision. Jit-compiled."""
    return randint(rng, n)


@nb.njit(cache=True)
def time_share(obs):
    """My expected share of the time still to come, including the coming round. Jit-compiled.

    The unrevealed time cards are known (the table minus those revealed); the
    rounds left draw from them, and the time is split evenly between players.
    """
    rounds_left = obs[OBS_ROUNDS] - obs[OBS_ROUND]
    n_used = obs[OBS_ROUND]
    if obs[OBS_TIMES_USED + obs[OBS_ROUND]] > 0:  # in a Collecting phase this round's card is revealed
        n_used += 1
        rounds_left -= 1
    total = 0
    for i in range(obs[OBS_N_TIMES]):
        total += obs[OBS_TIMES_ALL + i]
    for i in range(n_used):
        total -= obs[OBS_TIMES_USED + i]
    cards_left = obs[OBS_N_TIMES] - n_used
    if cards_left <= 0:
        return 0.0
    return total * rounds_left / cards_left / obs[OBS_PLAYERS]


@nb.njit(cache=True)
def card_worth(obs, i, set_weight, special_worth):
    """Worth of the face-up card at row position ``i`` to me. Jit-compiled."""
    sp = obs[OBS_ROW_SPECIAL + i]
    if sp != NONE:
        return special_worth[sp - 1]
    k = obs[OBS_ROW_KIND + i]
    have = obs[OBS_MY_HAND_KIND + k] + obs[OBS_MY_KIND + k]
    return obs[OBS_ROW_VALUE + i] + set_weight * have


@nb.njit(cache=True)
def research_pick(opt, n, obs, set_weight, special_worth, budget):
    """The research option of highest total worth within my time budget. Jit-compiled.

    A collection card is taken only while the hand's total value stays within
    ``budget`` x my expected share of the time left; cards worth <= 0 are
    never taken. Option 0 (take nothing) is worth 0.
    """
    room = budget * time_share(obs) - obs[OBS_MY_HAND_VALUE]
    best, best_k = 0.0, 0
    for k in range(1, n):
        w = 0.0
        used = 0
        for pos in (opt[k, OPT_A], opt[k, OPT_B]):
            if pos < 0:
                continue
            c = card_worth(obs, pos, set_weight, special_worth)
            if c <= 0:
                w = -1.0
                break
            w += c
            if obs[OBS_ROW_SPECIAL + pos] == NONE:
                used += obs[OBS_ROW_VALUE + pos]
        if used > room:
            continue
        if w > best:
            best, best_k = w, k
    return best_k


@nb.njit(cache=True)
def collect_pick(opt, n, obs, safety, set_weight):
    """Place or secure (option 0). Jit-compiled.

    1. A placement that brings the time to exactly zero ends the fair in my
       favour: take it (highest value first).
    2. In the last round every card left in hand costs twice its value, so
       place whatever fits (Pre-order first: it costs no time), never
       securing while a placement is possible.
    3. Otherwise place the card worth most (value + ``set_weight`` x cards of
       its kind I hold or own) that leaves more than ``safety`` time, so the
       next players are unlikely to hit zero; if none does, secure.
    Sold Out placements are left to the strategies that want them.
    """
    last = obs[OBS_ROUND] == obs[OBS_ROUNDS] - 1
    best, best_k = -1e18, 0
    for k in range(1, n):
        sp = opt[k, OPT_SPECIAL]
        if sp == SOLD_OUT:
            continue
        v = opt[k, OPT_VALUE]
        after = opt[k, OPT_TIME]
        kind = opt[k, OPT_KIND]
        w = v + set_weight * (obs[OBS_MY_HAND_KIND + kind] + obs[OBS_MY_KIND + kind])
        if after == 0:
            w += 1000.0
        elif last:
            w += 100.0 if sp == PREORDER else 0.0
        elif after <= safety:
            continue
        if sp == PREORDER:
            w += 0.5 * v
        elif sp == QUEUE:
            w -= 0.5 * v
        if w > best:
            best, best_k = w, k
    return best_k


@nb.njit(cache=True)
def banker(kind, opt, n, obs, params, rng):
    """Time-aware banker: bank the pile once the time left makes a zero-hit by others likely. Jit-compiled.

    ``params[0]``: secure when a placement would leave this much time or
    less (a single card of that value could close the fair on me).
    ``params[1]``: hand budget as a multiple of my share of the time left.
    Research takes high cards; Pre-order is worth 4, Queue 1, Sold Out 2.
    """
    if kind == RESEARCH:
        return research_pick(opt, n, obs, 0.0, (1.0, 4.0, 2.0), params[1])
    if kind == COLLECT:
        return collect_pick(opt, n, obs, params[0], 0.0)
    return best_target(opt, n, obs)


@nb.njit(cache=True)
def builder(kind, opt, n, obs, params, rng):
    """Set builder: research and place toward the kinds it already holds most of. Jit-compiled.

    ``params[0]``: worth of each card of the same kind already held or
    collected (sets score 5 per card from the third). ``params[1]``: secure
    when a placement would leave this much time or less. ``params[2]``: hand
    budget as a multiple of my share of the time left.
    """
    if kind == RESEARCH:
        return research_pick(opt, n, obs, params[0], (0.0, 6.0, 1.0), params[2])
    if kind == COLLECT:
        return collect_pick(opt, n, obs, params[1], params[0])
    return best_target(opt, n, obs)


@nb.njit(cache=True)
def best_target(opt, n, obs):
    """Sold Out target: a zero-hit if one exists, else the highest card of the richest other pile. Jit-compiled."""
    me = obs[OBS_SEAT]
    best, best_k = -1e18, 0
    for k in range(n):
        q = opt[k, OPT_OWNER]
        w = 1e6 if opt[k, OPT_TIME] == 0 else 0.0
        w += -1000.0 if q == me else obs[OBS_PLACED_VALUE + q]
        w += opt[k, OPT_VALUE]
        if w > best:
            best, best_k = w, k
    return best_k


@nb.njit(cache=True)
def richest_rival(obs):
    """Value of the richest unsecured pile of another player. Jit-compiled."""
    me = obs[OBS_SEAT]
    top = 0
    for q in range(min(obs[OBS_PLAYERS], MAX_PLAYERS)):
        if q != me and obs[OBS_SECURED + q] == 0 and obs[OBS_PLACED_N + q] > 0:
            top = max(top, obs[OBS_PLACED_VALUE + q])
    return top


@nb.njit(cache=True)
def aggressor(kind, opt, n, obs, params, rng):
    """Sold-Out aggressor: collects Sold Out cards and strikes the richest unsecured pile. Jit-compiled.

    ``params[0]``: strike when another player's unsecured pile is worth at
    least this much; the Sold Out goes with my lowest card and removes the
    highest card of the richest pile (a zero-hit first, if one exists).
    ``params[1]``: secure when a placement would leave this much time or less.
    Research values Sold Out at 8, Pre-order 3, and high cards.
    """
    if kind == RESEARCH:
        return research_pick(opt, n, obs, 0.0, (0.0, 3.0, 8.0), 1.5)
    if kind == COLLECT:
        if richest_rival(obs) >= params[0]:
            low, low_k = 1 << 60, -1
            for k in range(1, n):
                if opt[k, OPT_SPECIAL] == SOLD_OUT and opt[k, OPT_VALUE] < low:
                    low, low_k = opt[k, OPT_VALUE], k
            if low_k > 0:
                return low_k
        return collect_pick(opt, n, obs, params[1], 0.0)
    return best_target(opt, n, obs)
