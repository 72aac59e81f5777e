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


def problem(environ):
    """What is wrong with the numba settings in ``environ`` (a sentence), or None when nothing is."""
    inline = environ.get(INLINE, "")
    if inline not in ("", "always", "never"):
        return f"the environment variable {INLINE}={inline!r} must be always or never"
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


def set_aside(environ):
    """Remove a bad ``NUMBA_NUM_THREADS`` or ``PLAYTEST_INLINE`` from ``environ`` (so numba imports) and return
    the problem, or None."""
    found = problem(environ)
    if found is not None:
        environ.pop(INLINE if environ.get(INLINE, "") not in ("", "always", "never") else THREADS)
    return found
