"""playtest: Monte Carlo balance analysis for tabletop card games.

The Python API lives in ``playtest.api``; the command line in ``playtest.cli``.
"""

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__", "api"]

try:
    __version__ = version("playtest")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
