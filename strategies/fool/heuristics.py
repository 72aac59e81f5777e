"""Built-in Fool! strategies: numba decision functions.

Each function has the Fool! signature (see ``simulator.fool.layout``)::

    decide(opt_colour, opt_value, n_options, obs, params, rng) -> int

and is jit-compiled (``cache=True``). The options are the legal cards. The
strategies read only ``obs`` (their own hand, the cards played so far in the
trick and the deal, hand counts, who passes, the totals) and their own
random stream ``rng``.
"""

import numba as nb

from simulator.core.rng import randint
from simulator.fool.layout import (OBS_COLOURS, OBS_DISCS, OBS_LEAD, OBS_PLAYED, OBS_TO_PLAY, OBS_TRICK_COLOUR,
                                   OBS_TRICK_VALUE, OBS_UNSEEN, OBS_WILD_PENALTY)


@nb.njit(cache=True)
def random(opt_colour, opt_value, n, obs, params, rng):
    """Uniform over the legal cards. Jit-compiled."""
    return randint(rng, n)


@nb.njit(cache=True)
def badness(colour, value, lead):
    """Order of cards for the worst card, smaller is worse (ties: the later card is worse). Jit-compiled.

    A shed card (neither ``lead`` nor wild) ranks below a wild, which ranks
    below every lead-colour card; then by value.
    """
    if colour == 0:
        return 64 + value
    if colour == lead:
        return 128 + value
    return value


@nb.njit(cache=True)
def lead_if_played(obs, colour):
    """The trick's lead colour once ``colour`` is played now (0 while only wilds are down). Jit-compiled."""
    return obs[OBS_LEAD] if obs[OBS_LEAD] != 0 else colour


@nb.njit(cache=True)
def worse_before(obs, colour, value):
    """How many cards already in the trick would rank worse than this card played now. Jit-compiled."""
    lead = lead_if_played(obs, colour)
    mine = badness(colour, value, lead)
    n = 0
    for i in range(obs[OBS_PLAYED]):
        if badness(obs[OBS_TRICK_COLOUR + i], obs[OBS_TRICK_VALUE + i], lead) < mine:
            n += 1
    return n


@nb.njit(cache=True)
def discs_left(obs, colour, value):
    """Discs still to hand out below this card if played now: 0 means it is safe for sure. Jit-compiled."""
    return max(0, obs[OBS_DISCS] - worse_before(obs, colour, value))


@nb.njit(cache=True)
def penalty(obs, colour, value):
    """Negative points the card would cost if still in hand at the end of the deal. Jit-compiled."""
    return obs[OBS_WILD_PENALTY] if colour == 0 else value


@nb.njit(cache=True)
def unseen_worse_share(obs, colour, value):
    """Share of the cards I have not seen this deal that would rank worse than this card if
    played after it. Jit-compiled.

    A card played later with the same rank is worse (the later card loses
    ties). While no lead colour is set and this card is a wild, any numbered
    card played later sets the lead and so ranks above it.
    """
    lead = lead_if_played(obs, colour)
    mine = badness(colour, value, lead)
    total = obs[OBS_UNSEEN]
    worse = obs[OBS_UNSEEN] if badness(0, 1, lead) <= mine else 0
    for c in range(1, obs[OBS_COLOURS] + 1):
        mask = obs[OBS_UNSEEN + c]
        v = 0
        while mask != 0:
            if mask & 1:
                total += 1
                rank = badness(c, v, c if lead == 0 else lead)
                if rank <= mine:
                    worse += 1
            mask >>= 1
            v += 1
    return worse / total if total > 0 else 0.0


