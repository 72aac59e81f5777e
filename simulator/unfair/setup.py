"""Read and check the Unfair mechanics-lab setup table; turn each study's part into kernel arrays.

Every ``*_config`` function raises ``SetupError`` naming the offending key when
the table cannot be used, and otherwise returns a small frozen dataclass of
numpy arrays and names that the study's kernel takes as is.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simulator.core.setup import SetupError, merge, read_toml, require, require_ints

DEFAULT_PATH = Path(__file__).with_name("setup.toml")
PANORAMA_MIN = 2  # the printed scoring table starts at 2 cards


def load_setup(path=None):
    """Return the default table, with the user's TOML file at ``path`` merged over it when given.

    Every whole number in the merged table must lie within ±``MAX_NUMBER`` and
    every list hold at most ``MAX_ENTRIES`` entries (``check_sizes``).
    """
    setup = read_toml(DEFAULT_PATH)
    if path:
        setup = merge(setup, read_toml(path))
        check_sizes(setup)
    return setup


def check_sizes(value, where=""):
    """Refuse a number beyond ±``MAX_NUMBER`` or a list longer than ``MAX_ENTRIES`` anywhere in ``value``.

    The studies add such numbers over up to a million trials in int64, and
    size loops and arrays by them: bounded here, no table can overflow a sum
    or hold a study for ever.
    """
    if isinstance(value, dict):
        for key, item in value.items():
            check_sizes(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        if len(value) > MAX_ENTRIES:
            raise SetupError(where, f"lists at most {MAX_ENTRIES:,} entries, got {len(value):,}")
        for i, item in enumerate(value):
            check_sizes(item, f"{where}[{i}]")
    elif isinstance(value, float):
        raise SetupError(where, f"must be a whole number, got {value!r}")
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
        raise SetupError(where, f"must lie within ±{MAX_NUMBER:,}, got {value:,}")


def _int_array(values):
    return np.asarray(values, dtype=np.int64)


def distribution(table, key, path):
    """Return ``(values, cumulative weights)`` of the distribution ``table[key]`` as int64 arrays.

    The distribution must list as many whole-number weights (each >= 0, not
    all 0) as whole-number values.
    """
    where = f"{path}.{key}" if path else key
    dist = require(table, key, dict, path)
    values = require_ints(dist, "values", where)
    weights = require_ints(dist, "weights", where, minimum=0)
    if not values:
        raise SetupError(f"{where}.values", "must list at least one value")
    if len(weights) != len(values):
        raise SetupError(f"{where}.weights", f"must give one weight per value ({len(values)}), got {len(weights)}")
    if sum(weights) == 0:
        raise SetupError(f"{where}.weights", "must not all be 0")
    return _int_array(values), np.cumsum(_int_array(weights))


# Bounds on every number that sizes a study's loops or arrays, so no table or option can make one run for ever
MAX_ROUNDS = 100
MAX_FACES = 100
MAX_PLAYERS = 100
MAX_TRIALS = 1_000_000
MAX_BEANS = 1_000        # beans held in a dice study (more than 2 x (faces - 1) change nothing)
MAX_BEAN_COUNTS = 200    # bean counts compared in one dice study
MAX_NUMBER = 1_000_000   # any whole number in a user's table (points, coins, weights, counts)
MAX_ENTRIES = 1_000      # any list in a user's table (policies, plans, values of a distribution)
MAX_COUNT = 100          # a drawn count that sizes a loop: facilities, drill icons, gems dug up, cards traded
MAX_SPACES = 100         # park spaces, and panorama lengths
MAX_TOKENS = 10_000      # gemstone tokens in the supply
MAX_OTHERS = 1_000       # other attractions in the panorama draw pool


def at_most(value, limit, where):
    """``value``, refused with a ``SetupError`` at ``where`` when it exceeds ``limit``."""
    if value > limit:
        raise SetupError(where, f"must be at most {limit:,}, got {value:,}")
    return value


def rounds(setup, first_date):
    """Rounds in a game: ``game.rounds``, or ``game.first_date_rounds`` with First Date."""
    game = require(setup, "game", dict, "")
    full = at_most(require(game, "rounds", int, "game", minimum=1), MAX_ROUNDS, "game.rounds")
    short = require(game, "first_date_rounds", int, "game", minimum=1)
    if short > full:
        raise SetupError("game.first_date_rounds", f"must not exceed game.rounds ({full}), got {short}")
    return short if first_date else full


def dice_faces(setup):
    """Faces on each of the two dice (``dice.faces``, 2 to ``MAX_FACES``)."""
    return at_most(require(require(setup, "dice", dict, ""), "faces", int, "dice", minimum=2), MAX_FACES,
                   "dice.faces")


def _per_round(table, key, path, full_rounds, minimum):
    values = require_ints(table, key, path, minimum=minimum)
    if len(values) < full_rounds:
        raise SetupError(f"{path}.{key}", f"must give one entry per round ({full_rounds}), got {len(values)}")
    return _int_array(values[:full_rounds])


def _policies(table, key, path):
    policies = require(table, key, list, path)
    if not policies:
        raise SetupError(f"{path}.{key}", "must list at least one entry")
    names = []
    for i, policy in enumerate(policies):
        if not isinstance(policy, dict):
            raise SetupError(f"{path}.{key}[{i}]", f"must be a table, got {policy!r}")
        names.append(require(policy, "name", str, f"{path}.{key}[{i}]"))
    if len(set(names)) != len(names):
        raise SetupError(f"{path}.{key}", f"names must be different, got {names!r}")
    return policies, names


@dataclass(frozen=True)
class WishingWell:
    """The Wishing Well study's numbers; policy arrays are indexed like ``names``."""

    faces: int
    start_beans: int
    beans_per_card: int
    coins_per_bean: int
    income: tuple      # (values, cumulative weights)
    cards: tuple       # (values, cumulative weights)
    names: list
    wish_from: np.ndarray   # beans needed to wish; -1 = never wish
    keep: np.ndarray        # beans kept when trading
    cash_out: np.ndarray    # 1 = trade and sell everything in the last round


