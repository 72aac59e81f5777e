"""Tuning a strategy's parameter vector against a field, with a noise-aware optimiser.

An evaluation plays ``deals`` fresh deals (a seed of its own) with the
candidate vector in one seat and the field's strategy in the others, seats
rotated so every deal is played once from every seat; its value is the
candidate's win share. The win share is noisy, so the optimiser is
nevergrad's NGOpt10 told that the objective is not deterministic: it then
picks an optimiser built for noisy objectives for the budget and the number
of parameters. NGOpt10 is a fixed version of nevergrad's meta-optimiser; the
current ``NGOpt`` picks, for noisy objectives, optimisers that need the
``fcmaes`` package and fails without it. On a synthetic noisy quadratic
(60 evaluations, 1, 2, 3 and 8 parameters, 5 seeds) NGOpt10 came closest of
TBPSA, NoisyDE, PSO and the noisy (1+1) strategies at every size. Its
recommendation is then
*confirmed on deals the search never used*: the default and the tuned vector
each play the same confirmation deals (the run seed; evaluations use seed+1,
seed+2, ...), and the per-deal difference of their win shares gives a paired
interval, so the reported gain is not the luck that selected the winner.
"""

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl
from scipy import stats


@dataclass(frozen=True)
class Share:
    """A win share with its 95% interval over deals."""

    mean: float
    lo: float
    hi: float


@dataclass
class TuneResult:
    """What ``tune`` found: the vectors, their confirmed win shares and the paired difference."""

    game: str
    strategy: str
    field: str
    players: int
    default: list
    tuned: list
    evaluations: int
    deals: int
    confirm_deals: int
    seed: int
    before: Share
    after: Share
    gain: Share               # tuned minus default, paired over the confirmation deals
    history: list = field(default_factory=list)   # (evaluation, candidate, win share)

    def to_dict(self):
        d = {k: v for k, v in self.__dict__.items() if k not in ("before", "after", "gain")}
        d.update({k: getattr(self, k).__dict__ for k in ("before", "after", "gain")})
        return d


def deal_shares(seats, strategy):
    """The strategy's win share per deal (mean over the rotations), ordered by deal."""
    return (seats.filter(pl.col("strategy").cast(pl.String) == strategy)
            .group_by("game").agg(pl.col("win").mean()).sort("game")["win"].to_numpy())


def mean_interval(values, confidence=0.95):
    """Mean of per-deal values with a t interval over deals."""
    values = np.asarray(values, float)
    m = float(values.mean())
    if len(values) < 2:
        return Share(m, -math.inf, math.inf)
    half = float(stats.t.ppf(0.5 + confidence / 2, len(values) - 1) * values.std(ddof=1) / math.sqrt(len(values)))
    return Share(m, m - half, m + half)


def tune(simulate, game, strategy, default, *, field, players, budget=40, deals=500, confirm_deals=4000,
         seed=0, sigma=1.0, on_evaluation=None, **options):
    """Tune ``strategy``'s parameter vector (starting from ``default``) against ``field`` in the other seats.

    ``simulate`` is ``playtest.api.simulate``; ``budget`` evaluations of
    ``deals`` deals each; ``sigma`` the optimiser's initial step (parameter
    units). Returns a ``TuneResult``.
    """
    import nevergrad as ng

    if field == strategy:
        raise ValueError(f"the field must be another strategy than the one tuned ({strategy!r})")
    if not default:
        raise ValueError(f"strategy {strategy!r} has no parameters to tune")
    lineup = [strategy] + [field] * (players - 1)

    def win_shares(vector, run_seed, n):
        run = simulate(game, players=players, games=n, seed=run_seed, strategies=lineup,
                       params={strategy: [float(x) for x in vector]}, rotate_seats=True, **options)
        return deal_shares(run.seats(), strategy)

    space = ng.p.Array(init=np.asarray(default, float)).set_mutation(sigma=sigma)
    space.function.deterministic = False
    space.random_state = np.random.RandomState(seed)
    optimiser = ng.optimizers.NGOpt10(parametrization=space, budget=budget, num_workers=1)
    history = []
    for i in range(budget):
        candidate = optimiser.ask()
        share = float(win_shares(candidate.value, seed + 1 + i, deals).mean())
        optimiser.tell(candidate, -share)
        history.append((i, [float(x) for x in candidate.value], share))
        if on_evaluation:
            on_evaluation(i + 1, budget, share)
    tuned = [float(x) for x in optimiser.provide_recommendation().value]
    before = win_shares(default, seed, confirm_deals)
    after = win_shares(tuned, seed, confirm_deals)
    return TuneResult(game, strategy, field, players, [float(x) for x in default], tuned, budget, deals,
                      confirm_deals, seed, mean_interval(before), mean_interval(after),
                      mean_interval(after - before), history)
