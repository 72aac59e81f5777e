"""Restricted play: how much is an option worth? (Jaffe et al., AIIDE 2012)

One seat plays the search player forbidden a class of actions (it never
takes one while it has another option), the other seats unrestricted copies
of the same player; seats are rotated, so every deal is played once with the
restricted player in every seat. If the option were worthless the restricted
player would still win its fair share ``1/players``; the *cost* of the
restriction is the fair share minus its win share, with a 95% interval over
deals (``analyses.paired.effects``):

* a cost beyond the margin: the option is worth that much to a player of
  this strength (a large cost can mean the option is dominant);
* a cost within the margin: the option adds nothing this player can measure
  (dead, or replaceable by others);
* a negative cost beyond the margin: the option hurts the players who take it.
"""

import polars as pl

from analyses import paired


def lineup(agent, classes, players):
    """The restricted agent's name (``agent:no-CLASS...``) in seat 0, unrestricted copies in the others."""
    return [agent + "".join(f":no-{c}" for c in classes)] + [agent] * (players - 1)


def cost(seats, restricted, players, margin=1.0):
    """The restriction's cost in points of win share, with its 95% interval and what it says.

    Returns a dict: share, lo, hi (the restricted player's win share), cost,
    cost_lo, cost_hi (fair share minus win share, in points), and ``reading``
    (one sentence).
    """
    row = paired.effects(seats, by="strategy").filter(pl.col("strategy").cast(pl.String) == restricted).row(
        0, named=True)
    fair = 1 / players
    share, half = row["mean"], row["half_paired"]
    c, lo, hi = 100 * (fair - share), 100 * (fair - share - half), 100 * (fair - share + half)
    if lo > margin:
        reading = f"the option is worth {c:.2f} points ({lo:.2f} to {hi:.2f}) of win share to this player"
    elif hi < -margin:
        reading = f"the option costs the players who take it {-c:.2f} points ({-hi:.2f} to {-lo:.2f})"
    elif -margin < lo and hi < margin:
        reading = (f"the option is worth less than ±{margin:g} points to this player ({c:+.2f}, {lo:+.2f} to "
                   f"{hi:+.2f}): dead or replaceable")
    else:
        reading = f"not settled at ±{margin:g} points ({c:+.2f}, {lo:+.2f} to {hi:+.2f}): play more deals"
    return {"share": share, "lo": share - half, "hi": share + half, "cost": c, "cost_lo": lo, "cost_hi": hi,
            "deals": row["deals"], "reading": reading}
