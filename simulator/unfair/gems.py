"""Gemstones: what an underground facility is worth, and how often the 25-token supply runs dry.

One supply serves the whole table. Each round every player in turn builds
``gems.facilities_per_round`` facilities, each taking as many tokens as its
drill icon shows (``gems.drill``), face down from the draw pile. After the
builds, ``gems.dug_up_per_round`` tokens in play, chosen at random, are dug up
early: their value stays with the facility's owner and the token goes to the
discard pile. The supply follows the rulebook: an empty draw pile is rebuilt
by shuffling the discard pile; when both are empty the facility gets no token
and never catches up. A facility's value is the coins on the tokens it drew.
"""

import numba as nb
import numpy as np
import polars as pl

from simulator.core import worker
from simulator.core.rng import randint, seed_stream, shuffle
from simulator.unfair.draws import draw
from simulator.unfair.setup import gems_config
from simulator.unfair.setup import rounds as game_rounds

BLOCK = 256  # trials per scratch allocation
PILE, DISCARD = 0, 1  # indices into a supply's ``counts``


@nb.njit(cache=True)
def draw_gem(pile, discard, counts, state):
    """Take the top token of the draw pile and return its value, or -1 when none is left anywhere.

    Jit-compiled. ``pile[:counts[PILE]]`` is the draw pile (top last) and
    ``discard[:counts[DISCARD]]`` the discard pile. An empty draw pile is
    first rebuilt from the shuffled discard pile.
    """
    if counts[PILE] == 0:
        if counts[DISCARD] == 0:
            return -1
        n = counts[DISCARD]
        pile[:n] = discard[:n]
        shuffle(pile, n, state)
        counts[PILE] = n
        counts[DISCARD] = 0
    counts[PILE] -= 1
    return pile[counts[PILE]]


@nb.njit(cache=True)
def discard_gem(discard, counts, value):
    """Put a token of ``value`` face up on the discard pile. Jit-compiled."""
    discard[counts[DISCARD]] = value
    counts[DISCARD] += 1


@nb.njit(cache=True, parallel=True, nogil=True)
def simulate_kernel(seed, trials, rounds, players, tokens, facilities, drill, dug_up):
    """Play the gemstone economy of ``trials`` games; jit-compiled, parallel over blocks of trials.

    ``facilities``, ``drill`` and ``dug_up`` are a ``Gems``' distributions
    (``simulator.unfair.setup``), each ``(values, cumulative weights)``.
    Trial ``i`` uses stream ``(seed, i, 0)``. Returns ``(per_facility,
    short, recycled)``: ``per_facility`` is ``float64[blocks, drill + 1,
    rounds, 5]`` sums over facilities by drill count and build round of
    (facilities, value, value squared, tokens received, facilities short of
    tokens); ``short[i, r]`` the tokens trial ``i`` could not place in round
    ``r``; ``recycled[i, r]`` how often the discard pile was recycled.
    """
    fac_values, fac_cum = facilities
    drill_values, drill_cum = drill
    dug_values, dug_cum = dug_up
    n_blocks = (trials + BLOCK - 1) // BLOCK
    max_drill = drill_values.max()
    per_facility = np.zeros((n_blocks, max_drill + 1, rounds, 5))
    short = np.zeros((trials, rounds), np.int64)
    recycled = np.zeros((trials, rounds), np.int64)
    n_tokens = tokens.size
    for blk in nb.prange(n_blocks):
        state = np.empty(4, np.uint64)
        pile = np.empty(n_tokens, np.int64)
        discard = np.empty(n_tokens, np.int64)
        in_play = np.empty(n_tokens, np.int64)
        counts = np.zeros(2, np.int64)
        for i in range(blk * BLOCK, min(trials, (blk + 1) * BLOCK)):
            seed_stream(state, seed, i, 0)
            pile[:] = tokens
            shuffle(pile, n_tokens, state)
            counts[PILE] = n_tokens
            counts[DISCARD] = 0
            n_play = 0
            for r in range(rounds):
                for _player in range(players):
                    for _facility in range(draw(fac_values, fac_cum, state)):
                        drill = draw(drill_values, drill_cum, state)
                        value = 0
                        got = 0
                        for _token in range(drill):
                            if counts[PILE] == 0 and counts[DISCARD] > 0:
                                recycled[i, r] += 1
                            v = draw_gem(pile, discard, counts, state)
                            if v < 0:
                                short[i, r] += 1
                            else:
                                in_play[n_play] = v
                                n_play += 1
                                value += v
                                got += 1
                        acc = per_facility[blk, drill, r]
                        acc[0] += 1
                        acc[1] += value
                        acc[2] += value * value
                        acc[3] += got
                        if got < drill:
                            acc[4] += 1
                for _dig in range(draw(dug_values, dug_cum, state)):
                    if n_play == 0:
                        break
                    k = randint(state, n_play)
                    discard_gem(discard, counts, in_play[k])
                    n_play -= 1
                    in_play[k] = in_play[n_play]
    return per_facility, short, recycled


