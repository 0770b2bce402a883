# SPDX-License-Identifier: Apache-2.0
"""Medians, spreads and per-repetition ratios."""
import unittest

import harness_testutil  # noqa: F401  (puts bench/ on the import path)

from harnesslib.stats import counters_median, median_or_none, median_spread, ratio_median


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


if __name__ == "__main__":
    unittest.main()
