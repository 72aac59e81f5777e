"""Built-in Fauch & Fertig strategies: numba decision functions.

Each function has the Fauch & Fertig signature (see ``simulator.fauch_fertig.layout``)::

    decide(kind, options, n_options, obs, params, rng) -> int

and is jit-compiled (``cache=True``). They read only ``obs`` (every display,
the market and its coins, the community cards, eggs placed, the pile sizes
and their own coins) and their own random stream ``rng``, and allocate
nothing: their count arrays live in ``obs``'s scratch area.
"""

import numba as nb

from simulator.core.rng import randint
from simulator.fauch_fertig.conditions import holds
from simulator.fauch_fertig.layout import (A_BLIND, BLACK, C_BONUS, C_COLOUR, C_COLOURS, C_DISTINCT, C_FREE, C_PAY,
                                           C_RANGE, C_RUNS, C_SETS, C_BLACK, KEEP, MARKET, N_CARDS, N_COLOURS,
                                           N_NUMBERS, OBS_CARD, OBS_CARD_COLOUR, OBS_CARD_COND, OBS_CARD_NUMBER,
                                           OBS_COINS, OBS_COLOUR_COUNT, OBS_COMMUNITY, OBS_COMMUNITY_DONE,
                                           OBS_COMMUNITY_N, OBS_EGGS_ON, OBS_MARKET, OBS_MARKET_COINS,
                                           OBS_NUMBER_COUNT, OBS_OWNER, OBS_PLAYERS, OBS_SCRATCH, OBS_SEAT, PAY)


@nb.njit(cache=True)
def random(kind, options, n, obs, params, rng):
    """Uniform over the legal options: any legal action, any drawn card, pay or not. Jit-compiled."""
    return randint(rng, n)


@nb.njit(cache=True)
def shortfall(kind, a, b, c, colours, numbers, row):
    """Roughly how many more cards the condition ``(kind, a, b, c)`` needs in ``row`` (0 = met). Jit-compiled.

    Exact for the counting conditions; for sets, runs and colour sets a
    quick estimate a player would make (never 0 unless the condition holds).
    """
    if holds(kind, a, b, c, colours, numbers, row):
        return 0
    if kind == C_COLOUR:
        if b >= 0:
            return a - colours[row, b]
        best = a
        for col in range(N_COLOURS):
            best = min(best, a - colours[row, col])
        return best
    if kind == C_RANGE:
        total = 0
        for x in range(b, c + 1):
            total += numbers[row, x]
        return a - total
    if kind == C_DISTINCT:
        total = 0
        for x in range(1, N_NUMBERS + 1):
            total += numbers[row, x] > 0
        return a - total
    if kind == C_SETS:
        have, used, missing = 0, 0, 0
        for x in range(1, N_NUMBERS + 1):
            have += numbers[row, x] // b
        for _ in range(a - have):      # finish the fullest partial sets first
            best_x, best_r = 0, -1
            for x in range(1, N_NUMBERS + 1):
                if not (used >> x) & 1 and numbers[row, x] % b > best_r:
                    best_x, best_r = x, numbers[row, x] % b
            used |= 1 << best_x
            missing += b - best_r
        return max(missing, 1)
    if kind == C_RUNS:
        covered = 0
        for x in range(1, N_NUMBERS + 1):
            covered += min(numbers[row, x], a)
        return max(a * b - covered, 1)
    if kind == C_COLOURS:
        covered = 0
        for col in range(N_COLOURS):
            covered += min(colours[row, col], a)
        return max(a * b - covered, 1)
    if kind == C_BLACK:
        return a - colours[row, BLACK]
    return 0


