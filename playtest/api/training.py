"""Learning and measuring the guided search: ``train`` and ``search_gain``."""

from pathlib import Path

import polars as pl
import numba

from playtest.api.results import Result
from playtest.api.run import simulate
from simulator.core.run_options import check_threads
from simulator import games as game_registry
from simulator.core.batch import RunError
from simulator.core.setup import read_toml


def train(game, *, seed=0, rounds=3, games=200, budget=None, design=None, hidden=None, deals=2000, players=None,
          variant="standard", setup=None, threads=None, start=None, warm=False, target="share", out=None,
          command=None, on_round=None):
    """Train the learned model of ``game`` by expert iteration (``playtest train``; ``studies.train``).

    Parameters
    ----------
    game : str
        A registered game.
    seed, rounds, games, budget : int
        The seed; the rounds of expert iteration, each recording ``games``
        games of the expert at ``budget`` iterations per decision (None:
        ``studies.train.expert_budget``, 4 times the game's ``expert``).
    design, hidden
        The model: ``linear``, or a network (``tanh``, ``relu``) of ``hidden``
        units. None: the starting model's design and units, else ``linear``
        (and 16 units for a network).
    deals, threads : int
        Each round's model is validated on ``deals`` deals against the
        strongest heuristic, on ``threads`` threads (None: every core; the
        same model on any count), and kept when it beats the kept one there:
        the 95% interval of its paired gain lies above 0.
    players, variant, setup
        The table trained for: the player count (None: the game's usual
        count), the rules variant and a setup table (a dict, or a TOML file)
        merged over the game's.
    start : array_like, optional
        A model of the game's features to start from (e.g. the shipped
        one): validated first as round -1 and kept, so round 0's expert is
        the guided search it steers and a round is kept only when it beats
        it; when none does, the result is this model.
    warm : bool
        Fit each round's model starting from the kept generation's (the
        starting model, until a round beats it) instead of from scratch;
        the design is then the kept model's.
    target : {"share", "choice"}
        What the model is fitted to: the seats' final win shares in the
        expert's games (``share``), or the moves the game's ``expert`` (at
        ``budget`` iterations) chose, every legal move's position scored
        (``choice``, ``studies.choices``: needs ``start``).
    out : str or pathlib.Path, optional
        A ``.npy`` file in an existing folder to write the kept model to,
        with its provenance (game, players, variant, setup digest,
        ``command``) in a JSON sidecar beside it (``strategies.model_files``).
    command : str, optional
        The command line recorded in the sidecar (default: this call).
    on_round : callable, optional
        Called with each ``studies.train.Round`` as it finishes.

    Returns
    -------
    Result
        ``frame``: one row per round (``round``, ``rows`` recorded, the
        validation ``share`` of the learned player with its 95% interval
        ``low``-``high``, the paired ``gain_points`` over the generation
        kept before with ``gain_low``-``gain_high``, ``kept``, ``seconds``);
        ``info["model"]`` the kept model (pass it as ``params={"learned":
        model}``), ``info["best"]`` its round (-1: the starting model) and
        ``info["provenance"]``.
        No verdict.

    Raises
    ------
    RunError
        A player count outside the game's range, or an ``out`` that is not a
        ``.npy`` file in an existing folder, or a ``start`` that is not a model
        of the game's features, or a ``warm`` start whose ``design`` or
        ``hidden`` differs from the starting model's, or a ``choice`` target
        without ``start``.

    Examples
    --------
    >>> r = api.train("nim", rounds=1, games=20, budget=8, deals=20)
    >>> r.to_polars()["round"].to_list(), r.info["model"].shape   # a linear model of Nim's 2 features
    ([0], (6,))
    """
    from studies.train import provenance, train as run_train
    from strategies import model_files

    check_threads(threads)
    threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
    if out is not None:
        out = Path(out)
        if out.suffix != ".npy":
            raise RunError(f"--out {out} must be a .npy file")
        if not out.absolute().parent.is_dir():
            raise RunError(f"the folder of {out} does not exist")
    g = game_registry.get(game)
    players = g.default_players if players is None else players
    if not g.min_players <= players <= g.max_players:
        raise RunError(f"{g.title} takes {g.min_players} to {g.max_players} players, got {players}")
    override = read_toml(setup) if isinstance(setup, (str, Path)) else setup
    config = g.configure(players, variant, override)   # a bad table or variant stops here, before any game
    if start is not None:
        from simulator.core.learned import check_model
        from strategies.games import strategy_set

        try:
            start = check_model(start, strategy_set(game).n_features)
        except ValueError as error:
            raise RunError(f"the starting model: {error}") from None
    design, hidden = _design(start, design, hidden, warm)
    _check_target(target, start)
    result = run_train(game, simulate=simulate, seed=seed, rounds=rounds, games=games, budget=budget, design=design,
                       hidden=hidden, deals=deals, players=players, variant=variant, setup=override,
                       threads=threads, start=start, warm=warm, target=target, on_round=on_round)
    command = command or (f"api.train({game!r}, seed={seed}, rounds={rounds}, games={games}, budget={budget}, "
                          f"design={design!r}, hidden={hidden}, deals={deals}, players={players}, "
                          f"variant={variant!r}, setup={setup!r}{'' if start is None else ', start=...'}"
                          f"{', warm=True' if warm else ''}{'' if target == 'share' else f', target={target!r}'})")
    info = provenance(game, players, variant, config.setup, command)
    if out is not None:
        model_files.save(out, result.model, info)
    frame = pl.DataFrame([{"round": r.round, "rows": r.rows, "share": r.share, "low": r.lo, "high": r.hi,
                           "gain_points": r.gain[0] if r.gain else None, "gain_low": r.gain[1] if r.gain else None,
                           "gain_high": r.gain[2] if r.gain else None, "kept": r.kept, "seconds": r.seconds}
                          for r in result.rounds],
                         schema_overrides={"gain_points": pl.Float64, "gain_low": pl.Float64, "gain_high": pl.Float64})
    return Result(frame, info={"model": result.model, "best": result.best, "training": result, "provenance": info})


