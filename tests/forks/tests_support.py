"""Helpers for the Forks tests."""

from simulator.forks import GAME
from simulator.forks.reference import Rules


def forks_rules(players, variant="standard"):
    return Rules.from_setup(GAME.default_setup(), players, variant)