@nb.njit(cache=True)
def prospects(obs, card, colours, numbers):
    """What buying ``card`` would do for me: ``(eggs now, shortfall removed)``. Jit-compiled.

    Counts the eggs the card earns at once (its own condition, my open
    conditions it completes, black-card bonuses, my community cards it
    completes, 2 eggs each) and by how many cards it brings my other open
    conditions closer. ``colours`` and ``numbers`` are int64 scratch arrays
    of shape (2, 5) and (2, 9): row 0 my display, row 1 mine with a neighbour's.
    """
    me = obs[OBS_SEAT]
    players = obs[OBS_PLAYERS]
    for x in range(5):
        colours[0, x] = obs[OBS_COLOUR_COUNT + 5 * me + x]
    for x in range(9):
        numbers[0, x] = obs[OBS_NUMBER_COUNT + 9 * me + x]
    col, num = obs[OBS_CARD_COLOUR + card], obs[OBS_CARD_NUMBER + card]
    eggs, closer = 0, 0
    for other in range(N_CARDS + 1):
        x = card if other == N_CARDS else other
        if other < N_CARDS and (obs[OBS_OWNER + x] != me or obs[OBS_EGGS_ON + x] > 0):
            continue
        k, a, b, c = (obs[OBS_CARD_COND + 4 * x], obs[OBS_CARD_COND + 4 * x + 1], obs[OBS_CARD_COND + 4 * x + 2],
                      obs[OBS_CARD_COND + 4 * x + 3])
        if k == C_FREE and other == N_CARDS:
            eggs += 1
        elif k == C_BONUS and other < N_CARDS and col == BLACK:
            eggs += 1
        elif k != C_PAY and k != C_BONUS and k != C_FREE:
            before = shortfall(k, a, b, c, colours, numbers, 0)
            colours[0, col] += 1
            numbers[0, num] += num > 0
            after = shortfall(k, a, b, c, colours, numbers, 0)
            colours[0, col] -= 1
            numbers[0, num] -= num > 0
            if after == 0:
                eggs += 1
            else:
                closer += max(0, before - after)
    for j in range(obs[OBS_COMMUNITY_N]):
        if obs[OBS_COMMUNITY_DONE + j]:
            continue
        nb_seat = -1
        if j == me:
            nb_seat = (j + 1) % players
        elif (j + 1) % players == me:
            nb_seat = j
        if nb_seat < 0:
            continue
        for x in range(5):
            colours[1, x] = colours[0, x] + obs[OBS_COLOUR_COUNT + 5 * nb_seat + x]
        for x in range(9):
            numbers[1, x] = numbers[0, x] + obs[OBS_NUMBER_COUNT + 9 * nb_seat + x]
        colours[1, col] += 1
        numbers[1, num] += num > 0
        if holds(obs[OBS_COMMUNITY + 4 * j], obs[OBS_COMMUNITY + 4 * j + 1], obs[OBS_COMMUNITY + 4 * j + 2],
                 obs[OBS_COMMUNITY + 4 * j + 3], colours, numbers, 1):
            eggs += 2
    return eggs, closer


@nb.njit(cache=True)
def favourite_colour(obs):
    """The colour I hold most cards of (the lowest colour index on ties). Jit-compiled."""
    me = obs[OBS_SEAT]
    best = 0
    for col in range(1, N_COLOURS):
        if obs[OBS_COLOUR_COUNT + 5 * me + col] > obs[OBS_COLOUR_COUNT + 5 * me + best]:
            best = col
    return best


@nb.njit(cache=True)
def card_worth(obs, card, w_eggs, w_closer, w_colour, colours, numbers):
    """``w_eggs`` x eggs now + ``w_closer`` x shortfall removed + ``w_colour`` if my favourite colour.

    Jit-compiled. ``colours`` and ``numbers`` are the scratch of ``prospects``.
    """
    eggs, closer = prospects(obs, card, colours, numbers)
    worth = w_eggs * eggs + w_closer * closer
    if obs[OBS_CARD_COLOUR + card] == favourite_colour(obs):
        worth += w_colour
    return worth