def _design(start, design, hidden, warm):
    """``(design, hidden)`` of the fits: those given, else the starting model's, else linear (16 units for a
    network). Raises ``RunError`` when a ``warm`` start is asked of another design than the starting model's."""
    from simulator.core.learned import KINDS, M_HIDDEN, M_KIND

    if start is None:
        return design or "linear", hidden or 16
    own = KINDS[int(start[M_KIND])], int(start[M_HIDDEN]) or 16
    if warm and (design or own[0], hidden or own[1]) != own:
        raise RunError(f"a warm start keeps the starting model's design ({own[0]}"
                       f"{'' if own[0] == 'linear' else f', {own[1]} hidden units'}); --design and --hidden may not "
                       f"change it")
    return design or own[0], hidden or own[1]


def _check_target(target, start):
    """Raise ``RunError`` unless ``target`` is a known one with what it needs (see ``train``)."""
    if target not in ("share", "choice"):
        raise RunError(f"target {target!r} is not one of share, choice")
    if target == "share":
        return
    if start is None:
        raise RunError("--target choice refits a model to the expert's moves: give the model to start from "
                       "(--start)")


def search_gain(games, *, deals=100, seed=0, threads=None, budget=None, param=None, baseline=None,
                baseline_param=None, on_line=None):
    """The paired win-share gain of ``mcts`` over a baseline search on the same deals (``playtest search-gain``;
    ``studies.search_gain``).

    In each game, two arms of ``simulate --rotate-seats`` on the same seed
    and deals, each in a fresh process: ``mcts`` in one seat and the game's
    strongest heuristic in the others; the baseline arm runs the code of a
    git commit (exported once for all the games) or, with ``baseline="here"``,
    this tree with ``baseline_param``.

    Parameters
    ----------
    games : list of str
        Registered games, measured in turn.
    deals, seed : int
        Deals per arm (at least 2) and their seed.
    threads : int, optional
        Threads of each arm's run (None: all cores).
    budget : int, optional
        Iterations of both arms (``mcts@budget``; None: the game's default).
    param, baseline_param : str, optional
        The new and the baseline arm's ``mcts`` parameter vectors, comma-separated (None: the defaults).
    baseline : str, optional
        A git commit of this checkout (None: ``studies.search_gain.SEARCH_BASELINE``, the search before move
        keys), or ``"here"`` for this tree.
    on_line : callable, optional
        Called with one line of text per arm played and per gain measured.

    Returns
    -------
    Result
        ``frame``: one row per game (``game``, paired ``deals``, ``gain`` of the new arm in win share with its
        95% interval ``low``-``high`` (deal as the unit), each arm's ``baseline_share``/``new_share`` and
        ``baseline_seconds``/``new_seconds``, compiling included, and ``verdict``); ``verdict``: ``{game:
        "better", "worse" or "no difference"}``; ``info["baseline"]``: the commit or "here".

    Raises
    ------
    RunError
        An unknown game, fewer than 2 deals, no thread, a commit that cannot be exported (no git history), or
        an arm whose run fails (its error).

    Examples
    --------
    The same search against itself, both arms from this tree (no commit to export, nothing compiled but
    what the rest of the suite compiles), two deals of Forks at two iterations a move: the arms play the
    same games, so the gain is exactly nothing. Each arm starts a process of its own (a few seconds each;
    ``baseline_param="2,0.5"`` would make the baseline arm explore less):

    >>> r = api.search_gain(["forks"], deals=2, budget=2, baseline="here")
    >>> r.to_polars().select("game", "deals", "gain", "low", "high").rows(), r.verdict
    ([('forks', 2, 0.0, 0.0, 0.0)], {'forks': 'no difference'})
    """
    from studies.bench.baseline import export_commit
    from studies.search_gain import SEARCH_BASELINE, measure

    games = [games] if isinstance(games, str) else list(games)
    if not games:
        raise RunError("search_gain needs at least one game")
    for game in games:
        game_registry.get(game)   # an unknown game: its error line, before anything runs
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 2:
        raise RunError(f"deals must be a whole number of at least 2 (a paired interval), got {deals!r}")
    check_threads(threads)
    threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
    baseline = SEARCH_BASELINE if baseline is None else baseline
    exported = None
    if baseline != "here":
        exported, reason = export_commit(baseline)
        if exported is None:
            raise RunError(f"no baseline: {reason}")
    rows = []
    try:
        for game in games:
            rows.append(measure(game, deals=deals, seed=seed, threads=threads, budget=budget, param=param,
                                baseline_path=exported and exported.name, baseline_param=baseline_param,
                                echo=on_line))
    except (RuntimeError, ValueError) as error:
        raise RunError(str(error)) from None
    finally:
        if exported is not None:
            exported.cleanup()
    for row in rows:
        row["verdict"] = "better" if row["low"] > 0 else "worse" if row["high"] < 0 else "no difference"
    return Result(pl.DataFrame(rows), {row["game"]: row["verdict"] for row in rows}, info={"baseline": baseline})
