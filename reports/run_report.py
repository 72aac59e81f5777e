"""The report section of one run: the verdict first, then the figure that shows it, then details.

Everything comes from ``analyses.seat_summary.seat_summary``, the same
summary ``playtest simulate`` prints. The verdict is the balance verdict of
``analyses.verdict`` (balanced within the margin / unbalanced / inconclusive
/ unfinished) and the figure the seat edges with their simultaneous
intervals. For a rotated run with several strategies the verdict first says
which strategy is stronger and by how much on the same deals, and the first
figure is their win shares against the fair share; for strategies in fixed
seats it first names the one that won most, saying that seat and strategy
are mixed.
"""

import polars as pl

from analyses import comeback, feel, paired
from analyses.runs import open_run
from analyses.seat_summary import seat_summary
from reports import figures
from reports.section import Section, provenance, slug
from reports.tables import Table, p_is, p_value, pct, pct_interval, points, points_interval, text


PAIRED_SHARES = {"mean": "win_share", "half_paired": "half_paired_share", "half_independent": "half_independent_share",
                 "difference": "difference_share", "low": "difference_share_low", "high": "difference_share_high"}


def seat_table(table, tag):
    """Win share per seat against the fair share, per-seat 95% intervals, mean score."""
    return Table.of("Win share and mean score per seat (per-seat 95% intervals)", table, f"{tag}seats", {
        "Seat": lambda r: str(r["seat"]),
        "Strategy": lambda r: r["strategy"],
        "Games": lambda r: text(r["games"]),
        "Wins (a k-way tie for first counts 1/k)": lambda r: f"{round(r['wins']):,}",
        "Win share": lambda r: pct(r["win_share"]),
        "95% interval": lambda r: pct_interval(r["win_lo"], r["win_hi"]),
        "Fair share": lambda r: pct(r["expected_share"]),
        "Edge (points)": lambda r: points(r["win_share"] - r["expected_share"]),
        "Mean score": lambda r: f"{r['mean_score']:.2f}",
        "Score 95% interval": lambda r: f"{r['score_lo']:.2f} to {r['score_hi']:.2f}",
    })


LONG_PARAMS = 12  # a longer vector (a learned model) is shown by its length and first numbers


def strategy_parameters(manifest):
    """Each strategy's parameter vector as the run played it, ``"random: none; counter: 10, 3"``.

    The manifest keeps one row per seat, padded with zeros to the longest
    vector of the lineup (a strategy without parameters gets a row of zeros);
    a built-in strategy's row is cut back to the length of its own vector.
    The rows of the search and learned players and of a user's strategies,
    whose length varies, are shown whole.
    """
    from strategies.games import strategy_set
    from strategies.registry import StrategyError

    try:
        builtins = strategy_set(manifest["game"])
    except (KeyError, ImportError):
        builtins = None
    parts = {}
    for name, row in zip(manifest.get("strategies", []), manifest["strategy_params"]):
        if name in parts:
            continue
        try:
            sid, strategy = builtins.get(name)
            fixed = sid not in (builtins.search_sid, builtins.learned_sid)
        except (AttributeError, StrategyError):
            fixed = False
        values = list(row[:len(strategy.params)] if fixed else row)
        parts[name] = ("none" if not values else ", ".join(f"{v:g}" for v in values) if len(values) <= LONG_PARAMS
                       else f"{len(values)} numbers: {', '.join(f'{v:g}' for v in values[:3])}, ...")
    return "; ".join(f"{name}: {values}" for name, values in parts.items())