def wishing_well_config(setup):
    """Check ``wishing_well`` (and ``dice``) and return a ``WishingWell``; negative counts are refused."""
    path = "wishing_well"
    table = require(setup, path, dict, "")
    income = distribution(table, "bean_income", path)
    cards = distribution(table, "cards_to_trade", path)
    for key, (values, _) in (("bean_income", income), ("cards_to_trade", cards)):
        if values.min() < 0:
            raise SetupError(f"{path}.{key}.values", f"must be at least 0, got {values.min()}")
        at_most(int(values.max()), MAX_COUNT, f"{path}.{key}.values")
    policies, names = _policies(table, "policies", path)
    wish_from, keep, cash_out = [], [], []
    for i, policy in enumerate(policies):
        where = f"{path}.policies[{i}]"
        threshold = policy.get("wish_from_beans")
        if threshold == "never":
            wish_from.append(-1)
        elif isinstance(threshold, str):
            raise SetupError(f"{where}.wish_from_beans", f'must be a whole number or "never", got {threshold!r}')
        else:
            wish_from.append(require(policy, "wish_from_beans", int, where, minimum=0))
        keep.append(require(policy, "keep_beans", int, where, minimum=0))
        flag = policy.get("cash_out_last_round")
        if not isinstance(flag, bool):
            raise SetupError(f"{where}.cash_out_last_round", f"must be true or false, got {flag!r}")
        cash_out.append(int(flag))
    return WishingWell(
        faces=dice_faces(setup),
        start_beans=require(table, "start_beans", int, path, minimum=0),
        beans_per_card=require(table, "beans_per_card", int, path, minimum=0),
        coins_per_bean=require(table, "coins_per_bean", int, path, minimum=0),
        income=income, cards=cards, names=names,
        wish_from=_int_array(wish_from), keep=_int_array(keep), cash_out=_int_array(cash_out))


