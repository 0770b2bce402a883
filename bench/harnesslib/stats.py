# SPDX-License-Identifier: Apache-2.0
"""Statistics of repeated measurements.

On a shared, noisy host the median resists outliers that a mean does not,
and a ratio taken within one repetition (the two runs were back to back)
cancels drifts in the host's speed that a ratio of two medians keeps.
"""
import math
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


def median_interval(values, confidence=0.95):
    """An interval that holds the median of what the values sample with at
    least `confidence`, whatever their distribution, if they are
    independent draws: the k-th lowest and the k-th highest value, k the
    largest with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2 (each
    value falls below the median with probability 1/2).  None when too few
    values give one: under 6 at 95 %.  So a ratio's median of 1.01 whose
    interval is 0.98-1.03 does not show which of the two is faster."""
    xs = sorted(usable(values))
    n, tail, k, below = len(xs), (1.0 - confidence) / 2.0, 0, 0.0
    # below: P(Binomial(n, 1/2) <= k), grown term by term while within the tail.
    while k < n:
        below += math.comb(n, k) / 2.0 ** n
        if below > tail:
            break
        k += 1
    if k == 0:
        return None
    return xs[k - 1], xs[n - k]


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
