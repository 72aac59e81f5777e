"""The tables ``make bench`` fills: what can be measured (``PARTS``), the columns of each table, and ``Bench``,
the rows measured."""

from dataclasses import dataclass, field

import polars as pl

PARTS = ("reference", "start", "first-answer", "end-to-end", "encodings", "search", "state-api")


MAIN = ("game", "players", "numba_1_thread", "numba_all_threads", "parallel_efficiency", "reference",
        "numba_over_reference", "cold_start_s", "warm_start_s", "peak_rss_mb")
END_TO_END = ("game", "games_written", "games_per_second", "over_kernel", "lowest", "highest", "peak_rss_mb")
ENCODING = ("game", "encoding", "cpu_seconds", "bytes_per_game")
SEARCH = ("game", "iterations_1_thread", "iterations_all_threads", "iterations_2_threads", "target", "copy_ns",
          "determinize_ns", "iteration_over_random_game", "mcts_table", "mcts_budget", "learned_table")
STATE_API = ("game", "threads", "before", "state_api")
FIRST = ("command", "cold_s", "warm_s", "play_s")


@dataclass
class Bench:
    """What ``run_benchmarks`` measured: one list of row dicts per table (the columns of ``MAIN``,
    ``END_TO_END``, ...; a value None where not measured) and the markdown text."""

    main: list = field(default_factory=list)
    end_to_end: list = field(default_factory=list)
    encodings: list = field(default_factory=list)
    search: list = field(default_factory=list)
    state_api: list = field(default_factory=list)
    first_answer: list = field(default_factory=list)
    load: list = field(default_factory=list)
    markdown: str = ""

    def frame(self):
        """The main table as a polars frame, one row per game."""
        return _frame(self.main, MAIN)

    def tables(self):
        """``{end_to_end, encodings, search, state_api}``: the other tables as polars frames."""
        return {"end_to_end": _frame(self.end_to_end, END_TO_END), "encodings": _frame(self.encodings, ENCODING),
                "first_answer": _frame(self.first_answer, FIRST),
                "search": _frame(self.search, SEARCH), "state_api": _frame(self.state_api, STATE_API)}


def _frame(rows, columns):
    if not rows:
        return pl.DataFrame({c: [] for c in columns})
    return pl.DataFrame(rows, schema=list(columns), orient="row", infer_schema_length=None)
