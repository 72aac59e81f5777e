"""User strategy files: load one, check it against the game's decision signature, say plainly what is wrong.

A strategy file is one Python file that defines

* ``NAME``: the name to use with ``--strategy`` (letters, digits, ``_``,
  ``-``, ``.``; not a built-in strategy's name),
* ``decide``: the decision function with the game's documented signature
  (``Decision``; plain Python is compiled with ``numba.njit``, an already
  jitted function is used as is), returning the index of the chosen option
  as an integer,
* optionally ``PARAMS``: a list of finite numbers handed to ``decide`` as
  ``params`` (replaced per run with ``--param NAME=...``).

Every check raises ``StrategyError`` with one line naming the file and what
to fix; numba's own message, when there is one, is in ``detail`` (shown by
``playtest --verbose``).
"""

import ast
import hashlib
import importlib.util
import inspect
import math
import re
import sys
import sysconfig
import traceback
from dataclasses import dataclass
from pathlib import Path

import numba as nb
import numpy as np
from numba.core import types

from simulator.core.kernel_cache import cache_in

NAME_PATTERN = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
PROJECT_PACKAGES = {"simulator", "strategies", "playtest", "analyses", "reports"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class StrategyError(ValueError):
    """An unknown strategy name, bad parameters, or a strategy file that cannot be used.

    ``detail`` holds the full underlying message (numba's, or a traceback)
    when there is one.
    """

    def __init__(self, message, detail=None):
        super().__init__(message)
        self.detail = detail


@dataclass(frozen=True)
class Decision:
    """A game's decision function: its documented argument names and the numba types the engine passes."""

    args: tuple
    types: tuple

    def text(self):
        return f"decide({', '.join(self.args)})"


@dataclass(frozen=True)
class UserFile:
    """A loaded strategy file: where it is, what it defines, and the fingerprint of what it is built from."""

    path: Path
    name: str
    decide: object
    params: tuple
    summary: str
    fingerprint: str


def load(path, decision, game):
    """Load the strategy file ``path`` written for ``game`` (registry name) with decision signature ``decision``.

    Checks everything that can be checked without compiling: the file,
    its import, ``NAME``, ``PARAMS`` and the signature of ``decide``.
    """
    path = Path(path)
    if not path.exists():
        raise StrategyError(f"strategy file {path} not found")
    if path.suffix != ".py" or not path.is_file():
        raise StrategyError(f"strategy file {path} must be a Python file ending in .py")
    module = import_file(path)
    check_no_global_random(path)
    decide = getattr(module, "decide", None)
    if decide is None:
        raise StrategyError(f"strategy file {path} defines no function named decide; add "
                            f"`def {decision.text()}:` returning the index of the chosen option")
    py_func = decide.py_func if isinstance(decide, nb.core.dispatcher.Dispatcher) else decide
    if not inspect.isfunction(py_func):
        raise StrategyError(f"strategy file {path}: decide must be a function, got {type(decide).__name__}")
    check_signature(path, py_func, decision, game)
    name = getattr(module, "NAME", None)
    if name is None:
        raise StrategyError(f"strategy file {path} defines no NAME; add e.g. NAME = {path.stem!r} "
                            f"(the name to give --strategy)")
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise StrategyError(f"strategy file {path}: NAME must be a word of letters, digits, '_', '-' or '.', "
                            f"got {name!r}")
    raw = getattr(module, "PARAMS", ())
    try:
        params = parameter_vector(raw)
    except ValueError as exc:
        raise StrategyError(f"strategy file {path}: PARAMS {exc}") from None
    if not isinstance(decide, nb.core.dispatcher.Dispatcher):
        decide = nb.njit(decide)
    summary = (module.__doc__ or "").strip().split("\n")[0]
    return UserFile(path, name, decide, params, summary, fingerprint(path, module))


def import_file(path):
    """Execute the file as a module; any failure becomes one line with the file's line number.

    The module is registered in ``sys.modules`` under a name made from a
    hash of the file, so that numba can find it again when it loads cached
    machine code that refers to it.
    """
    try:
        source = path.read_bytes()
    except OSError as exc:
        raise StrategyError(f"strategy file {path} cannot be read: {exc.strerror or exc}") from None
    name = f"playtest_user_strategy_{hashlib.blake2b(source, digest_size=8).hexdigest()}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:  # a user's file can fail in any way; report it in one line
        del sys.modules[name]
        if isinstance(exc, SyntaxError) and exc.filename and Path(exc.filename) == path.resolve():
            where, what = f", line {exc.lineno}", f"SyntaxError: {exc.msg}"
        else:
            lines = [f.lineno for f in traceback.extract_tb(exc.__traceback__)
                     if Path(f.filename).resolve() == path.resolve()]
            where, what = (f", line {lines[-1]}" if lines else ""), f"{type(exc).__name__}: {exc}"
        raise StrategyError(f"strategy file {path}{where} failed to load: {what}",
                            "".join(traceback.format_exception(exc))) from None
    return module


def check_no_global_random(path):
    """Refuse a file that uses Python's or numpy's global random generator (runs would not be reproducible)."""
    for node in ast.walk(ast.parse(path.read_bytes())):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                 [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
                 if isinstance(node, ast.ImportFrom) else [])
        numpy_random = (isinstance(node, ast.Attribute) and node.attr == "random" and
                        isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy"))
        if numpy_random or any(n in ("random", "numpy.random") for n in names):
            raise StrategyError(f"strategy file {path}, line {node.lineno}: uses a global random generator, so "
                                f"games would differ from run to run; draw from the rng handed to decide "
                                f"instead, e.g. simulator.core.rng.randint(rng, n_options)")


def check_signature(path, py_func, decision, game):
    """Refuse a ``decide`` whose arguments cannot be the game's, naming the game it looks written for."""
    spec = list(inspect.signature(py_func).parameters.values())
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = tuple(p.name for p in spec)
    if any(p.kind not in plain for p in spec):
        raise StrategyError(f"strategy file {path}: decide must list its {len(decision.args)} arguments by name, "
                            f"{decision.text()}, without *args, ** or keyword-only arguments")
    if names == decision.args:
        return
    written_for = [title for other, title, d in decisions() if other != game and names == d.args]
    if len(names) == len(decision.args) and not written_for:
        return  # renamed arguments are fine
    from simulator import games

    mine = games.get(game).title
    text = (f"strategy file {path}: decide({', '.join(names)}) takes {len(names)} arguments, but a {mine} "
            f"decision function is {decision.text()}")
    if written_for:
        text += f"; it looks written for {written_for[0]}"
    raise StrategyError(text)


def decisions():
    """``(game, title, Decision)`` of every registered game."""
    from simulator import games
    from strategies.games import PACKAGES

    return [(g, games.get(g).title, importlib.import_module(p).DECISION) for g, p in PACKAGES.items()]


def parameter_vector(values):
    """A parameter vector as a tuple of floats; ValueError (saying why) unless a list of finite numbers."""
    if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
        raise ValueError(f"must be a list of numbers, got {values!r}")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise ValueError(f"must be a list of numbers, got {v!r} at position {i}")
        if not math.isfinite(v):
            raise ValueError(f"must be finite numbers, got {v!r} at position {i}")
        out.append(float(v))
    return tuple(out)


def check_compiles(user, decision):
    """Compile ``user.decide`` for the game's argument types and check that it returns an integer.

    Numba's typing errors become one line (numba's text in ``detail``).
    """
    prefix = f"strategy file {user.path}"
    try:
        user.decide.compile(decision.types)
    except Exception as exc:  # numba's typing and lowering errors, and anything a user's code can raise
        reason, line = numba_reason(exc, user.path)
        raise StrategyError(f"{prefix}{line}: decide does not compile: {reason} (add --verbose for numba's "
                            f"full message)", ANSI.sub("", str(exc))) from None
    returned = user.decide.overloads[tuple(decision.types)].signature.return_type
    if isinstance(returned, types.Integer) and returned.signed:
        return
    if isinstance(returned, types.Optional):
        problem = "can end without a return (it returns None on some path)"
    elif isinstance(returned, types.NoneType):
        problem = "returns nothing"
    else:
        problem = f"returns {returned}"
    raise StrategyError(f"{prefix}: decide {problem}; it must return the index of the chosen option as an "
                        f"integer on every path (e.g. `return int(best)`)")


def compile_decide(user, decision, folder=None):
    """``user.decide`` compiled for the game's argument types (``check_compiles``), returning int64 as the
    kernels' strategy slots read it (``simulator.core.strategy_slots``): the file's own function, or, when it
    returns a narrower integer, a copy compiled to return int64. With ``folder`` the file's function caches its
    machine code there (``simulator.core.kernel_cache.cache_in``)."""
    if folder is not None:
        cache_in(user.decide, folder)
    check_compiles(user, decision)
    if user.decide.overloads[tuple(decision.types)].signature.return_type == types.int64:
        return user.decide
    return nb.njit(types.int64(*decision.types))(user.decide.py_func)


def numba_reason(exc, path):
    """``(one-line reason, ", line N" or "")`` from a numba compile error about a function in ``path``."""
    text = ANSI.sub("", str(exc))
    body = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("Failed in ")]
    reason = body[0] if body else type(exc).__name__
    if reason.endswith(":"):  # "No implementation of function ... found for signature:" then ">>> f(types)"
        call = next((line for line in body[1:] if line.startswith(">>>")), None)
        reason = f"{reason} {call[3:].strip()}" if call else reason.rstrip(":")
    lines = [int(n) for f, n in re.findall(r'File "([^"]+)", line (\d+)', text)
             if Path(f).resolve() == Path(path).resolve()]
    return reason, (f", line {lines[0]}" if lines else "")


def fingerprint(path, module):
    """A hash of everything compiled code built from this file can depend on.

    The file's bytes; the sources of what it imports (all files of a
    project package's folder, or the file of a module outside the Python
    installation); and the values of its global numbers, strings and arrays,
    which numba freezes into the machine code (a file that reads data when it
    is loaded gets a new fingerprint when the data change).
    """
    digest = hashlib.blake2b(path.read_bytes(), digest_size=8)
    for source in sorted(imported_sources(module)):
        digest.update(source.encode() + b"\0" + Path(source).read_bytes())
    for name, value in sorted(vars(module).items()):
        if isinstance(value, np.ndarray):
            digest.update(f"{name}={value.dtype.str}{value.shape}".encode() + value.tobytes())
        elif isinstance(value, (int, float, complex, str, bytes, tuple, np.generic)):
            digest.update(f"{name}={value!r}".encode())
    return digest.hexdigest()


def imported_sources(module):
    """Paths of the Python sources the module imports or its globals come from (see ``fingerprint``)."""
    installed = [Path(p).resolve() for p in {sys.prefix, sys.base_prefix, sys.exec_prefix,
                                             *sysconfig.get_paths().values()}]
    found = set()
    tree = ast.parse(Path(module.__file__).read_bytes())
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level == 0]
    values = [*vars(module).values(), *(sys.modules.get(name) for name in imported)]
    for value in values:
        source = value if inspect.ismodule(value) else sys.modules.get(getattr(value, "__module__", None) or "")
        file = getattr(source, "__file__", None)
        if source is None or source is module or not file:
            continue
        file = Path(file).resolve()
        if source.__name__.split(".")[0] in PROJECT_PACKAGES:
            found.update(str(p) for p in file.parent.glob("*.py"))
        elif not any(file.is_relative_to(p) for p in installed):
            found.add(str(file))
    return found
