"""Game engines: one subpackage per game plus ``core`` (random streams, cards, batch runner, output).

The simulator never imports strategies, analyses or reports.
"""
