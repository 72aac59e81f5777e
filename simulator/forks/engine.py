"""Forks fast engine: flat arrays, no allocation inside a game.

``play_game`` is a kernel template (the batch loop and tracer are shared) that
``simulator.core.kernels.bind_engine`` compiles against a strategy dispatcher
(``strategies.registry.make_dispatch``), called as
``decide(sid, seat, rngs, params, rng, par, kind, opt_dest, opt_value,
n_options, obs) -> int``: it hands seat ``seat``'s decision function (see
``simulator.forks.layout``) that seat's own stream and parameters.

Trace layout (int64): ``[n_cards, deck order as codes..., then per round the
first pick of every seat, then the second decision of every seat]``, where a
card's code is ``100 * destination + value`` and the second decision is the
invested card (standard) or the card sent to marketing (merge).
"""

import numba as nb
import numpy as np

from simulator.core.cards import fresh_deck, remove_at
from simulator.core.rng import seed_game
from simulator.forks.layout import (INVEST, KEEP, MARKET, MAX_DEST, OBS_DECK, OBS_DESTINATIONS, OBS_MARKETING,
                                    OBS_MINE, OBS_PLAYERS, OBS_ROUND, OBS_ROUNDS, OBS_SEAT, OBS_SIZE, OBS_TIEBREAK,
                                    OBS_TOP, R_DEST, R_INITIAL, R_MERGE, R_PLAYERS, R_REMOVE, R_REVEAL, R_ROUNDS,
                                    R_TOP)

ALLOCATION_FREE = True  # play_game creates no arrays or views: compiled without reference counting
SEAT_COLUMNS = ("gained", "lost")
GAME_COLUMNS = ("rounds",)


@nb.njit(cache=True)
def new_scratch(arrays, params):
    """Allocate the working arrays for one thread. Jit-compiled."""
    card_dest, card_value, tiebreak_rank, rules = arrays
    players = rules[R_PLAYERS]
    hand_max = 2 * rules[R_ROUNDS] + 2
    return (np.empty(card_dest.size, np.int64),            # deck
            np.empty((players, 3), np.int64),              # dealt
            np.empty((players, hand_max), np.int64),       # hand (card ids)
            np.zeros(players, np.int64),                   # hand size
            np.zeros((players, MAX_DEST), np.int64),       # invested value per destination
            np.zeros(MAX_DEST, np.int64),                  # marketing totals
            np.empty(players, np.int64),                   # marketing card of the round
            np.zeros(OBS_SIZE, np.int64),                  # observation
            np.empty(hand_max, np.int64),                  # option destinations
            np.empty(hand_max, np.int64),                  # option values
            np.empty((players + 1, 4), np.uint64),         # random streams: chance, then one per seat
            np.empty(4, np.uint64),                        # the deciding seat's stream
            np.empty(params.shape[1], np.float64))         # the deciding seat's parameters


@nb.njit(cache=True)
def _invest(hand, hand_n, mine, p, card, card_dest, card_value):
    hand[p, hand_n[p]] = card
    hand_n[p] += 1
    mine[p, card_dest[card]] += card_value[card]