@nb.njit(cache=True)
def choose(kind, options, n, obs, rng, w_eggs, w_closer, w_colour, w_coins, buy_at, blind_from, pay_reserve):
    """The decision shared by the heuristics, weighed by the caller's parameters. Jit-compiled.

    ACTION: every market card is worth ``card_worth`` plus ``w_coins`` per
    coin it gains me (its coins minus what I pay onto the others); the best
    is bought if worth at least ``buy_at``. Otherwise buy blind when I have
    at least ``blind_from`` coins (and blind buying is legal), else take
    coins. KEEP: the drawn card of highest ``card_worth``. PAY: pay when
    I keep at least ``pay_reserve`` coins afterwards.
    """
    colours = obs[OBS_SCRATCH:OBS_SCRATCH + 10].reshape((2, 5))
    numbers = obs[OBS_SCRATCH + 10:OBS_SCRATCH + 28].reshape((2, 9))
    if kind == PAY:
        return 1 if obs[OBS_COINS] - obs[OBS_CARD_COND + 4 * obs[OBS_CARD] + 1] >= pay_reserve else 0
    if kind == KEEP:
        best, best_k = -1e300, 0
        for k in range(n):
            w = card_worth(obs, options[k], w_eggs, w_closer, w_colour, colours, numbers)
            if w > best:
                best, best_k = w, k
        return best_k
    in_market = 0
    for s in range(MARKET):
        in_market += obs[OBS_MARKET + s] >= 0
    best, best_k, blind_k, coins_k = -1e300, -1, -1, n - 1
    for k in range(n):
        a = options[k]
        if a == A_BLIND:
            blind_k = k
        elif a < MARKET:
            gain = obs[OBS_MARKET_COINS + a] - (in_market - 1)
            w = card_worth(obs, obs[OBS_MARKET + a], w_eggs, w_closer, w_colour, colours, numbers) + w_coins * gain
            if w > best:
                best, best_k = w, k
    if best_k >= 0 and best >= buy_at:
        return best_k
    if blind_k >= 0 and obs[OBS_COINS] >= blind_from:
        return blind_k
    return coins_k


@nb.njit(cache=True)
def chaser(kind, options, n, obs, params, rng):
    """Condition-chaser: buy the card that completes the most conditions now. Jit-compiled.

    ``params``: weight of eggs earned now, weight per card closer to an
    open condition, minimum worth to buy from the market, coins from which
    to buy blind instead of taking coins. Always pays for a pay-card egg.
    """
    return choose(kind, options, n, obs, rng, params[0], params[1], 0.0, 0.1, params[2], params[3], 0.0)


FARMER_RICH = 20   # coins from which the farmer buys the best market card even when it does not pay


@nb.njit(cache=True)
def farmer(kind, options, n, obs, params, rng):
    """Coin-farmer: let coins pile up on market cards, buy when it pays. Jit-compiled.

    ``params``: weight per coin gained, weight of eggs earned now, minimum
    worth to buy (so a card waits until enough coins lie on it), coins to
    keep after paying for a pay-card egg. Never buys blind (it feeds the
    market).

    With ``FARMER_RICH`` coins or more it buys the best market card whatever
    it is worth: coins pile up on the market only when someone buys (taking
    coins puts none there), so a table of farmers that all wait would take
    coins for ever and never finish a game (every game reached the 200-round
    cap before this rule); and a farmer that rich has no use for more coins.
    """
    buy_at = params[2] if obs[OBS_COINS] < FARMER_RICH else -1e300
    return choose(kind, options, n, obs, rng, params[1], 0.5, 0.0, params[0], buy_at, 1 << 40, params[3])


@nb.njit(cache=True)
def specialist(kind, options, n, obs, params, rng):
    """Colour specialist: collect the colour I already hold most of. Jit-compiled.

    ``params``: bonus for a card of my favourite colour, weight of eggs
    earned now, minimum worth to buy, coins from which to buy blind.
    """
    return choose(kind, options, n, obs, rng, params[1], 0.5, params[0], 0.1, params[2], params[3], 0.0)
