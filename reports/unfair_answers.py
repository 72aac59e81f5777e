"""The answers of the Unfair (FLSU expansion) mechanics lab: for each study, its one-line conclusion and the
short table a designer reads, from the study's tables alone.

``ANSWERS[study](tables)`` returns ``(conclusion, summary)``: which choice comes
out ahead, by how much, with its 95% interval, and a ``reports.tables.Table``
whose every ± is a 95% interval (never a standard error). ``playtest unfair
STUDY`` prints them; the report (``reports.unfair``) opens each section with
them. Nothing here draws, so the commands do not pay for matplotlib.
"""

import numpy as np
import polars as pl

from reports.tables import Table, pct

Z = 1.959963984540054  # 95% two-sided normal quantile


def _pm(mean, se, digits=2):
    """``"3.21 ± 0.04"``: a simulated mean with its 95% half-width."""
    return f"{mean:.{digits}f} ± {Z * se:.{digits}f}"


def _pct_pm(share, se):
    return f"{100 * share:.1f}% ± {100 * Z * se:.1f}"


def _goal_words(goal, target):
    return {"double": "rolling a double", "at-least": f"rolling at least {target}",
            "exactly": f"rolling exactly {target}"}[goal]


def _beans(n):
    return f"{n} bean{'' if n == 1 else 's'}"


def dice_answer(tables):
    """Rolling for a goal with magic beans: how the exact chance grows with the beans held, its largest step,
    and whether the simulation agrees with the exact odds."""
    df = next(iter(tables.values())).sort("beans")
    what = _goal_words(df["goal"][0], df["target"][0])
    agree = bool((df["diff_p"].abs() <= Z * df["se_p"] + 1e-12).all())
    check = (" The simulation agrees with the exact odds within its 95% intervals"
             + (" at every bean count." if df.height > 1 else ".") if agree else
             " The simulation misses the exact odds at some bean count by more than its 95% interval.")
    first, last = df.row(0, named=True), df.row(-1, named=True)
    if df.height == 1:
        conclusion = (f"With {_beans(first['beans'])} held, the chance of {what} is {first['exact_fraction']} = "
                      f"{pct(first['exact_p'])}.")
    else:
        gains = np.diff(df["exact_p"].to_numpy())
        k = int(gains.argmax())
        a, b = df.row(k, named=True), df.row(k + 1, named=True)
        conclusion = (f"Magic beans take the chance of {what} from {first['exact_fraction']} = {pct(first['exact_p'])} "
                      f"with {_beans(first['beans'])} to {last['exact_fraction']} = {pct(last['exact_p'])} with "
                      f"{_beans(last['beans'])}; the largest step is from {a['beans']} to {_beans(b['beans'])}, "
                      f"{a['exact_fraction']} to {b['exact_fraction']} (+{100 * gains[k]:.1f} points).")
    summary = Table.of(f"Chance of {what} and beans spent, by beans held", df, "", {
        "Beans held": lambda r: str(r["beans"]),
        "Exact chance": lambda r: f"{r['exact_fraction']} = {pct(r['exact_p'])}",
        "Simulated (95%)": lambda r: _pct_pm(r["sim_p"], r["se_p"]),
        "Beans spent, exact": lambda r: f"{r['exact_spent']:.3f}",
        "Beans spent, simulated (95%)": lambda r: _pm(r["sim_spent"], r["se_spent"], 3),
    })
    return conclusion + check, summary


def wishing_well_answer(tables):
    """Wishing Well against Wandering Merchant: the policy granting the most wishes and the one earning the
    most Merchant coins."""
    ww = tables["wishing well"]
    wish = ww.sort("granted", descending=True).row(0, named=True)
    coin = ww.sort("coins", descending=True).row(0, named=True)
    conclusion = (f"'{wish['policy']}' grants the most wishes ({_pm(wish['granted'], wish['granted_se'])} per "
                  f"game) and '{coin['policy']}' earns the most Merchant coins "
                  f"({_pm(coin['coins'], coin['coins_se'])} per game): the Well trades coins for wishes.")
    if wish["policy"] == coin["policy"]:
        conclusion = (f"'{wish['policy']}' is best on both counts: {_pm(wish['granted'], wish['granted_se'])} "
                      f"wishes granted and {_pm(coin['coins'], coin['coins_se'])} Merchant coins per game.")
    summary = Table.of("Per policy, per game (95% intervals)", ww, "", {
        "Policy": lambda r: r["policy"],
        "Wishes made": lambda r: _pm(r["wishes"], r["wishes_se"]),
        "Wishes granted": lambda r: _pm(r["granted"], r["granted_se"]),
        "Merchant coins": lambda r: _pm(r["coins"], r["coins_se"]),
        "Beans left": lambda r: _pm(r["beans_left"], r["beans_left_se"]),
    })
    return conclusion, summary


