"""Confidence intervals used throughout the analyses."""

import numpy as np
from scipy.special import ndtri


def wilson(successes, n, confidence=0.95):
    """Wilson score interval for a binomial proportion; returns ``(low, high)`` arrays.

    ``successes`` may be fractional (shared wins count 1/k), which the
    interval handles as the same point estimate with the same variance.
    """
    successes = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    z = ndtri(0.5 + confidence / 2)
    p = np.divide(successes, n, out=np.zeros_like(successes), where=n > 0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


def mean_interval(mean, std, n, confidence=0.95):
    """Normal-approximation interval for a mean; returns ``(low, high)``."""
    z = ndtri(0.5 + confidence / 2)
    half = z * np.asarray(std, dtype=float) / np.sqrt(np.asarray(n, dtype=float))
    return np.asarray(mean) - half, np.asarray(mean) + half
