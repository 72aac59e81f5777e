"""Where compiled kernels bound to user strategy files are cached on disk.

The built-in kernels are cached by numba in the folder of this version of
the sources (``simulator.core.compile_cache``), named after a fingerprint of
those sources. Kernels bound
to a user's strategy file are cached instead in a folder of their own, one
per fingerprint of everything they are built from (see
``strategies.user_files``), under ``kernels/`` in playtest's one cache folder
(``simulator.core.compile_cache.cache_root``: ``$PLAYTEST_CACHE_DIR``, else
``$XDG_CACHE_HOME/playtest``, else ``~/.cache/playtest``).

An edited file gets a new fingerprint and so a new folder: stale machine
code is never loaded. Deleting the folder is always safe (the kernels are
compiled again on the next run).
"""

from numba.core.caching import CompileResultCacheImpl, FunctionCache, InTreeCacheLocator

from simulator.core.compile_cache import CACHE_ENV, cache_root

__all__ = ["CACHE_ENV", "cache_in", "cache_root"]


def cache_in(dispatcher, folder):
    """Make the jit-compiled ``dispatcher`` (bound with ``cache=False``) cache its machine code in ``folder``.

    Numba's own cache machinery does the work (index, source stamp of the
    template's file, numba version); only the folder is chosen here. Returns
    False, leaving the dispatcher uncached, when ``folder`` cannot be created
    or written.
    """
    folder = str(folder)

    class Locator(InTreeCacheLocator):
        def get_cache_path(self):
            return folder

    class Impl(CompileResultCacheImpl):
        _locator_classes = [Locator]

    class Cache(FunctionCache):
        _impl_class = Impl

    try:
        dispatcher._cache = Cache(dispatcher.py_func)  # what numba's enable_caching does, with our locator
    except RuntimeError:  # numba: "no locator available" (the folder is not writable)
        return False
    return True
