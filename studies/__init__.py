"""The work below the interface that is not a statistic over run directories: seating a run (``runs``),
learning a game's model (``train``), measuring what the guided search gains (``search_gain``), choosing the
cards a ``cards`` study takes out (``card_tables``), playing a run's chunks on Dask workers
(``dask_backend``) and measuring the engines (``bench``, ``make bench``).

``playtest`` (its command line and ``playtest.api``) is the only interface above it; this package never
imports ``playtest``, and ``reports``, ``analyses``, ``strategies`` and ``simulator`` never import it.
"""

__all__ = ["bench", "card_tables", "dask_backend", "runs", "search_gain", "train"]
