"""Fool! fast engine: flat arrays, no allocation inside a game.

``play_game`` is a kernel template (the batch loop and tracer are shared) that
``simulator.core.kernels.bind_engine`` compiles against a strategy dispatcher
(``strategies.registry.make_dispatch``), called as ``decide(sid, seat, rngs,
params, rng, par, opt_colour, opt_value, n_options, obs) -> int``: it hands
seat ``seat``'s decision function (see ``simulator.fool.layout``) that seat's
own stream and parameters. Helpers are ``@nb.njit(cache=True)``.

A game is played deal after deal until a total reaches ``-loss_limit`` or the
``tally_limit``-th tally is scored. Cards are ids into the setup's
``card_colour`` / ``card_value`` arrays (colour 0: the wild "1"); hands are
held as colour and value arrays (the kernel's working form) and as one value
mask per colour (what strategies see).

Trace layout (int64): ``[number of deals, then per deal: start seat, the
hands (hand-size card codes per seat, seat 0 first), number of cards played,
the played card codes in order]``; a card's code is ``100 * colour + value``.
"""

import numba as nb
import numpy as np

from simulator.core.cards import fresh_deck
from simulator.core.rng import seed_game
from simulator.fool.layout import (MAX_COLOURS, MAX_PLAYERS, OBS_COLOURS, OBS_COUNT, OBS_DEAL, OBS_DISCS,
                                   OBS_EMPTY_HAND, OBS_LEAD, OBS_LEADER, OBS_LOSS_LIMIT, OBS_MINE, OBS_PASSING,
                                   OBS_PLAYED, OBS_PLAYERS, OBS_SEAT, OBS_SIZE, OBS_TALLIES, OBS_TALLY_LIMIT,
                                   OBS_TO_PLAY, OBS_TOTAL, OBS_TRICK, OBS_TRICK_COLOUR, OBS_TRICK_SEAT,
                                   OBS_TRICK_VALUE, OBS_UNSEEN, OBS_WILD_PENALTY, R_CARDS, R_COLOURS, R_DISCS,
                                   R_EMPTY_HAND, R_HAND, R_LOSS_LIMIT, R_MAX_DEALS, R_PLAYERS, R_TALLY_LIMIT,
                                   R_WILD_PENALTY)

SEAT_COLUMNS = ("tricks", "tallies", "fooled")   # tricks won, +10 scores, times befooled
GAME_COLUMNS = ("rounds", "tricks_played", "lead_changes")  # deals, tricks in the whole game, lead changes
S_TRICKS, S_TALLIES, S_FOOLED = range(3)
ALLOCATION_FREE = True  # play_game creates no arrays: compiled without reference counting
_ONE = np.int64(1)
_TAKEN = np.int64(1) << 40   # added to the key of a card that already took a disc


@nb.njit(cache=True)
def new_scratch(arrays, params):
    """Allocate the working arrays for one thread. Jit-compiled."""
    card_colour, card_value, rules = arrays
    players = rules[R_PLAYERS]
    hand = rules[R_HAND]
    full = np.zeros(MAX_COLOURS + 1, np.int64)     # the deck as masks: [0] wilds, [c] value mask
    for i in range(card_colour.size):
        if card_colour[i] == 0:
            full[0] += 1
        else:
            full[card_colour[i]] |= _ONE << card_value[i]
    return (np.empty(card_colour.size, np.int64),            # deck
            np.empty((players, hand), np.int64),              # hands: colours
            np.empty((players, hand), np.int64),              # hands: values
            np.zeros(players, np.int64),                      # hand sizes
            np.zeros((players, MAX_COLOURS + 1), np.int64),   # hands as masks
            full,
            np.zeros(MAX_COLOURS + 1, np.int64),              # cards not yet played this deal, as masks
            np.zeros(MAX_PLAYERS, np.int64),                  # seat of the i-th card of the trick
            np.zeros(MAX_PLAYERS, np.int64),                  # colour of the i-th card of the trick
            np.zeros(MAX_PLAYERS, np.int64),                  # value of the i-th card of the trick
            np.zeros(players, np.int64),                      # 1: holds a disc (passes / befooled last)
            np.zeros(players, np.int64),                      # game totals
            np.zeros(players, np.int64),                      # points of the deal
            np.zeros(OBS_SIZE, np.int64),                     # observation
            np.empty(hand, np.int64),                         # option colours
            np.empty(hand, np.int64),                         # option values
            np.empty(hand, np.int64),                         # option positions in the hand
            np.empty((players + 1, 4), np.uint64),            # random streams: chance, then one per seat
            np.empty(4, np.uint64),                           # the deciding seat's stream
            np.empty(params.shape[1], np.float64))            # the deciding seat's parameters