def strategy_sentence(strategies, differences):
    """Which strategy is stronger on the same deals and by how much, in one sentence.

    Compares the strategy with the highest paired win share with the runner-up
    (``analyses.paired``: difference over deals, paired 95% interval).
    """
    shares = strategies.sort("mean", descending=True)
    first, second = shares["strategy"][0], shares["strategy"][1]
    row = differences.filter(((pl.col("a") == first) & (pl.col("b") == second))
                             | ((pl.col("a") == second) & (pl.col("b") == first))).row(0, named=True)
    sign = 1 if row["a"] == first else -1
    d = sign * row["difference"]
    lo, hi = sorted([sign * row["low"], sign * row["high"]])
    if lo > 0:
        return (f"{first} is the stronger strategy: on the same deals it wins {points(d, False)} points more "
                f"of its games than {second} (95% interval {points_interval(lo, hi)}; {row['deals']:,} deals).")
    return (f"{first} and {second} cannot be told apart: on the same deals {first} wins {points(d)} points "
            f"more of its games (95% interval {points_interval(lo, hi)}, which includes 0; "
            f"{row['deals']:,} deals).")


def lineup_sentence(table):
    """Which strategy won most in a lineup that was not rotated, saying that seat and strategy are mixed."""
    top = table.sort("win_share", descending=True).row(0, named=True)
    return (f"In this lineup {top['strategy']} (seat {top['seat']}) wins most: {pct(top['win_share'])} of the "
            f"games ({pct_interval(top['win_lo'], top['win_hi'])}) against a fair share of "
            f"{pct(top['expected_share'])}; without rotated seats its strength and its seat's cannot be told "
            "apart.")


def interrupted_sentence(manifest):
    """The warning that opens the report of a run that did not finish."""
    unit = "deals" if manifest.get("rotate_seats") else "games"
    return (f"This run did not finish: {manifest.get('games_done', 0):,} of {manifest.get('games', 0):,} {unit} "
            f"were played, and everything below rests on those only.")


def paired_section(seats, tag):
    """Duplicate deals: seat and strategy effects with the deal's luck cancelled."""
    by_seat = paired.effects(seats, by="seat")
    by_strategy = paired.effects(seats, by="strategy")
    columns = {
        "Games": lambda r: text(r["games"]), "Deals": lambda r: text(r["deals"]),
        "Win share": lambda r: pct(r["mean"]),
        "95% interval (over deals)": lambda r: pct_interval(r["mean"] - r["half_paired"], r["mean"] + r["half_paired"]),
        "Interval narrower than independent games by": lambda r: pct(r["narrower"], 0),
    }
    tables = [Table.of("Win share per seat on duplicate deals", by_seat, f"{tag}paired-seats",
                       {"Seat": lambda r: str(r["seat"]), **columns}),
              Table.of("Win share per strategy on duplicate deals", by_strategy, f"{tag}paired-strategies",
                       {"Strategy": lambda r: r["strategy"], **columns})]
    if by_strategy.height > 1:
        tables.append(Table.of("Strategy against strategy on the same deals", paired.strategy_differences(seats),
                               f"{tag}paired-differences", {
                                   "Strategy": lambda r: r["a"], "Against": lambda r: r["b"],
                                   "Deals": lambda r: text(r["deals"]),
                                   "Difference in win share (points)": lambda r: points(r["difference"]),
                                   "95% interval": lambda r: points_interval(r["low"], r["high"]),
                                   "p (no difference)": lambda r: p_value(r["p_value"]),
                                   "Worth independent games": lambda r: text(r["equivalent_games"]),
                               }))
    for table in tables:  # the data files name their fractions of win share so
        table.data = table.data.rename({k: v for k, v in PAIRED_SHARES.items() if k in table.data.columns})
    return Section("Duplicate deals (rotated seats)", "paired", tables=tables, text=[
        "Every deal was played once per rotation of the strategies over the seats, so each estimate below "
        "averages a deal's games before comparing deals; the deal's luck cancels out of the comparison."])


ONE_LENGTH_METRICS = ("mean rounds", "sd of rounds")  # left out when every game lasted the same
FEEL_FORMAT = {"close games": lambda v: pct(v, 2), "tie rate": lambda v: pct(v, 2), "games": text}