@dataclass(frozen=True)
class Fame:
    """The fame study's numbers; plan arrays are indexed like ``names`` (rounds numbered from 0)."""

    cap: int
    divisor: int
    threshold: int
    park_stars: np.ndarray     # per round of a full game
    capacity: np.ndarray
    attractions: np.ndarray
    noise: tuple               # (values, cumulative weights)
    names: list
    gain_round: np.ndarray     # [plan, round] 1 = the plan gains fame that round
    gain_values: np.ndarray    # [plan, k], padded
    gain_cum: np.ndarray       # [plan, k] cumulative weights, padded with the total


def fame_config(setup):
    """Check ``fame`` and return a ``Fame``: the cap and costs are >= 0, the divisor >= 1."""
    path = "fame"
    table = require(setup, path, dict, "")
    full = rounds(setup, False)
    noise = distribution(table, "park_stars_noise", path)
    policies, names = _policies(table, "plans", path)
    gain_round = np.zeros((len(policies), full), np.int64)
    dists = []
    for i, plan in enumerate(policies):
        where = f"{path}.plans[{i}]"
        for j, r in enumerate(require_ints(plan, "gain_rounds", where, minimum=1)):
            if r > full:
                raise SetupError(f"{where}.gain_rounds[{j}]", f"must be a round from 1 to {full}, got {r}")
            gain_round[i, r - 1] = 1
        values, cum = distribution(plan, "gain", where)
        if values.min() < 0:
            raise SetupError(f"{where}.gain.values", f"must be at least 0, got {values.min()}")
        dists.append((values, cum))
    width = max(v.size for v, _ in dists)
    gain_values = np.zeros((len(dists), width), np.int64)
    gain_cum = np.zeros((len(dists), width), np.int64)
    for i, (values, cum) in enumerate(dists):
        gain_values[i, :values.size] = values
        gain_cum[i, :] = cum[-1]
        gain_cum[i, :cum.size] = cum
    return Fame(
        cap=require(table, "cap", int, path, minimum=0),
        divisor=require(table, "cleanup_divisor", int, path, minimum=1),
        threshold=require(table, "mythic_threshold", int, path, minimum=0),
        park_stars=_per_round(table, "park_stars_by_round", path, full, 0),
        capacity=_per_round(table, "capacity_by_round", path, full, 0),
        attractions=_per_round(table, "attractions_by_round", path, full, 0),
        noise=noise, names=names, gain_round=gain_round, gain_values=gain_values, gain_cum=gain_cum)


@dataclass(frozen=True)
class Gems:
    """The gemstone study's numbers."""

    tokens: np.ndarray         # the coin value of every token
    players: int
    facilities: tuple          # (values, cumulative weights) per player per round
    drill: tuple
    dug_up: tuple


