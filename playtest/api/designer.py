"""The designer's commands: the games, strategies and setup tables (``games``, ``strategies``,
``setup``), and the studies over tables (``survey``, ``compensate``, ``cards``).
"""

import dataclasses
from pathlib import Path

import polars as pl

from playtest.api.deprecation import _deprecated
from playtest.api.results import Result
from playtest.api.run import check, options_of, simulate
from simulator import games as game_registry
from simulator.core.batch import RunError
from simulator.core.run_options import RunOptions
from simulator.core.setup import SetupError, read_toml
from strategies.games import strategy_set


def games():
    """The registered games (``playtest games``), in the order they were added: one row each (name, title,
    min_players, max_players, variants).

    Examples
    --------
    >>> api.games().row(0, named=True)
    {'name': 'forks', 'title': 'Forks: 2nd Edition', 'min_players': 2, 'max_players': 6, 'variants': ['standard', 'merge']}
    """
    rows = []
    for name in game_registry.names():
        g = game_registry.get(name)
        rows.append({"name": name, "title": g.title, "min_players": g.min_players, "max_players": g.max_players,
                     "variants": list(g.variants)})
    return pl.DataFrame(rows)


def strategies(game, strategy_files=()):
    """The strategies of ``game`` (with those of ``strategy_files``): one row each (id, name, summary, params).

    Examples
    --------
    >>> api.strategies("forks").filter(pl.col("name") == "hedger")["params"].to_list()
    [[0.5]]
    """
    sset = strategy_set(game)
    for f in strategy_files:
        sset.add_file(f)
    return pl.DataFrame([{"id": sid, "name": s.name, "summary": s.summary, "params": [float(x) for x in s.params]}
                         for sid, s in sset.listed()], schema_overrides={"params": pl.List(pl.Float64)})


def setup(game):
    """The text of ``game``'s default setup table (``playtest setup``; TOML: copy it, edit it, pass it as
    ``setup``).

    Examples
    --------
    >>> "[players" in api.setup("forks")
    True
    """
    return game_registry.get(game).setup_path.read_text()


def table_counts(game, setup=None):
    """The player counts the game's setup table (merged with ``setup``, a dict) has a row for, within the
    game's range, in order."""
    from simulator.core.setup import merge

    g = game_registry.get(game)
    table = merge(g.default_setup(), setup or {}, g.open_tables)
    counts = sorted(int(k) for k in table.get("players", {}) if str(k).isdigit())
    return [n for n in counts if g.min_players <= n <= g.max_players]