@nb.njit(cache=True)
def deal_hands(deck, hand_c, hand_v, hand_n, masks, full, unplayed, card_colour, card_value):
    """Deal ``deck`` in blocks (seat 0 first) into the hands and their masks. Jit-compiled."""
    players, size = hand_c.shape
    masks[:, :] = 0
    for c in range(full.size):
        unplayed[c] = full[c]
    for p in range(players):
        hand_n[p] = size
        for j in range(size):
            c = card_colour[deck[p * size + j]]
            v = card_value[deck[p * size + j]]
            hand_c[p, j] = c
            hand_v[p, j] = v
            if c == 0:
                masks[p, 0] += 1
            else:
                masks[p, c] |= _ONE << v


@nb.njit(cache=True)
def worst_key(colour, value, lead, order):
    """Badness of the ``order``-th card of a trick, smaller is worse. Jit-compiled.

    Shed cards (neither ``lead`` nor wild) rank below wilds, wilds below
    lead-colour cards; then by value; equal cards: the later one is worse.
    """
    kind = 1 if colour == 0 else (2 if colour == lead else 0)
    return (kind * 64 + value) * 16 + 15 - order


@nb.njit(cache=True)
def trick_place(key):
    """The place in the trick (0 = first card) of the card with this ``worst_key``. Jit-compiled."""
    return 15 - (key & 15)


@nb.njit(cache=True)
def deal_points(hand_c, hand_v, hand_n, fooled, empty_hand, wild_penalty, points):
    """Write each seat's points for the deal into ``points``; return the number of tallies. Jit-compiled.

    An empty hand scores ``empty_hand`` (a tally) unless befooled in the last
    trick (0); otherwise minus the cards left, a wild counting ``wild_penalty``.
    """
    tallies = 0
    for p in range(hand_n.size):
        if hand_n[p] == 0:
            if fooled[p]:
                points[p] = 0
            else:
                points[p] = empty_hand
                tallies += 1
        else:
            lost = 0
            for j in range(hand_n[p]):
                lost += wild_penalty if hand_c[p, j] == 0 else hand_v[p, j]
            points[p] = -lost
    return tallies


@nb.njit(cache=True)
def next_start(points, previous):
    """The lowest deal score starts; ties go clockwise from ``previous``, counting it first. Jit-compiled."""
    players = points.size
    best = previous
    for i in range(1, players):
        s = (previous + i) % players
        if points[s] < points[best]:
            best = s
    return best


