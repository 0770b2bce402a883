# SPDX-License-Identifier: Apache-2.0
"""Reading Time lines and counter tables from a binary's output."""
import unittest

from harness_testutil import WEFT_COUNTERS
from harnesslib.parse import ParseError, parse_counters, parse_time


class ParseTimeTest(unittest.TestCase):
    def test_reads_the_time_line(self):
        self.assertEqual(parse_time("fib(30) = 832040\nTime: 0.004289\n"), 0.004289)

    def test_last_time_line_wins(self):
        self.assertEqual(parse_time("Time: 1.5\nwarm-up done\nTime: 2.25\n"), 2.25)

    def test_exponent_notation(self):
        self.assertAlmostEqual(parse_time("Time: 1e-3"), 0.001)

    def test_missing_time_line_is_an_error(self):
        with self.assertRaisesRegex(ParseError, "no 'Time: <seconds>' line"):
            parse_time("fib(30) = 832040\n")

    def test_time_inside_a_longer_line_does_not_count(self):
        with self.assertRaises(ParseError):
            parse_time("Total Time: 3.0\nElapsed Time: 4\n")

    def test_non_number_is_an_error(self):
        with self.assertRaisesRegex(ParseError, "not a number"):
            parse_time("Time: soon\n")

    def test_negative_or_infinite_is_an_error(self):
        for text in ("Time: -1.0", "Time: inf", "Time: nan"):
            with self.assertRaises(ParseError, msg=text):
                parse_time(text)


class ParseCountersTest(unittest.TestCase):
    def test_weft_table_by_column_name(self):
        c = parse_counters("fib(30) = 832040\nTime: 0.004\n" + WEFT_COUNTERS)
        self.assertEqual(c["tasks"], 1346268)
        self.assertEqual(c["steals"], 1)
        self.assertEqual(c["steal_fails"], 353)
        self.assertEqual(c["leaps"], 16)
        self.assertEqual(c["shrinks"], 9)
        self.assertEqual(c["peak"], 15)
        self.assertEqual(list(c)[:3], ["tasks", "steals", "steal_fails"])

    def test_extra_and_reordered_columns(self):
        out = ("Time: 1\n"
               "worker  steals  requests  tasks  deals  peak\n"
               "0            3        10    500      2     4\n"
               "1            5        12    700      1     6\n"
               "total        8        22   1200      3     6\n")
        self.assertEqual(parse_counters(out),
                         {"steals": 8, "requests": 22, "tasks": 1200, "deals": 3, "peak": 6})

    def test_no_table_is_none(self):
        self.assertIsNone(parse_counters("Time: 0.5\nweft: counters not compiled in\n"))

    def test_header_without_total_is_an_error(self):
        with self.assertRaisesRegex(ParseError, "no 'total' row"):
            parse_counters("worker tasks steals\n0 10 1\n")

    def test_total_with_wrong_width_is_an_error(self):
        with self.assertRaisesRegex(ParseError, "2 values for 3 columns"):
            parse_counters("worker tasks steals leaps\ntotal 10 1\n")

    def test_non_integer_total_is_an_error(self):
        with self.assertRaisesRegex(ParseError, "not all integers"):
            parse_counters("worker tasks steals\ntotal 10 many\n")


if __name__ == "__main__":
    unittest.main()
