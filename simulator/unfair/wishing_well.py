"""Wishing Well against Wandering Merchant: which side of the card to use each round.

Each round the player first gains beans (``wishing_well.bean_income``), then
uses one side of the card:

* wish: roll two dice and spend the fewest beans that make a double (none if
  the beans held cannot); a double grants the wish;
* trade: give the round's unwanted cards (``wishing_well.cards_to_trade``) for
  ``beans_per_card`` beans each, then sell every bean above the policy's
  ``keep_beans`` for ``coins_per_bean`` coins each.

A policy wishes when it holds at least ``wish_from_beans`` beans, else
trades; with ``cash_out_last_round`` it trades and sells every bean in the
last round. All policies of a trial see the same income, cards and dice
(one random lane each), so their differences are not sampling noise.
"""

import numba as nb
import numpy as np
import polars as pl

from simulator.core import worker
from simulator.core.rng import randint, seed_stream
from simulator.unfair.dice import DOUBLE, cheapest_adjustment
from simulator.unfair.draws import draw
from simulator.unfair.setup import rounds as game_rounds
from simulator.unfair.setup import wishing_well_config

# per-trial outputs, in this order
COLUMNS = ("wishes", "granted", "beans_spent", "beans_gained", "coins", "beans_left")
INCOME_LANE, CARDS_LANE, DICE_LANE = 0, 1, 2


@nb.njit(cache=True)
def play_policy(policy, rounds, rules, income, cards, roll_a, roll_b, out):
    """Play one policy through a game whose round-by-round draws are given; write ``COLUMNS`` to ``out``.

    Jit-compiled. ``policy`` is ``(wish_from, keep, cash_out)`` (``wish_from``
    -1 never wishes), ``rules`` ``(start_beans, beans_per_card,
    coins_per_bean, faces)``, both numbers only (a record of arrays would
    cost reference counting at every call); ``income``, ``cards``,
    ``roll_a`` and ``roll_b`` hold per round the bean income, the unwanted
    cards and the two dice (used only if the player wishes).
    """
    wish_from, keep, cash_out = policy
    start_beans, beans_per_card, coins_per_bean, faces = rules
    beans = start_beans
    out[:] = 0
    for r in range(rounds):
        beans += income[r]
        out[3] += income[r]
        last = r == rounds - 1
        wish = wish_from >= 0 and beans >= wish_from and not (last and cash_out)
        if wish:
            out[0] += 1
            cost = cheapest_adjustment(roll_a[r], roll_b[r], DOUBLE, 0, beans, faces)
            if cost >= 0:
                out[1] += 1
                out[2] += cost
                beans -= cost
        else:
            gained = cards[r] * beans_per_card
            beans += gained
            out[3] += gained
            sell = beans if (last and cash_out) else max(0, beans - keep)
            beans -= sell
            out[4] += sell * coins_per_bean
    out[5] = beans


@nb.njit(cache=True, parallel=True, nogil=True)
def simulate_kernel(seed, trials, rounds, rules, income_draw, card_draw, policies):
    """Play every policy in ``trials`` games of ``rounds`` rounds; return ``int64[trials, policies, COLUMNS]``.

    Jit-compiled, parallel over trials; trial ``i`` draws income, cards and
    dice from streams ``(seed, i, lane)`` for lanes 0, 1 and 2, the same for
    every policy and every thread count. The records are those of a
    ``WishingWell`` (``simulator.unfair.setup``): ``rules`` is
    ``(start_beans, beans_per_card, coins_per_bean, faces)``,
    ``income_draw`` and ``card_draw`` are ``(values, cumulative weights)``,
    ``policies`` ``(wish_from, keep, cash_out)``, one entry per policy.
    """
    faces = rules[3]
    income_values, income_cum = income_draw
    card_values, card_cum = card_draw
    wish_from, keep, cash_out = policies
    n_pol = wish_from.size
    out = np.zeros((trials, n_pol, len(COLUMNS)), np.int64)
    for i in nb.prange(trials):
        state = np.empty(4, np.uint64)
        income = np.empty(rounds, np.int64)
        cards = np.empty(rounds, np.int64)
        roll_a = np.empty(rounds, np.int64)
        roll_b = np.empty(rounds, np.int64)
        seed_stream(state, seed, i, INCOME_LANE)
        for r in range(rounds):
            income[r] = draw(income_values, income_cum, state)
        seed_stream(state, seed, i, CARDS_LANE)
        for r in range(rounds):
            cards[r] = draw(card_values, card_cum, state)
        seed_stream(state, seed, i, DICE_LANE)
        for r in range(rounds):
            roll_a[r] = randint(state, faces) + 1
            roll_b[r] = randint(state, faces) + 1
        for p in range(n_pol):
            play_policy((wish_from[p], keep[p], cash_out[p]), rounds, rules, income, cards, roll_a, roll_b,
                        out[i, p])
    return out


def simulate(setup, *, first_date=False, trials=20_000, seed=1):
    """Run the kernel for ``setup``; return ``(config, rounds, int64[trials, policies, COLUMNS])``."""
    cfg = wishing_well_config(setup)
    n_rounds = game_rounds(setup, first_date)
    out = worker.call(simulate_kernel, seed, trials, n_rounds,
                      (cfg.start_beans, cfg.beans_per_card, cfg.coins_per_bean, cfg.faces), cfg.income, cfg.cards,
                      (cfg.wish_from, cfg.keep, cfg.cash_out))
    return cfg, n_rounds, out


def wishing_well_study(setup, *, first_date=False, trials=20_000, seed=1):
    """Per policy, the mean (and standard error) of each outcome over a game.

    Columns: ``policy``, ``rounds``, then for each of ``COLUMNS`` its mean and
    ``<name>_se``; ``granted_per_wish`` is wishes granted over wishes made (empty
    for a policy that never wishes).
    """
    cfg, n_rounds, out = simulate(setup, first_date=first_date, trials=trials, seed=seed)
    mean = out.mean(axis=0)
    se = out.std(axis=0, ddof=1) / np.sqrt(trials)
    data = {"policy": cfg.names, "rounds": [n_rounds] * len(cfg.names)}
    for c, name in enumerate(COLUMNS):
        data[name] = mean[:, c]
        data[f"{name}_se"] = se[:, c]
    wishes = out[:, :, 0].sum(axis=0)
    granted = out[:, :, 1].sum(axis=0)
    data["granted_per_wish"] = [g / w if w else None for g, w in zip(granted.tolist(), wishes.tolist())]
    data["trials"] = [trials] * len(cfg.names)
    return pl.DataFrame(data)