def survey(game, *, out, counts=None, games=None, seed=0, strategies=("random",), rotate_seats=False,
           variant="standard", setup=None, params=None, strategy_files=(), threads=None, margin=1.0, resume=False,
           on_count=None, backend="local", scheduler=None, workers=None):
    """Play the same lineup at every player count of the setup table (or ``counts``) into the directory ``out``
    (``analyses.survey``). ``strategies``: one for every seat, or several rotated (``rotate_seats``), repeated
    to fill the seats. ``backend``, ``scheduler`` and ``workers`` are ``simulate``'s (Dask).

    ``game`` is a game's name, whose lineup the run keywords (``games`` per count, None:
    ``analyses.survey.DEFAULT_GAMES``; ``seed``, ``strategies``, ``rotate_seats``, ``variant``, ``setup``,
    ``params``, ``strategy_files``, ``threads``) describe, or a ``RunOptions`` (then those keywords stay at
    their defaults): every count plays it with its ``players`` replaced.

    Returns
    -------
    Result
        ``frame``: the summary, one row per count (verdict, edges and game feel with their intervals);
        ``info["recommendation"]``: the sentence that follows from the intervals (also in ``survey.json``);
        ``dir``: ``out``.

    Examples
    --------
    >>> import tempfile
    >>> survey = api.survey("forks", out=tempfile.mkdtemp() + "/survey", counts=[2, 3], games=40)
    >>> survey.frame["players"].to_list(), survey.frame["run"].to_list()
    ([2, 3], ['runs/p2', 'runs/p3'])
    >>> isinstance(survey.info["recommendation"], str)
    True
    """
    from analyses import survey as surveys

    run = {"seed": seed, "strategies": strategies, "rotate_seats": rotate_seats, "variant": variant, "setup": setup,
           "params": params, "strategy_files": strategy_files, "threads": threads}
    if isinstance(game, RunOptions):  # refused with any run keyword beside it
        base = options_of(survey, game, games=games, **run)
    else:
        run["setup"] = read_toml(setup) if isinstance(setup, (str, Path)) else setup
        first = list(counts if counts is not None else table_counts(game, run["setup"]))[:1]
        base = options_of(survey, game, players=first[0] if first else None, games=games or surveys.DEFAULT_GAMES,
                          **run)
    counts = list(counts) if counts is not None else table_counts(base.game, base.setup)
    names = base.strategies

    def play(_game, *, players, games, out, resume, **_shown):
        lineup = names if len(names) == 1 else [names[s % len(names)] for s in range(players)]
        return simulate(dataclasses.replace(base, players=players, games=games, strategies=lineup), out=out,
                        resume=resume, backend=backend, scheduler=scheduler, workers=workers)

    summary = surveys.survey(play, base.game, counts, out, games=base.games, margin=margin, resume=resume,
                             on_count=on_count, **_fields(base, "seed", "rotate_seats", "variant", "setup", "params",
                                                          "strategy_files"))
    return Result(summary, dir=Path(out), info={"recommendation": surveys.recommendation(summary.to_dicts(), margin)})


def _fields(record, *names):
    """The ``names`` fields of a ``RunOptions`` as a dict: the run options a study writes into its JSON file."""
    return {name: getattr(record, name) for name in names}


def knob_row(game, players, knob, variant="standard", setup=None):
    """``(override, start)``: the ``setup`` override (a dict) and the current values of the per-seat ``knob`` of
    the ``[players.N]`` row; a knob that is not a per-seat list of numbers there is a ``RunError``."""
    g = game_registry.get(game)
    override = read_toml(setup) if isinstance(setup, (str, Path)) else dict(setup or {})
    config = g.configure(players, variant, override)  # refuses a player count the table lacks, a bad seat_bonus
    row = config.setup["players"][str(players)]
    value = row.get(knob)
    per_seat = sorted(k for k, v in row.items() if isinstance(v, list) and len(v) == players
                      and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v))
    if not (isinstance(value, list) and knob in per_seat):
        raise RunError(f"--knob {knob}: not a per-seat key of the [players.{players}] row of {g.title} "
                       f"(its per-seat keys: {', '.join(per_seat) or 'none'})")
    return override, [float(v) for v in value]


def with_knob(override, players, knob, values):
    """``override`` with ``[players.N] knob = values`` (whole numbers for any knob but ``seat_bonus``)."""
    import copy

    table = copy.deepcopy(override)
    row = table.setdefault("players", {}).setdefault(str(players), {})
    row[knob] = [float(v) for v in values] if knob == "seat_bonus" else [int(round(v)) for v in values]
    return table


