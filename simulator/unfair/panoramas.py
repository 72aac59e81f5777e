"""Panoramas: points and costs of assembling one panorama under three building policies.

A park has ``panoramas.spaces`` attraction spaces. Each round one attraction
card arrives, drawn from a shuffled pool of the panorama's cards (positions
1..length), one Kinegraphic Wall and ``other_attractions`` other attractions.
A card is built when it arrives, unless the policy has no place for it:

* ``arrival``: every card goes into the first empty space; nothing is paid.
* ``plan``: the panorama's cards are planned for the last spaces of the park
  (positions 1.. from left to right); a panorama card goes into its planned
  space, paying ``skip_cost`` coins per empty space before it; other cards go
  into the first empty unplanned space (paying for any empty space skipped),
  or are not built when none is left.
* ``save``: other cards go into the first empty space even when it is
  planned (a cheap placeholder saving the space); a panorama card goes into
  its planned space, demolishing a placeholder there if needed, or paying to
  skip when it is empty.

With ``plan`` and ``save`` the Kinegraphic Wall (when its wildcard ability is
on) is kept and built in the last round, into the planned space where it
scores best after skip costs, and otherwise like an ordinary card. Without its
ability it is an ordinary attraction. Scoring follows the printed table; see
``score_park`` for the wildcard's and Scenic Vistas' limits.
"""

import numba as nb
import numpy as np
import polars as pl

from simulator.core import worker
from simulator.core.rng import seed_stream, shuffle
from simulator.unfair.setup import panoramas_config
from simulator.unfair.setup import rounds as game_rounds

EMPTY, OTHER, WALL = -1, 0, -2  # park codes; a panorama card is its position 1..length
POLICIES = ("arrival", "plan", "save")
POLICY_NAMES = ("build in order of arrival", "plan spaces, pay to skip", "save a space")
ARRIVAL, PLAN, SAVE = 0, 1, 2
METRICS = ("points", "coins", "demolished", "complete", "net", "net_sq")
BLOCK = 256


@nb.njit(cache=True)
def _runs_score(pos, real, n, length, partial, complete):
    """Points of the runs in ``pos[:n]`` (panorama positions, < 1 = none); whether one is complete."""
    points = 0
    done = False
    i = 0
    while i < n:
        if pos[i] < 1:
            i += 1
            continue
        j = i
        has_real = real[i]
        while j + 1 < n and pos[j + 1] == pos[j] + 1:
            j += 1
            has_real = has_real or real[j]
        size = j - i + 1
        if size >= 2 and has_real:
            if size == length:
                points += complete[length]
                done = True
            else:
                points += partial[size]
        i = j + 1
    return points, done


@nb.njit(cache=True)
def score_park(park, length, partial, complete, wildcard, vistas, vistas_penalty):
    """Best game-end panorama points of ``park`` and whether a complete panorama scores. Jit-compiled.

    ``park`` holds one code per space (``EMPTY``, ``OTHER``, ``WALL`` or a
    panorama position 1..``length``). Each maximal run of side-by-side spaces
    with consecutive positions scores once: the complete value when it holds
    all ``length`` positions, else the partial value of its size (runs of 2
    or more). With ``wildcard`` one Kinegraphic Wall may count as any single
    position 1..``length`` (so it never extends a panorama past its ends);
    with ``vistas`` one attraction may count as any position for
    ``vistas_penalty`` points. Every scoring run must hold a real panorama
    card. The best choice (including using neither) is returned.
    """
    n = park.size
    pos = np.empty(n, np.int64)
    real = np.empty(n, np.bool_)
    for i in range(n):
        pos[i] = park[i] if park[i] >= 1 else 0
        real[i] = park[i] >= 1
    best, best_done = _runs_score(pos, real, n, length, partial, complete)
    for w in range(-1, n):  # -1: no wildcard used
        if w >= 0 and not (wildcard and park[w] == WALL):
            continue
        for wp in range(1 if w >= 0 else 0, length + 1 if w >= 0 else 1):
            if w >= 0:
                pos[w] = wp
            for v in range(-1, n):  # -1: Scenic Vistas not used
                if v >= 0 and (not vistas or v == w or park[v] == EMPTY):
                    continue
                for vp in range(1 if v >= 0 else 0, length + 1 if v >= 0 else 1):
                    if w < 0 and v < 0:
                        continue  # the plain park, scored above
                    if v >= 0:
                        pos[v] = vp
                        real[v] = False
                    points, done = _runs_score(pos, real, n, length, partial, complete)
                    if v >= 0:
                        points -= vistas_penalty
                        pos[v] = park[v] if park[v] >= 1 else 0
                        real[v] = park[v] >= 1
                    if points > best:
                        best, best_done = points, done
            if w >= 0:
                pos[w] = 0
    return best, best_done


@nb.njit(cache=True)
def skip_fee(park, space, skip_cost):
    """Coins to build in ``space``: ``skip_cost`` per empty space before it. Jit-compiled."""
    empties = 0
    for s in range(space):
        if park[s] == EMPTY:
            empties += 1
    return empties * skip_cost


@nb.njit(cache=True)
def _first_empty(park, first_planned, skip_planned):
    for s in range(park.size):
        if park[s] == EMPTY and not (skip_planned and s >= first_planned):
            return s
    return -1