def feel_value(metric, value):
    """A game-feel figure as shown: shares in %, counts whole, the rest with two decimals."""
    if value is not None and metric.startswith("leader after round"):
        return pct(value)
    return "" if value is None else FEEL_FORMAT.get(metric, lambda v: f"{v:.2f}")(value)


def feel_unit(metric):
    """The unit of a game-feel figure in the data file: "share" (a fraction of games), "games", or "as named"
    (rounds, points of score, lead changes per game)."""
    if metric in ("close games", "tie rate") or metric.startswith("leader after round"):
        return "share"
    return "games" if metric == "games" else "as named"


def feel_interval(row):
    """``"low to high"`` of a game-feel row (a dict of ``analyses.feel.summary``), empty without one."""
    if row["low"] is None or row["low"] != row["low"]:
        return ""
    return f"{feel_value(row['metric'], row['low'])} to {feel_value(row['metric'], row['high'])}"


def feel_section(seats, tag, by):
    """Score distributions per seat or per strategy (``by``), game length (in words when every game lasts
    the same, and then without the length rows of the game-feel summary) and the game-feel summary with its
    95% intervals."""
    dist = feel.length_distribution(seats)
    summary = feel.summary(seats)
    if dist.height == 1:  # "every game lasted N rounds" says it; a mean of N with an interval N to N only repeats it
        summary = summary.filter(~pl.col("metric").is_in(ONE_LENGTH_METRICS))
    table = Table.of("Game feel (95% intervals)", summary, f"{tag}feel", {
        "Measure": lambda r: r["metric"],
        "Value": lambda r: feel_value(r["metric"], r["value"]),
        "95% interval": lambda r: feel_interval(r),
        "Note": lambda r: r["note"],
    })
    table.data = summary.with_columns(unit=pl.col("metric").map_elements(feel_unit, return_dtype=pl.String))
    figs = [figures.score_distributions(f"{tag}score-distributions", seats, by)]
    length = figures.game_length(f"{tag}game-length", dist)
    words = [] if length else [f"Every game lasted {dist['rounds'][0]} rounds."]
    if comeback.has_leaders(seats):  # the leader columns: every game of the simulator writes them
        if not comeback.leaders_recorded(seats):
            words.append("No leader after a round was recorded (a run played with --no-leader-record, or games "
                         "that end in their first round): there is no comeback curve.")
        elif (curve := comeback.curve(seats)).height:
            figs.append(figures.comeback_curve(f"{tag}comeback", curve))
    return Section("Game feel", "feel", figures=figs + [length] * bool(length), text=words, tables=[table])


COMPARED_KEYS = ("variant", "games", "seed", "strategies", "strategy_params", "rotate_seats")


def differences(a, b, prefix=""):
    """``[(dotted key, value in a, value in b)]`` for every key whose value differs, tables compared key by key."""
    out = []
    for key in sorted({*a, *b}, key=str):
        where = f"{prefix}{key}"
        va, vb = a.get(key), b.get(key)
        if isinstance(va, dict) and isinstance(vb, dict):
            out += differences(va, vb, f"{where}.")
        elif va != vb:
            out.append((where, va, vb))
    return out