def compensate(game, *, players=None, knob="seat_bonus", games=None, max_games=None, seed=0, strategies=("random",),
               rotate_seats=False, variant="standard", setup=None, params=None, strategy_files=(), threads=None,
               margin=1.0, low=None, high=None, step=None, on_evaluation=None):
    """The per-seat ``knob`` values that bring every seat's edge inside ``margin``, confirmed or refused on a
    fresh seed (``analyses.compensate``). Each evaluation plays ``games`` games (deals, rotated) on ``seed``
    (None: planned from the margin and the seat count, ``analyses.compensate.planned_games``); an
    inconclusive confirmation plays more, up to ``max_games``. ``on_evaluation(stage, values, games)`` is
    called before each evaluation.

    ``game`` is a game's name, whose run the run keywords describe, or a
    ``RunOptions`` (then those keywords stay at their defaults): its
    ``games`` are the games of each evaluation, its ``seed`` the search's,
    and every evaluation plays it with the knob's values in its setup table.

    Returns
    -------
    Result
        ``frame``: one row per seat (``seat``, ``value``, ``low``, ``high``: the knob's value and its interval
        on the confirmation deals, None for seat 0, which is held); ``verdict``: the confirmation's seat
        verdict; ``info["compensation"]``: the ``analyses.compensate.Compensation`` (``confirmed``,
        ``sentence()``, ``snippet()``); ``info["setup"]``: the setup table with the values (write it only
        when ``confirmed``).

    Examples
    --------
    >>> found = api.compensate("forks", players=2, games=200, seed=1)
    >>> found.frame["seat"].to_list(), found.frame["value"][0]   # seat 0 is held at its value
    ([0, 1], 0.0)
    >>> found.info["setup"]["players"]["2"]["seat_bonus"] == found.frame["value"].to_list()
    True
    """
    from analyses.compensate import compensate as solve, planned_games

    if games is None and not isinstance(game, RunOptions):
        games = planned_games(margin, players or game_registry.get(game).default_players)
    base = options_of(compensate, game, players=players, games=games, seed=seed, strategies=strategies,
                      rotate_seats=rotate_seats, variant=variant, setup=setup, params=params,
                      strategy_files=strategy_files, threads=threads)   # a RunOptions is refused with any of them
    players = base.players
    override, start = knob_row(base.game, players, knob, base.variant, base.setup)
    check(base)
    labels = {}

    def evaluate(values, run_seed, count):
        from analyses.moments import seat_moments
        from analyses.verdict import lineup, player_model

        run = simulate(dataclasses.replace(base, games=count, seed=run_seed,
                                           setup=with_knob(override, players, knob, values)))
        if not labels:
            names, subject = lineup(run.scan())
            labels.update(strategies=names, subject=subject, model=player_model(run.scan()))
        return seat_moments(run.scan())

    found = solve(evaluate, players, knob=knob, start=start, low=low, high=high, step=step, seed=base.seed,
                  margin=margin, games=base.games, max_games=max_games, progress=on_evaluation, labels=labels)
    frame = pl.DataFrame({"seat": list(range(players)), "value": [float(v) for v in found.values],
                          "low": found.low, "high": found.high},
                         schema={"seat": pl.Int64, "value": pl.Float64, "low": pl.Float64, "high": pl.Float64})
    return Result(frame, verdict=found.verdict,
                  info={"compensation": found, "setup": with_knob(override, players, knob, found.values)})


def card_plan(game, *, players=None, games=4000, seed=0, strategies=("random",), rotate_seats=False,
              variant="standard", setup=None, params=None, strategy_files=(), names=None):
    """What ``cards`` will play, checked before anything is played or written: ``(chosen, holding, base)``,
    the removals ``{card: (meaning, setup override)}``, the "who holds it" rows (``analyses.cards.Holding``) and
    the default table's ``RunOptions`` (``game`` when it is one, with no run keyword beside it, else built from
    the keywords). A name the table does not have is a ``CardError``; a bad run a ``RunError`` or
    ``SetupError``."""
    from analyses import cards as card_effects
    from studies import card_tables

    base = options_of(card_plan, game, players=players, games=games, seed=seed, strategies=strategies,
                      rotate_seats=rotate_seats, variant=variant, setup=setup, params=params,
                      strategy_files=strategy_files)
    table, players = base.config.setup, base.players
    known = card_tables.candidates(base.game, table, players)
    holding = card_tables.holdings(base.game, table, players)
    held_names = {card_effects.card_of(h.card) for h in holding}
    for name in names or ():
        if name not in known and name not in held_names:
            raise card_effects.CardError(f"no card {name!r} in the {base.game} table at {players} players (its "
                                         f"cards: {', '.join(dict.fromkeys([*known, *held_names]))})")
    chosen = {k: v for k, v in known.items() if not names or k in names}
    holding = [h for h in holding if not names or card_effects.card_of(h.card) in names]
    check(base)
    return chosen, holding, base


