"""Dice control with magic beans: exact odds by enumeration beside a Monte Carlo estimate.

A roll is two dice; each magic bean moves one die by 1, never below 1 nor
above the number of faces. For a goal (a double, a result of at least
``target``, a result of exactly ``target``) and ``k`` beans held, the player
spends the fewest beans that reach the goal, and none when ``k`` beans cannot.

The exact figures count the ``faces**2`` rolls with a closed formula for the
beans a roll needs; the simulation rolls dice and searches every adjustment of
the two dice. The two are separate code, so their agreement is a check.
"""

from fractions import Fraction
from math import sqrt

import numba as nb
import numpy as np
import polars as pl

from simulator.core import worker
from simulator.core.rng import randint, seed_stream
from simulator.core.setup import SetupError
from simulator.unfair.setup import MAX_BEAN_COUNTS, MAX_BEANS, MAX_TRIALS

GOALS = ("double", "at-least", "exactly")
DOUBLE, AT_LEAST, EXACTLY = 0, 1, 2
BLOCK = 4096  # trials per scratch allocation


@nb.njit(cache=True)
def reaches(a, b, goal, target):
    """Whether the dice values ``a``, ``b`` meet ``goal`` (a code of ``GOALS``). Jit-compiled."""
    if goal == DOUBLE:
        return a == b
    if goal == AT_LEAST:
        return a + b >= target
    return a + b == target


@nb.njit(cache=True)
def cheapest_adjustment(a, b, goal, target, beans, faces):
    """Fewest beans (at most ``beans``) that turn the roll ``a``, ``b`` into ``goal``; -1 if none do.

    Jit-compiled. Tries every legal pair of final values within ``beans``
    moves, so it needs no formula for the goal.
    """
    best = -1
    for na in range(max(1, a - beans), min(faces, a + beans) + 1):
        left = beans - abs(na - a)
        for nb_ in range(max(1, b - left), min(faces, b + left) + 1):
            if reaches(na, nb_, goal, target):
                cost = abs(na - a) + abs(nb_ - b)
                if best < 0 or cost < best:
                    best = cost
    return best


@nb.njit(cache=True, parallel=True, nogil=True)
def simulate_kernel(seed, trials, faces, goal, target, beans):
    """Roll ``trials`` pairs and apply the cheapest adjustment for each bean count in ``beans``.

    Jit-compiled, parallel over blocks of trials; trial ``i`` uses stream
    ``(seed, i, 0)``, and every bean count sees the same rolls. Returns
    per-block sums ``(reached, spent, spent squared)``, each ``int64[blocks,
    len(beans)]``, so totals do not depend on the thread count.
    """
    n_blocks = (trials + BLOCK - 1) // BLOCK
    reached = np.zeros((n_blocks, beans.size), np.int64)
    spent = np.zeros((n_blocks, beans.size), np.int64)
    spent_sq = np.zeros((n_blocks, beans.size), np.int64)
    for blk in nb.prange(n_blocks):
        state = np.empty(4, np.uint64)
        for i in range(blk * BLOCK, min(trials, (blk + 1) * BLOCK)):
            seed_stream(state, seed, i, 0)
            a = randint(state, faces) + 1
            b = randint(state, faces) + 1
            for k in range(beans.size):
                cost = cheapest_adjustment(a, b, goal, target, beans[k], faces)
                if cost >= 0:
                    reached[blk, k] += 1
                    spent[blk, k] += cost
                    spent_sq[blk, k] += cost * cost
    return reached, spent, spent_sq


def beans_needed(a, b, goal, target, faces):
    """Beans the roll ``a``, ``b`` needs to meet ``goal``, or ``None`` when no number of beans can."""
    total = a + b
    if goal == DOUBLE:
        return abs(a - b)
    if goal == AT_LEAST:
        return max(0, target - total) if target <= 2 * faces else None
    return abs(target - total) if 2 <= target <= 2 * faces else None


