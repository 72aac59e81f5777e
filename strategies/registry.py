"""Named strategies per game, the compiled kernels that run them, and user strategy files.

A game's strategy package builds one ``StrategySet`` from its built-in
decision functions. The set owns the dispatcher ``dispatch(sid, *args)`` that
calls strategy number ``sid`` and the engine kernels bound to it (cached on
disk). A user strategy file adds strategies at run time: the set then binds a
fresh dispatcher that knows them, with no edit to the engine.

A strategy file is one Python file that defines

* ``decide``: the decision function with the game's documented signature
  (plain Python is compiled with ``numba.njit``; an already jitted function
  is used as is), and optionally
* ``NAME`` (defaults to the file name) and ``PARAMS`` (a list of numbers
  handed to ``decide`` as ``params``).
"""

import importlib.util
import types
from dataclasses import dataclass, field
from pathlib import Path

import numba as nb
import numpy as np

from simulator.core.kernels import bind_engine


class StrategyError(ValueError):
    """An unknown strategy name or a strategy file that cannot be used."""


@dataclass(frozen=True)
class Strategy:
    """A named decision function with its default parameter vector."""

    name: str
    decide: object
    params: tuple = ()
    summary: str = ""


def _chain(dispatch, decide, sid):
    """Return a dispatcher that routes ``sid`` to ``decide`` and everything else to ``dispatch``."""

    @nb.njit
    def chained(s, *args):
        if s == sid:
            return decide(*args)
        return dispatch(s, *args)

    return chained


@dataclass
class StrategySet:
    """The strategies of one game and the kernels that play them.

    Parameters
    ----------
    game : str
        The game's registry name.
    builtins : list of Strategy
        Built-in strategies in id order.
    dispatch : numba dispatcher
        ``dispatch(sid, *decision_args)`` calling built-in number ``sid``.
    templates : module
        The engine module with the ``run_chunk`` and ``trace_game`` templates.
    """

    game: str
    builtins: list
    dispatch: object
    templates: object
    extra: list = field(default_factory=list)
    _kernels: dict = field(default_factory=dict)

    @property
    def all(self):
        return self.builtins + self.extra

    def names(self):
        return [s.name for s in self.all]

    def get(self, name):
        for sid, s in enumerate(self.all):
            if s.name == name:
                return sid, s
        raise StrategyError(f"unknown strategy {name!r} for {self.game} (choose from {', '.join(self.names())}, "
                            f"or load your own with --strategy-file)")

    def add_file(self, path):
        """Load a user strategy file, register it and return its ``Strategy``."""
        path = Path(path)
        if not path.is_file():
            raise StrategyError(f"strategy file not found: {path}")
        spec = importlib.util.spec_from_file_location(f"playtest_user_strategy_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # a user's file can fail in any way; report it in one line
            raise StrategyError(f"strategy file {path} failed to load: {type(exc).__name__}: {exc}") from None
        decide = getattr(module, "decide", None)
        if decide is None or not callable(decide):
            raise StrategyError(f"strategy file {path} must define a function named decide")
        if not isinstance(decide, nb.core.dispatcher.Dispatcher):
            decide = nb.njit(decide)
        name = str(getattr(module, "NAME", path.stem))
        if name in self.names():
            raise StrategyError(f"strategy file {path} names its strategy {name!r}, which already exists")
        params = tuple(float(x) for x in getattr(module, "PARAMS", ()))
        strategy = Strategy(name, decide, params, (module.__doc__ or "").strip().split("\n")[0])
        self.extra.append(strategy)
        self._kernels.clear()
        return strategy

    def kernels(self):
        """Return ``(run_chunk, trace_game)`` compiled for the current strategies.

        Built-ins only: the cached kernels. With user strategies: kernels bound
        to a dispatcher chained over the user functions (compiled now).
        """
        if not self._kernels:
            dispatch, cache = self.dispatch, not self.extra
            for i, s in enumerate(self.extra):
                dispatch = _chain(dispatch, s.decide, len(self.builtins) + i)
            self._kernels["run"], self._kernels["trace"] = bind_engine(self.templates, dispatch, cache=cache)
        return self._kernels["run"], self._kernels["trace"]

    def seats(self, names, players, overrides=None):
        """Resolve strategy names (one for all seats, or one per seat) into ids and a parameter matrix.

        ``overrides`` maps a strategy name to a replacement parameter vector.
        """
        if len(names) == 1:
            names = list(names) * players
        if len(names) != players:
            raise StrategyError(f"give one strategy for all seats or one per seat: got {len(names)} for "
                                f"{players} players")
        chosen = [self.get(n) for n in names]
        vectors = [(overrides or {}).get(s.name, s.params) for _, s in chosen]
        width = max([1] + [len(v) for v in vectors])
        params = np.zeros((players, width), dtype=np.float64)
        for p, v in enumerate(vectors):
            params[p, :len(v)] = v
        return np.array([sid for sid, _ in chosen], dtype=np.int64), params, list(names)


def _dispatch_template(sid, *args):
    if sid == 0:
        return f0(*args)  # noqa: F821 (bound by make_dispatch)
    if sid == 1:
        return f1(*args)  # noqa: F821
    if sid == 2:
        return f2(*args)  # noqa: F821
    if sid == 3:
        return f3(*args)  # noqa: F821
    if sid == 4:
        return f4(*args)  # noqa: F821
    if sid == 5:
        return f5(*args)  # noqa: F821
    if sid == 6:
        return f6(*args)  # noqa: F821
    return f7(*args)  # noqa: F821


def make_dispatch(functions):
    """Build the jitted ``dispatch(sid, *args)`` calling ``functions[sid]`` (at most 8).

    The functions are bound as globals, not closed over, so that kernels
    calling the dispatcher stay cacheable on disk.
    """
    if not 1 <= len(functions) <= 8:
        raise ValueError("a game has 1 to 8 built-in strategies")
    padded = list(functions) + [functions[0]] * (8 - len(functions))
    scope = {f"f{i}": f for i, f in enumerate(padded)}
    fn = types.FunctionType(_dispatch_template.__code__, scope, "dispatch")
    return nb.njit(fn)