def cards(game, *, players=None, out=None, games=4000, seed=0, strategies=("random",), rotate_seats=False,
          variant="standard", setup=None, params=None, strategy_files=(), threads=None, names=None, resume=False,
          on_table=None, backend="local", scheduler=None, workers=None, measure="win share"):
    """Which card matters (``analyses.cards``): the default table and each table without a card (or the
    ``names`` given; see ``card_plan``) are played on the same seed and deals into the directory ``out`` (None:
    a scratch directory, deleted after; ``resume`` continues an interrupted one); the "who holds it" rows come
    from the default table's games.

    ``game`` is a game's name, whose run the run keywords (``players``
    ... ``threads``) describe, or the default table's ``RunOptions`` (then
    those keywords stay at their defaults); every table plays it with its
    own setup table. ``on_table(card, index, count)`` is called before each
    table; ``backend``, ``scheduler`` and ``workers`` are ``simulate``'s
    (Dask).

    Returns
    -------
    Result
        ``frame``: one row per card and measure, clearest card first (``card``, ``measure``, ``effect``,
        ``low``, ``high``, ``kind``: causal or observational); ``info``: ``effects`` (``{card:
        [CardEffect]}``), ``meanings`` (``{card: what the row means}``), ``unplayable`` (``{card: why that
        table cannot be played}``) and ``ranking`` (the cards ranked by the size of their effect on ``measure``,
        ``analyses.cards.ranking``: ``[CardEffect]``); ``dir``: ``out`` (None: nothing kept).

    Examples
    --------
    >>> found = api.cards("fair-enough", players=4, games=100, names=["queue"])
    >>> found.info["meanings"]["queue"], found.info["unplayable"]
    ('one queue card fewer (4 -> 3)', {})
    >>> found.frame.filter(pl.col("card") == "queue")["measure"].to_list()[:2]
    ['first seat edge', 'largest seat edge']
    """
    import tempfile

    from analyses import cards as card_effects
    from analyses.compare import CompareError

    card_effects.check_measure(measure)
    base = options_of(cards, game, players=players, games=games, seed=seed, strategies=strategies,
                      rotate_seats=rotate_seats, variant=variant, setup=setup, params=params,
                      strategy_files=strategy_files, threads=threads)
    chosen, holding, base = card_plan(base, names=names)
    plan = {**_fields(base, "players", "games", "seed", "strategies", "rotate_seats", "variant", "params",
                      "strategy_files"), "setup": base.setup or {}}

    def table(_game, *, setup, out, resume, **_plan):
        return simulate(dataclasses.replace(base, setup=setup), out=out, resume=resume, backend=backend,
                        scheduler=scheduler, workers=workers)

    with tempfile.TemporaryDirectory(prefix="playtest-cards-") as scratch:
        played, runs, unplayable = card_effects.play(table, base.game, out or scratch, chosen, plan, resume=resume,
                                                     unplayable=(SetupError,), on_table=on_table)
        family = max(1, len(runs) * len(card_effects.MEASURES))
        seats = played.seats()
        effects = {}
        for card, run in runs.items():
            try:
                effects[card] = card_effects.effects((seats, played.manifest), (run.seats(), run.manifest), card,
                                                     family)
            except CompareError as exc:  # e.g. no game without the card ends by the rules (all stopped by the cap)
                unplayable[card] = str(exc)
        held = card_effects.held_effects(seats, holding)
    meanings = {k: v[0] for k, v in chosen.items()}
    kinds = {h.card: h.meaning for h in holding}
    for row in held:
        effects[row.card] = [row]
        meanings[row.card] = kinds[row.card]
    return Result(card_effects.frame(effects), dir=None if out is None else Path(out),
                  info={"effects": effects, "meanings": meanings, "unplayable": unplayable,
                        "ranking": card_effects.ranking(effects, measure)})


setup_table = _deprecated("setup_table", setup)
