"""The report section of a setup-table sweep: which configuration is fairest, and which cannot be told
apart from it.

Every configuration's largest seat edge (the largest |win share - fair share|
over the seats) comes with simultaneous 95% bounds (``max_edge_lo``,
``max_edge_hi`` from ``analyses.sweep``: they hold whenever every seat's
interval holds). A configuration *cannot be told apart from the fairest* when
its lower bound does not clear the fairest one's upper bound. The heatmap
frames the fairest and those, and stars the configuration that keeps the
shipped setup table.
"""

import json
from pathlib import Path

import polars as pl

from analyses import sweep
from analyses.runs import open_run
from analyses.verdict import player_model
from analyses.verdict import points as margin_points
from reports import figures
from reports.section import Section, compact_toml, provenance, slug
from reports.tables import Table, pct, points, text
from simulator import games

RUNNERS_UP = 5


def latest_rows(summary):
    """The playable configurations, each with its row of the last race stage it reached (a plain grid:
    its only row); confirmation games are left out."""
    played = summary.filter(pl.col("unplayable").is_null() & pl.col("max_edge").is_not_null())
    if "stage" in played.columns:
        played = (played.filter(pl.col("phase") == "race").sort("stage")
                  .group_by("config", maintain_order=True).last())
    return played.sort("config")


def near_best(played):
    """``(best config, set of configs whose largest-edge lower bound does not clear the best one's upper
    bound)``, in a plain grid (the rule ``analyses.sweep`` applies to a search's confirmation games)."""
    best = played.sort("max_edge").row(0, named=True)
    near = played.filter((pl.col("max_edge_lo") <= best["max_edge_hi"]) & (pl.col("config") != best["config"]))
    return best["config"], set(near["config"].to_list())


def standings(summary, played):
    """``(best config, configs that cannot be told apart from it, ranked rows with the figures to quote)``:
    after a search the race's pick and the confirmation games on a fresh seed (``analyses.sweep``), in a
    plain grid the smallest edge among the configurations, measured on the games that chose it."""
    if sweep.sweep_is_search(summary):
        ranked = sweep.standing(summary)
        near = set(ranked.filter(pl.col("cannot_tell_apart") & ~pl.col("best"))["config"].to_list())
        return int(sweep.best(summary)["config"]), near, ranked
    best, near = near_best(played)
    return best, near, played.sort("max_edge")


def shipped_configs(manifest, played):
    """The configs whose every setup axis holds the shipped table's value (parameter axes left free)."""
    shipped = games.get(manifest["game"]).default_setup()
    keep = pl.lit(True)
    for axis in manifest["axes"]:
        label = axis["label"]
        if label.startswith("param:"):
            continue
        node = shipped
        for part in label.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        value = json.dumps(node) if isinstance(node, list) else node
        keep = keep & (pl.col(label).cast(pl.String) == str(value))
    return set(played.filter(keep)["config"].to_list())


def _where(row, axes):
    return ", ".join(f"{a} = {row[a]}" for a in axes)


def _interval(row):
    return f"{points(row['max_edge_lo'], False)} to {points(row['max_edge_hi'], False)}"


def sweep_section(path):
    """A sweep: the verdict on its fairest configuration, the heatmap, best and runners-up, the table."""
    manifest, summary = sweep.load(path)
    name = Path(path).name
    tag = f"{slug(name)}-"
    axes = [a["label"] for a in manifest["axes"] if len(a["values"]) > 1] or [manifest["axes"][0]["label"]]
    played = latest_rows(summary)
    if played.height == 0:
        return Section(f"Setup-table sweep ({name})", "sweep",
                       verdict="No configuration of this grid could be played; the reasons are in the table.",
                       tables=[unplayable_table(summary, axes, tag)])
    best, near, ranked = standings(summary, played)
    shipped = shipped_configs(manifest, played)
    row = ranked.filter(pl.col("config") == best).row(0, named=True)
    fresh = ", on fresh deals" if sweep.sweep_is_search(summary) else ""
    margin = f"±{margin_points(manifest['margin'])} points" if "margin" in manifest else "the sweep's margin"
    model = player_model(open_run(Path(path) / played["run"][0]).seats)
    lead = sweep.pick_lead(ranked["verdict"].to_list(), margin, model)
    verdict = (f"{lead}: {_where(row, axes)}, with a largest seat edge of "
               f"{points(row['max_edge'], False)} points ({_interval(row)}, {row['games']:,} games{fresh}); "
               + (f"{len(near)} other configuration{'s' if len(near) > 1 else ''} cannot be told apart from it."
                  if near else "every other configuration is measurably less fair."))
    default = next(iter(shipped), None)
    for config in shipped:
        ship = played.filter(pl.col("config") == config).row(0, named=True)
        verdict += (f" The shipped table ({_where(ship, axes)}) has {points(ship['max_edge'], False)} points "
                    f"({_interval(ship)}).")
    if len(axes) >= 2:
        fig = figures.sweep_heatmap(f"{tag}largest-edge", played, axes, best, near, default)
    else:
        fig = figures.sweep_line(f"{tag}largest-edge", played, axes[0], best, near, default)
    skipped = summary.filter(pl.col("unplayable").is_not_null())["config"].n_unique()
    notes = ["Tested: each configuration's largest seat edge against the fairest one's, with simultaneous 95% "
             "bounds over the seats; two configurations are told apart only when their bounds do not overlap. "
             "Each configuration's own verdict (balanced, unbalanced, inconclusive at the margin) is in the "
             "table of every configuration.",
             "Cannot tell: whether a configuration is fair in absolute terms (see each configuration's "
             "verdict), and how it plays for other strategies."]
    if sweep.sweep_is_search(summary):
        notes.append("Search: configurations were eliminated once their largest edge was surely bigger than "
                     "another's (the heatmap shows each one's last race stage); the pick and its runners-up were "
                     "then replayed on a fresh seed, and the verdict and the first table quote those games only.")
    else:
        notes.append("The fairest was picked and measured on the same games, and picking the smallest of many "
                     "noisy edges favours the lucky, so its edge is likely larger on fresh games: confirm it with "
                     "`playtest sweep --search` or a fresh run before adopting it.")
    if skipped:
        notes.append(f"{skipped} configuration(s) could not be played; the reasons are in the last table.")
    ranked = ranked.head(1 + RUNNERS_UP)
    return Section(f"Setup-table sweep ({name})", "sweep", verdict=verdict, figures=[fig], text=notes,
                   tables=[t for t in (ranked_table(ranked, axes, near, best, tag), full_table(summary, axes, tag),
                                       unplayable_table(summary, axes, tag)) if t],
                   subsections=[sweep_provenance(path, manifest, played)])


