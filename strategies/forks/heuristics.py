"""Built-in Forks strategies: numba decision functions.

Each function has the Forks signature (see ``simulator.forks.layout``)::

    decide(kind, opt_dest, opt_value, n_options, obs, params, rng) -> int

and is jit-compiled (``cache=True``). They read only ``obs`` (what a player
knows: marketing totals before this round's reveal, their own hand, the
tiebreak order, round and deck size) and their own random stream ``rng``.
"""

import numba as nb

from simulator.core.rng import randint
from simulator.forks.layout import (INVEST, KEEP, OBS_DESTINATIONS, OBS_MARKETING, OBS_MINE, OBS_TIEBREAK,
                                    OBS_TOP)


@nb.njit(cache=True)
def place(obs, d, add_dest, add_value):
    """Place of destination ``d`` (0 = best) if ``add_value`` were marketed on ``add_dest``. Jit-compiled."""
    n = obs[OBS_DESTINATIONS]
    mine = obs[OBS_MARKETING + d] + (add_value if d == add_dest else 0)
    rank = 0
    for e in range(n):
        other = obs[OBS_MARKETING + e] + (add_value if e == add_dest else 0)
        if other > mine or (other == mine and obs[OBS_TIEBREAK + e] < obs[OBS_TIEBREAK + d]):
            rank += 1
    return rank


@nb.njit(cache=True)
def sign(obs, d, add_dest, add_value):
    """+1 if destination ``d`` would score positive, else -1 (see ``place``). Jit-compiled."""
    return 1 if place(obs, d, add_dest, add_value) < obs[OBS_TOP] else -1


@nb.njit(cache=True)
def score_now(obs, keep_dest, keep_value, market_dest, market_value):
    """My score if the game ended after investing one card and marketing another. Jit-compiled.

    A card with destination -1 stands for "none"; a negative ``keep_value``
    removes a card from the hand (merge variant).
    """
    total = 0
    for d in range(obs[OBS_DESTINATIONS]):
        held = obs[OBS_MINE + d] + (keep_value if d == keep_dest else 0)
        total += sign(obs, d, market_dest, market_value) * held
    return total


@nb.njit(cache=True)
def random(kind, opt_dest, opt_value, n, obs, params, rng):
    """Uniform over the options: 1 of 3 dealt, 1 of 2 passed, any hand card (merge). Jit-compiled."""
    return randint(rng, n)


@nb.njit(cache=True)
def greedy(kind, opt_dest, opt_value, n, obs, params, rng):
    """Maximise the score the hand would have if the game ended now. Jit-compiled.

    First pick: the card worth most on the current standings. Second pick:
    the (invest, market) split whose marketing leaves the best standings for
    the hand. Merge: the hand card whose loss plus marketing helps most.
    """
    best, best_k = -(1 << 60), 0
    for k in range(n):
        if kind == INVEST:
            v = score_now(obs, opt_dest[k], opt_value[k], -1, 0)
        elif kind == KEEP:
            o = 1 - k
            v = score_now(obs, opt_dest[k], opt_value[k], opt_dest[o], opt_value[o])
        else:
            v = score_now(obs, opt_dest[k], -opt_value[k], opt_dest[k], opt_value[k])
        if v > best or (v == best and opt_value[k] > opt_value[best_k]):
            best, best_k = v, k
    return best_k


@nb.njit(cache=True)
def leader(kind, opt_dest, opt_value, n, obs, params, rng):
    """Follow the market leaders: a card is worth ``params[place] * value``. Jit-compiled.

    ``params[i]`` weighs a card of the destination now in place ``i`` (0 =
    leading). Invests the card of highest worth; the card sent to marketing is
    the one of lowest worth.
    """
    best, best_k = -1e300, 0
    for k in range(n):
        w = params[place(obs, opt_dest[k], -1, 0)] * opt_value[k]
        if kind != INVEST and kind != KEEP:
            w = -w
        if w > best:
            best, best_k = w, k
    return best_k


@nb.njit(cache=True)
def pusher(kind, opt_dest, opt_value, n, obs, params, rng):
    """Keep low, push high: back your own destinations with marketing. Jit-compiled.

    First pick: the card of the destination I already hold most of (higher
    value on ties). Second pick: market the card that pushes my biggest
    holding (the higher one when both share a destination) and invest the
    other. Merge: market the hand card of my largest holding's destination
    with the smallest loss to the hand.
    """
    if kind == INVEST:
        best_k = 0
        for k in range(1, n):
            a, b = obs[OBS_MINE + opt_dest[k]], obs[OBS_MINE + opt_dest[best_k]]
            if a > b or (a == b and opt_value[k] > opt_value[best_k]):
                best_k = k
        return best_k
    if kind == KEEP:
        if opt_dest[0] == opt_dest[1]:
            return 0 if opt_value[0] <= opt_value[1] else 1
        push = 0 if obs[OBS_MINE + opt_dest[0]] >= obs[OBS_MINE + opt_dest[1]] else 1
        return 1 - push
    best, best_k = -(1 << 60), 0
    for k in range(n):
        v = 100 * (obs[OBS_MINE + opt_dest[k]] - opt_value[k]) - opt_value[k]
        if v > best:
            best, best_k = v, k
    return best_k


@nb.njit(cache=True)
def hedger(kind, opt_dest, opt_value, n, obs, params, rng):
    """Spread the risk: value on the current standings minus ``params[0]`` x what I hold there. Jit-compiled.

    A cautious player who avoids piling into one destination, since a single
    destination falling to the bottom then costs little. Invests the card of
    highest worth and markets the one of lowest worth.
    """
    best, best_k = -1e300, 0
    for k in range(n):
        d = opt_dest[k]
        w = sign(obs, d, -1, 0) * opt_value[k] - params[0] * obs[OBS_MINE + d]
        if kind != INVEST and kind != KEEP:
            w = -w
        if w > best:
            best, best_k = w, k
    return best_k