@nb.njit(cache=True)
def build_park(arrivals, n_arrivals, policy, wildcard, length, skip_cost, partial, complete, park):
    """Build the ``arrivals`` in order under ``policy``; fill ``park`` and return ``(coins, demolished)``.

    Jit-compiled. Planned spaces are the last ``min(length, spaces)`` of the
    park, for positions 1.. in order; cards at positions beyond them are
    ordinary cards.
    """
    spaces = park.size
    planned = min(length, spaces)
    first_planned = spaces - planned
    park[:] = EMPTY
    coins = 0
    demolished = 0
    hold_wall = False
    for k in range(n_arrivals):
        card = arrivals[k]
        if policy == ARRIVAL:
            s = _first_empty(park, first_planned, False)
            if s >= 0:
                park[s] = card
            continue
        if card == WALL and wildcard:
            hold_wall = True
            continue
        if 1 <= card <= planned:
            s = first_planned + card - 1
            if policy == SAVE and (park[s] == OTHER or park[s] == WALL):  # a placeholder
                park[s] = EMPTY
                demolished += 1
            if park[s] == EMPTY:
                coins += skip_fee(park, s, skip_cost)
                park[s] = card
            continue
        s = _first_empty(park, first_planned, policy == PLAN)
        if s >= 0:
            coins += skip_fee(park, s, skip_cost)
            park[s] = card
    if hold_wall:
        best_s = -1
        best_gain = 0
        base, _ = score_park(park, length, partial, complete, True, False, 0)
        for s in range(first_planned, spaces):
            if park[s] == EMPTY or (policy == SAVE and park[s] == OTHER):
                keep = park[s]
                fee = skip_fee(park, s, skip_cost) if keep == EMPTY else 0
                park[s] = WALL
                points, _ = score_park(park, length, partial, complete, True, False, 0)
                park[s] = keep
                if points - fee - base > best_gain:
                    best_s, best_gain = s, points - fee - base
        if best_s >= 0:
            if park[best_s] == OTHER:
                demolished += 1
            else:
                coins += skip_fee(park, best_s, skip_cost)
            park[best_s] = WALL
        else:
            s = _first_empty(park, first_planned, policy == PLAN)
            if s >= 0:
                coins += skip_fee(park, s, skip_cost)
                park[s] = WALL
    return coins, demolished


@nb.njit(cache=True, parallel=True, nogil=True)
def simulate_kernel(seed, trials, rounds, lengths, park, scoring):
    """Build and score parks in ``trials`` games; jit-compiled, parallel over blocks of trials.

    ``lengths`` are the panorama lengths studied; the records are those of
    a ``Panoramas`` (``simulator.unfair.setup``): ``park`` is ``(spaces,
    other attractions, skip cost)``, ``scoring`` ``(partial, complete,
    vistas penalty)``. For each length, trial ``i`` shuffles its pool with stream ``(seed, i,
    length)``, so every policy and option sees the same arrivals. Returns
    ``float64[blocks, lengths, POLICIES, wildcard off/on, vistas off/on,
    METRICS]`` sums.
    """
    spaces, others, skip_cost = park
    partial, complete, vistas_penalty = scoring
    n_blocks = (trials + BLOCK - 1) // BLOCK
    out = np.zeros((n_blocks, lengths.size, len(POLICIES), 2, 2, len(METRICS)))
    for blk in nb.prange(n_blocks):
        state = np.empty(4, np.uint64)
        park = np.empty(spaces, np.int64)
        pool = np.empty(lengths.max() + 1 + others, np.int64)
        for i in range(blk * BLOCK, min(trials, (blk + 1) * BLOCK)):
            for li in range(lengths.size):
                length = lengths[li]
                n_pool = length + 1 + others
                for j in range(length):
                    pool[j] = j + 1
                pool[length] = WALL
                pool[length + 1:n_pool] = OTHER
                seed_stream(state, seed, i, length)
                shuffle(pool, n_pool, state)
                n_arrivals = min(rounds, n_pool)
                for p in range(len(POLICIES)):
                    for wild in range(2):
                        coins, demolished = build_park(pool, n_arrivals, p, wild == 1, length, skip_cost,
                                                       partial, complete, park)
                        for vis in range(2):
                            points, done = score_park(park, length, partial, complete, wild == 1, vis == 1,
                                                      vistas_penalty)
                            net = points - coins
                            acc = out[blk, li, p, wild, vis]
                            acc[0] += points
                            acc[1] += coins
                            acc[2] += demolished
                            if done:
                                acc[3] += 1
                            acc[4] += net
                            acc[5] += net * net
    return out


def panoramas_study(setup, *, first_date=False, trials=20_000, seed=1):
    """Per panorama length, policy, wildcard (on/off) and Scenic Vistas (on/off): mean panorama
    points, coins paid to skip, placeholders demolished, the chance of a complete panorama, and the
    net (points minus coins) with its standard error."""
    cfg = panoramas_config(setup)
    n_rounds = game_rounds(setup, first_date)
    lengths = np.asarray(cfg.lengths, np.int64)
    acc = worker.call(simulate_kernel, seed, trials, n_rounds, lengths,
                      (cfg.spaces, cfg.other_attractions, cfg.skip_cost),
                      (cfg.partial, cfg.complete, cfg.vistas_penalty)).sum(axis=0)
    rows = []
    for li, length in enumerate(cfg.lengths):
        for p, name in enumerate(POLICY_NAMES):
            for wild in range(2):
                for vis in range(2):
                    points, coins, demolished, done, net, net_sq = (acc[li, p, wild, vis] / trials).tolist()
                    var = max(0.0, net_sq - net * net) * trials / (trials - 1)
                    rows.append({"length": length, "policy": name, "wildcard": bool(wild), "vistas": bool(vis),
                                 "rounds": n_rounds, "points": points, "coins": coins, "demolished": demolished,
                                 "p_complete": done, "net": net, "net_se": (var / trials) ** 0.5,
                                 "trials": trials})
    return pl.DataFrame(rows)
