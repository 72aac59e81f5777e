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
import inspect
from dataclasses import dataclass, field
from pathlib import Path

import numba as nb
import numpy as np

from simulator.core.kernels import bind_engine
from simulator.core.seats import load_seat, store_seat


class StrategyError(ValueError):
    """An unknown strategy name or a strategy file that cannot be used."""


@dataclass(frozen=True)
class Strategy:
    """A named decision function with its default parameter vector."""

    name: str
    decide: object
    params: tuple = ()
    summary: str = ""


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
    engine : module
        The engine module (``new_scratch`` and the ``play_game`` template).
    """

    game: str
    builtins: list
    dispatch: object
    engine: object
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
        to a dispatcher over built-ins and user functions (compiled now).
        """
        if not self._kernels:
            cache = not self.extra
            dispatch = self.dispatch if cache else make_dispatch([s.decide for s in self.all])
            self._kernels["run"], self._kernels["trace"] = bind_engine(
                self.engine, dispatch, cache=cache, sources=[make_dispatch, *(s.decide for s in self.builtins)])
        return self._kernels["run"], self._kernels["trace"]

    def lineup(self, names, players):
        """``(id, Strategy)`` per seat from one name (a text, or a list of one) for every seat, or one per seat."""
        names = [names] if isinstance(names, str) else list(names)
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise StrategyError(f"give one strategy for all seats or one per seat: got {len(names)} for "
                                f"{players} players")
        return [self.get(n) for n in names]

    def seats(self, names, players, overrides=None):
        """Resolve strategy names (one for all seats, or one per seat) into ids and a parameter matrix.

        ``overrides`` maps a strategy name to a replacement parameter vector.
        """
        chosen = self.lineup(names, players)
        vectors = [(overrides or {}).get(s.name, s.params) for _, s in chosen]
        width = max([1] + [len(v) for v in vectors])
        params = np.zeros((players, width), dtype=np.float64)
        for p, v in enumerate(vectors):
            params[p, :len(v)] = v
        return np.array([sid for sid, _ in chosen], dtype=np.int64), params, [s.name for _, s in chosen]


def make_dispatch(functions):
    """Build the jitted strategy dispatcher over decision functions (strategy id = list index).

    Every decision function ends with the parameters ``params, rng``. The
    dispatcher is called by an engine as
    ``decide(sid, seat, rngs, params, rng, par, *decision_args)``: it copies
    the seat's stream (``rngs[1 + seat]``) and parameter row into the
    buffers ``rng`` and ``par``, calls ``functions[sid](*decision_args, par,
    rng)`` and stores the advanced stream back.

    The code is generated with the arguments spelled out (``*args`` costs
    numba a tuple per call), and the functions are bound as globals rather
    than closed over, so the kernels calling it stay cacheable on disk.
    """
    functions = list(functions)
    names = list(inspect.signature(functions[0].py_func).parameters)
    if names[-2:] != ["params", "rng"]:
        raise ValueError(f"a decision function must end with (params, rng); {functions[0].__name__} has {names}")
    args = ", ".join(names[:-2])
    lines = [f"def dispatch(sid, seat, rngs, params, rng, par, {args}):",
             "    load_seat(rngs, params, seat, rng, par)"]
    for i in range(len(functions) - 1):
        lines.append(f"    {'if' if i == 0 else 'elif'} sid == {i}:\n        k = f{i}({args}, par, rng)")
    lines.append(f"    {'else:' if len(functions) > 1 else 'if True:'}\n        k = f{len(functions) - 1}({args}, par, rng)")
    lines += ["    store_seat(rngs, seat, rng)", "    return k"]
    scope = {f"f{i}": f for i, f in enumerate(functions)}
    scope.update(load_seat=load_seat, store_seat=store_seat)
    exec("\n".join(lines), scope)
    return nb.njit(_nrt=False)(scope["dispatch"])  # no reference counting: see simulator.core.kernels.bind