def gems_config(setup, players=None):
    """Check ``gems`` and return a ``Gems``.

    The counts must total ``gems.tokens`` (25 in the rulebook) and every value
    must lie in 1..9; ``players`` overrides ``gems.players``.
    """
    path = "gems"
    table = require(setup, path, dict, "")
    values = require_ints(table, "values", path)
    counts = require_ints(table, "counts", path, minimum=0)
    total = at_most(require(table, "tokens", int, path, minimum=1), MAX_TOKENS, f"{path}.tokens")
    if len(counts) != len(values):
        raise SetupError(f"{path}.counts", f"must give one count per value ({len(values)}), got {len(counts)}")
    for i, v in enumerate(values):
        if not 1 <= v <= 9:
            raise SetupError(f"{path}.values[{i}]", f"gemstone values run from 1 to 9, got {v}")
    if len(set(values)) != len(values):
        raise SetupError(f"{path}.values", f"must list each value once, got {values!r}")
    if sum(counts) != total:
        raise SetupError(f"{path}.counts", f"must total {total} tokens (gems.tokens), got {sum(counts)}")
    if players is None:
        players = at_most(require(table, "players", int, path, minimum=1), MAX_PLAYERS, f"{path}.players")
    elif not 1 <= players <= MAX_PLAYERS:
        raise SetupError("players", f"must be from 1 to {MAX_PLAYERS}, got {players}")
    dists = {}
    for key in ("facilities_per_round", "drill", "dug_up_per_round"):
        dists[key] = distribution(table, key, path)
        if dists[key][0].min() < 0:
            raise SetupError(f"{path}.{key}.values", f"must be at least 0, got {dists[key][0].min()}")
        at_most(int(dists[key][0].max()), MAX_COUNT, f"{path}.{key}.values")
    return Gems(tokens=np.repeat(_int_array(values), counts), players=players,
                facilities=dists["facilities_per_round"], drill=dists["drill"], dug_up=dists["dug_up_per_round"])


@dataclass(frozen=True)
class Panoramas:
    """The panorama study's numbers."""

    spaces: int
    skip_cost: int
    lengths: list
    partial: np.ndarray        # points by cards assembled (index = cards; 0 where no score)
    complete: np.ndarray       # points by panorama length (index = length; -1 = n/a)
    vistas_penalty: int
    other_attractions: int


def panoramas_config(setup):
    """Check ``panoramas`` and return a ``Panoramas``.

    Costs and points must be >= 0; every studied length needs a printed
    partial score for each run it allows and, if it fits in the park, a
    complete score.
    """
    path = "panoramas"
    table = require(setup, path, dict, "")
    spaces = at_most(require(table, "spaces", int, path, minimum=1), MAX_SPACES, f"{path}.spaces")
    lengths = require_ints(table, "lengths", path, minimum=PANORAMA_MIN)
    for i, n in enumerate(lengths):
        at_most(n, MAX_SPACES, f"{path}.lengths[{i}]")
    if not lengths:
        raise SetupError(f"{path}.lengths", "must list at least one length")
    partial_pts = require_ints(table, "partial", path, minimum=0)
    complete_pts = require_ints(table, "complete", path, minimum=0)
    partial = np.zeros(PANORAMA_MIN + len(partial_pts), np.int64)
    partial[PANORAMA_MIN:] = partial_pts
    complete = np.full(max(PANORAMA_MIN + len(complete_pts), max(lengths) + 1), -1, np.int64)
    complete[PANORAMA_MIN:PANORAMA_MIN + len(complete_pts)] = complete_pts
    for i, n in enumerate(lengths):
        longest_run = min(n, spaces)
        if longest_run >= PANORAMA_MIN and longest_run >= partial.size:
            raise SetupError(f"{path}.partial", f"has no score for {longest_run} cards, which a panorama of "
                             f"length {n} (panoramas.lengths[{i}]) can assemble in {spaces} spaces")
        if n <= spaces and complete[n] < 0:
            raise SetupError(f"{path}.complete", f"has no score for a complete panorama of {n} cards, which fits "
                             f"in {spaces} spaces (panoramas.lengths[{i}])")
    return Panoramas(
        spaces=spaces, skip_cost=require(table, "skip_cost", int, path, minimum=0), lengths=lengths,
        partial=partial, complete=complete,
        vistas_penalty=require(table, "vistas_penalty", int, path, minimum=0),
        other_attractions=at_most(require(table, "other_attractions", int, path, minimum=0), MAX_OTHERS,
                                  f"{path}.other_attractions"))


def validate(setup):
    """Check every study's part of ``setup``; raise the first ``SetupError`` found."""
    rounds(setup, True)
    dice_faces(setup)
    wishing_well_config(setup)
    fame_config(setup)
    gems_config(setup)
    panoramas_config(setup)