def play_game(arrays, sids, params, seed, game, scratch, scores, standing, seat_stats, game_stats,
              trace, record):
    """Kernel template: play game ``game`` of run ``seed``; return the trace length (0 unless
    ``record``), or -(1+seat) if that seat chose illegally.
 Writes the seat scores (``standing`` = score), the points
    gained on top destinations and lost on bottom ones per seat, and the
    number of rounds. With ``record`` the action trace goes to ``trace``.
    """
    card_dest, card_value, tiebreak_rank, rules = arrays
    deck, dealt, hand, hand_n, mine, mkt, pending, obs, opt_dest, opt_value, rngs, rng, par = scratch
    players = rules[R_PLAYERS]
    n_dest = rules[R_DEST]
    n_cards = card_dest.size
    rounds = rules[R_ROUNDS]
    merge = rules[R_MERGE] == 1

    seed_game(rngs, seed, game)
    fresh_deck(deck, n_cards, rngs[0])
    hand_n[:] = 0
    mine[:] = 0
    mkt[:] = 0
    t = 0
    if record:
        trace[0] = n_cards
        for i in range(n_cards):
            trace[1 + i] = 100 * card_dest[deck[i]] + card_value[deck[i]]
        t = 1 + n_cards

    pos = rules[R_REMOVE]
    for _ in range(rules[R_INITIAL]):
        mkt[card_dest[deck[pos]]] += card_value[deck[pos]]
        pos += 1

    obs[OBS_DESTINATIONS] = n_dest
    obs[OBS_TOP] = rules[R_TOP]
    obs[OBS_ROUNDS] = rounds
    obs[OBS_PLAYERS] = players
    for d in range(n_dest):
        obs[OBS_TIEBREAK + d] = tiebreak_rank[d]

    for r in range(rounds):
        for p in range(players):
            for j in range(3):
                dealt[p, j] = deck[pos]
                pos += 1
        obs[OBS_ROUND] = r
        obs[OBS_DECK] = n_cards - pos
        for d in range(n_dest):
            obs[OBS_MARKETING + d] = mkt[d]

        # first pick: invest one of three, pass the other two clockwise
        for p in range(players):
            obs[OBS_SEAT] = p
            for d in range(n_dest):
                obs[OBS_MINE + d] = mine[p, d]
            for j in range(3):
                opt_dest[j] = card_dest[dealt[p, j]]
                opt_value[j] = card_value[dealt[p, j]]
            k = decide(sids[p], p, rngs, params, rng, par, INVEST, opt_dest, opt_value, 3, obs)  # noqa: F821
            if k < 0 or k >= 3:
                return -(1 + p)
            card = dealt[p, k]
            _invest(hand, hand_n, mine, p, card, card_dest, card_value)
            # keep the two passed cards in dealt[p, 0:2], in their dealt order
            for j in range(k, 2):
                dealt[p, j] = dealt[p, j + 1]
            if record:
                trace[t + p] = 100 * card_dest[card] + card_value[card]
        t += players if record else 0

        # second pick from the cards passed by the right-hand neighbour
        for p in range(players):
            src = (p - 1 + players) % players
            obs[OBS_SEAT] = p
            if merge:
                _invest(hand, hand_n, mine, p, dealt[src, 0], card_dest, card_value)
                _invest(hand, hand_n, mine, p, dealt[src, 1], card_dest, card_value)
                n = hand_n[p]
                for j in range(n):
                    opt_dest[j] = card_dest[hand[p, j]]
                    opt_value[j] = card_value[hand[p, j]]
                for d in range(n_dest):
                    obs[OBS_MINE + d] = mine[p, d]
                k = decide(sids[p], p, rngs, params, rng, par, MARKET, opt_dest, opt_value, n, obs)  # noqa: F821
                if k < 0 or k >= n:
                    return -(1 + p)
                card = remove_at(hand[p], n, k)
                hand_n[p] -= 1
                mine[p, card_dest[card]] -= card_value[card]
                pending[p] = card
            else:
                for d in range(n_dest):
                    obs[OBS_MINE + d] = mine[p, d]
                for j in range(2):
                    opt_dest[j] = card_dest[dealt[src, j]]
                    opt_value[j] = card_value[dealt[src, j]]
                k = decide(sids[p], p, rngs, params, rng, par, KEEP, opt_dest, opt_value, 2, obs)  # noqa: F821
                if k < 0 or k >= 2:
                    return -(1 + p)
                card = dealt[src, k]
                _invest(hand, hand_n, mine, p, card, card_dest, card_value)
                pending[p] = dealt[src, 1 - k]
            if record:
                trace[t + p] = 100 * card_dest[card] + card_value[card]
        t += players if record else 0

        # reveal the round's marketing cards (and, if the table says so, deck cards)
        for p in range(players):
            mkt[card_dest[pending[p]]] += card_value[pending[p]]
        for _ in range(rules[R_REVEAL]):
            if pos < n_cards:
                mkt[card_dest[deck[pos]]] += card_value[deck[pos]]
                pos += 1

    # destinations ranked by marketing total, ties to the earlier tiebreak entry
    for p in range(players):
        seat_stats[p, 0] = 0
        seat_stats[p, 1] = 0
    for d in range(n_dest):
        place = 0
        for e in range(n_dest):
            if mkt[e] > mkt[d] or (mkt[e] == mkt[d] and tiebreak_rank[e] < tiebreak_rank[d]):
                place += 1
        for p in range(players):
            if place < rules[R_TOP]:
                seat_stats[p, 0] += mine[p, d]
            else:
                seat_stats[p, 1] += mine[p, d]
    for p in range(players):
        scores[p] = seat_stats[p, 0] - seat_stats[p, 1]
        standing[p] = scores[p]
    game_stats[0] = rounds
    return t