def simulate(setup, *, players=None, first_date=False, trials=20_000, seed=1):
    """Run the kernel for ``setup``; return ``(config, rounds, per_facility summed over blocks, short, recycled)``."""
    cfg = gems_config(setup, players)
    n_rounds = game_rounds(setup, first_date)
    per_facility, short, recycled = worker.call(simulate_kernel, seed, trials, n_rounds, cfg.players, cfg.tokens,
                                                cfg.facilities, cfg.drill, cfg.dug_up)
    return cfg, n_rounds, per_facility.sum(axis=0), short, recycled


def gems_tables(setup, *, players=None, first_date=False, trials=20_000, seed=1):
    """Both gemstone tables from one simulation: ``{"facility value": ..., "supply": ...}``.

    ``facility value``: one row per (drill, round) with at least one facility
    built: facilities per game, mean value (coins) and its standard error,
    mean tokens received, and the share of those facilities that got fewer
    tokens than their drill icon (``p_short``).

    ``supply``: one row per round: the chance that some facility went short
    that round (``p_short``) and by the end of it (``p_short_so_far``), tokens
    missed so far per game, and the chance the discard pile had been recycled
    by then.
    """
    cfg, n_rounds, acc, short, recycled = simulate(setup, players=players, first_date=first_date,
                                                   trials=trials, seed=seed)
    rows = []
    for drill in range(acc.shape[0]):
        for r in range(n_rounds):
            n, value, value_sq, got, n_short = acc[drill, r].tolist()
            if n == 0:
                continue
            mean = value / n
            var = max(0.0, value_sq / n - mean * mean) * n / (n - 1) if n > 1 else 0.0
            rows.append({"players": cfg.players, "rounds": n_rounds, "drill": drill, "round": r + 1,
                         "facilities_per_game": n / trials, "value": mean, "value_se": (var / n) ** 0.5,
                         "tokens": got / n, "p_short": n_short / n, "trials": trials})
    short_so_far = np.cumsum(short, axis=1)
    recycled_so_far = np.cumsum(recycled, axis=1)
    supply = pl.DataFrame({
        "players": [cfg.players] * n_rounds, "rounds": [n_rounds] * n_rounds,
        "round": list(range(1, n_rounds + 1)),
        "p_short": (short > 0).mean(axis=0), "p_short_so_far": (short_so_far > 0).mean(axis=0),
        "tokens_missed_so_far": short_so_far.mean(axis=0),
        "p_recycled_so_far": (recycled_so_far > 0).mean(axis=0), "trials": [trials] * n_rounds})
    return {"facility value": pl.DataFrame(rows), "supply": supply}


def gems_study(setup, **options):
    """The ``facility value`` table of ``gems_tables`` (same options)."""
    return gems_tables(setup, **options)["facility value"]
