"""Magpie: buy the market card with the most coins on it, keep a card that lays an egg, always pay for an egg.

A worked example of a user strategy for Fauch & Fertig (see the tutorial
"Writing your own strategy"). Run it with:

    playtest simulate fauch-fertig --strategy-file docs/examples/magpie.py \
        --strategy magpie --strategy random --strategy random --strategy random
"""

from numba import njit

from simulator.fauch_fertig.layout import (A_BLIND, A_COINS, A_MARKET, ACTION, C_FREE, C_PAY, KEEP, MARKET,
                                           OBS_CARD_COND, OBS_COINS, OBS_MARKET_COINS)

NAME = "magpie"
PARAMS = [6.0]  # with no market card affordable, buy blind from this many coins (else take coins)


@njit
def decide(kind, options, n_options, obs, params, rng):
    if kind == ACTION:
        # options are action codes: A_MARKET + slot, A_BLIND, A_COINS (only the legal ones)
        best, best_k = -1, -1
        for k in range(n_options):
            slot = options[k] - A_MARKET
            if 0 <= slot < MARKET and obs[OBS_MARKET_COINS + slot] > best:
                best, best_k = obs[OBS_MARKET_COINS + slot], k
        if best_k >= 0:
            return best_k
        for k in range(n_options):
            if options[k] == A_BLIND and obs[OBS_COINS] >= params[0]:
                return k
        for k in range(n_options):
            if options[k] == A_COINS:
                return k
        return 0
    if kind == KEEP:
        # options are the drawn card ids: keep one whose condition gives an egg when it is laid out
        for k in range(n_options):
            condition = obs[OBS_CARD_COND + 4 * options[k]]
            if condition == C_FREE or condition == C_PAY:
                return k
        return 0
    return n_options - 1  # PAY: options 0 (decline) and 1 (pay)
