"""What a Fauch & Fertig strategy sees, built in Python from the reference engine's ``Table``.

Lets the numba decision functions (``simulator.fauch_fertig.layout``) play
inside the reference engine, as scenario files need.
"""

import numpy as np

from simulator.core.rng import seed_stream
from simulator.fauch_fertig.layout import (ACTION, COLOUR_NAMES, KEEP, MARKET, N_CARDS, OBS_CARD, OBS_CARD_COLOUR,
                                           OBS_CARD_COND, OBS_CARD_NUMBER, OBS_COINS, OBS_COLOUR_COUNT, OBS_COMMUNITY,
                                           OBS_COMMUNITY_DONE, OBS_COMMUNITY_N, OBS_DISCARD, OBS_EGGS, OBS_EGGS_ON,
                                           OBS_MARKET, OBS_MARKET_COINS, OBS_NUMBER_COUNT, OBS_OWNER, OBS_PILE,
                                           OBS_PLACED, OBS_PLAYERS, OBS_ROUND, OBS_SEAT, OBS_SIZE, PAY)

KINDS = {"action": ACTION, "keep": KEEP, "pay": PAY}


def observe(table, player, card=None):
    """The observation vector (int64) of ``player`` at ``table`` as the layout defines it.

    ``card`` is the pay card just laid out (a PAY decision), else None.
    """
    obs = np.zeros(OBS_SIZE, np.int64)
    obs[OBS_SEAT] = player.seat
    obs[OBS_PLAYERS] = table.n
    obs[OBS_ROUND] = table.round
    obs[OBS_COINS] = player.coins
    obs[OBS_EGGS] = table.info["eggs"]
    obs[OBS_PILE] = len(table.pile)
    obs[OBS_DISCARD] = len(table.discard)
    obs[OBS_CARD] = -1 if card is None else card.id
    for s in range(MARKET):
        obs[OBS_MARKET + s] = -1 if table.market[s] is None else table.market[s].id
        obs[OBS_MARKET_COINS + s] = table.market_coins[s]
    obs[OBS_OWNER:OBS_OWNER + N_CARDS] = -1
    for p in table.players:
        obs[OBS_PLACED + p.seat] = p.placed
        for c in p.display:
            obs[OBS_COLOUR_COUNT + 5 * p.seat + COLOUR_NAMES.index(c.colour)] += 1
            if c.number is not None:
                obs[OBS_NUMBER_COUNT + 9 * p.seat + c.number] += 1
            obs[OBS_OWNER + c.id] = p.seat
        for cid, eggs in p.eggs_on.items():
            obs[OBS_EGGS_ON + cid] = eggs
    obs[OBS_COMMUNITY_N] = len(table.community)
    for k, com in enumerate(table.community):
        obs[OBS_COMMUNITY + 4 * k:OBS_COMMUNITY + 4 * k + 4] = com.condition.code()
        obs[OBS_COMMUNITY_DONE + k] = int(com.done)
    for c in table.cards:
        obs[OBS_CARD_COLOUR + c.id] = COLOUR_NAMES.index(c.colour)
        obs[OBS_CARD_NUMBER + c.id] = c.number or 0
        obs[OBS_CARD_COND + 4 * c.id:OBS_CARD_COND + 4 * c.id + 4] = c.condition.code()
    return obs


def numba_player(decide, params, seed, seat):
    """A reference-engine strategy ``f(table, player, kind, options, rng) -> index`` asking ``decide``.

    It fits ``reference.PlaySource``: ``kind`` is "action", "keep" or "pay"
    and ``options`` the legal action codes, the drawn ``Card``s or ``[False,
    True]``; the pay card is the one just laid out, the last of the display.
    The Python ``rng`` is ignored: the decision function draws from lane
    ``1 + seat`` of game 0 of run ``seed``, as in the kernel.
    """
    rng = np.empty(4, np.uint64)
    seed_stream(rng, seed, 0, 1 + seat)
    params = np.asarray(params if len(params) else [0.0], dtype=np.float64)

    def choose(table, player, kind, options, _rng):
        if kind == "keep":
            codes = [c.id for c in options]
        else:
            codes = [int(o) for o in options]
        obs = observe(table, player, player.display[-1] if kind == "pay" else None)
        k = int(decide(KINDS[kind], np.array(codes, np.int64), len(codes), obs, params, rng))
        if not 0 <= k < len(options):
            raise ValueError(f"the strategy chose option {k} of {len(options)}")
        return k

    return choose
