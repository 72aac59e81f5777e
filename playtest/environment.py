"""Environment variables that would break numba's import, checked before numba is imported.

numba reads ``NUMBA_NUM_THREADS`` when it is first imported: ``0`` or a
negative count makes that import raise, and a value that is not a number is
ignored with a warning, so a run would quietly use every core. playtest's
package ``__init__`` calls ``set_aside`` before anything imports numba; the
command line and ``api.prepare`` then refuse to run with the recorded
problem (one ``error:`` line), instead of a traceback or a half-accepted value.
"""

THREADS = "NUMBA_NUM_THREADS"
INLINE = "PLAYTEST_INLINE"  # simulator.core.inlining: always (the default) or never


def _inline_problem(environ):
    value = environ.get(INLINE, "")
    if value not in ("", "always", "never"):
        return f"the environment variable {INLINE}={value!r} must be always or never"
    return None


def _threads_problem(environ):
    value = environ.get(THREADS, "")
    if not value.strip():  # unset or empty: numba's default, every core
        return None
    try:
        threads = int(value.strip())
    except ValueError:
        threads = None
    if threads is None or threads < 1:
        return f"the environment variable {THREADS}={value!r} must be a whole number of threads of at least 1"
    return None


CHECKS = {INLINE: _inline_problem, THREADS: _threads_problem}


def problem(environ):
    """What is wrong with the settings in ``environ`` (a sentence: the first problem found), or None."""
    return next((found for check in CHECKS.values() if (found := check(environ)) is not None), None)


def set_aside(environ):
    """Remove every bad ``PLAYTEST_INLINE`` and ``NUMBA_NUM_THREADS`` from ``environ`` (so numba imports) and
    return the first problem, or None."""
    found = {name: check(environ) for name, check in CHECKS.items()}
    for name in [name for name, sentence in found.items() if sentence is not None]:
        del environ[name]
    return next((sentence for sentence in found.values() if sentence is not None), None)