def comparison_section(path_a, path_b, margin):
    """"B against A" for two runs of one game and player count: the verdict of ``analyses.compare``, the
    figure of its changes and the settings and setup keys that differ. None when the runs cannot be compared
    (another game or player count, too few games)."""
    from analyses.compare import CompareError, compare

    a, b = open_run(path_a), open_run(path_b)
    try:
        comparison = compare(a.seats, b.seats, a.manifest, b.manifest, margin)
    except CompareError:
        return None
    rows = [(f"seat {c.name}", c) for c in comparison.seats] + [("largest seat edge", comparison.largest)]
    changes = pl.DataFrame([{"what": what, "a": c.a, "b": c.b, "change": c.change, "lo": c.lo, "hi": c.hi}
                            for what, c in rows])
    differ = [(k, a.manifest.get(k), b.manifest.get(k)) for k in COMPARED_KEYS
              if a.manifest.get(k) != b.manifest.get(k)]
    differ += differences(a.manifest.get("setup") or {}, b.manifest.get("setup") or {}, "setup.")
    table = Table("What differs between A and B", ["Setting", f"A ({a.name})", f"B ({b.name})"],
                  [[key, text(va), text(vb)] for key, va, vb in differ])
    said = [f"A is {a.name}, B is {b.name}; every change is B minus A.", f"{comparison.pairing[0].upper()}"
            f"{comparison.pairing[1:]}."]
    if not differ:
        said.append("The two runs have the same settings and setup table.")
    return Section(f"B against A: {b.name} against {a.name}", "compare", verdict=comparison.sentence(),
                   figures=[figures.design_changes(f"{slug(a.name)}-{slug(b.name)}-changes", changes, margin)],
                   text=said, tables=[table] if differ else [])


def run_title(manifest, seats, name):
    """``"<game title>: N players, G games (D deals x R rotations) (<dir>)"``."""
    played = len(seats) // max(1, seats["seat"].n_unique())
    deals = f" ({seats['game'].n_unique():,} deals x {played // seats['game'].n_unique()} rotations)" \
        if "rotation" in seats.columns else ""
    return (f"{manifest.get('title', manifest.get('game', 'game'))}: {manifest.get('players')} players, "
            f"{played:,} games{deals} ({name})")


def run_section(path, margin):
    """All sections for one run directory, the verdict at ``margin`` points first."""
    run = open_run(path)
    manifest, seats = run.manifest, run.seats
    tag = f"{slug(run.name)}-"
    summary = seat_summary(seats, manifest, margin=margin)
    verdict = summary.verdict
    sentences, figs = [verdict.sentence()], []
    if verdict.edges:
        edges = pl.DataFrame([e.to_dict() for e in verdict.edges])
        figs.append(figures.seat_edges(f"{tag}seat-edges", edges, margin, "simultaneous 95% intervals"))
    if summary.strategies is not None:
        sentences.insert(0, strategy_sentence(summary.strategies, summary.differences))
        shares = summary.strategies.with_columns(pl.col("mean").alias("win_share"),
                                                 (pl.col("mean") - pl.col("half_paired")).alias("win_low"),
                                                 (pl.col("mean") + pl.col("half_paired")).alias("win_high"))
        figs.insert(0, figures.strategy_shares(f"{tag}strategy-shares", shares, 1 / verdict.players))
    elif verdict.subject == "lineups":
        sentences.insert(0, lineup_sentence(summary.table))
    if manifest.get("complete") is False:
        sentences.insert(0, interrupted_sentence(manifest))
    notes = [f"Tested: {verdict.tested}.", f"Cannot tell: {verdict.cannot_tell}."]
    if verdict.seat_test is not None:
        notes.append(f"Secondary: a chi-square test of equal shares (any difference at all, however small) "
                     f"gives {p_is(verdict.seat_test.p)}.")
    unfinished = verdict.unfinished_line()
    if unfinished:
        notes.insert(0, f"{unfinished[0].upper()}{unfinished[1:]}.")
    details = [] if verdict.kind == "unfinished" else \
        [Section("Seats in detail", "seats", tables=[seat_table(summary.table, tag)])]
    if "rotation" in seats.columns:
        details.append(paired_section(seats, tag))
    by = "strategy" if summary.strategies is not None else "seat"
    shown = {**manifest, "strategy_params": strategy_parameters(manifest)} if "strategy_params" in manifest \
        else manifest
    details += [feel_section(seats, tag, by), provenance(shown, run.name)]
    return Section(run_title(manifest, seats, run.name), "run", verdict=" ".join(sentences), figures=figs,
                   text=notes, subsections=details)
