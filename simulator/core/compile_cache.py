"""One numba cache folder per version of the engines' and strategies' sources, so stale machine code is never loaded.

numba keys a cached function by the content of the file that defines it and
nothing else. A jit-compiled function freezes the module-level constants it
reads (layouts, table offsets, the state head) and inlines the functions it
calls, so when a constant or a callee changes in another file, the unchanged
file's cached code still holds the old ones: after a ``git pull`` or a merge
the kernels ran with the old layout of a game and crashed (seen: a
segmentation fault in Fauch & Fertig after its rules array grew), or could
as well have played old rules without a sign.

``use()`` points numba's cache (``numba.config.CACHE_DIR``) at a folder named
after a hash of every Python source of the ``simulator`` and ``strategies``
packages: any edit gives a new folder, and everything is compiled again
once. With the engines' verbs compiled as calls (``simulator.core.inlining``)
the name ends in ``-calls``. The folders live under ``numba/`` in playtest's
one cache folder, ``cache_root()``: ``$PLAYTEST_CACHE_DIR`` when set, else
``$XDG_CACHE_HOME/playtest`` or ``~/.cache/playtest`` (shared by every
checkout: one folder per version of the sources; ``$NUMBA_CACHE_DIR`` is not
read). Folders
not used for ``KEEP_DAYS`` days are deleted. Deleting them all is always
safe: the kernels are compiled again on the next run. Where no folder can
be made, numba caches next to the sources as before.

It must run before any function of these packages is decorated: ``simulator``
calls it first thing, and ``strategies`` imports ``simulator`` first.
"""

import functools
import hashlib
import os
import shutil
import time
from pathlib import Path

from numba.core import config

from simulator.core import inlining

KEEP_DAYS = 14
PACKAGES = ("simulator", "strategies")
CACHE_ENV = "PLAYTEST_CACHE_DIR"


def cache_root():
    """playtest's one cache folder (numba's machine code under ``numba/``, the user strategies' under
    ``kernels/``): ``$PLAYTEST_CACHE_DIR``, else ``$XDG_CACHE_HOME/playtest``, else ``~/.cache/playtest``; not
    created here."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "playtest"


def fingerprint(root=Path(__file__).resolve().parents[2]):
    """A short hash of every ``.py`` file of ``PACKAGES`` under ``root`` (the project's folder), names included."""
    digest = hashlib.blake2b(digest_size=8)
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def base_folder():
    """Where the versioned folders live (see the module docstring)."""
    return cache_root() / "numba"


def prune(base, keep, days=KEEP_DAYS):
    """Delete the folders of ``base`` other than ``keep`` that were not used for ``days`` days."""
    cutoff = time.time() - days * 86400
    for folder in base.iterdir():
        if folder.is_dir() and folder.name != keep and folder.stat().st_mtime < cutoff:
            shutil.rmtree(folder, ignore_errors=True)


@functools.cache
def use():
    """Point numba's cache at this version's folder (once per process); returns it, or None where it cannot be
    made (numba then caches next to the sources)."""
    base = base_folder()
    name = fingerprint() + ("" if inlining.VERBS == "always" else "-calls")  # the verbs called: other code
    folder = base / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # marks it used, for prune
        prune(base, name)
    except OSError:
        return None
    config.CACHE_DIR = str(folder)
    return folder
