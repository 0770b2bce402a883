# SPDX-License-Identifier: Apache-2.0
"""Medians, spreads and per-repetition ratios."""
import math
import random
import unittest

import harness_testutil  # noqa: F401  (puts bench/ on the import path)

from harnesslib.stats import (counters_median, median_interval, median_or_none, median_spread,
                              ratio_median)


class StatsTest(unittest.TestCase):
    def test_median_and_spread(self):
        med, spread = median_spread([1.0, 3.0, 2.0])
        self.assertEqual(med, 2.0)
        self.assertAlmostEqual(spread, 0.5)  # (3 - 1) / 2 / 2

    def test_even_count_median(self):
        self.assertEqual(median_spread([4.0, 1.0, 2.0, 3.0])[0], 2.5)

    def test_failed_runs_are_left_out(self):
        self.assertEqual(median_spread([None, 2.0, None, 4.0]), (3.0, 1 / 3))
        self.assertEqual(median_spread([None, None]), (None, None))
        self.assertIsNone(median_or_none([]))

    def test_zero_median_has_zero_spread(self):
        self.assertEqual(median_spread([0.0, 0.0]), (0.0, 0.0))

    def test_ratio_is_median_of_paired_ratios(self):
        # Per repetition 2/1 = 2, 9/3 = 3, 4/4 = 1: median 2 (the ratio of
        # the medians would be 4/3).
        self.assertEqual(ratio_median([2.0, 9.0, 4.0], [1.0, 3.0, 4.0]), 2.0)

    def test_ratio_skips_missing_and_zero(self):
        self.assertEqual(ratio_median([2.0, None, 6.0, 5.0], [1.0, 1.0, None, 0.0]), 2.0)
        self.assertIsNone(ratio_median([None], [1.0]))

    def test_counters_median_per_column(self):
        runs = [{"steals": 1, "leaps": 10}, {"steals": 3, "leaps": 30, "deals": 7},
                {"steals": 2, "leaps": 20}]
        self.assertEqual(counters_median(runs), {"steals": 2, "leaps": 20, "deals": 7})

    def test_median_interval_order_statistics(self):
        # The k-th lowest and highest: k = 1 from 6 values (2 / 64 <= 5 %),
        # none from 5 (2 / 32 > 5 %), k = 6 from 21, k = 10 from 31.
        self.assertIsNone(median_interval([1.0, 2.0, 3.0, 4.0, 5.0]))
        self.assertEqual(median_interval([6.0, 1.0, 5.0, 2.0, 4.0, 3.0]), (1.0, 6.0))
        self.assertEqual(median_interval(list(range(21, 0, -1))), (6, 16))
        self.assertEqual(median_interval(list(range(1, 32))), (10, 22))
        self.assertEqual(median_interval([None] + list(range(1, 22))), (6, 16))
        self.assertIsNone(median_interval([]))

    def test_median_interval_holds_the_median_at_least_95_percent_of_the_time(self):
        # Skewed draws whose median is known (exponential: ln 2); too wide
        # an interval would pass this, one value too narrow would not (at
        # 21 values k = 7 covers 92 %, k = 6 covers 97.3 %).
        rng = random.Random(7)
        median = math.log(2)
        for n in (9, 21):
            trials, held = 4000, 0
            for _ in range(trials):
                lo, hi = median_interval([rng.expovariate(1.0) for _ in range(n)])
                held += lo <= median <= hi
            self.assertGreaterEqual(held / trials, 0.95, n)


if __name__ == "__main__":
    unittest.main()