def fame_answer(tables):
    """Fame plans: the plan ending the game with the most Mythic markers, and its lead over the next."""
    end = (tables["mythic markers at game end"].group_by("plan", maintain_order=True).agg(
        (pl.col("markers") * pl.col("probability")).sum().alias("mean"),
        (pl.col("markers") ** 2 * pl.col("probability")).sum().alias("square"), pl.col("trials").first())
        .with_columns(((pl.col("square") - pl.col("mean") ** 2).clip(0) / pl.col("trials")).sqrt().alias("se"))
        .sort("mean", descending=True))
    top, nxt = end.row(0, named=True), end.row(min(1, end.height - 1), named=True)
    gap = top["mean"] - nxt["mean"]
    gap_half = Z * (top["se"] ** 2 + nxt["se"] ** 2) ** 0.5  # the plans are simulated independently
    conclusion = (f"'{top['plan']}' ends the game with the most Mythic markers: {_pm(top['mean'], top['se'])}, "
                  f"{gap:.2f} ± {gap_half:.2f} more than '{nxt['plan']}'"
                  + ("." if gap > gap_half else ", a difference the simulation cannot tell from none."))
    summary = Table.of("Mythic markers at the end of the game, per plan (95% intervals)", end, "", {
        "Plan": lambda r: r["plan"], "Markers at game end": lambda r: _pm(r["mean"], r["se"]),
    })
    return conclusion, summary


def gems_answer(tables):
    """Gemstones: the drill count that yields the most coins, whether building early pays, and how often the
    supply runs short."""
    value, supply = tables["facility value"], tables["supply"]
    best = value.sort("value", descending=True).row(0, named=True)
    rounds = value.filter(pl.col("drill") == best["drill"]).sort("round")
    first, last = rounds.row(0, named=True), rounds.row(-1, named=True)
    gap = first["value"] - last["value"]
    gap_half = Z * (first["value_se"] ** 2 + last["value_se"] ** 2) ** 0.5
    timing = ("building early pays" if gap > gap_half else "building late pays" if -gap > gap_half
              else "the round it is built makes no difference the simulation can tell")
    short = supply.row(-1, named=True)
    short_se = (short["p_short_so_far"] * (1 - short["p_short_so_far"]) / short["trials"]) ** 0.5
    conclusion = (f"A facility with {best['drill']} drill icon(s) yields the most coins, and {timing}: "
                  f"{_pm(first['value'], first['value_se'])} coins built in round {first['round']}, "
                  f"{_pm(last['value'], last['value_se'])} in round {last['round']}; some facility goes short of "
                  f"tokens in {_pct_pm(short['p_short_so_far'], short_se)} of games.")
    summary = Table.of("Coins per facility by round built (95% intervals)", rounds, "", {
        "Drill icons": lambda r: str(r["drill"]), "Round built": lambda r: str(r["round"]),
        "Coins per facility": lambda r: _pm(r["value"], r["value_se"]),
        "Short of tokens": lambda r: pct(r["p_short"]),
    })
    return conclusion, summary


def panoramas_answer(tables):
    """Panoramas: the best policy per panorama length (no wildcard, no Scenic Vistas) and its lead."""
    pano = tables["panoramas"]
    plain = pano.filter(~pl.col("wildcard") & ~pl.col("vistas"))
    ranked = plain.sort("net", descending=True).group_by("length", maintain_order=True).head(2).sort("length")
    parts = []
    for length, part in ranked.group_by("length", maintain_order=True):
        a, b = part.row(0, named=True), part.row(1, named=True)
        half = Z * (a["net_se"] ** 2 + b["net_se"] ** 2) ** 0.5
        parts.append(f"length {length[0]}: '{a['policy']}' by {a['net'] - b['net']:.2f} ± {half:.2f}"
                     + ("" if a["net"] - b["net"] > half else " (not told apart)"))
    conclusion = ("Best policy per panorama length (points minus coins, no wildcard or Vistas, lead over the "
                  "next policy with its 95% interval): " + "; ".join(parts) + ".")
    summary = Table.of("Points minus coins per panorama (no wildcard, no Vistas; 95% intervals)", plain, "", {
        "Length": lambda r: str(r["length"]), "Policy": lambda r: r["policy"],
        "Points minus coins": lambda r: _pm(r["net"], r["net_se"]),
        "Complete": lambda r: pct(r["p_complete"]),
    })
    return conclusion, summary


ANSWERS = {"dice": dice_answer, "wishing-well": wishing_well_answer, "fame": fame_answer, "gems": gems_answer,
           "panoramas": panoramas_answer}
