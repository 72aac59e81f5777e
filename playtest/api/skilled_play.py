"""The skilled-play studies: ``ladder``, ``restrict``, ``tune`` and ``skill`` (formerly ``by_model``)."""

from pathlib import Path

import polars as pl

from playtest import compile_ahead
from playtest.api.deprecation import _deprecated
from playtest.api.results import Result
from playtest.api.run import check, simulate
from simulator.core.run_options import check_threads
from simulator import games as game_registry
from simulator.core.batch import RunError
from simulator.core.setup import read_toml
from strategies.games import strategy_set


def _default_players(game, players):
    g = game_registry.get(game)
    return g, g.default_players if players is None else players


def ladder(game, *, out, players=None, first=16, levels=4, deals=500, field=None, horizon=None, seed=0, margin=1.0,
           on_run=None):
    """Climb the search player's budget and measure the seat advantage at each level of skill.

    Parameters
    ----------
    game : str
        A registered game.
    out : str or pathlib.Path
        A new (or empty) directory for the ladder's runs.
    players : int, optional
        Seats (default: the game's usual count).
    first, levels : int
        Search iterations per decision at the first level, and the number of levels (the budget doubles).
    deals : int
        Deals per run (each played from every seat).
    field : str, optional
        The built-in heuristic the search plays against (default: the game's strongest).
    horizon : int, optional
        The search player's horizon (0: rollouts to the end; default: the game's).
    seed : int
        Run seed: every level plays the same deals.
    margin : float
        Balance margin, in points of win share.
    on_run : callable, optional
        ``on_run(done, total)`` after each run.

    Returns
    -------
    Result
        ``frame``: one row per level (win shares against the level below and the field, the first and the
        largest seat edge with intervals, the verdict); ``info``: ``manifest``, ``horizon``, ``field``.

    Raises
    ------
    RunError, StrategyError
        ``out`` not empty, an unknown field, or a run ``simulate`` would refuse.

    Examples
    --------
    >>> import tempfile
    >>> r = api.ladder("forks", players=2, first=2, levels=1, deals=10, out=tempfile.mkdtemp() + "/l")
    >>> r.to_polars()["budget"].to_list()
    [2]
    """
    from analyses import ladder as ladders
    from simulator.core.search import P_HORIZON

    _, players = _default_players(game, players)
    sset = strategy_set(game)
    field = field or sset.strongest
    sset.get(field)
    if Path(out).exists() and (not Path(out).is_dir() or any(Path(out).iterdir())):
        raise RunError(f"output directory {out} already exists; choose another")
    check(game, players=players, strategies=[field])  # the player count first: the lineup is built from it
    budgets = ladders.budgets(first, levels)
    top = f"mcts@{budgets[-1]}"
    top_vector = sset.search_vector(top, horizon)
    check(game, players=players, seed=seed, games=deals * players, out=out,
          strategies=[top] + [field] * (players - 1), params={top: top_vector})
    ladders.play(simulate, game, out, players=players, levels=budgets, deals=deals, seed=seed, field=field,
                 vector=lambda name: sset.search_vector(name, horizon), horizon=top_vector[P_HORIZON], on_run=on_run)
    manifest, table = ladders.table(out, margin)
    return Result(table, None, Path(out), {"manifest": manifest, "horizon": top_vector[P_HORIZON], "field": field})


