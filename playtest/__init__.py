"""playtest: Monte Carlo balance analysis for tabletop card games.

The Python API lives in ``playtest.api``; the command line in ``playtest.cli``.
"""

import os
from importlib.metadata import PackageNotFoundError, version

from playtest import environment

# before numba is imported anywhere: a bad NUMBA_NUM_THREADS or PLAYTEST_INLINE is kept here and refused by every
# command
ENVIRONMENT_PROBLEM = environment.set_aside(os.environ)

__all__ = ["__version__", "api"]

try:
    __version__ = version("playtest")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