def exact(goal, target, beans, faces):
    """Exact ``(probability, expected beans spent)`` as Fractions, by enumerating all rolls."""
    code = GOALS.index(goal)
    reached = 0
    spent = 0
    for a in range(1, faces + 1):
        for b in range(1, faces + 1):
            need = beans_needed(a, b, code, target, faces)
            if need is not None and need <= beans:
                reached += 1
                spent += need
    rolls = faces * faces
    return Fraction(reached, rolls), Fraction(spent, rolls)


def check_goal(goal, target, faces):
    """Refuse an unknown goal, a target missing for (or given to) the goal that needs (or ignores) it, and a
    target that two dice of ``faces`` faces decide alone (never reached exactly; always, or never, at least)."""
    if goal not in GOALS:
        raise SetupError("goal", f"must be one of {', '.join(GOALS)}, got {goal!r}")
    if goal == "double" and target is not None:
        raise SetupError("target", "a double has no target result")
    if goal != "double" and target is None:
        raise SetupError("target", f"the goal {goal!r} needs a target result")
    lowest = 2 if goal == "exactly" else 3  # every roll is at least 2, so "at least 2" holds without beans
    if goal != "double" and not lowest <= target <= 2 * faces:
        raise SetupError("target", f"two {faces}-sided dice make 2 to {2 * faces}, so the goal {goal} {target} "
                                   f"is {'reached by every roll' if target < lowest and goal == 'at-least' else 'never reached'}"
                                   f"; give a target from {lowest} to {2 * faces}")


def dice_study(goal, beans, *, target=None, faces=6, trials=100_000, seed=1):
    """Exact and simulated odds of reaching ``goal`` for each bean count in ``beans``.

    Returns one row per bean count: ``exact_p`` (with ``exact_fraction`` over
    ``faces**2`` rolls), ``sim_p``, their difference ``diff_p`` and the
    simulation's standard error ``se_p``; likewise the expected beans spent
    (``exact_spent``, ``sim_spent``, ``diff_spent``, ``se_spent``; a roll that
    cannot reach the goal spends nothing).
    """
    check_goal(goal, target, faces)
    if not 2 <= trials <= MAX_TRIALS:
        raise SetupError("trials", f"must be from 2 to {MAX_TRIALS:,}, got {trials}")
    beans = list(beans)
    if not beans or len(beans) > MAX_BEAN_COUNTS or not all(0 <= b <= MAX_BEANS for b in beans):
        raise SetupError("beans", f"must be 1 to {MAX_BEAN_COUNTS} counts from 0 to {MAX_BEANS}, got "
                         f"{beans if len(beans) <= 10 else f'{len(beans)} counts'}")
    beans = np.asarray(beans, dtype=np.int64)
    code = GOALS.index(goal)
    tgt = 0 if target is None else int(target)
    reached, spent, spent_sq = (x.sum(axis=0) for x in worker.call(simulate_kernel, seed, trials, faces, code, tgt, beans))
    rows = []
    for k, n_reached, s, s2 in zip(beans.tolist(), reached.tolist(), spent.tolist(), spent_sq.tolist()):
        p, e = exact(goal, tgt, k, faces)
        sim_p = n_reached / trials
        sim_e = s / trials
        var_e = max(0.0, (s2 / trials - sim_e * sim_e)) * trials / (trials - 1)
        rows.append({
            "goal": goal, "target": target, "beans": k,
            "exact_fraction": f"{p.numerator * (faces * faces) // p.denominator}/{faces * faces}",
            "exact_p": float(p), "sim_p": sim_p, "diff_p": sim_p - float(p),
            "se_p": sqrt(sim_p * (1 - sim_p) / trials),
            "exact_spent": float(e), "sim_spent": sim_e, "diff_spent": sim_e - float(e),
            "se_spent": sqrt(var_e / trials), "trials": trials, "seed": seed})
    return pl.DataFrame(rows, schema_overrides={"target": pl.Int64})
