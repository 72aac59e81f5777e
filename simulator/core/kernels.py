"""Binding an engine's state verbs and the shared game loop to a strategy dispatcher.

Every engine implements the state verbs of ``simulator.core.state`` and a
``choose`` template (plain Python calling a global named ``decide``); the
game loop (``play_game``), the batch loop (``play_blocks``, run on several
threads by ``BatchKernel``) and the single-game tracer (``trace_game``)
below are shared by all engines, and so is the search player
(``simulator.core.search``). ``bind_engine`` compiles them with ``decide``
set to a concrete jit-compiled strategy dispatcher:

* the built-in strategies are bound once, with ``cache=True``, so a warm start
  loads machine code from disk;
* a user's strategy file is bound at run time, with no edit to any engine,
  and cached in a folder of its own (``simulator.core.kernel_cache``).

The engine never imports a strategy: the binding is done by whoever owns the
dispatcher (``strategies.<game>``).
"""

import hashlib
import sys
import threading
import types
from pathlib import Path
from typing import NamedTuple

import numba as nb
import numpy as np

from simulator.core import leaders, learned, recorder, search, seat_bonus
from simulator.core.atomic import fetch_add
from simulator.core.bound import unbound
from simulator.core.state import H_CHOICE, is_terminal, to_move, trace_length

# the names the templates here are bound with (simulator.core.bound)
# (and with ``search``, the search player, in place of the module of that name)
(LEARNED_SID, SEARCH_SID, apply, choose, learned_player, new_search, new_state, reset, result, round_mark,
 round_standing) = unbound(
    "LEARNED_SID", "SEARCH_SID", "apply", "choose", "learned_player", "new_search", "new_state", "reset", "result",
    "round_mark", "round_standing")


def bind(template, *, cache, parallel, nrt=True, inline=False, tag="", **names):
    """Compile ``template`` with the given global ``names`` bound (e.g. ``decide=dispatch``).

    Parameters
    ----------
    template : function
        A module-level Python function whose free globals include ``names``.
    cache : bool
        Cache the machine code on disk next to the template. A cached
        template must be bound to one set of names per process (the
        built-in strategies); user strategies are bound uncached here and
        given a cache folder of their own (``kernel_cache.cache_in``).
    parallel : bool
        Compile ``prange`` loops as parallel loops.
    tag : str
        Appended to the compiled function's name, which names its cache
        files: a fingerprint of the sources it is built from (see
        ``source_fingerprint``) keeps an edit to a strategy from reusing
        machine code cached before the edit.
    nrt : bool
        With False, compile without numba's reference-counted runtime: the
        function may not allocate, and in exchange passing arrays to the
        strategies costs no atomic reference counting (a 2-3x speed-up of a
        whole game, measured on Forks).
    inline : bool
        Inline the compiled function into its jitted callers (numba's
        ``inline="always"``). Used for ``choose``: a call that passes the
        whole state tuple costs more than a Forks decision itself.
    **names
        Globals to bind, typically jit-compiled functions. They are bound as
        globals rather than passed as arguments, because a function passed as
        a value makes numba's code uncacheable.

    The function is compiled with ``nogil=True``: it releases the GIL while
    it runs, so the batch runner plays on a worker thread while the main
    thread writes the previous chunk and stays responsive to Ctrl-C.
    """
    scope = dict(template.__globals__)
    scope.update(names)
    fn = types.FunctionType(template.__code__, scope, template.__name__,
                            template.__defaults__, template.__closure__)
    fn.__qualname__ = f"{template.__qualname__}_{tag}" if tag else template.__qualname__
    fn.__module__ = template.__module__
    fn.__doc__ = template.__doc__
    options = {} if nrt else {"_nrt": False}
    if inline:
        options["inline"] = "always"
    return nb.njit(cache=cache, parallel=parallel, nogil=True, **options)(fn)


