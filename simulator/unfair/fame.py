"""Fame and Mythic markers: how many markers a fame plan earns, and when.

Each round, in this order:

1. the plan's fame gain (if the plan gains that round) is added; fame above
   ``fame.cap`` is lost;
2. Guests step: star total = park stars of the round (``park_stars_by_round``
   plus ``park_stars_noise``, never below 0) + fame; guests = min(star total,
   capacity); a star total of at least ``mythic_threshold`` earns one Mythic
   marker, and only if an attraction without one is left
   (``attractions_by_round``);
3. Cleanup: fame is divided by ``cleanup_divisor``, rounded down.

All plans of a trial see the same park stars (lane 0); fame gains come from
lane 1.
"""

import numba as nb
import numpy as np
import polars as pl

from simulator.core import worker
from simulator.core.batch import RAM_SHARE, physical_memory
from simulator.core.rng import seed_stream
from simulator.core.setup import SetupError
from simulator.unfair.draws import draw
from simulator.unfair.setup import fame_config
from simulator.unfair.setup import rounds as game_rounds

# per-round outputs, in this order
COLUMNS = ("fame", "star_total", "guests", "mythic", "markers")
STARS_LANE, GAIN_LANE = 0, 1


@nb.njit(cache=True)
def fame_after_gain(fame, gain, cap):
    """Fame after gaining ``gain``: anything above ``cap`` is lost. Jit-compiled."""
    return min(fame + gain, cap)


@nb.njit(cache=True)
def fame_after_cleanup(fame, divisor):
    """Fame after the Cleanup step: divided by ``divisor``, rounded down. Jit-compiled."""
    return fame // divisor


@nb.njit(cache=True, parallel=True, nogil=True)
def simulate_kernel(seed, trials, rounds, rules, park, noise, plans):
    """Play every plan for ``rounds`` rounds in ``trials`` trials; return ``int64[trials, plans, rounds, COLUMNS]``.

    Jit-compiled, parallel over trials. The records are those of a ``Fame``
    (``simulator.unfair.setup``): ``rules`` is ``(cap, divisor,
    threshold)``, ``park`` ``(park_stars, capacity, attractions)`` per round,
    ``noise`` the park stars' noise ``(values, cumulative weights)`` and
    ``plans`` ``(gain_round, gain_values, gain_cum)``. Row ``r`` holds the
    Guests-step fame, star total and guests of round ``r``, whether a Mythic
    marker was gained that round (0/1) and the markers held after it.
    """
    cap, divisor, threshold = rules
    park_stars, capacity, attractions = park
    noise_values, noise_cum = noise
    gain_round, gain_values, gain_cum = plans
    n_plans = gain_round.shape[0]
    out = np.zeros((trials, n_plans, rounds, len(COLUMNS)), np.int64)
    for i in nb.prange(trials):
        state = np.empty(4, np.uint64)
        stars = np.empty(rounds, np.int64)
        seed_stream(state, seed, i, STARS_LANE)
        for r in range(rounds):
            stars[r] = max(0, park_stars[r] + draw(noise_values, noise_cum, state))
        for p in range(n_plans):
            seed_stream(state, seed, i, GAIN_LANE)
            fame = 0
            markers = 0
            for r in range(rounds):
                gain = draw(gain_values[p], gain_cum[p], state)  # drawn every round: plans stay in step
                if gain_round[p, r]:
                    fame = fame_after_gain(fame, gain, cap)
                total = stars[r] + fame
                row = out[i, p, r]
                row[0] = fame
                row[1] = total
                row[2] = min(total, capacity[r])
                if total >= threshold and markers < attractions[r]:
                    markers += 1
                    row[3] = 1
                row[4] = markers
                fame = fame_after_cleanup(fame, divisor)
    return out


def simulate(setup, *, first_date=False, trials=20_000, seed=1):
    """Run the kernel for ``setup``; return ``(config, rounds, int64[trials, plans, rounds, COLUMNS])``."""
    cfg = fame_config(setup)
    n_rounds = game_rounds(setup, first_date)
    need = trials * len(cfg.names) * n_rounds * len(COLUMNS) * 8  # the kernel keeps every trial's rows
    if need > RAM_SHARE * physical_memory():
        raise SetupError("fame.plans", f"{trials:,} trials of {len(cfg.names)} plans over {n_rounds} rounds need "
                         f"{need / 1e9:,.1f} GB, more than {RAM_SHARE:.0%} of this machine's memory: "
                         f"use fewer trials, plans or rounds")
    out = worker.call(simulate_kernel, seed, trials, n_rounds, (cfg.cap, cfg.divisor, cfg.threshold),
                      (cfg.park_stars, cfg.capacity, cfg.attractions), cfg.noise,
                      (cfg.gain_round, cfg.gain_values, cfg.gain_cum))
    return cfg, n_rounds, out


def fame_tables(setup, *, first_date=False, trials=20_000, seed=1):
    """Both fame tables from one simulation: ``{"fame by round": ..., "mythic markers at game end": ...}``.

    ``fame by round``: per plan and round, the mean Guests-step fame, star
    total and guests, the chance of a Mythic marker that round
    (``p_mythic``) and the mean markers held after it (``markers``).

    ``mythic markers at game end``: per plan, the chance of ending the game
    with each number of markers (0 .. rounds).
    """
    cfg, n_rounds, out = simulate(setup, first_date=first_date, trials=trials, seed=seed)
    mean = out.mean(axis=0)
    by_round = []
    end = []
    for p, name in enumerate(cfg.names):
        for r in range(n_rounds):
            fame, total, guests, mythic, markers = mean[p, r].tolist()
            by_round.append({"plan": name, "rounds": n_rounds, "round": r + 1, "fame": fame, "star_total": total,
                             "guests": guests, "p_mythic": mythic, "markers": markers, "trials": trials})
        counts = np.bincount(out[:, p, n_rounds - 1, 4], minlength=n_rounds + 1)
        for m, c in enumerate(counts.tolist()):
            end.append({"plan": name, "rounds": n_rounds, "markers": m, "probability": c / trials,
                        "trials": trials})
    return {"fame by round": pl.DataFrame(by_round), "mythic markers at game end": pl.DataFrame(end)}


def fame_study(setup, **options):
    """The ``fame by round`` table of ``fame_tables`` (same options)."""
    return fame_tables(setup, **options)["fame by round"]
