"""The skilled-play commands of the ``playtest`` command line: ``tune`` (and the search player's studies).

Thin, like the rest of the command line: the work is in ``analyses``.
"""

import json
import math
from pathlib import Path

import click
import tomli_w

from playtest import api
from simulator.core.batch import RunError
from simulator import games as game_registry
from strategies.games import strategy_set


def game_argument(f):
    return click.argument("game", type=click.Choice(game_registry.names()), metavar="GAME")(f)


def _points(share):
    return f"{100 * share.mean:.2f}% ({100 * share.lo:.2f} to {100 * share.hi:.2f})"


@click.command()
@game_argument
@click.argument("strategy")
@click.option("--field", "-f", required=True, help="The strategy in every other seat.")
@click.option("--players", "-p", type=int, default=None, help="Number of players [default: the game's usual count].")
@click.option("--budget", type=click.IntRange(2, 10_000), default=60, show_default=True,
              help="Evaluations the optimiser may make.")
@click.option("--deals", type=click.IntRange(10, 10_000_000), default=500, show_default=True,
              help="Deals per evaluation (each played from every seat).")
@click.option("--confirm-deals", type=click.IntRange(10, 100_000_000), default=5_000, show_default=True,
              help="Fresh deals on which the tuned and the default vector are compared at the end.")
@click.option("--sigma", type=click.FloatRange(0, min_open=True), default=1.0, show_default=True,
              help="The optimiser's first step size, in parameter units.")
@click.option("--seed", type=click.IntRange(0, 2 ** 63 - 10_001), default=0, show_default=True,
              help="Confirmation seed; evaluation i uses seed + 1 + i.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), required=True,
              help="TOML file for the tuned vector; use it with --param STRATEGY=@FILE.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def tune(game, strategy, field, players, budget, deals, confirm_deals, sigma, seed, out, as_json):
    """Tune STRATEGY's parameter vector against a field with seats rotated, then confirm it on fresh deals."""
    from analyses.tune import tune as run_tune

    g = game_registry.get(game)
    players = g.default_players if players is None else players
    sset = strategy_set(game)
    _, s = sset.get(strategy)
    sset.get(field)
    if not s.params:
        raise RunError(f"strategy {strategy!r} has no parameters to tune")
    if field == strategy:
        raise RunError(f"the field must be another strategy than the one tuned ({strategy!r})")
    if Path(out).exists():
        raise RunError(f"{out} already exists; choose another file for the tuned vector")

    def progress(done, total, share):
        if not as_json:
            click.echo(f"evaluation {done}/{total}: win share {100 * share:.2f}%", err=True)

    r = run_tune(api.simulate, game, strategy, list(s.params), field=field, players=players, budget=budget,
                 deals=deals, confirm_deals=confirm_deals, seed=seed, sigma=sigma, on_evaluation=progress)
    better = r.gain.lo > 0
    worse = r.gain.hi < 0
    Path(out).write_text(f"# playtest tune {game} {strategy} --field {field} --players {players} --seed {seed}\n"
                         + tomli_w.dumps({"game": game, "strategy": strategy, "params": r.tuned,
                                          "field": field, "players": players,
                                          "confirmed_gain_points": round(100 * r.gain.mean, 3),
                                          "confirmed_gain_interval_points": [round(100 * r.gain.lo, 3),
                                                                             round(100 * r.gain.hi, 3)]}))
    if as_json:
        click.echo(json.dumps({**r.to_dict(), "out": str(out)}, indent=2))
        return
    fair = 1 / players
    click.echo(f"{g.title}, {players} players: {strategy} against {field} in the other seats, seats rotated "
               f"(fair share {100 * fair:.1f}%)")
    click.echo(f"  default {r.default}: {_points(r.before)}")
    click.echo(f"  tuned   {[round(x, 3) for x in r.tuned]}: {_points(r.after)}")
    click.echo(f"  confirmed on {confirm_deals:,} fresh deals (seed {seed}, never used by the search), paired: "
               f"{100 * r.gain.mean:+.2f} points ({100 * r.gain.lo:+.2f} to {100 * r.gain.hi:+.2f})")
    verdict = ("the tuned vector is better" if better else "the tuned vector is worse: keep the default" if worse
               else "no difference the confirmation can tell apart")
    click.echo(f"  {verdict}; tuned vector written to {out} (use --param {strategy}=@{out})")
    if not math.isfinite(r.gain.lo):
        click.echo("  (too few confirmation deals for an interval)")