def source_fingerprint(functions):
    """A short hash of every Python source a compiled kernel can depend on.

    Numba checks only the timestamp of the file that holds a cached function,
    so a kernel bound to strategies must also be keyed by their sources: the
    files of ``simulator.core``, and the packages of the modules that define
    ``functions`` (the engine templates, the decision functions).
    """
    folders = {Path(__file__).parent}
    for f in functions:
        module = sys.modules[getattr(f, "py_func", f).__module__]
        folders.add(Path(module.__file__).parent)
    digest = hashlib.blake2b(digest_size=6)
    for path in sorted(p for folder in folders for p in folder.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


class Kernels(NamedTuple):
    """An engine's compiled kernels (``bind_engine``): the batch kernel (a ``BatchKernel``), the tracer, the
    search and learned players they call, and the positions the learned player scores (``candidates``, for
    ``studies.choices``; compiled on its first call).

    ``new_search`` and ``search`` are the very dispatchers the game loop
    calls, so calling them from Python (tests, benchmarks) reuses the machine
    code of the kernels instead of compiling a second copy.
    """

    run_chunk: object
    trace_game: object
    new_search: object
    search: object
    learned: object
    candidates: object


def bind_engine(game, decide, *, cache, sources=(), search_sid=-1, learned_sid=-1, lookahead=(-1, ()),
                search=True, variant=""):
    """Return the ``Kernels`` of a game (its ``simulator.core.game.Game``) bound to the dispatcher ``decide``.

    The game's engine module (``game.engine``) implements the state verbs of ``simulator.core.state``
    (``new_state``, ``reset``, ``apply``, ``result``...) and the template
    ``choose`` (calls ``decide``); the game loop ``play_game`` below plays
    through them, handing the decisions of seats whose strategy id is
    ``search_sid`` to the search player (``simulator.core.search``; -1: no
    search player), and those of seats whose strategy id is ``learned_sid``
    to the learned player (``simulator.core.learned``), whose look-ahead plays
    the other seats by ``lookahead``, ``(strategy id, parameters)`` of a
    heuristic (-1: no look-ahead). With ``search=False``
    neither is compiled in (the kernels compile about twice as fast) and such a
    seat's decision is an illegal choice, so a run never plays it silently
    otherwise. The constants come from the descriptor, not the engine module:
    a game whose verbs create no array and no view (no slicing) declares
    ``allocation_free=True`` and is then compiled without reference
    counting, which makes every call into a strategy cheaper. ``sources`` are the decision functions behind
    ``decide``; with ``cache`` their sources key the cache files (the
    engine's folder holds its ``GAME``, so an edited constant is never
    served stale machine code). ``variant`` tells apart, in the cache file
    names, kernels of one set of sources bound to different dispatchers (the
    built-ins', and the one over the user strategies' slots).
    """
    engine, nrt = game.engine, not game.allocation_free
    tag = (source_fingerprint([engine.choose, *sources]) + ("s" if search else "") + variant) if cache else ""
    choose = bind_choose(game, decide, cache=cache, tag=tag)
    if search:
        new_search, searcher, player, candidates = bind_engine_search(game, choose, cache=cache, tag=tag,
                                                                      search_sid=search_sid, learned_sid=learned_sid,
                                                                      lookahead=lookahead)
    else:
        new_search, searcher, player, candidates = (_no_search_buffers, _search_not_compiled, _search_not_compiled,
                                                    _search_not_compiled)
    play = bind(play_game, cache=cache, parallel=False, nrt=nrt, tag=tag, choose=choose, reset=engine.reset,
                apply=engine.apply, result=bonus_result(game, cache=cache, tag=tag),
                round_standing=bonus_standing(game, cache=cache, tag=tag), search=searcher, learned_player=player,
                SEARCH_SID=search_sid, LEARNED_SID=learned_sid,
                round_mark=getattr(engine, "round_mark", engine.horizon_mark))
    run = bind(play_blocks, cache=cache, parallel=False, tag=tag, play_game=play, new_state=engine.new_state,
               new_search=new_search)
    trace = bind(trace_game, cache=cache, parallel=False, tag=tag, play_game=play, new_state=engine.new_state,
                 new_search=new_search)
    kind = "" if not search else " with the search and learned players"
    label(run, f"{game.title}: the batch kernel{kind}")
    label(trace, f"{game.title}: the replay kernel{kind}")
    if search:
        label(searcher, f"{game.title}: the search player")
        label(player, f"{game.title}: the learned player")
    return Kernels(BatchKernel(run), trace, new_search, searcher, player, candidates)


def label(kernel, text):
    """Name a compiled kernel for the messages saying what is compiled (``playtest.compile_notice``)."""
    kernel.playtest_label = text
    return kernel


class Slotted:
    """A compiled kernel over user strategies that fills the slot table before each call
    (``simulator.core.strategy_slots``): ``fill()`` writes the addresses of this kernel's strategies. Anything
    else (``py_func``, ``signatures``) is the kernel's."""

    def __init__(self, kernel, fill):
        self.kernel, self.fill = kernel, fill

    def __call__(self, *args, **kwargs):
        self.fill()
        return self.kernel(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.kernel, name)


def bind_recorder(game, decide, kernels, *, cache, sources=(), search_sid=-1, learned_sid=-1):
    """``simulator.core.recorder.record_games`` bound to a game's engine, its dispatcher ``decide`` and the search
    and learned players of its ``Kernels`` compiled with ``search=True`` (the arguments of that ``bind_engine``)."""
    engine = game.engine
    tag = (source_fingerprint([engine.choose, *sources]) + "r") if cache else ""
    return label(bind(recorder.record_games, cache=cache, parallel=False, tag=tag,
                choose=bind_choose(game, decide, cache=cache, tag=tag), new_state=engine.new_state,
                new_search=kernels.new_search, search=kernels.search, learned_player=kernels.learned,
                reset=engine.reset, apply=engine.apply, result=bonus_result(game, cache=cache, tag=tag),
                observe=engine.observe, features=engine.features, SEARCH_SID=search_sid, LEARNED_SID=learned_sid),
                 f"{game.title}: the training recorder")


def bonus_result(game, *, cache, tag=""):
    """The engine's ``result`` followed by the seat bonus of the setup table (``simulator.core.seat_bonus``,
    ``STANDING_POINT`` bound to the descriptor's ``standing_point``), inlined: what the game loop and the search
    player call at the end of a game or at an evaluation point."""
    return bind(seat_bonus.result, cache=cache, parallel=False, nrt=not game.allocation_free, inline=True, tag=tag,
                engine_result=game.engine.result, STANDING_POINT=game.standing_point)


def bonus_standing(game, *, cache, tag=""):
    """The standing ``bonus_result`` writes, alone, inlined: by the engine's optional verb ``standing`` when it
    has one (``simulator.core.seat_bonus.round_standing``), else ``bonus_result`` itself. What the game loop
    records the leader of a round from."""
    if not hasattr(game.engine, "standing"):
        return bonus_result(game, cache=cache, tag=tag)
    return bind(seat_bonus.round_standing, cache=cache, parallel=False, nrt=not game.allocation_free, inline=True,
                tag=tag, engine_standing=game.engine.standing, STANDING_POINT=game.standing_point)


def bind_choose(game, decide, *, cache, tag=""):
    """The engine's ``choose`` template bound to ``decide``, inlined, without reference counting if the game
    allows it (``allocation_free``)."""
    return bind(game.engine.choose, cache=cache, parallel=False, nrt=not game.allocation_free, inline=True, tag=tag,
                decide=decide)


def engine_verbs(game):
    """The names the search templates call (``SEARCH_VERBS``) for a game: its engine module's verbs, and
    ``MAX_ACTIONS`` and ``MAX_KEYS`` from its descriptor."""
    verbs = {name: getattr(game.engine, name) for name in SEARCH_VERBS}
    return dict(verbs, MAX_ACTIONS=game.max_actions, MAX_KEYS=game.max_keys)


def bind_engine_search(game, choose, *, cache, tag="", search_sid, learned_sid=-1, lookahead=(-1, ())):
    """``(new_search, search, learned, candidates)`` bound to a game's verbs and its bound ``choose``
    (``bind_choose``), compiled as the game loop of ``bind_engine`` calls them (see ``bind_search``)."""
    verbs = dict(engine_verbs(game), result=bonus_result(game, cache=cache, tag=tag), choose=choose)
    return bind_search(verbs, cache=cache, tag=tag, search_sid=search_sid, learned_sid=learned_sid,
                       lookahead=lookahead, nrt=not game.allocation_free)


@nb.njit(cache=True)
def _no_search_buffers(arrays, params, sids):
    """The search buffers of kernels compiled without the search player: none. Jit-compiled."""
    return 0


@nb.njit(cache=True)
def _search_not_compiled(state, arrays, sids, params, buf, scores, standing, seat_stats, game_stats):
    """The search of kernels compiled without it: an illegal choice (-1), never a silent other move. Jit-compiled."""
    return -1


SEARCH_VERBS = ("new_state", "copy_state", "determinize", "legal_actions", "move_key", "action_class", "apply",
                "result", "horizon_mark", "observe", "features", "N_FEATURES", "OBS_SIZE")


def bind_search(verbs, *, cache, tag="", search_sid, learned_sid=-1, lookahead=(-1, ()), nrt=True):
    """Return ``(new_search, search, learned, candidates)`` of ``simulator.core.search`` and
    ``simulator.core.learned`` (``learned_move``, ``learned_candidates``) bound to an engine's verbs: with them the
    learned player's (``observe``, ``features``, ``N_FEATURES``,
    ``OBS_SIZE``), whose strategy id is ``learned_sid`` (a search whose rollout is that id scores its leaves with
    the learned model; ``new_search``'s buffers end with the learned player's, ``new_learned``), and whose
    look-ahead plays the other seats by ``lookahead``: ``(strategy id, parameter vector)`` of a heuristic
    (``LOOKAHEAD_SID``, ``LOOKAHEAD_PARAMS``; id -1: no look-ahead).

    ``verbs`` maps the names the search templates call (``new_state``,
    ``copy_state``, ``determinize``, ``legal_actions``, ``move_key``, ``action_class``,
    ``apply``, ``result``, ``horizon_mark``, ``choose``; ``engine_verbs``) to the engine's
    functions, and ``MAX_ACTIONS``, ``MAX_KEYS`` to the descriptor's constants; ``search_sid`` is the
    search strategy's id.
    With ``nrt=False`` (engines whose verbs allocate nothing) the search and
    its ``allowed_actions`` are compiled without reference counting, like the
    game loop: every verb call passes the whole state tuple, and with
    reference counting each such call costs atomic increments and decrements
    of all its arrays, many times the cost of a cheap verb. ``new_search``
    allocates and keeps it.
    """
    names = dict(verbs, SEARCH_SID=search_sid, LEARNED_SID=learned_sid, LOOKAHEAD_SID=lookahead[0],
                 LOOKAHEAD_PARAMS=np.asarray(lookahead[1], np.float64))
    allowed = bind(search.allowed_actions, cache=cache, parallel=False, nrt=nrt, inline=True, tag=tag, **names)
    new_learned = bind(learned.new_learned, cache=cache, parallel=False, tag=tag, **names)
    seat_value = bind(learned.seat_value, cache=cache, parallel=False, nrt=nrt, inline=True, tag=tag, **names)
    leaf = bind(learned.leaf_shares, cache=cache, parallel=False, nrt=nrt, tag=tag, seat_value=seat_value, **names)
    looks = dict(determinized=bind(learned.determinized, cache=cache, parallel=False, nrt=nrt, inline=True, tag=tag,
                                   **names),
                 look_ahead=bind(learned.look_ahead, cache=cache, parallel=False, nrt=nrt, inline=True, tag=tag,
                                 **names))
    player = bind(learned.learned_move, cache=cache, parallel=False, nrt=nrt, tag=tag, seat_value=seat_value,
                  **looks, **names)
    candidates = bind(learned.learned_candidates, cache=cache, parallel=False, nrt=nrt, tag=tag, **looks, **names)
    return (bind(search.new_search, cache=cache, parallel=False, tag=tag, new_learned=new_learned, **names),
            bind(search.search, cache=cache, parallel=False, nrt=nrt, tag=tag, allowed_actions=allowed,
                 leaf_shares=leaf, **names),
            player, candidates)


def play_game(arrays, sids, params, seed, game, state, buf, scores, standing, seat_stats, game_stats, trace,
              leader_rounds):
    """Kernel template: play game ``game`` of run ``seed`` through the state verbs.

    Records the trace when ``trace`` has room (an empty array: no trace).
    The flag is read from the array rather than passed as a constant, so the
    batch loop and the tracer share one compiled game (a constant flag is a
    literal type to numba: two compiles of the largest function). Returns the trace length (0 without a trace),
    or -(1+seat) if that seat's strategy chose illegally; ``standing[0]`` then
    holds the value its strategy returned (``simulator.core.state.illegal``). Writes the outputs of
    ``simulator.core.game`` (the game columns include ``finished``, and end with
    the two columns of ``simulator.core.leaders``: who led after each of the
    first ``leader_rounds`` rounds, at most ``leaders.ROUNDS``; 0 records
    none and skips asking the engine for the standing at each round's end). A seat
    whose strategy is the search player decides by ``search`` with the
    buffers ``buf``, one whose strategy is the learned player by ``learned_player``
    (with the same buffers); every other seat through ``choose``.
    """
    record = trace.shape[0] > 0
    reset(state, arrays, seed, game, trace, record)
    mark, rounds, first, second = round_mark(state), 0, 0, 0
    while not is_terminal(state):
        if sids[to_move(state)] == SEARCH_SID:
            action = search(state, arrays, sids, params, buf, scores, standing, seat_stats,
                            game_stats)
        elif sids[to_move(state)] == LEARNED_SID:
            action = learned_player(state, arrays, sids, params, buf, scores, standing, seat_stats,
                                    game_stats)
        else:
            action = choose(state, arrays, sids, params)
        if action < 0:  # the value that came back, for the message: the strategy's, or the search's -1
            standing[0] = action if sids[to_move(state)] in (SEARCH_SID, LEARNED_SID) else state[0][H_CHOICE]
            return -(1 + to_move(state))
        apply(state, arrays, action, trace, record)
        now = round_mark(state)
        if now != mark and not is_terminal(state):
            mark = now
            if rounds < leader_rounds:
                round_standing(state, arrays, scores, standing, seat_stats, game_stats)
                code = leaders.leader_code(standing)
                if rounds < leaders.PER_COLUMN:
                    first |= code << (4 * rounds)
                else:
                    second |= code << (4 * (rounds - leaders.PER_COLUMN))
            rounds += 1
    result(state, arrays, scores, standing, seat_stats, game_stats)
    game_stats[game_stats.size - 2] = leaders.as_int32(first)
    game_stats[game_stats.size - 1] = leaders.as_int32(second)
    return trace_length(state)


BLOCK = 256  # games a thread of the batch kernel takes at a time
RAISED = -1  # the batch kernel's status of a game in which a strategy raised


def play_blocks(arrays, sids, params, seed, start, count, outputs, taken, leader_rounds):
    """Kernel template: one thread's share of games ``start .. start+count-1`` (see ``BatchKernel``).

    ``outputs`` is the record ``(scores, standing, seat_stats, game_stats,
    status)`` of ``simulator.core.batch.allocate``, one row per game. The
    games are cut into blocks of ``BLOCK``; the thread allocates one state
    and takes the next unplayed block from the shared counter ``taken``
    (``simulator.core.atomic``) until none is left. So a thread slowed down
    by the process's writer delays no other. Game ``k`` writes only row
    ``k`` of the outputs, with its ``status``: 0, 1+seat of an illegal
    choice, or ``RAISED``, so the rows do not depend on which thread played
    them.

    A game's exception is caught here: the game is marked and the block goes
    on with the next one (each game starts with ``reset``); the caller
    replays a marked game to name it. The ``try`` is entered once per block
    and a raise, not once per game: per game it cost Forks about 10% of its
    speed (measured).
    """
    scores, standing, seat_stats, game_stats, status = outputs
    n_blocks = (count + BLOCK - 1) // BLOCK
    no_trace = np.empty(0, np.int64)
    b = fetch_add(taken, 1)
    if b < n_blocks:
        state, buf = new_state(arrays, params), new_search(arrays, params, sids)
        while b < n_blocks:
            k, hi = b * BLOCK, min(count, (b + 1) * BLOCK)
            while k < hi:
                try:
                    while k < hi:
                        r = play_game(arrays, sids, params, seed, start + k, state, buf,
                                      scores[k], standing[k], seat_stats[k], game_stats[k], no_trace,
                                      leader_rounds)
                        status[k] = -r if r < 0 else 0
                        k += 1
                except Exception:
                    status[k] = RAISED
                    k += 1
            b = fetch_add(taken, 1)


class BatchKernel:
    """The batch kernel ``run_chunk(arrays, sids, params, seed, start, count, scores, standing, seat_stats,
    game_stats, status, leader_rounds=leaders.ROUNDS)``: plays games ``start .. start+count-1`` into the rows
    of the outputs (see ``simulator.core.game``) on ``numba.get_num_threads()`` threads of the calling
    thread's setting, recording the leader after each of the first ``leader_rounds`` rounds (0: none, and the
    standing at a round's end is not asked for; the leader columns then hold 0).

    Each thread runs the compiled ``play_blocks`` (``nogil``); the calling
    thread is one of them, so a call always reaches the compiled code (and
    compiles it, the first time, even for no game). Threads of Python rather
    than a parallel loop of numba: numba compiles a ``prange`` loop as four
    functions (the loop body, two wrappers and the caller), each linking and
    optimising the whole game again, which was most of the LLVM time of a
    cold start (bench/journal/); and the ``try`` catching a game's exception,
    which numba allows in no parallel loop's body, sits in the loop over
    blocks itself, one function fewer. An exception raised in a thread is raised
    here once every thread has returned. Anything else (``py_func``,
    ``signatures``, the label) is the compiled ``play_blocks``'.
    """

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, arrays, sids, params, seed, start, count, *outputs, leader_rounds=leaders.ROUNDS):
        taken = np.zeros(1, np.int64)
        args = (arrays, sids, params, seed, start, count, outputs, taken, min(int(leader_rounds), leaders.ROUNDS))
        errors = []

        def share():
            try:
                self.kernel(*args)
            except BaseException as exc:  # raised in the caller's thread below
                errors.append(exc)

        helpers = [threading.Thread(target=share, name="playtest-kernel", daemon=True)
                   for _ in range(min(nb.get_num_threads(), (count + BLOCK - 1) // BLOCK) - 1)]
        for thread in helpers:
            thread.start()
        share()
        for thread in helpers:
            thread.join()
        if errors:
            raise errors[0]

    def __getattr__(self, name):
        return getattr(self.kernel, name)


def trace_game(arrays, sids, params, seed, game, scores, standing, seat_stats, game_stats, trace):
    """Kernel template: play one game with its trace (see ``simulator.core.game``)."""
    return play_game(arrays, sids, params, seed, game, new_state(arrays, params),
                     new_search(arrays, params, sids), scores, standing, seat_stats, game_stats, trace, leaders.ROUNDS)