def ranked_table(ranked, axes, near, best, tag):
    """The fairest configuration and its runners-up with intervals."""
    def standing(r):
        return "fairest" if r["config"] == best else "cannot be told apart" if r["config"] in near else "less fair"
    return Table.of(f"The fairest configuration and the next {ranked.height - 1}", ranked, f"{tag}fairest", {
        "Configuration": lambda r: str(r["config"]),
        **_values(axes),
        "Largest seat edge (points)": lambda r: points(r["max_edge"], False),
        "95% interval": _interval,
        "Games": lambda r: text(r["games"]),
        "Against the fairest": standing,
    })


def full_table(summary, axes, tag):
    """Every played configuration (and search stage or confirmation) with its measures."""
    stage = {"Search stage": lambda r: "confirmation" if r["phase"] == "confirm" else str(r["stage"])} \
        if "stage" in summary.columns else {}
    played = summary.filter(pl.col("unplayable").is_null() & pl.col("max_edge").is_not_null())
    return Table.of("Every configuration played", played, f"{tag}configurations", {
        "Configuration": lambda r: str(r["config"]), **stage, **_values(axes),
        "Games": lambda r: text(r["games"]),
        "Verdict": lambda r: r["verdict"],
        "Largest seat edge, points (95% bounds)": lambda r: f"{points(r['max_edge'], False)} ({_interval(r)}), "
                                                           f"seat {r['worst_seat']}",
        "First seat wins": lambda r: pct(r["first_seat_share"]),
        "Tie rate": lambda r: pct(r["tie_rate"]),
        "Mean score spread": lambda r: f"{r['mean_spread']:.2f}",
        "Mean rounds": lambda r: f"{r['mean_rounds']:.2f}",
    })


def unplayable_table(summary, axes, tag):
    """The configurations that could not be played, each with the reason (None when every one played)."""
    skipped = summary.filter(pl.col("unplayable").is_not_null()).unique("config", maintain_order=True)
    if skipped.height == 0:
        return None
    return Table.of("Configurations that could not be played", skipped.select("config", *axes, "unplayable"),
                    f"{tag}unplayable", {"Configuration": lambda r: str(r["config"]), **_values(axes),
                                         "Not played because": lambda r: r["unplayable"]})


def _values(axes):
    """Table columns showing each grid axis's value."""
    return {a: (lambda a: lambda r: text(r[a]))(a) for a in axes}


def sweep_provenance(path, manifest, played):
    """Seed, strategies, games per configuration, the grid and the git revision of a sweep (the engine
    and revision from its first played run)."""
    first = open_run(Path(path) / played["run"][0]).manifest
    settings = {k: first[k] for k in ("game", "title", "players", "variant", "version", "engine_version",
                                      "git_revision") if k in first}
    settings |= {k: manifest["options"][k] for k in ("games", "seed", "strategies") if k in manifest["options"]}
    mode = "search (successive halving)" if manifest["mode"] == "search" else "full grid"
    extra = [("Mode", mode)] + ([("Verdict margin", f"±{manifest['margin']:g} points")] if "margin" in manifest else [])
    section = provenance(settings, Path(path).name, extra)
    section.code = compact_toml({"grid": {a["label"]: a["values"] for a in manifest["axes"]}})
    section.code_title = "Grid swept"
    return section