def restrict(game, classes, *, agent="mcts", players=None, deals=1000, horizon=None, seed=0, margin=1.0):
    """How much is an option worth? A player forbidden the action ``classes`` against unrestricted copies.

    Parameters
    ----------
    game : str
        A registered game.
    classes : list of str
        Action classes the restricted player may never take (``strategies(game)`` lists them).
    agent : str
        The player, restricted in one seat and unrestricted in the others (``mcts`` or ``mcts@N``).
    players : int, optional
        Seats (default: the game's usual count).
    deals : int
        Deals, each played from every seat.
    horizon : int, optional
        The search player's horizon (default: the game's).
    seed : int
        Run seed.
    margin : float
        Points of win share below which an option counts as worth nothing measurable.

    Returns
    -------
    Result
        ``frame``: one row (the restricted player's win share and the option's cost in points, with 95%
        intervals); ``verdict``: the reading, one sentence; ``info``: the same figures, ``lineup`` and ``horizon``.

    Raises
    ------
    RunError, StrategyError
        An unknown class or agent, or a run ``simulate`` would refuse.

    Examples
    --------
    >>> r = api.restrict("forks", ["market-held"], agent="mcts@2", players=2, deals=10)
    >>> r.to_polars()["deals"].to_list()
    [10]
    """
    from analyses import restrict as restricted
    from simulator.core.search import P_HORIZON

    _, players = _default_players(game, players)
    sset = strategy_set(game)
    known = sset.action_classes()
    unknown = [c for c in classes if c not in known]
    if unknown:
        raise RunError(f"--forbid {unknown[0]}: {game} has no action class {unknown[0]!r} (its classes: "
                       f"{', '.join(known) or 'none'})")
    agent_vector = sset.search_vector(agent, horizon)
    check(game, players=players, seed=seed, games=deals, strategies=[agent], params={agent: agent_vector})
    lineup = restricted.lineup(agent, classes, players)
    params = {n: sset.search_vector(n, horizon) for n in set(lineup)}
    run = simulate(game, players=players, games=deals, seed=seed, strategies=lineup, rotate_seats=True,
                   params=params)
    r = restricted.cost(run.seats(), lineup[0], players, margin)
    return Result(pl.DataFrame([{k: v for k, v in r.items() if k != "reading"}]), r["reading"], None,
                  {**r, "lineup": lineup, "horizon": agent_vector[P_HORIZON]})


def tune(game, strategy, *, field, out=None, players=None, budget=60, deals=500, confirm_deals=5_000, sigma=1.0,
         seed=0, on_evaluation=None):
    """Tune ``strategy``'s parameter vector against ``field`` with seats rotated, then confirm it on fresh deals.

    Parameters
    ----------
    game : str
        A registered game.
    strategy : str
        A strategy with parameters.
    field : str
        The strategy in every other seat.
    out : str or pathlib.Path, optional
        A new TOML file for the tuned vector (use it with ``params={strategy: ...}`` or ``--param S=@FILE``).
    players : int, optional
        Seats (default: the game's usual count).
    budget : int
        Evaluations the optimiser may make.
    deals, confirm_deals : int
        Deals per evaluation; fresh deals on which the tuned and the default vector are compared at the end.
    sigma : float
        The optimiser's first step, in parameter units.
    seed : int
        Confirmation seed; evaluation i uses seed + 1 + i.
    on_evaluation : callable, optional
        ``on_evaluation(done, total, win_share)`` after each evaluation.

    Returns
    -------
    Result
        ``frame``: the default and the tuned vector's win shares and the paired gain with 95% intervals;
        ``verdict``: "better", "worse" or "no difference"; ``info["tune"]``: the ``analyses.tune.TuneResult``.

    Raises
    ------
    RunError
        A strategy without parameters, the field equal to it, ``out`` existing, or a run ``simulate`` refuses.

    Examples
    --------
    >>> r = api.tune("forks", "hedger", field="greedy", players=2, budget=2, deals=10, confirm_deals=10)
    >>> r.to_polars()["vector"].to_list()
    ['default', 'tuned', 'gain']
    """
    import tomli_w

    from analyses.tune import tune as run_tune

    _, players = _default_players(game, players)
    sset = strategy_set(game)
    _, s = sset.get(strategy)
    sset.get(field)
    if not s.params:
        raise RunError(f"strategy {strategy!r} has no parameters to tune")
    if field == strategy:
        raise RunError(f"the field must be another strategy than the one tuned ({strategy!r})")
    if out is not None and Path(out).exists():
        raise RunError(f"{out} already exists; choose another file for the tuned vector")
    if out is not None and not Path(out).absolute().parent.is_dir():
        raise RunError(f"cannot write {out}: the folder {Path(out).absolute().parent} does not exist")
    check(game, players=players, strategies=[field])  # the player count first: the lineup is built from it
    check(game, players=players, games=max(deals, confirm_deals), seed=seed,
          strategies=[strategy] + [field] * (players - 1), rotate_seats=True)
    r = run_tune(simulate, game, strategy, list(s.params), field=field, players=players, budget=budget,
                 deals=deals, confirm_deals=confirm_deals, seed=seed, sigma=sigma, on_evaluation=on_evaluation)
    if out is not None:
        Path(out).write_text(f"# playtest tune {game} {strategy} --field {field} --players {players} --seed {seed}\n"
                             + tomli_w.dumps({"game": game, "strategy": strategy, "params": r.tuned,
                                              "field": field, "players": players,
                                              "confirmed_gain_points": round(100 * r.gain.mean, 3),
                                              "confirmed_gain_interval_points": [round(100 * r.gain.lo, 3),
                                                                                 round(100 * r.gain.hi, 3)]}))
    frame = pl.DataFrame([{"vector": name, "share": x.mean, "lo": x.lo, "hi": x.hi}
                          for name, x in (("default", r.before), ("tuned", r.after), ("gain", r.gain))])
    kind = "better" if r.gain.lo > 0 else "worse" if r.gain.hi < 0 else "no difference"
    return Result(frame, kind, None, {"tune": r})


