# SPDX-License-Identifier: Apache-2.0
"""Statistics of repeated measurements.

On a shared, noisy host the median resists outliers that a mean does not,
and a ratio taken within one repetition (the two runs were back to back)
cancels drifts in the host's speed that a ratio of two medians keeps.
"""
import statistics


def usable(values):
    """The measured values, dropping failed runs (None)."""
    return [v for v in values if v is not None]


def median_spread(values):
    """(median, spread) of the usable values, where spread is half the
    min-max range as a fraction of the median; (None, None) if none."""
    xs = usable(values)
    if not xs:
        return None, None
    med = statistics.median(xs)
    spread = (max(xs) - min(xs)) / 2 / med if med > 0 else 0.0
    return med, spread


def ratio_median(numerators, denominators):
    """Median of the per-repetition ratios a_i / b_i over the repetitions
    where both were measured and b_i > 0; None if there is none."""
    ratios = [a / b for a, b in zip(numerators, denominators)
              if a is not None and b is not None and b > 0]
    return statistics.median(ratios) if ratios else None


def median_or_none(values):
    xs = usable(values)
    return statistics.median(xs) if xs else None


def counters_median(runs):
    """Per column, the median over the counter runs (columns in first-seen
    order; a column missing from some runs takes the median of the rest)."""
    columns = []
    for run in runs:
        for name in run:
            if name not in columns:
                columns.append(name)
    return {name: statistics.median([run[name] for run in runs if name in run])
            for name in columns}
