"""Named strategies per game, the compiled kernels that run them, and user strategy files.

A game's strategy package builds one ``StrategySet`` from its built-in
decision functions. The set owns the dispatcher ``dispatch(sid, *args)`` that
calls strategy number ``sid`` and the engine kernels bound to it (cached on
disk). A user strategy file (see ``strategies.user_files``) adds strategies
at run time: the set then binds a dispatcher that knows them, with no edit to
the engine, and caches those kernels too, keyed by the files' fingerprints
(see ``simulator.core.kernel_cache``).
"""

import dataclasses
import difflib
import inspect
import sys
import types
from dataclasses import dataclass, field

import numba as nb
import numpy as np

from simulator.core import strategy_slots
from simulator.core.kernel_cache import cache_root
from simulator.core.kernels import Slotted, bind_engine, bind_recorder
from simulator.core.seats import load_seat, store_seat
from simulator.core.learned import check_model
from strategies import expert, learned, search, user_files
from strategies.strategy import Strategy
from strategies.user_files import Decision, StrategyError

__all__ = ["Decision", "Strategy", "StrategyError", "StrategySet", "make_dispatch"]


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
        The engine module (the state verbs of ``simulator.core.state`` and the ``choose`` template).
    decision : Decision
        The game's decision signature (user files are checked against it).
    strongest : str
        The game's strongest built-in heuristic (the default field of
        ``playtest ladder``).
    learned_looks_ahead : bool
        The learned player values a move at its seat's next decision, the
        others playing ``strongest`` (True), or right after the move.
    expert_defaults : tuple
        The guided search ``expert``'s default ``(iterations, exploration,
        temperature[, design])`` in this game (``strategies.expert``).
    """

    game: str
    builtins: list
    dispatch: object
    engine: object
    decision: Decision
    strongest: str = "random"
    learned_looks_ahead: bool = True
    expert_defaults: tuple = expert.GENERIC
    extra: list = field(default_factory=list)
    _kernels: dict = field(default_factory=dict)
    _slot_dispatch: object = None

    @property
    def all(self):
        return self.builtins + self.extra

    def names(self):
        return [s.name for s in self.all]

    def title(self):
        return self.description().title

    def description(self):
        """The game's descriptor (``simulator.core.game.Game``): the engine's constants the kernels bind."""
        from simulator import games

        return games.get(self.game)

    def heuristics(self):
        """The names of the strategies a seat plays through the engine's ``choose`` (every one but the search
        player ``mcts`` and the learned player ``learned``, which the game loop runs itself)."""
        return [name for name in self.names() if name not in (search.NAME, learned.NAME)]

    @property
    def search_sid(self):
        """The id of the search player ``mcts`` (-1 when the game has none)."""
        names = self.names()
        return names.index(search.NAME) if search.NAME in names else -1

    @property
    def n_features(self):
        """The length of the feature vector the learned models of this game read."""
        return self.engine.N_FEATURES

    @property
    def seat_feature(self):
        """The index of the feature that says which seat observes (its place after the first player), -1 if none."""
        return self.engine.SEAT_FEATURE

    @property
    def learned_sid(self):
        """The id of the learned player ``learned`` (-1 when the game has none)."""
        names = self.names()
        return names.index(learned.NAME) if learned.NAME in names else -1

    @property
    def lookahead(self):
        """``(id, default parameters)`` of the strongest heuristic: the other seats' play in the learned player's
        look-ahead (``simulator.core.learned.learned_move``); ``(-1, ())``: no look-ahead."""
        if not self.learned_looks_ahead:
            return -1, ()
        sid, s = self.get(self.strongest)
        return sid, tuple(s.params)

    def action_classes(self):
        """The game's named action classes (bit i of ``mcts``'s forbid mask is class i)."""
        return self.description().action_classes

    def evaluation_point(self):
        """Where ``mcts`` with a horizon stops its rollouts (the descriptor's ``evaluation_point``; None: no such
        point, every horizon but 0 is refused)."""
        return self.description().evaluation_point

    def expert(self):
        """The guided search ``expert`` (``strategies.expert``): a search seat (the id of ``mcts``) whose vector
        holds the learned model; None in a game without both players."""
        if self.search_sid < 0 or self.learned_sid < 0:
            return None
        model = expert.shipped_model(self.game, self.all[self.learned_sid].params, self.n_features)
        return expert.expert_strategy(self.all[self.search_sid], self.expert_defaults, self.learned_sid, model)

    def listed(self):
        """``(id, Strategy)`` of every strategy a seat can play by name: all of them in id order, then ``expert``
        (with the search's id, which plays it)."""
        guided = self.expert()
        return list(enumerate(self.all)) + ([(self.search_sid, guided)] if guided else [])

    def get(self, name):
        """``(id, Strategy)`` for a name; ``mcts@N`` and ``mcts:no-CLASS`` give ``mcts`` with N iterations
        and the class forbidden (the name is kept, so seats with different budgets tell apart); ``expert``
        (``expert@N``, ``expert:no-CLASS``) gives the search's id with ``expert``'s vector."""
        base, budget, forbid = self._search_variant(name)
        for sid, s in self.listed():
            if s.name == base:
                if base != name:
                    params = list(s.params)
                    if budget is not None:
                        params[search.P_ITERATIONS] = float(budget)
                    params[search.P_FORBID] = float(forbid)
                    s = dataclasses.replace(s, name=name, params=tuple(params))
                return sid, s
        names = [s.name for _, s in self.listed()]
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        raise StrategyError(f"unknown strategy {name!r} for {self.game}{hint} (choose from "
                            f"{', '.join(names)}, or load your own with --strategy-file)")

    def search_vector(self, name, horizon=None):
        """The parameter vector of the search player ``name`` (``mcts``, ``mcts@N``, ``mcts:no-CLASS``), with
        ``horizon`` in place of the game's default when it is not None (validated when seated)."""
        sid, s = self.get(name)
        if sid != self.search_sid:
            raise StrategyError(f"{name!r} is not the search player {search.NAME!r}")
        vector = list(s.params)
        if horizon is not None:
            vector[search.P_HORIZON] = float(horizon)
        return vector

    def _search_variant(self, name):
        """``(base name, budget or None, forbid mask)`` of a strategy name."""
        head, *restrictions = name.split(":")
        try:
            base, budget = search.split_name(head, (search.NAME, expert.NAME))
        except ValueError as exc:
            raise StrategyError(f"strategy {exc}") from None
        if base not in (search.NAME, expert.NAME):
            return name, None, 0
        classes = self.action_classes()
        forbid = 0
        for r in restrictions:
            cls = r[3:] if r.startswith("no-") else None
            if cls not in classes:
                raise StrategyError(f"strategy {name!r}: {r!r} is not no-CLASS with a class of {self.game} "
                                    f"({', '.join(classes) or 'it has none'})")
            forbid |= 1 << classes.index(cls)
        return base, budget, forbid

    def add_file(self, path):
        """Load a user strategy file (checked, see ``strategies.user_files``), register it, return its ``Strategy``."""
        user = user_files.load(path, self.decision, self.game)
        if len(self.extra) == strategy_slots.SLOTS:
            raise StrategyError(f"strategy file {user.path}: at most {strategy_slots.SLOTS} strategy files per game")
        for s in self.all:
            if s.name == user.name:
                owner = f"strategy file {s.file.path}" if s.file else f"a built-in strategy of {self.title()}"
                raise StrategyError(f"strategy file {user.path}: NAME {user.name!r} is already {owner}; "
                                    f"choose another NAME")
        strategy = Strategy(user.name, user.decide, user.params, user.summary, user)
        self.extra.append(strategy)
        self._kernels.clear()
        return strategy

    def kernels(self, search=False):
        """Return ``(run_chunk, trace_game)`` compiled for the current strategies.

        ``search``: compile the search player in (a lineup with ``mcts``; see
        ``kernels_for``). Without it the kernels compile about twice as fast,
        and a seat playing ``mcts`` stops the run as an illegal choice.

        Built-ins only: the kernels cached with numba's machine code. With
        user strategies: the kernels over the built-ins and the slot table
        (``simulator.core.strategy_slots``), compiled once per game and cached
        the same way, and each user ``decide`` compiled alone for the game's
        argument types (a typing error or a non-integer return is one line,
        ``StrategyError``), cached in a folder of
        ``simulator.core.kernel_cache`` named after its file's fingerprint.
        An edited file therefore compiles only its ``decide``.
        """
        if search not in self._kernels:
            sources = [make_dispatch, *(s.decide for s in self.builtins)]
            if not self.extra:
                kernels = bind_engine(self.description(), self.dispatch, cache=True, sources=sources,
                                      search_sid=self.search_sid, learned_sid=self.learned_sid,
                                      lookahead=self.lookahead, search=search)
            else:
                kernels = self._slotted_kernels(sources, search)
            self._kernels[search] = kernels
        return self._kernels[search][:2]

    def slot_kernels(self, search=False):
        """``(run_chunk, trace_game)`` over the built-ins and the slots of user strategy files, as ``kernels``
        compiles them once user files are added (``playtest warm`` compiles them ahead)."""
        sources = [make_dispatch, *(s.decide for s in self.builtins)]
        return self._slotted_kernels(sources, search)[:2]

    def _slotted_kernels(self, sources, search):
        """The kernels over user strategies: compiled once per game (cached like the built-ins') against the
        slot table of ``simulator.core.strategy_slots``; each user ``decide`` compiled alone (checked, and
        cached in the folder of its file's fingerprint) and its address written into the table before every
        call of the kernels."""
        types = tuple(self.decision.types)
        decides = [user_files.compile_decide(s.file, self.decision, cache_root() / "kernels" / self.game /
                                             s.file.fingerprint) for s in self.extra]
        addresses = [strategy_slots.address(decide, types) for decide in decides]
        if self._slot_dispatch is None:
            self._slot_dispatch = make_dispatch([s.decide for s in self.builtins],
                                                slots=strategy_slots.caller(self.game, types))
        kernels = bind_engine(self.description(), self._slot_dispatch, cache=True,
                              sources=[*sources, strategy_slots.caller], search_sid=self.search_sid,
                              learned_sid=self.learned_sid, lookahead=self.lookahead, search=search, variant="u")

        def fill():  # holds the compiled functions (``decides``) alive as long as the kernels calling them
            strategy_slots.fill(self.game, addresses)
            return decides

        fill()
        return kernels._replace(run_chunk=Slotted(kernels.run_chunk, fill), trace_game=Slotted(kernels.trace_game, fill))

    def search_player(self):
        """``(new_search, search)``: the search player the kernels with ``search=True`` call, compiled once for
        both (tests and benchmarks call it on states of their own)."""
        self.kernels(search=True)
        return self._kernels[True][2:4]

    def learned_player(self):
        """``(new_search, learned)``: the learned player the kernels with ``search=True`` call, with the
        function allocating its buffers (the search's, which end with its own)."""
        self.kernels(search=True)
        return self._kernels[True][2], self._kernels[True][4]

    def learned_candidates(self):
        """``(new_search, candidates)``: ``simulator.core.learned.learned_candidates`` (the positions the learned
        player scores) from the kernels with ``search=True``, with the function allocating its buffers."""
        self.kernels(search=True)
        return self._kernels[True][2], self._kernels[True][5]

    def recorder(self):
        """``simulator.core.recorder.record_games`` for the current strategies (built-ins only), calling the
        search and learned players of the kernels with ``search=True``."""
        if self.extra:
            raise StrategyError("training data is recorded with the built-in strategies only")
        if "recorder" not in self._kernels:
            self.kernels(search=True)
            sources = [make_dispatch, *(s.decide for s in self.builtins)]
            self._kernels["recorder"] = bind_recorder(self.description(), self.dispatch, self._kernels[True], cache=True,
                                                      sources=sources, search_sid=self.search_sid,
                                                      learned_sid=self.learned_sid)
        return self._kernels["recorder"]

    def kernels_for(self, sids):
        """``kernels`` for a lineup (strategy ids per seat): the search and learned players compiled in only
        when a seat plays one of them."""
        players = [sid for sid in (self.search_sid, self.learned_sid) if sid >= 0]
        return self.kernels(search=bool(np.isin(np.asarray(sids), players).any()))

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

        ``overrides`` maps a seated strategy's name to a replacement for its
        parameter vector: as many finite numbers as its default has.
        Anything else is a ``StrategyError``, so no strategy ever reads
        past the end of its vector.
        """
        chosen = self.lineup(names, players)
        seated = {s.name: s for _, s in chosen}
        heuristics = [(s.name, s.params) for s in self.builtins]
        vectors = {}
        for name, values in (overrides or {}).items():
            if name not in seated:
                self.get(name)  # an unknown name says so
                raise StrategyError(f"parameters for {name!r}: no seat plays it (seated: {', '.join(seated)})")
            default = seated[name].params
            if not default:
                raise StrategyError(f"parameters for {name!r}: it has no parameters")
            try:
                vectors[name] = user_files.parameter_vector(values)
            except ValueError as exc:
                raise StrategyError(f"parameters for {name!r}: {exc}") from None
            if self.get(name)[0] == self.search_sid:
                continue  # its length depends on the rollout strategy: checked below
            if self.get(name)[0] == self.learned_sid:
                try:
                    check_model(vectors[name], self.n_features)
                except ValueError as exc:
                    raise StrategyError(f"parameters for {name!r}: {exc}") from None
                continue
            if len(vectors[name]) != len(default):
                raise StrategyError(f"parameters for {name!r}: it takes {len(default)} value"
                                    f"{'s' if len(default) > 1 else ''} (default "
                                    f"{','.join(f'{v:g}' for v in default)}), got {len(vectors[name])}")
        rows = [vectors.get(s.name, s.params) for _, s in chosen]
        for p, (sid, s) in enumerate(chosen):
            if sid == self.search_sid and self._search_variant(s.name)[0] == expert.NAME:
                try:
                    rows[p] = expert.check_vector(rows[p], s.params, self.n_features, self.evaluation_point())
                except ValueError as exc:
                    raise StrategyError(f"parameters for {s.name!r}: {exc}") from None
            elif sid == self.search_sid:
                try:
                    rows[p] = search.check_vector(rows[p], heuristics, s.params, self.evaluation_point(),
                                                  self._check_learned)
                except ValueError as exc:
                    raise StrategyError(f"parameters for {s.name!r}: {exc}") from None
        width = max([1] + [len(v) for v in rows])
        params = np.zeros((players, width), dtype=np.float64)
        for p, v in enumerate(rows):
            params[p, :len(v)] = v
        return np.array([sid for sid, _ in chosen], dtype=np.int64), params, [s.name for _, s in chosen]


    def _check_learned(self, vector):
        """A learned model for this game (``check_model``), or ValueError."""
        return check_model(vector, self.n_features)


def make_dispatch(functions, module=None, slots=None):
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
    With ``module`` (a name) the code is generated into a module of that
    name registered in ``sys.modules``: machine code cached from a kernel
    over user strategies refers to its dispatcher's module by name, and
    numba imports it when it loads the cache.

    With ``slots`` (an intrinsic of ``simulator.core.strategy_slots.caller``)
    every id past the functions is a user strategy called through its slot
    ``sid - len(functions)``: the kernels over such a dispatcher are compiled
    once for any user files.
    """
    functions = list(functions)
    names = list(inspect.signature(functions[0].py_func).parameters)
    if names[-2:] != ["params", "rng"]:
        raise ValueError(f"a decision function must end with (params, rng); {functions[0].__name__} has {names}")
    args = ", ".join(names[:-2])
    lines = [f"def dispatch(sid, seat, rngs, params, rng, par, {args}):",
             "    load_seat(rngs, params, seat, rng, par)"]
    last = len(functions) - (slots is None)  # without slots, the last function takes every other id
    for i in range(last):
        lines.append(f"    {'if' if i == 0 else 'elif'} sid == {i}:\n        k = f{i}({args}, par, rng)")
    if slots is None:
        lines.append(f"    {'else:' if last else 'if True:'}\n        k = f{last}({args}, par, rng)")
    else:
        lines.append(f"    else:\n        k = call_slot(sid - {last}, {args}, par, rng)")
    lines += ["    store_seat(rngs, seat, rng)", "    return k"]
    scope = {} if module is None else vars(sys.modules.setdefault(module, types.ModuleType(module)))
    scope.update({f"f{i}": f for i, f in enumerate(functions)}, load_seat=load_seat, store_seat=store_seat,
                 call_slot=slots)
    exec("\n".join(lines), scope)
    return nb.njit(_nrt=False)(scope["dispatch"])  # no reference counting: see simulator.core.kernels.bind