@nb.njit(cache=True)
def fool_chance(obs, colour, value):
    """Estimated chance of being befooled when playing this card now. Jit-compiled.

    Exact when the card is already safe or nobody is left to play; otherwise
    each later player is taken to play a worse card with the share of unseen
    cards that are worse (``unseen_worse_share``), independently.
    """
    need = discs_left(obs, colour, value)
    if need == 0:
        return 0.0
    later = obs[OBS_TO_PLAY]
    if later < need:
        return 1.0
    q = unseen_worse_share(obs, colour, value)
    # P(fewer than `need` of `later` players play worse): binomial terms k = 0..need-1
    p_fool = 0.0
    term = (1.0 - q) ** later        # k = 0
    for k in range(need):
        p_fool += term
        if q >= 1.0:
            break
        term *= (later - k) / (k + 1) * q / (1.0 - q)
    return min(1.0, p_fool)


@nb.njit(cache=True)
def shedder(opt_colour, opt_value, n, obs, params, rng):
    """Dump high cards when it is safe. Jit-compiled.

    Plays the highest-penalty card that cannot be among the worst of the
    trick; if none is safe, the card ranking highest in the trick (least
    likely to end up worst). A leader leads its highest card, which every
    follower must go under.
    """
    best, best_k = -(1 << 30), 0
    for k in range(n):
        c, v = opt_colour[k], opt_value[k]
        if discs_left(obs, c, v) == 0:
            score = 1000 + penalty(obs, c, v)
        else:
            score = badness(c, v, lead_if_played(obs, c))
        if score > best:
            best, best_k = score, k
    return best_k


@nb.njit(cache=True)
def wild_saver(opt_colour, opt_value, n, obs, params, rng):
    """Keep the wilds for tricks where someone had to shed. Jit-compiled.

    A wild is played when it is already safe (enough shed cards below it):
    it sheds 5 penalty points at no risk. Otherwise wilds are held and the
    player plays the highest safe numbered card, or, with none safe, the
    numbered card ranking highest in the trick. Only wilds left: a wild.
    """
    best, best_k = -(1 << 30), 0
    for k in range(n):
        c, v = opt_colour[k], opt_value[k]
        safe = discs_left(obs, c, v) == 0
        if c == 0:
            score = 2000 if safe else -1000
        elif safe:
            score = 1000 + v
        else:
            score = badness(c, v, lead_if_played(obs, c))
        if score > best:
            best, best_k = score, k
    return best_k


@nb.njit(cache=True)
def cautious(opt_colour, opt_value, n, obs, params, rng):
    """Play just above the current lowest: the smallest card that is safe. Jit-compiled.

    Saves high cards for winning later tricks (and leading them). A safe
    wild comes after every safe numbered card. With no safe card, plays the
    card ranking highest in the trick (a wild ranks above any shed card). A
    leader leads its highest numbered card.
    """
    if obs[OBS_PLAYED] == 0:
        best_k = 0
        for k in range(1, n):
            if badness(opt_colour[k], opt_value[k], opt_colour[k]) > \
                    badness(opt_colour[best_k], opt_value[best_k], opt_colour[best_k]):
                best_k = k
        return best_k
    best, best_k = -(1 << 30), 0
    for k in range(n):
        c, v = opt_colour[k], opt_value[k]
        if discs_left(obs, c, v) == 0:
            score = 1000 - v - (100 if c == 0 else 0)
        else:
            score = badness(c, v, lead_if_played(obs, c))
        if score > best:
            best, best_k = score, k
    return best_k


@nb.njit(cache=True)
def counter(opt_colour, opt_value, n, obs, params, rng):
    """Count the cards seen: weigh the points shed against the estimated chance of being befooled.

    Jit-compiled. Worth of a card = its penalty (points no longer at risk)
    - ``params[0]`` x ``fool_chance`` (cost of passing a trick) - ``params[1]``
    if it is a wild (the insurance a held wild gives).
    """
    best, best_k = -1e300, 0
    for k in range(n):
        c, v = opt_colour[k], opt_value[k]
        worth = penalty(obs, c, v) - params[0] * fool_chance(obs, c, v) - (params[1] if c == 0 else 0.0)
        if worth > best:
            best, best_k = worth, k
    return best_k