def play_game(arrays, sids, params, seed, game, scratch, scores, standing, seat_stats, game_stats,
              trace, record):
    """Kernel template: play game ``game`` of run ``seed``; return the trace length (0 unless
    ``record``), or -(1+seat) if that seat chose illegally.

    Writes the final totals (``standing`` = totals), per seat the tricks won,
    the tallies and the times befooled, and the number of deals and tricks.
    With ``record`` the action trace goes to ``trace``.
    """
    card_colour, card_value, rules = arrays
    (deck, hand_c, hand_v, hand_n, masks, full, unplayed, t_seat, t_colour, t_value, fooled, totals, points, obs,
     opt_colour, opt_value, opt_pos, rngs, rng, par) = scratch
    players = rules[R_PLAYERS]
    size = rules[R_HAND]
    n_cards = rules[R_CARDS]
    n_colours = rules[R_COLOURS]
    discs = rules[R_DISCS]

    seed_game(rngs, seed, game)
    totals[:] = 0
    seat_stats[:, :] = 0
    obs[:] = 0
    obs[OBS_PLAYERS] = players
    obs[OBS_COLOURS] = n_colours
    obs[OBS_DISCS] = discs
    obs[OBS_EMPTY_HAND] = rules[R_EMPTY_HAND]
    obs[OBS_WILD_PENALTY] = rules[R_WILD_PENALTY]
    obs[OBS_LOSS_LIMIT] = rules[R_LOSS_LIMIT]
    obs[OBS_TALLY_LIMIT] = rules[R_TALLY_LIMIT]
    start = 0
    tallies = 0
    tricks_played = 0
    deals = 0
    leader_alone = -1  # the last seat to lead the totals alone after a deal
    lead_changes = 0
    t = 1
    for deal in range(rules[R_MAX_DEALS]):
        fresh_deck(deck, n_cards, rngs[0])
        deal_hands(deck, hand_c, hand_v, hand_n, masks, full, unplayed, card_colour, card_value)
        fooled[:] = 0
        for p in range(players):
            obs[OBS_COUNT + p] = size
            obs[OBS_PASSING + p] = 0
            obs[OBS_TOTAL + p] = totals[p]
        obs[OBS_DEAL] = deal
        obs[OBS_TALLIES] = tallies
        count_at = 0
        if record:
            trace[t] = start
            for i in range(players * size):
                trace[t + 1 + i] = 100 * card_colour[deck[i]] + card_value[deck[i]]
            count_at = t + 1 + players * size
            t = count_at + 1

        leader = start
        trick = 0
        over = False
        while not over:
            active = players
            for p in range(players):
                active -= fooled[p]
            obs[OBS_TRICK] = trick
            obs[OBS_LEADER] = leader
            lead = 0
            n = 0
            p = leader - 1
            for _ in range(players):
                p = 0 if p == players - 1 else p + 1
                if fooled[p]:
                    continue
                # the legal cards: with a lead colour in hand, that colour and wilds; else any card
                free = np.int64(lead == 0 or masks[p, lead] == 0)
                k = 0
                for j in range(hand_n[p]):
                    # written every time, kept when legal: no unpredictable branch
                    c = hand_c[p, j]
                    opt_colour[k] = c
                    opt_value[k] = hand_v[p, j]
                    opt_pos[k] = j
                    k += free | np.int64(c == lead) | np.int64(c == 0)
                obs[OBS_SEAT] = p
                obs[OBS_LEAD] = lead
                obs[OBS_PLAYED] = n
                obs[OBS_TO_PLAY] = active - n - 1
                obs[OBS_MINE] = masks[p, 0]
                obs[OBS_UNSEEN] = unplayed[0] - masks[p, 0]
                for c in range(1, n_colours + 1):
                    obs[OBS_MINE + c] = masks[p, c]
                    obs[OBS_UNSEEN + c] = unplayed[c] & ~masks[p, c]
                choice = decide(sids[p], p, rngs, params, rng, par, opt_colour, opt_value, k, obs)  # noqa: F821
                if choice < 0 or choice >= k:
                    return -(1 + p)
                j = opt_pos[choice]
                c = opt_colour[choice]
                v = opt_value[choice]
                hand_n[p] -= 1
                hand_c[p, j] = hand_c[p, hand_n[p]]
                hand_v[p, j] = hand_v[p, hand_n[p]]
                if c == 0:
                    masks[p, 0] -= 1
                    unplayed[0] -= 1
                else:
                    masks[p, c] &= ~(_ONE << v)
                    unplayed[c] &= ~(_ONE << v)
                    if lead == 0:
                        lead = c
                t_seat[n] = p
                t_colour[n] = c
                t_value[n] = v
                obs[OBS_TRICK_COLOUR + n] = c
                obs[OBS_TRICK_VALUE + n] = v
                obs[OBS_TRICK_SEAT + n] = p
                obs[OBS_COUNT + p] = hand_n[p]
                n += 1
                if hand_n[p] == 0:
                    over = True
                if record:
                    trace[t] = 100 * c + v
                    t += 1

            # The trick is resolved here, without branches on the cards, rather than in helpers
            # taking the trick arrays: both made the whole game about half as fast (measured).
            # Winner: the highest lead-colour card; the first player if only wilds were played.
            winner = t_seat[0]
            best = 0
            for i in range(n):
                value = t_value[i] if t_colour[i] == lead else 0
                winner = t_seat[i] if value > best else winner
                best = max(best, value)
            # Befooled: the worst card takes a disc, then the worst of the rest. Keys are unique
            # and carry the card's place in the trick (see worst_key).
            fooled[:] = 0
            taken = 0         # bit i: the i-th card already took a disc
            for _ in range(discs):
                worst = _TAKEN
                for i in range(n):
                    worst = min(worst, worst_key(t_colour[i], t_value[i], lead, i) + ((taken >> i) & 1) * _TAKEN)
                i = trick_place(worst)
                taken |= 1 << i
                fooled[t_seat[i]] = 1
            seat_stats[winner, S_TRICKS] += 1
            for p in range(players):
                seat_stats[p, S_FOOLED] += fooled[p]
                obs[OBS_PASSING + p] = fooled[p]
            leader = winner
            trick += 1

        tallies_now = deal_points(hand_c, hand_v, hand_n, fooled, rules[R_EMPTY_HAND], rules[R_WILD_PENALTY],
                                  points)
        tallies += tallies_now
        tricks_played += trick
        deals += 1
        lowest = 0
        for p in range(players):
            totals[p] += points[p]
            if hand_n[p] == 0 and not fooled[p]:
                seat_stats[p, S_TALLIES] += 1
            lowest = min(lowest, totals[p])
        best, top = 0, 0
        for p in range(players):
            if p == 0 or totals[p] > totals[best]:
                best, top = p, 1
            elif totals[p] == totals[best]:
                top += 1
        if top == 1:
            lead_changes += leader_alone >= 0 and best != leader_alone
            leader_alone = best
        if record:
            trace[count_at] = t - count_at - 1
        if lowest <= -rules[R_LOSS_LIMIT] or tallies >= rules[R_TALLY_LIMIT]:
            break
        start = next_start(points, start)

    for p in range(players):
        scores[p] = totals[p]
        standing[p] = totals[p]
    game_stats[0] = deals
    game_stats[1] = tricks_played
    game_stats[2] = lead_changes
    if record:
        trace[0] = deals
    return t if record else 0