def skill(game, out, *, models=None, mcts=None, players=None, precision=2.0, max_games=20_000, deals=500,
          seed=0, margin=1.0, chunk_size=500, params=None, variant="standard", setup=None, threads=None,
          resume=False, on_stage=None, on_progress=None):
    """The skilled answer (``playtest skill``; ``analyses.by_model``): each player model's first-seat edge and
    seat verdict with it in every seat, its strength on the ladder, and the answer of the strongest.

    ``models`` lists strategy names, read as the ladder weakest first (None:
    ``analyses.by_model.default_models``); ``mcts`` adds ``mcts@<mcts>``
    at the end; ``params`` maps a model's name to its parameter vector;
    ``variant`` and ``setup`` (a dict or a TOML file merged over the game's
    table) are the table every run plays. Each
    model plays in ``out`` until every seat's 95% interval is within
    ``±precision`` points or ``max_games`` games; each plays its neighbour
    below on ``deals`` deals, seats rotated (strength); the strongest then
    plays on until its verdict at ``margin`` is conclusive or ``max_games``.
    Everything is checked before anything is played: the models (at least one,
    no repeats, each known and playable), the sizes, and ``out`` (new or
    empty; with ``resume`` a study of the same game, players, table, seed,
    precision, deals, margin and chunk size whose models begin the list, at
    the same cap or a larger one: its finished runs are kept, an interrupted
    one continues, models added at the end are played, and under a larger
    cap every run plays on as the study would have). ``on_stage`` and ``on_progress`` are
    ``analyses.by_model.play``'s. When the ladder has both heuristics and
    search or learned models, the kernel with the search and learned players
    compiles in a process of its own (``playtest.compile_ahead``) while this
    one compiles and plays the heuristics.

    Returns a ``Result`` whose ``frame`` is the table by model
    (``analyses.by_model.table``: strength, first-seat edge with its interval
    in the seat verdict, verdict, games), ``verdict`` the answer's sentence,
    ``info["answer"]`` the answer (``analyses.by_model.answer``, with what it
    cannot tell: a model file trained for another table or player count)
    and ``dir`` the study's folder.

    Examples
    --------
    >>> import tempfile
    >>> r = api.skill("forks", tempfile.mkdtemp() + "/models", models=["random", "greedy"], precision=20,
    ...               max_games=200, deals=40)
    >>> r.to_polars()["model"].to_list(), r.info["answer"]["model"]
    (['random', 'greedy'], 'greedy')
    """
    from analyses import by_model as study_of
    from analyses import strength

    g = game_registry.get(game)
    players = g.default_players if players is None else players
    sset = strategy_set(game)
    models = study_of.default_models(sset, mcts) if models is None else list(models)
    if mcts is not None and f"mcts@{mcts}" not in models:
        models.append(f"mcts@{mcts}")
    if not models:
        raise RunError("give at least one player model (for example --models random,greedy)")
    repeated = sorted({m for m in models if models.count(m) > 1})
    if repeated:
        raise RunError(f"each player model may appear once; repeated: {', '.join(repeated)}")
    if not (isinstance(precision, (int, float)) and 0 < precision < 100):
        raise RunError(f"the precision must be more than 0 and less than 100 points, got {precision!r}")
    params = dict(params or {})
    strangers = sorted(set(params) - set(models))
    if strangers:
        raise RunError(f"parameters for {', '.join(strangers)}: not among the models ({', '.join(models)})")
    check_threads(threads)
    override = read_toml(setup) if isinstance(setup, (str, Path)) else setup
    study = study_of.settings(game, players, models, seed, precision, max_games, chunk_size, params, deals, margin,
                              variant, override)
    out = Path(out)
    if resume:
        _check_resumable(out, study, study_of)
    elif out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise RunError(f"output directory {out} already exists; choose another (or --resume a study there)")
    for index, model in enumerate(models):
        check(game, players=players, seed=seed, games=max_games, strategies=[model], chunk_size=chunk_size,
              variant=variant, setup=override, params={model: params[model]} if model in params else None,
              out=out / study_of.run_name(index, model))
    for index in range(len(models) - 1):
        lineup = strength.match_lineup(models[index], models[index + 1], players)
        check(game, players=players, seed=seed, games=deals, strategies=lineup, chunk_size=chunk_size,
              variant=variant, setup=override, rotate_seats=True,
              params={m: params[m] for m in set(lineup) if m in params} or None, out=out / study_of.match_name(index))
    with compile_ahead.Ahead() as ahead:
        # the search-and-learned kernel compiles in a child while this process compiles and plays the heuristics
        if {compile_ahead.kernel_for(sset, [m]) for m in models} == {"batch", "search"}:
            ahead.start(game, "search")
        study_of.play(ahead.gate(simulate, sset), out, study, resume=resume, on_stage=on_stage,
                      on_progress=on_progress, threads=threads)
    edges = study_of.table(out, margin)[1]
    found = study_of.answer(out, edges, margin)
    return Result(edges, found["sentence"], dir=out, info={"answer": found})


by_model = _deprecated("by_model", skill)


def _check_resumable(out, study, study_of):
    """Refuse ``--resume`` unless ``out`` holds a study with ``study``'s settings whose models begin its list."""
    if not study_of.is_by_model(out):
        raise RunError(f"cannot resume: {out} holds no study by player model (no {study_of.MANIFEST})")
    try:
        old = study_of.read_manifest(out)
        old |= dict(zip(("variant", "setup"), study_of.table_of(old)))
        differs = [k for k in study if k not in ("models", "max_games") and old.get(k) != study[k]]
        models, cap = list(old["models"]), int(old["max_games"])
    except (ValueError, KeyError, TypeError) as exc:
        raise RunError(f"cannot resume {out}: its {study_of.MANIFEST} is damaged ({exc})") from None
    if study["max_games"] < cap:
        raise RunError(f"cannot resume {out}: its cap is {cap:,} games per model and this command's "
                       f"{study['max_games']:,}; give at least as many (-n), more play on")
    if differs:
        raise RunError(f"cannot resume {out}: the study there differs in {', '.join(differs)}")
    if study["models"][:len(models)] != models:
        raise RunError(f"cannot resume {out}: its models are {', '.join(models)}; give them first, in that "
                       f"order, and add new ones after them")
