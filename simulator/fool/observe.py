"""What a Fool! strategy sees, built in Python from the reference engine's ``View``.

Lets the numba decision functions (``simulator.fool.layout``) play inside the
reference engine: in scenario files, and in tests that check the kernel shows
strategies exactly what the layout promises.
"""

import numpy as np

from simulator.core.rng import seed_stream
from simulator.fool.layout import (OBS_COLOURS, OBS_COUNT, OBS_DEAL, OBS_DISCS, OBS_EMPTY_HAND, OBS_LEAD,
                                   OBS_LEADER, OBS_LOSS_LIMIT, OBS_MINE, OBS_PASSING, OBS_PLAYED, OBS_PLAYERS,
                                   OBS_SEAT, OBS_SIZE, OBS_TALLIES, OBS_TALLY_LIMIT, OBS_TO_PLAY, OBS_TOTAL,
                                   OBS_TRICK, OBS_TRICK_COLOUR, OBS_TRICK_SEAT, OBS_TRICK_VALUE, OBS_UNSEEN,
                                   OBS_WILD_PENALTY)


def colour_id(rules, card):
    """0 for a wild, else 1 + the colour's place in ``deck.colours``."""
    return 0 if card.wild else rules.colours.index(card.colour) + 1


def _masks(rules, cards):
    out = [0] * (len(rules.colours) + 1)
    for card in cards:
        if card.wild:
            out[0] += 1
        else:
            out[colour_id(rules, card)] |= 1 << card.value
    return out


def observe(view):
    """The observation vector (int64) of ``view`` as the layout defines it."""
    rules = view.rules
    obs = np.zeros(OBS_SIZE, np.int64)
    obs[OBS_PLAYERS] = rules.players
    obs[OBS_SEAT] = view.seat
    obs[OBS_COLOURS] = len(rules.colours)
    obs[OBS_DISCS] = rules.discs
    obs[OBS_DEAL] = view.deal
    obs[OBS_TRICK] = view.trick_number
    obs[OBS_LEADER] = view.trick.leader
    lead = view.trick.lead_colour
    obs[OBS_LEAD] = 0 if lead is None else rules.colours.index(lead) + 1
    obs[OBS_PLAYED] = len(view.trick.plays)
    obs[OBS_TO_PLAY] = rules.players - len(view.passing) - len(view.trick.plays) - 1
    obs[OBS_TALLIES] = view.tallies
    obs[OBS_EMPTY_HAND] = rules.empty_hand
    obs[OBS_WILD_PENALTY] = rules.wild_penalty
    obs[OBS_LOSS_LIMIT] = rules.loss_limit
    obs[OBS_TALLY_LIMIT] = rules.tally_limit
    for i, (seat, card) in enumerate(view.trick.plays):
        obs[OBS_TRICK_COLOUR + i] = colour_id(rules, card)
        obs[OBS_TRICK_VALUE + i] = card.value
        obs[OBS_TRICK_SEAT + i] = seat
    for seat in range(rules.players):
        obs[OBS_COUNT + seat] = view.counts[seat]
        obs[OBS_PASSING + seat] = int(seat in view.passing)
        obs[OBS_TOTAL + seat] = view.totals[seat]
    mine = _masks(rules, view.hand)
    gone = list(view.hand) + list(view.seen) + [card for _, card in view.trick.plays]
    unseen = list(rules.deck)
    for card in gone:
        unseen.remove(card)
    for c, (m, u) in enumerate(zip(mine, _masks(rules, unseen))):
        obs[OBS_MINE + c] = m
        obs[OBS_UNSEEN + c] = u
    return obs


def numba_player(decide, params, seed, seat):
    """A reference-engine strategy (``view -> Card``) that asks the decision function ``decide``.

    ``params`` is its parameter vector; its random stream is lane ``1 + seat``
    of game 0 of run ``seed``.
    """
    rng = np.empty(4, np.uint64)
    seed_stream(rng, seed, 0, 1 + seat)
    params = np.asarray(params if len(params) else [0.0], dtype=np.float64)

    def choose(view):
        rules = view.rules
        colours = np.array([colour_id(rules, c) for c in view.legal], np.int64)
        values = np.array([c.value for c in view.legal], np.int64)
        k = int(decide(colours, values, len(view.legal), observe(view), params, rng))
        if not 0 <= k < len(view.legal):
            raise ValueError(f"the strategy chose option {k} of {len(view.legal)}")
        return view.legal[k]

    return choose
