# SPDX-License-Identifier: Apache-2.0
"""The clients command (real Lace clients on weft and on Lace) and the Lace
peers: reading Sylvan's, the RUN loop's and Lace's programs' output, the
answers check, the table, the conditions, and the skip without sources."""
import io
import os
import subprocess
import tempfile
import unittest
from unittest import mock

from harness_testutil import run_harness, write_script
from harnesslib import clients, lacesrc, systems
from harnesslib.parse import (ParseError, parse_bddbench, parse_knor, parse_lace_program,
                              parse_lace_program_any, parse_oink, parse_runloop, parse_sylvan)

LDDMC_OUTPUT = """\
[    0.00] Read file 'models/anderson.4.ldd'
[    0.00] 13 integers per state, 24 transition groups
[    0.02] (GC) Starting garbage collection... (rss: 2.44 MB)
[    0.03] (GC) Garbage collection done.       (rss: 2.36 MB)
[    0.10] (GC) Starting garbage collection... (rss: 2.78 MB)
[    0.10] (GC) Garbage collection done.       (rss: 2.62 MB)
[    0.11] SAT Time: 0.107682
[    0.11] Final states: 29641 states
[    0.11] Memory usage: 3.20 MB
"""

NQUEENS_OUTPUT = """\
[    0.27] Final computation to place a queen on every row...
[    0.27] Result: NQueens(7) has 40 solutions.
[    0.27] Result BDD has 1099 nodes.
[    0.27] Computation time: 0.266223 sec.
"""

# Oink's test_solvers, as it prints (colours included).
OINK_OUTPUT = """\
Creating 2 random games: --size=300 --maxp=300 --maxe=1200 --seed=9
game 0 (gameseed=1 size=300,745): 
\x1b[38;5;82mpsi\x1b[m \x1b[38;5;8m(12)\x1b[m 
game 1 (gameseed=2 size=300,722): 
\x1b[38;5;82mpsi\x1b[m \x1b[38;5;8m(9)\x1b[m 
\x1b[38;5;226msummary\x1b[m: 2 games
\x1b[38;5;226msolvers\x1b[m: \x1b[38;5;82mpsi\x1b[m
\x1b[38;5;226mtimes\x1b[m:   \x1b[38;5;226mpsi\x1b[m (21 ms)\x1b[m
"""

# Knor's -v output (on stderr), as it prints (colours included), shortened.
KNOR_OUTPUT = """\
finished parsing automaton in 0.206797 sec.
automaton has 872 states.
starting garbage collection...
garbage collection finished.
\x1b[1;37mfinished constructing symbolic game in 0.325355 sec.\x1b[m
after bisimulation minimisation: 872 blocks.
symbolic solver required 59 iterations.
\x1b[1;38;5;10mgame is realizable!\x1b[m
after bisimulation minimisation: 145 blocks.
final size of AIG: 5851 gates.
\x1b[1;37mtotal time was 0.960358 sec.\x1b[m
"""

RUNLOOP_OUTPUT = """\
workers: 2
runs: 1000 of fib(18) = 2584, wrong answers: 0
per RUN: 4.763 us
idle CPU after last RUN: 1.024 ms in 10.079 ms
idle CPU from 10 ms after last RUN: 0.250 ms in 100.000 ms
Time: 0.004763
"""


class ParseTest(unittest.TestCase):
    def test_lddmc_phase_states_and_collections(self):
        r = parse_sylvan(LDDMC_OUTPUT)
        self.assertEqual(r["phase"], "SAT")
        self.assertAlmostEqual(r["time"], 0.107682)
        self.assertEqual(r["answers"], {"states": 29641, "collections": 2})

    def test_the_last_phase_line_counts(self):
        r = parse_sylvan("[    0.10] BFS Time: 0.5\n[    0.20] PAR Time: 1.25\n"
                         "[    0.2] Final states: 7 states\n")
        self.assertEqual((r["phase"], r["time"]), ("PAR", 1.25))

    def test_nqueens(self):
        r = parse_sylvan(NQUEENS_OUTPUT)
        self.assertEqual((r["phase"], r["time"]), ("nqueens", 0.266223))
        self.assertEqual(r["answers"], {"solutions": 40, "collections": 0})

    def test_no_time_or_no_answer_is_an_error(self):
        with self.assertRaisesRegex(ParseError, "Time"):
            parse_sylvan("[    0.11] Final states: 29641 states\n")
        with self.assertRaisesRegex(ParseError, "Final states"):
            parse_sylvan("[    0.11] SAT Time: 0.1\n")

    def test_runloop(self):
        r = parse_runloop(RUNLOOP_OUTPUT)
        self.assertEqual(r["answers"], {"runs": 1000, "n": 18, "fib": 2584, "wrong": 0})
        self.assertEqual((r["time"], r["idle_cpu_ms"], r["idle_wall_ms"]),
                         (0.004763, 1.024, 10.079))
        self.assertAlmostEqual(r["idle_late_percent"], 0.25)
        with self.assertRaises(ParseError):
            parse_runloop(RUNLOOP_OUTPUT.replace("idle CPU after", "idle after"))
        with self.assertRaises(ParseError):
            parse_runloop(RUNLOOP_OUTPUT.replace("idle CPU from", "idle from"))

    def test_lace_programs(self):
        r = parse_lace_program("Running nqueens n=11 with 2 workers...\n"
                               "Result: nqueens(11) = 2680\nTime: 0.018\n")
        self.assertEqual(r, {"time": 0.018, "answers": {"nqueens(11)": "2680"}})
        self.assertEqual(parse_lace_program("fib(30) = 832040\nTime: 0.5\n")["answers"],
                         {"fib(30)": "832040"})
        with self.assertRaises(ParseError):
            parse_lace_program("Time: 0.5\n")

    def test_lace_programs_that_print_another_answer_or_none(self):
        self.assertEqual(parse_lace_program("Best value is 733\nTime: 0.2\n")["answers"],
                         {"best value": "733"})
        uts = ("Tree size = 4130071, tree depth = 13, num leaves = 3305118 (80.03%)\n"
               "Time: 1.5\n")
        self.assertEqual(parse_lace_program(uts)["answers"], {"tree": "4130071 13 3305118"})
        none = "Running matmul n=512 with 2 worker(s)...\nTime: 0.3\n"
        self.assertEqual(parse_lace_program_any(none), {"time": 0.3, "answers": {}})
        with self.assertRaises(ParseError):
            parse_lace_program(none)
        with self.assertRaises(ParseError):  # still needs its time
            parse_lace_program_any("Best value is 733\n")

    def test_knor(self):
        self.assertEqual(parse_knor(KNOR_OUTPUT),
                         {"time": 0.960358,
                          "answers": {"realizable": "realizable", "iterations": "59",
                                      "blocks": "872,145", "AIG gates": "5851"}})
        unreal = ("\x1b[1;31mgame is unrealizable!\x1b[m\n"
                  "\x1b[1;37mtotal time was 0.5 sec.\x1b[m\n")
        self.assertEqual(parse_knor(unreal), {"time": 0.5,
                                              "answers": {"realizable": "unrealizable"}})
        with self.assertRaisesRegex(ParseError, "total time was"):
            parse_knor(KNOR_OUTPUT.split("\x1b[1;37mtotal")[0])
        with self.assertRaisesRegex(ParseError, "not one verdict"):
            parse_knor(KNOR_OUTPUT.replace("game is realizable!", "game is solved"))
        with self.assertRaisesRegex(ParseError, "not one verdict"):
            parse_knor(KNOR_OUTPUT + "UNREALIZABLE\n")
        self.assertEqual(parse_knor("REALIZABLE\ntotal time was 0.1 sec.\n")["answers"],
                         {"realizable": "realizable"})

    def test_oink(self):
        r = parse_oink(OINK_OUTPUT)
        self.assertEqual(r, {"time": 0.021, "answers": {"games": "2", "psi bad": "0"}})
        bad = OINK_OUTPUT.replace("\x1b[38;5;82mpsi\x1b[m\n", "\x1b[38;5;196mpsi\x1b[m (1 bad)\n")
        self.assertEqual(parse_oink(bad)["answers"]["psi bad"], "1")
        with self.assertRaises(ParseError):
            parse_oink(OINK_OUTPUT.split("\x1b[38;5;226mtimes")[0])


def run(time, answers, status="ok", wall=None):
    return {"status": status, "time": time, "wall": wall or (time or 0) + 0.01, "answers": answers,
            "command": "x", "message": "boom" if status != "ok" else None}


def record(weft, lace, key="lddmc b5dfc77 | m -s sat", reference=None, program="lddmc b5dfc77",
           workers=2):
    return {"program": program, "what": key.split(" | ")[1], "packages": "weft 1.4 / Lace 1.4.2",
            "key": key, "reference": reference, "condition": "quiet", "workers": workers,
            "weft": weft, "lace": lace}


class SummaryTest(unittest.TestCase):
    A = {"states": 29641, "collections": 2}

    def test_ratio_is_the_median_of_per_round_ratios(self):
        # Rounds: weft/Lace = 1.0, 0.5, 0.9; the ratio of the medians would be 1.0/1.2.
        rec = record([run(1.0, self.A), run(1.0, self.A), run(0.9, self.A)],
                     [run(1.0, self.A), run(2.0, self.A), run(1.0, self.A)])
        clients.summarise([rec])
        self.assertAlmostEqual(rec["ratio"], 0.9)
        self.assertEqual((min(rec["ratios"]), max(rec["ratios"])), (0.5, 1.0))
        self.assertEqual(rec["equal"], "yes")
        self.assertEqual(clients.problems([rec]), [])

    def test_the_median_ratio_comes_with_its_interval(self):
        # Nine rounds, ratios 0.60, 0.70, ..., 1.40: the 2nd lowest and the
        # 2nd highest hold the median with 95 %; three rounds give none.
        weft = [run(0.6 + 0.1 * i, self.A) for i in range(9)]
        rec = record(weft, [run(1.0, self.A) for _ in range(9)])
        clients.summarise([rec])
        lo, hi = rec["ratio_interval"]
        self.assertAlmostEqual(lo, 0.7)
        self.assertAlmostEqual(hi, 1.3)
        self.assertIn("0.70-1.30", clients.table([rec]).splitlines()[2])
        few = record(weft[:3], [run(1.0, self.A) for _ in range(3)])
        clients.summarise([few])
        self.assertIsNone(few["ratio_interval"])

    def test_a_round_where_the_host_changed_is_left_out(self):
        # Round 2's probes went from 30 to 170 ns: the host moved the CPUs
        # between weft's run and Lace's, so its ratio (0.5) is not compared.
        rec = record([run(1.0, self.A), run(1.0, self.A), run(0.8, self.A)],
                     [run(1.0, self.A), run(2.0, self.A), run(1.0, self.A)])
        rec["line_ns"] = [(30.0, 32.0), (30.0, 170.0), (165.0, 160.0)]
        clients.summarise([rec])
        self.assertAlmostEqual(rec["ratio"], 0.9)
        self.assertEqual(sorted(rec["ratios"]), [0.8, 1.0])
        self.assertEqual((rec["rounds_compared"], rec["rounds_host_changed"]), (2, 1))
        self.assertEqual(rec["line_ns_median"], 96.0)
        row = clients.table([rec]).splitlines()[2]
        self.assertIn("2 (1 left out)", row)
        self.assertIn(" 96 ", row)
        # The answers of every round are still checked.
        self.assertEqual(rec["equal"], "yes")

    def test_only_rounds_with_a_ratio_count(self):
        # A failed round is not "left out because the host changed", and a
        # Lace time of 0 gives no ratio, so neither counts as compared.
        rec = record([run(1.0, self.A), run(None, None, status="FAILED"), run(1.0, self.A)],
                     [run(1.0, self.A), run(1.0, self.A), run(0.0, self.A)])
        rec["line_ns"] = [(30.0, 31.0), (30.0, 170.0), (30.0, 30.0)]
        clients.summarise([rec])
        self.assertEqual((rec["rounds_compared"], rec["rounds_host_changed"]), (1, 0))
        self.assertEqual(rec["ratios"], [1.0])
        self.assertEqual(rec["line_ns_median"], 30.5)

    def test_a_program_that_prints_no_answer_is_marked_not_compared(self):
        rec = record([run(0.2, {})], [run(0.4, {})], key="matmul-lace | 512",
                     program="matmul-lace")
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "n/a (prints no answer)")
        self.assertEqual(rec["ratio"], 0.5)

    def test_a_row_where_only_some_runs_print_an_answer_is_no(self):
        rec = record([run(0.2, {})], [run(0.4, {"fib(30)": "832040"})])
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "NO")

    def test_a_failed_run_of_a_program_without_answers_is_marked_failed(self):
        rec = record([run(None, None, status="FAILED")], [run(0.4, {})])
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "n/a (weft failed)")

    def test_without_probes_every_round_is_compared(self):
        rec = record([run(1.0, self.A), run(1.0, self.A)], [run(1.0, self.A), run(2.0, self.A)])
        rec["line_ns"] = [(None, None), (40.0, None)]
        clients.summarise([rec])
        self.assertEqual((rec["rounds_compared"], rec["rounds_host_changed"]), (2, 0))
        self.assertAlmostEqual(rec["ratio"], 0.75)

    def test_different_states_are_no_and_a_problem(self):
        other = {"states": 29640, "collections": 2}
        rec = record([run(1.0, self.A), run(1.0, self.A)], [run(1.0, self.A), run(1.0, other)])
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "NO")
        problems = clients.problems([rec])
        self.assertEqual(len(problems), 1)
        self.assertIn("answers differ", problems[0])
        self.assertIn("states 29640", problems[0])

    def test_collections_must_agree_at_one_worker(self):
        other = {"states": 29641, "collections": 3}
        rec = record([run(1.0, self.A), run(1.0, self.A)], [run(1.0, self.A), run(1.0, other)],
                     workers=1)
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "NO")
        self.assertIn("collections 3", clients.problems([rec])[0])

    def test_collections_may_vary_at_more_workers_and_the_note_says_why(self):
        other = {"states": 29641, "collections": 1}
        rec = record([run(1.0, self.A), run(1.0, self.A)], [run(1.0, self.A), run(1.0, other)])
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "yes, GCs vary")
        self.assertEqual(clients.problems([rec]), [])
        note = clients.gc_note([rec])
        self.assertIn("real Lace's own runs of lddmc b5dfc77 m -s sat", note)
        self.assertIn("1, 2 collections", note)
        same = record([run(1.0, self.A)], [run(1.0, self.A)])
        clients.summarise([same])
        self.assertIsNone(clients.gc_note([same]))

    def test_answers_that_vary_between_weft_rounds_are_no(self):
        other = {"states": 1, "collections": 2}
        rec = record([run(1.0, self.A), run(1.0, other)], [run(1.0, self.A), run(1.0, self.A)])
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "NO")

    def test_a_failed_weft_run_is_a_problem_not_a_comparison(self):
        rec = record([run(None, None, status="FAILED"), run(1.0, self.A)],
                     [run(1.0, self.A), run(1.0, self.A)])
        clients.summarise([rec])
        self.assertEqual(rec["equal"], "n/a (weft failed)")
        self.assertEqual(rec["ratios"], [1.0])
        self.assertTrue(any("weft run FAILED" in p for p in clients.problems([rec])))

    def test_without_lace_the_reference_case_answers(self):
        ref = record([run(1.0, self.A)], [run(1.0, self.A)])
        cur = record([run(0.5, self.A)], None, key="lddmc cd9ccd4 | m -s sat",
                     reference="lddmc b5dfc77 | m -s sat", program="lddmc cd9ccd4")
        alone = record([run(0.5, self.A)], None, key="lddmc cd9ccd4 | other -s sat",
                       program="lddmc cd9ccd4")
        clients.summarise([ref, cur, alone])
        self.assertEqual(cur["equal"], "yes (b5dfc77 on Lace)")
        self.assertIsNone(cur["ratio"])
        self.assertEqual(alone["equal"], "n/a (no Lace run)")

    def test_rounds_where_only_lace_timed_out_are_counted_and_its_time_is_over_the_timeout(self):
        timed_out = dict(run(None, None, status="timeout"), timeout=60.0)
        rec = record([run(17.0, {}), run(18.0, {})], [timed_out, dict(timed_out)],
                     key="test_together (Lace 2.0.3's) | whole process")
        clients.summarise([rec])
        self.assertEqual((rec["rounds_compared"], rec["lace_timed_out"]), (0, 2))
        self.assertIsNone(rec["ratio"])
        self.assertEqual(rec["lace_over"], 60.0)
        self.assertEqual(rec["equal"], "n/a (lace timed out)")
        row = clients.table([rec]).splitlines()[2]
        self.assertIn("> 60", row)
        self.assertIn("0 (2 Lace timed out)", row)
        # One Lace run in time: its time is Lace's, that round has a ratio.
        rec = record([run(17.0, {}), run(18.0, {})], [timed_out, run(36.0, {})])
        clients.summarise([rec])
        self.assertEqual((rec["rounds_compared"], rec["lace_timed_out"]), (1, 1))
        self.assertEqual((rec["ratio"], rec["lace_time"], rec["lace_over"]), (0.5, 36.0, None))
        self.assertIn("1 (1 Lace timed out)", clients.table([rec]).splitlines()[2])
        # A crash is a failure, not a timeout.
        rec = record([run(1.0, {})], [run(None, None, status="FAILED")])
        clients.summarise([rec])
        self.assertEqual((rec["equal"], rec["lace_timed_out"], rec["lace_over"]),
                         ("n/a (lace failed)", 0, None))

    def test_table_has_every_column_and_marks_no(self):
        rec = record([run(1.0, self.A)], [run(2.0, {"states": 1, "collections": 2})])
        clients.summarise([rec])
        text = clients.table([rec])
        head = text.splitlines()[0]
        for column in clients.TABLE_HEAD:
            self.assertIn(column, head)
        row = text.splitlines()[2]
        self.assertIn("NO", row)
        self.assertIn("0.50", row)
        self.assertIn("2.000", row)
        md = clients.table([rec], markdown=True)
        self.assertTrue(md.startswith("| program |"))

    def test_idle_table_only_for_the_run_loop(self):
        rec = record([run(1.0, self.A)], [run(2.0, self.A)])
        clients.summarise([rec])
        self.assertIsNone(clients.idle_table([rec]))
        loop = record([dict(run(1.0, self.A), idle_cpu_ms=0.5, idle_late_percent=0.02)],
                      [dict(run(1.0, self.A), idle_cpu_ms=19.0, idle_late_percent=180.0)],
                      key="runloop | fib(18) x 10", program="runloop")
        clients.summarise([loop])
        text = clients.idle_table([loop])
        self.assertIn("19.00 ms / 10 ms", text)
        self.assertIn("0.50 ms / 10 ms", text)
        self.assertIn("180.00 % CPU", text)
        self.assertIn("0.02 % CPU", text)


class MeasureTest(unittest.TestCase):
    def test_rounds_interleave_weft_and_lace_in_alternating_order_and_loaded_starts_busy_loops(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "order")
            for who in ("weft", "lace"):
                # Each run notes who ran and how many busy loops were running.
                write_script(os.path.join(d, who),
                             f'echo "{who} $2 $(pgrep -fc \'while :; do :; done\')" >> {log}\n'
                             f'echo "[    0.1] SAT Time: 0.25"\n'
                             f'echo "[    0.1] Final states: 7 states"')
            case = clients.Case("lddmc", "m -s sat", "weft 1.4 / Lace 1.4.2",
                                {"weft": lambda w: [os.path.join(d, "weft"), "-w", str(w)],
                                 "lace": lambda w: [os.path.join(d, "lace"), "-w", str(w)]},
                                parse_sylvan)
            records = clients.summarise(clients.measure([case], ["quiet", "loaded"], 2, 30))
            with open(log) as f:
                lines = [line.split() for line in f]
        self.assertEqual([(r["condition"], r["workers"]) for r in records],
                         [("quiet", 1), ("quiet", 2), ("loaded", 2)])
        # Weft first in odd rounds, Lace first in even ones.
        self.assertEqual([who for who, _, _ in lines], ["weft", "lace", "lace", "weft"] * 3)
        self.assertEqual([w for _, w, _ in lines], ["1"] * 4 + ["2"] * 8)
        busy = [int(n) for _, _, n in lines]
        self.assertEqual(busy[8:], [clients.BUSY_LOOPS] * 4)
        self.assertTrue(all(r["equal"] == "yes" and r["ratio"] == 1.0 for r in records))

    def test_the_loaded_condition_runs_beside_the_busy_loops_asked_for(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "busy")
            write_script(os.path.join(d, "prog"),
                         f'echo "$(pgrep -fc \'while :; do :; done\')" >> {log}\n'
                         'echo "[    0.1] SAT Time: 0.25"\n'
                         'echo "[    0.1] Final states: 7 states"')
            case = clients.Case("lddmc", "m -s sat", "weft 1.4",
                                {"weft": lambda w: [os.path.join(d, "prog")], "lace": None},
                                parse_sylvan)
            for loops in (1, 3):
                clients.measure([case], ["quiet", "loaded"], 1, 30, busy_loops=loops)
            with open(log) as f:
                busy = [int(line) for line in f]
        # quiet 1 and 2 workers, then loaded, for each count
        self.assertEqual(busy, [0, 0, 1, 0, 0, 3])
        p = run_harness("clients", "--busy-loops", "0")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--busy-loops", p.stderr)

    def test_the_oversubscribed_worker_counts_are_the_ones_given(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "workers")
            write_script(os.path.join(d, "weft"), f'echo "$2" >> {log}\n'
                                                  'echo "[    0.1] SAT Time: 0.25"\n'
                                                  'echo "[    0.1] Final states: 7 states"')
            case = clients.Case("lddmc", "m -s sat", "weft 1.4",
                                {"weft": lambda w: [os.path.join(d, "weft"), "-w", str(w)],
                                 "lace": None}, parse_sylvan)
            workers = dict(clients.CONDITIONS, oversubscribed=(32, 3))
            records = clients.measure([case], ["quiet", "oversubscribed"], 1, 30, None, workers)
            with open(log) as f:
                ran = f.read().split()
        self.assertEqual([(r["condition"], r["workers"]) for r in records],
                         [("quiet", 1), ("quiet", 2), ("oversubscribed", 32),
                          ("oversubscribed", 3)])
        self.assertEqual(ran, ["1", "2", "32", "3"])

    def test_a_program_with_its_own_worker_count_runs_quiet_at_it_and_loaded_only(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, "ran")
            write_script(os.path.join(d, "knor"),
                         f'echo "$1 $(pgrep -fc \'while :; do :; done\')" >> {log}\n'
                         'echo "game is realizable!"\necho "total time was 0.25 sec."\nexit 10')
            case = clients.Case("knor", "x", "weft 1.4",
                                {"weft": lambda w: [os.path.join(d, "knor"), str(w)],
                                 "lace": lambda w: [os.path.join(d, "knor"), str(w)]},
                                parse_knor, workers=1, exit_codes=clients.KNOR_EXIT_CODES)
            records = clients.measure([case], ["quiet", "loaded", "oversubscribed"], 1, 30)
            with open(log) as f:
                ran = [line.split() for line in f]
            # Another status than those it may end with is a failure.
            bad = clients.Case("knor", "x", "weft 1.4",
                               {"weft": lambda w: [os.path.join(d, "knor"), str(w)],
                                "lace": None}, parse_knor, workers=1, exit_codes=(20,))
            failed = clients.run_case(bad, "weft", 1, 30, False)
        self.assertEqual([(r["condition"], r["workers"]) for r in records],
                         [("quiet", 1), ("loaded", 1)])
        self.assertEqual(ran, [["1", "0"]] * 2 + [["1", str(clients.BUSY_LOOPS)]] * 2)
        self.assertEqual(records[0]["weft"][0]["answers"], {"realizable": "realizable",
                                                            "exit": "10"})
        self.assertEqual((failed["status"], failed["message"].split(":")[0]),
                         ("FAILED", "exit 10"))

    def test_output_that_is_not_utf8_is_read(self):
        with tempfile.TemporaryDirectory() as d:
            write_script(os.path.join(d, "knor"), "printf 'aig\\377\\376\\n'\n"
                         'echo "game is realizable!"\necho "total time was 0.5 sec."\nexit 10')
            case = clients.Case("knor", "x", "weft 1.4",
                                {"weft": lambda w: [os.path.join(d, "knor")], "lace": None},
                                parse_knor, workers=1, exit_codes=clients.KNOR_EXIT_CODES)
            run = clients.run_case(case, "weft", 1, 30, False)
        self.assertEqual((run["status"], run["time"]), ("ok", 0.5))

    def test_the_probe_runs_before_and_after_each_pair(self):
        with tempfile.TemporaryDirectory() as d:
            for who in ("weft", "lace"):
                write_script(os.path.join(d, who), 'echo "[    0.1] SAT Time: 0.25"\n'
                                                   'echo "[    0.1] Final states: 7 states"')
            case = clients.Case("lddmc", "m -s sat", "weft 1.4 / Lace 1.4.2",
                                {who: (lambda w, who=who: [os.path.join(d, who)])
                                 for who in ("weft", "lace")}, parse_sylvan)
            # One probe per pair after the first: a pair's probe after is the
            # next pair's probe before (nothing runs between them).
            values = iter([30.0, 31.0, 170.0])
            records = clients.summarise(clients.measure([case], ["loaded"], 2, 30,
                                                        lambda: next(values)))
        self.assertEqual(records[0]["line_ns"], [(30.0, 31.0), (31.0, 170.0)])
        self.assertEqual(records[0]["rounds_host_changed"], 1)
        rows = clients.csv_rows(records)
        self.assertEqual([r[-2:] for r in rows], [[30.0, 31.0], [31.0, 170.0]] * 2)

    def test_line_transfer_probe(self):
        with tempfile.TemporaryDirectory() as d:
            probe, why = clients.line_transfer_probe(d)
            if len(os.sched_getaffinity(0)) >= 2:
                self.assertIsNone(why)
                ns = probe()
                self.assertTrue(0 < ns < 100000, ns)
            else:
                self.assertIsNone(probe)
                self.assertIn("two CPUs", why)
            # With one CPU in its mask the program says so and fails.
            one = min(os.sched_getaffinity(0))
            p = subprocess.run([os.path.join(d, "line_transfer")], capture_output=True, text=True,
                               preexec_fn=lambda: os.sched_setaffinity(0, {one}))
        self.assertEqual(p.returncode, 1)
        self.assertIn("fewer than two CPUs", p.stderr)

    def test_busy_loops_end_with_the_block(self):
        with clients.BusyLoops(2) as busy:
            procs = list(busy.procs)
            self.assertTrue(all(p.poll() is None for p in procs))
        self.assertTrue(all(p.poll() is not None for p in procs))

    def test_a_crash_and_a_timeout_are_recorded(self):
        with tempfile.TemporaryDirectory() as d:
            write_script(os.path.join(d, "crash"), 'echo partial; exit 3')
            write_script(os.path.join(d, "slow"), 'sleep 5')
            case = clients.Case("p", "x", "", {"weft": lambda w: [os.path.join(d, "crash")],
                                               "lace": lambda w: [os.path.join(d, "slow")]},
                                parse_sylvan)
            crash = clients.run_case(case, "weft", 1, 10, False)
            slow = clients.run_case(case, "lace", 1, 0.5, False)
        self.assertEqual(crash["status"], "FAILED")
        self.assertIn("exit 3", crash["message"])
        self.assertEqual(slow["status"], "timeout")

    def test_a_program_timed_whole_takes_its_wall_time(self):
        with tempfile.TemporaryDirectory() as d:
            write_script(os.path.join(d, "quiet"), 'sleep 0.2; echo "Time: 9"')
            write_script(os.path.join(d, "fails"), 'exit 1')
            case = clients.Case("t", "whole process", "",
                                {"weft": lambda w: [os.path.join(d, "quiet"), str(w)],
                                 "lace": lambda w: [os.path.join(d, "fails"), str(w)]},
                                clients.parse_exit_only, timed_whole=True)
            ok = clients.run_case(case, "weft", 2, 10, False)
            failed = clients.run_case(case, "lace", 2, 10, False)
            slow = clients.run_case(case, "weft", 2, 0.05, False)
        self.assertEqual(ok["status"], "ok")
        self.assertEqual(ok["time"], ok["wall"])
        self.assertGreaterEqual(ok["time"], 0.2)
        self.assertEqual(ok["answers"], {})
        self.assertEqual(failed["status"], "FAILED")
        self.assertEqual((slow["status"], slow["timeout"]), ("timeout", 0.05))


class OptionsTest(unittest.TestCase):
    def test_conditions(self):
        self.assertEqual(clients.parse_conditions("oversubscribed,quiet"),
                         ["quiet", "oversubscribed"])
        with self.assertRaisesRegex(ValueError, "unknown busy"):
            clients.parse_conditions("quiet,busy")

    def test_oversubscribed_workers(self):
        self.assertEqual(clients.parse_oversubscribed_workers("32,4,32", 2), (32, 4))
        self.assertEqual(clients.parse_oversubscribed_workers(None, 2), (4, 8))
        self.assertEqual(clients.parse_oversubscribed_workers(None, 16), (32, 64))
        for bad in ("2", "4,x", "", "-3", "4.5", "\u00b2"):
            with self.assertRaisesRegex(ValueError, "--oversubscribed-workers"):
                clients.parse_oversubscribed_workers(bad, 2)

    def test_the_clients_build_packages_are_installed_for_the_clients_given(self):
        def args(**given):
            keys = {f"{k}_src": None for k in clients.SOURCE_KEYS}
            keys.update({f"{k}_src": "DIR" for k in given})
            return mock.Mock(**keys)
        self.assertEqual(clients.client_packages(args(lace=1, sylvan=1)), [])
        oink = clients.client_packages(args(oink=1))
        # Oink's find_package(Boost ... COMPONENTS filesystem iostreams
        # regex system random CONFIG): each component's Debian package.
        for part in ("filesystem", "iostreams", "regex", "system", "random"):
            self.assertIn(f"libboost-{part}-dev", oink)
        both = clients.client_packages(args(oink=1, knor=1, bddbench=1))
        self.assertEqual(len(both), len(set(both)))
        self.assertTrue({"flex", "bison", "libboost-dev"} <= set(both))
        with mock.patch.object(clients.builder, "install_deps") as deps, \
                mock.patch.object(clients, "prepare", side_effect=lacesrc.SourceError("stop")), \
                mock.patch("sys.stderr", new_callable=io.StringIO), \
                tempfile.TemporaryDirectory() as src:
            with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
                f.write("project(oink)\n")
            out = os.path.join(src, "out")
            self.assertEqual(clients.main(["--oink-src", src, "--build-root", out, "--out", out,
                                           "--no-plots"]), 1)
            self.assertEqual(deps.call_args.args[3], clients.client_packages(
                args(oink=1)))

    def test_without_sources_it_says_what_it_needs_and_skips(self):
        with tempfile.TemporaryDirectory() as out:
            p = run_harness("clients", "--no-deps", "--out", out)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("skipped", p.stdout)
        for text in ("trolando/lace", "v1.4.2", "b5dfc77", "cd9ccd4", "Augists/lace", "56d1c65",
                     "trolando/oink", "ac3c12a", "trolando/knor", "8fbd45e", "--recursive",
                     "SSoelvsten/bdd-benchmark", "6567068", "external/sylvan"):
            self.assertIn(text, p.stdout)
        self.assertNotIn("Traceback", p.stdout + p.stderr)

    def test_a_source_that_is_not_one_is_refused(self):
        for option, what in (("--lace-src", "Lace 1.4.2"), ("--oink-src", "Oink"),
                             ("--knor-src", "Knor"), ("--bddbench-src", "BDD Benchmark")):
            with tempfile.TemporaryDirectory() as d:
                p = run_harness("clients", "--no-deps", "--no-build", "--build-root", d, "--out",
                                d, option, d)
            self.assertEqual(p.returncode, 1, option)
            self.assertIn(f"not a source of {what}", p.stderr)

    def test_oink_cases_run_its_test_solvers_on_both_and_refuse_an_unknown_solver(self):
        with tempfile.TemporaryDirectory() as br:
            for who in ("weft-2", "lace"):
                d = os.path.join(br, f"build-oink-ac3c12a-{who}")
                os.makedirs(d)
                prefix = os.path.join(br, f"prefix-{who}")
                with open(os.path.join(d, "CMakeCache.txt"), "w") as f:
                    f.write(f"lace_DIR:PATH={prefix}/lib/cmake/lace\n")
            args = clients.make_parser().parse_args(["--oink-src", br, "--oink-solvers",
                                                     "psi,zlk"])
            sources = {"oink": {"path": br, "commit": "ac3c12a", "expected": "ac3c12a"}}
            notes = []
            cases = clients._oink_cases(args, br, 1, False, {}, sources, notes,
                                        os.path.join(br, "prefix-weft-2"),
                                        os.path.join(br, "prefix-lace"), "Lace 2.0.3")
            self.assertEqual([c.what for c in cases], ["psi, 8 games of 4000",
                                                       "zlk, 4 games of 200000"])
            psi = cases[0]
            self.assertEqual(psi.packages, "weft 2 / Lace 2.0.3")
            self.assertEqual(psi.commands["weft"](3)[0],
                             os.path.join(br, "build-oink-ac3c12a-weft-2", "test_solvers"))
            self.assertEqual(psi.commands["lace"](3)[1:],
                             ["--seed", "9", "--count", "8", "--size", "4000", "--psi", "-w", "3"])
            self.assertIs(psi.parse, parse_oink)
            weft_only = clients._oink_cases(args, br, 1, False, {}, sources, notes,
                                            os.path.join(br, "prefix-weft-2"), None, None)
            self.assertIsNone(weft_only[0].commands["lace"])
            self.assertTrue(any("Oink ac3c12a ran on weft only" in n for n in notes))
            args.oink_solvers = "psi,tarjan"
            with self.assertRaisesRegex(lacesrc.SourceError, "unknown tarjan"):
                clients._oink_cases(args, br, 1, False, {}, sources, notes, br, None, None)

    def test_knor_runs_need_its_submodules_and_its_files(self):
        with tempfile.TemporaryDirectory() as src:
            os.makedirs(os.path.join(src, "examples"))
            open(os.path.join(src, "examples", "a.ehoa"), "w").close()
            with self.assertRaisesRegex(lacesrc.SourceError, "submodule update --init"):
                clients.knor_runs(src, "--sym a.ehoa")
            for sub in clients.KNOR_SUBMODULES:
                os.makedirs(os.path.join(src, sub))
                open(os.path.join(src, sub, "CMakeLists.txt"), "w").close()
            self.assertEqual(clients.knor_runs(src, "--sym --bisim a.ehoa, a.ehoa"),
                             [(["--sym", "--bisim"], "a.ehoa"), ([], "a.ehoa")])
            with self.assertRaisesRegex(lacesrc.SourceError, "no b.ehoa in"):
                clients.knor_runs(src, "a.ehoa,--sym b.ehoa")
            with self.assertRaisesRegex(lacesrc.SourceError, "is not '\\[OPTION"):
                clients.knor_runs(src, "sym a.ehoa")
            open(os.path.join(src, "examples", "a b.ehoa"), "w").close()
            self.assertEqual(clients.knor_runs(src, "--sym 'a b.ehoa'"),
                             [(["--sym"], "a b.ehoa")])
            for bad, why in (("/etc/passwd", "not a file of Knor's examples"),
                             ("--sym ../a.ehoa", "not a file of Knor's examples"),
                             ("a.ehoa,a.ehoa", "given twice"), ("'a.ehoa", "quotation")):
                with self.assertRaisesRegex(lacesrc.SourceError, why):
                    clients.knor_runs(src, bad)
        with tempfile.TemporaryDirectory() as src:
            # Nothing to run: the submodules are not asked for.
            self.assertEqual(clients.knor_runs(src, ""), [])

    def test_knor_cases_run_one_worker_on_both(self):
        with tempfile.TemporaryDirectory() as br:
            for who in ("weft-1.4", "lace"):
                d = os.path.join(br, f"build-knor-8fbd45e-{who}")
                os.makedirs(d)
                with open(os.path.join(d, "CMakeCache.txt"), "w") as f:
                    f.write(f"lace_DIR:PATH={br}/prefix-{who}/lib/cmake/lace\n")
            args = clients.make_parser().parse_args(["--knor-src", br])
            sources = {"knor": {"path": br, "commit": None, "expected": "8fbd45e"}}
            notes = []
            cases = clients._knor_cases(args, [(["--sym"], "a.ehoa")], br, 1, False, {}, sources,
                                        notes, os.path.join(br, "prefix-weft-1.4"),
                                        os.path.join(br, "prefix-lace"), "Lace 1.4.2")
            (case,) = cases
            self.assertEqual((case.program, case.what, case.packages, case.workers),
                             ("knor 8fbd45e", "--sym a.ehoa", "weft 1.4 / Lace 1.4.2", 1))
            self.assertEqual(case.commands["lace"](8),
                             [os.path.join(br, "build-knor-8fbd45e-lace", "knor"), "--sym", "-v",
                              os.path.join(br, "examples", "a.ehoa")])
            self.assertIs(case.parse, parse_knor)
            self.assertEqual(notes, [])

    @staticmethod
    def fake_lace_source(root, version):
        src = os.path.join(root, f"lace-{version}")
        os.makedirs(os.path.join(src, "benchmarks"))
        with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
            f.write(f"project(lace VERSION {version})\n")
        with open(os.path.join(src, "benchmarks", "CMakeLists.txt"), "w") as f:
            f.write("add_lace32_benchmark(fib-lace fib/fib-lace.c)\n"
                    "  add_lace_benchmark(knapsack-lace knapsack/knapsack-lace.c)\n"
                    "add_seq_benchmark(fib-seq fib/fib-seq.c)\n")
        return src

    def test_lace_programs_are_read_and_checked_against_the_source(self):
        with tempfile.TemporaryDirectory() as root:
            src = self.fake_lace_source(root, "2.0.3")
            self.assertEqual(lacesrc.benchmark_targets(src), {"fib-lace", "knapsack-lace"})
            self.assertEqual(clients.lace_programs(src, "--lace2-programs",
                                                   "fib-lace 40, knapsack-lace"),
                             [("fib-lace", ["40"]), ("knapsack-lace", [])])
            self.assertEqual(clients.lace_programs(src, "--lace2-programs", ""), [])
            with self.assertRaisesRegex(lacesrc.SourceError,
                                        "--lace2-programs: .* builds no fib-seq, heat-lace .it "
                                        "builds fib-lace, knapsack-lace"):
                clients.lace_programs(src, "--lace2-programs", "heat-lace,fib-seq 3")
            with self.assertRaisesRegex(lacesrc.SourceError, "does not start with"):
                clients.lace_programs(src, "--lace-programs", "'fib' 3")

    def test_lace_program_cases_build_against_the_package_and_run_in_a_scratch_folder(self):
        calls = []

        def build_client(src, build_dir, prefix, label, build_root, jobs=None, targets=(),
                         build=True, flags=()):
            calls.append({"src": src, "dir": build_dir, "prefix": prefix, "targets": targets,
                          "flags": list(flags)})
            return build_dir
        real = lacesrc.build_client
        lacesrc.build_client = build_client
        try:
            with tempfile.TemporaryDirectory() as br:
                for mode, version, api in (("1.4", "1.4.2", "1.4.2"), ("2", "2.0.3", "2.0")):
                    calls.clear()
                    src = self.fake_lace_source(br, version)
                    builds = {}
                    programs = clients.lace_programs(src, "--x", "fib-lace 40, knapsack-lace")
                    lace_build = os.path.join(br, f"build-lace-{version}")
                    cases = clients.lace_program_cases(src, programs, br, 1, True, builds,
                                                       version, lace_build,
                                                       os.path.join(br, f"prefix-{mode}"), mode)
                    d = os.path.join(br, f"build-lacebench-{version}-weft-{mode}")
                    self.assertEqual(calls, [{"src": clients.LACEBENCH_SRC, "dir": d,
                                              "prefix": os.path.join(br, f"prefix-{mode}"),
                                              "targets": ["fib-lace", "knapsack-lace"],
                                              "flags": [f"-DLACE_SRC={src}",
                                                        f"-DLACE_API={api}"]}])
                    self.assertIn(os.path.basename(d), builds)
                    self.assertEqual([(c.program, c.what, c.packages) for c in cases],
                                     [(f"fib-lace (Lace {version}'s)", "40",
                                       f"weft {mode} / Lace {version}"),
                                      (f"knapsack-lace (Lace {version}'s)", "-",
                                       f"weft {mode} / Lace {version}")])
                    run = os.path.join(br, "run-lace-programs")
                    self.assertTrue(os.path.isdir(run))
                    self.assertEqual(cases[0].commands["weft"](3),
                                     ["env", "-C", run, os.path.join(d, "benchmarks", "fib-lace"),
                                      "-w", "3", "40"])
                    self.assertEqual(cases[1].commands["lace"](1),
                                     ["env", "-C", run,
                                      os.path.join(lace_build, "benchmarks", "knapsack-lace"),
                                      "-w", "1"])
                    self.assertIs(cases[0].parse, parse_lace_program_any)
                self.assertEqual(clients.lace_program_cases(src, [], br, 1, True, {}, "2.0.3",
                                                            br, br, "2"), [])
        finally:
            lacesrc.build_client = real

    def test_an_unknown_lace_program_stops_the_command_before_anything_is_built(self):
        def no_build(*args, **kwargs):
            raise AssertionError("built something")
        saved = {name: getattr(lacesrc, name) for name in ("build_real_lace", "build_weft_lace",
                                                          "build_client")}
        for name in saved:
            setattr(lacesrc, name, no_build)
        try:
            with tempfile.TemporaryDirectory() as br:
                src = self.fake_lace_source(br, "2.0.3")
                args = clients.make_parser().parse_args(
                    ["--lace2-src", src, "--build-root", br, "--lace2-programs", "fib-lace 30,lu"])
                args.build_root = br
                with self.assertRaisesRegex(lacesrc.SourceError, "builds no lu"):
                    clients.prepare(args)
        finally:
            for name, f in saved.items():
                setattr(lacesrc, name, f)

    def test_lace_tests_are_read_and_checked_against_the_source(self):
        with tempfile.TemporaryDirectory() as root:
            src = self.fake_lace_source(root, "2.0.3")
            os.makedirs(os.path.join(src, "test"))
            for name in ("test_together.c", "test_barrier.c", "CMakeLists.txt"):
                open(os.path.join(src, "test", name), "w").close()
            self.assertEqual(lacesrc.test_programs(src), {"test_together", "test_barrier"})
            self.assertEqual(clients.lace_tests(src, "--lace2-tests",
                                                "test_barrier, test_together"),
                             ["test_barrier", "test_together"])
            self.assertEqual(clients.lace_tests(src, "--lace2-tests", ""), [])
            with self.assertRaisesRegex(lacesrc.SourceError, "--lace2-tests: .*/test has no "
                                        "test_suspend.c .it has test_barrier, test_together"):
                clients.lace_tests(src, "--lace2-tests", "test_together,test_suspend")
            for bad, why in (("test_together,test_together", "given twice"),
                             ("test_together.c", "not the name")):
                with self.assertRaisesRegex(lacesrc.SourceError, why):
                    clients.lace_tests(src, "--lace-tests", bad)

    def test_lace_test_cases_build_one_driver_against_both_and_pass_the_worker_count(self):
        calls = []

        def build_client(src, build_dir, prefix, label, build_root, jobs=None, targets=(),
                         build=True, flags=()):
            calls.append({"src": src, "dir": build_dir, "prefix": prefix,
                          "targets": list(targets), "flags": list(flags)})
            return build_dir
        real = lacesrc.build_client
        lacesrc.build_client = build_client
        try:
            with tempfile.TemporaryDirectory() as br:
                builds = {}
                cases = clients.lace_test_cases("/src/lace", ["test_together", "test_barrier"],
                                                br, 1, True, builds, "2.0.3", "/p/real",
                                                "/p/weft", "2")
                flags = ["-DLACE_SRC=/src/lace", "-DLACE_API=2.0",
                         "-DLACE_TESTS=test_together;test_barrier"]
                d = {who: os.path.join(br, f"build-lacetests-2.0.3-{who}")
                     for who in ("weft-2", "lace")}
                self.assertEqual(calls, [
                    {"src": clients.LACETESTS_SRC, "dir": d["weft-2"], "prefix": "/p/weft",
                     "targets": ["test_together", "test_barrier"], "flags": flags},
                    {"src": clients.LACETESTS_SRC, "dir": d["lace"], "prefix": "/p/real",
                     "targets": ["test_together", "test_barrier"], "flags": flags}])
                self.assertEqual(set(builds), {os.path.basename(x) for x in d.values()})
                self.assertEqual([(c.program, c.what, c.packages, c.timed_whole) for c in cases],
                                 [("test_together (Lace 2.0.3's)", "whole process",
                                   "weft 2 / Lace 2.0.3", True),
                                  ("test_barrier (Lace 2.0.3's)", "whole process",
                                   "weft 2 / Lace 2.0.3", True)])
                self.assertEqual(cases[1].commands["weft"](4),
                                 [os.path.join(d["weft-2"], "test_barrier"), "4"])
                self.assertEqual(cases[0].commands["lace"](1),
                                 [os.path.join(d["lace"], "test_together"), "1"])
                self.assertEqual(clients.lace_test_cases("/src/lace", [], br, 1, True, {},
                                                         "2.0.3", "/p/real", "/p/weft", "2"), [])
        finally:
            lacesrc.build_client = real

    def test_a_bad_lace_programs_list_is_a_usage_error_before_any_build(self):
        for flag in ("--lace-programs", "--lace2-programs"):
            p = run_harness("clients", flag, "fib-lace 40,'x' 3")
            self.assertEqual(p.returncode, 2)
            self.assertIn(f"{flag}: \"'x' 3\" does not start with a program's name", p.stderr)

    def test_a_bad_lace_tests_list_is_a_usage_error_before_any_build(self):
        for flag in ("--lace-tests", "--lace2-tests"):
            p = run_harness("clients", flag, "test_together,test-x")
            self.assertEqual(p.returncode, 2)
            self.assertIn(f"{flag}: 'test-x' is not the name of a test program", p.stderr)

    def test_bad_conditions_are_a_usage_error(self):
        p = run_harness("clients", "--conditions", "busy")
        self.assertEqual(p.returncode, 2)

    def test_oversubscribed_workers_not_above_the_cpus_are_a_usage_error(self):
        cpus = len(os.sched_getaffinity(0))
        p = run_harness("clients", "--oversubscribed-workers", f"{cpus + 1},{cpus}")
        self.assertEqual(p.returncode, 2)
        self.assertIn(f"'{cpus}' is not a worker count above the {cpus} CPUs", p.stderr)
        # Checked only when the condition runs.
        with tempfile.TemporaryDirectory() as out:
            p = run_harness("clients", "--no-deps", "--out", out, "--conditions", "quiet",
                            "--oversubscribed-workers", f"{cpus}")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("skipped", p.stdout)

    def test_an_unknown_oink_solver_is_a_usage_error_before_any_build(self):
        p = run_harness("clients", "--oink-solvers", "zlk,tarjan")
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown tarjan", p.stderr)

    def test_lace_version(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "CMakeLists.txt"), "w") as f:
                f.write("project(lace\n    VERSION 2.0.3\n    LANGUAGES C)\n")
            self.assertEqual(lacesrc.lace_version(d), "2.0.3")
            self.assertIsNone(lacesrc.lace_version(os.path.join(d, "nothing")))

    def test_a_client_must_use_the_given_package(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "CMakeCache.txt"), "w") as f:
                f.write("lace_DIR:PATH=/usr/lib/cmake/lace\n")
            with self.assertRaisesRegex(lacesrc.SourceError, "not the package"):
                lacesrc.check_found_in(d, "/opt/prefix", "Sylvan")
            lacesrc.check_found_in(d, "/usr", "Sylvan")


class LacePeerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.bench = self.tmp.name
        for name in ("fib-lace", "queens-lace", "nqueens-lace", "strassen-lace", "uts-lace"):
            write_script(os.path.join(self.bench, name), 'echo "Time: 0.1"')

    def tearDown(self):
        self.tmp.cleanup()

    def test_programs_where_they_match(self):
        v1 = systems.LacePeer("lace-1.4.2", self.bench, 1)
        v2 = systems.LacePeer("lace-2.0.3", self.bench, 2)
        fib = v1.command("fib", 2, ["34"])
        self.assertEqual(fib[:3], ["env", "-C", os.path.join(self.bench, "run")])
        self.assertEqual(fib[3:], [os.path.join(self.bench, "fib-lace"), "-w", "2", "34"])
        self.assertTrue(os.path.isdir(os.path.join(self.bench, "run")))
        self.assertEqual(v1.command("queens", 1, ["11"])[3],
                         os.path.join(self.bench, "queens-lace"))
        self.assertIsNone(v2.command("queens", 1, ["11"]))  # Lace 2's is another algorithm
        self.assertIsNone(v1.command("dfs", 2, ["5", "8", "500", "3"]))
        self.assertEqual(v1.command("strassen", 2, ["512", "16"])[-1], "512")
        self.assertIsNone(v1.command("strassen", 2, ["512", "64"]))  # another cut-off
        uts = v1.command("uts", 2, ["-t", "1", "-d", "12", "-c", "25545416", "-r", "29"])
        self.assertEqual(uts[-6:], ["-t", "1", "-d", "12", "-r", "29"])
        self.assertIsNone(v1.command("knapsack", 2, ["40", "1"]))
        self.assertIsNone(v1.command("matmul", 2, ["512"]))  # not built here
        self.assertIn("none of Lace's programs", v2.not_ported_reason("queens"))

    def test_without_a_source_it_is_skipped_saying_what_to_give(self):
        peers, skipped, _ = systems.prepare_peers(self.bench, self.bench,
                                                  ["lace-1.4.2", "lace-2.0.3"], build=False)
        self.assertEqual(peers, [])
        self.assertTrue(skipped["lace-1.4.2"].startswith("skipped: give --lace-src"))
        self.assertIn("v1.4.2", skipped["lace-1.4.2"])
        self.assertTrue(skipped["lace-2.0.3"].startswith("skipped: give --lace2-src"))

    def test_a_built_lace_is_a_peer_named_by_its_version(self):
        root = self.bench
        src = os.path.join(root, "src")
        os.makedirs(os.path.join(src, "benchmarks"))
        open(os.path.join(src, "benchmarks", "CMakeLists.txt"), "w").close()
        with open(os.path.join(src, "CMakeLists.txt"), "w") as f:
            f.write("project(lace VERSION 1.4.2)\n")
        os.makedirs(os.path.join(root, "build-prefix-lace-1.4.2", "lib", "cmake", "lace"))
        peers, skipped, builds = systems.prepare_peers(root, root, ["lace-1.4.2"], build=False,
                                                       lace_sources={"lace": src})
        self.assertEqual([p.name for p in peers], ["lace-1.4.2"])
        self.assertEqual(skipped, {})
        self.assertIn("build-lace-1.4.2", builds)



class LaceTestsDriverTest(unittest.TestCase):
    """bench/peers/lace/tests, configured and built for real against a
    stand-in `lace` package: each test links the library Lace's own
    test/CMakeLists.txt names for it."""

    def test_each_test_links_the_library_lace_names_for_it(self):
        with tempfile.TemporaryDirectory() as root:
            src = os.path.join(root, "lace")
            os.makedirs(os.path.join(src, "test"))
            with open(os.path.join(src, "test", "CMakeLists.txt"), "w") as f:
                f.write("add_executable(test_barrier test_barrier.c)\n"
                        "target_link_libraries(test_barrier lace32)\n"
                        "add_executable(test_together test_together.c)\n"
                        "  target_link_libraries(test_together lace)\n")
            for test in ("test_barrier", "test_together", "test_suspend"):
                with open(os.path.join(src, "test", f"{test}.c"), "w") as f:
                    f.write('#include <stdio.h>\n#include <stdlib.h>\n'
                            'int main(int argc, char **argv) {\n'
                            '    printf("%s %d\\n", LINKED, argc > 1 ? atoi(argv[1]) : -1);\n'
                            '    return 0;\n}\n')
            config = os.path.join(root, "prefix", "lib", "cmake", "lace")
            os.makedirs(config)
            with open(os.path.join(config, "laceConfig.cmake"), "w") as f:
                f.write("foreach(t lace lace32)\n"
                        "  add_library(lace::${t} INTERFACE IMPORTED)\n"
                        "  set_target_properties(lace::${t} PROPERTIES\n"
                        "    INTERFACE_COMPILE_DEFINITIONS LINKED=\"${t}\")\n"
                        "endforeach()\n")
            with open(os.path.join(config, "laceConfigVersion.cmake"), "w") as f:
                f.write('set(PACKAGE_VERSION "2.0.3")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n')
            build = os.path.join(root, "build")
            tests = ["test_barrier", "test_together", "test_suspend"]
            configure = subprocess.run(
                ["cmake", "-S", clients.LACETESTS_SRC, "-B", build,
                 f"-DCMAKE_PREFIX_PATH={os.path.join(root, 'prefix')}", f"-DLACE_SRC={src}",
                 "-DLACE_API=2.0", f"-DLACE_TESTS={';'.join(tests)}"],
                capture_output=True, text=True)
            self.assertEqual(configure.returncode, 0, configure.stderr)
            made = subprocess.run(["cmake", "--build", build], capture_output=True, text=True)
            self.assertEqual(made.returncode, 0, made.stdout + made.stderr)
            linked = {test: subprocess.run([os.path.join(build, test), "3"], capture_output=True,
                                           text=True, check=True).stdout.strip()
                      for test in tests}
            # test_suspend has no line of its own: lace, as Lace's default.
            self.assertEqual(linked, {"test_barrier": "lace32 3", "test_together": "lace 3",
                                      "test_suspend": "lace 3"})
            missing = subprocess.run(
                ["cmake", "-S", clients.LACETESTS_SRC, "-B", os.path.join(root, "b2"),
                 f"-DCMAKE_PREFIX_PATH={os.path.join(root, 'prefix')}", f"-DLACE_SRC={src}",
                 "-DLACE_API=2.0", "-DLACE_TESTS=test_nope"], capture_output=True, text=True)
            self.assertNotEqual(missing.returncode, 0)
            self.assertIn("test has no test_nope.c", missing.stderr)


# A BDD Benchmark program's report, in the shape its programs print it
# (queens' entries, with tic-tac-toe's "initial" size added).
BDDBENCH_OUTPUT = """\
{
  "bdd package": {
    "name": "Sylvan",
    "init time (ms)": 0,
    "memory (MiB)": 1024
  },
  "benchmark": {
    "name": "queens",
    "N": 8,
    "initial": {"size (nodes)": 919, "time (ms)": 0},
    "apply": {
      "final size (nodes)": 2451,
      "time (ms)": 9
    },
    "satcount": {
      "result": 92,
      "time (ms)": 0
    },
    "total time (ms)": 1250
  }
}
"""


class BddBenchTest(unittest.TestCase):
    """BDD Benchmark's Sylvan programs in the clients command: its report,
    the programs asked for, the cases, and the driver project configured
    and built for real against stand-ins of Sylvan, of a Lace source and of
    an installed `lace` package."""

    def test_its_report_gives_the_total_time_and_the_counts_and_sizes(self):
        self.assertEqual(parse_bddbench(BDDBENCH_OUTPUT),
                         {"time": 1.25, "answers": {"size (nodes)": "919",
                                                    "final size (nodes)": "2451",
                                                    "result": "92"}})
        twice = BDDBENCH_OUTPUT.replace('"result": 92', '"result": 92, "result": 7')
        self.assertEqual(parse_bddbench(twice)["answers"]["result"], "92,7")
        with self.assertRaisesRegex(ParseError, "total time"):
            parse_bddbench(BDDBENCH_OUTPUT.replace('"total time (ms)": 1250', ""))
        with self.assertRaisesRegex(ParseError, "result"):
            parse_bddbench(BDDBENCH_OUTPUT.replace('"result"', '"count"'))
        # A run that ends early (a table full) prints no total time.
        with self.assertRaisesRegex(ParseError, "total time"):
            parse_bddbench("BDD Unique table full, 32386 of 32768 buckets filled!\n")

    @staticmethod
    def fake_source(root):
        src = os.path.join(root, "bdd-benchmark")
        os.makedirs(os.path.join(src, "src", "sylvan"))
        for name in ("queens", "tic-tac-toe", "mcnet", "picotrav"):
            open(os.path.join(src, "src", "sylvan", f"{name}_bcdd.cpp"), "w").close()
        with open(os.path.join(src, "src", "CMakeLists.txt"), "w") as f:
            f.write("add_bcdd_benchmark(mcnet)\nlink_bcdd_extra(mcnet pugixml)\n"
                    "add_benchmark(picotrav)\n  link_extra(picotrav libblifparse)\n")
        return src

    def test_programs_are_checked_against_the_source_before_anything_is_built(self):
        with tempfile.TemporaryDirectory() as root:
            src = self.fake_source(root)
            with self.assertRaisesRegex(lacesrc.SourceError, "submodule update --init"):
                clients.bddbench_programs(src, "queens -n 8")
            os.makedirs(os.path.join(src, "external", "sylvan"))
            open(os.path.join(src, "external", "sylvan", "CMakeLists.txt"), "w").close()
            self.assertEqual(clients.bddbench_programs(src, "queens -n 8 -M 64, tic-tac-toe"),
                             [("queens", ["-n", "8", "-M", "64"]), ("tic-tac-toe", [])])
            # mcnet and picotrav link more than Sylvan; hamiltonian is not there.
            for bad in ("mcnet", "picotrav -n 2", "hamiltonian"):
                with self.assertRaisesRegex(lacesrc.SourceError, "that needs only Sylvan"):
                    clients.bddbench_programs(src, bad)
            for bad, why in (("queens -P 4", "gives -P"), ("queens -P4", "gives -P"),
                             ("queens -n 8,queens -n 8", "given twice"),
                             ("../queens", "does not start with a program"),
                             ("-n 8", "does not start with a program")):
                with self.assertRaisesRegex(lacesrc.SourceError, why):
                    clients.bddbench_programs(src, bad)
            # Nothing asked: the submodule is not needed.
            self.assertEqual(clients.bddbench_programs(root, ""), [])

    def test_a_bad_list_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as d:
            p = run_harness("clients", "--no-deps", "--out", d, "--bddbench-programs",
                            "queens -P 2")
        self.assertEqual(p.returncode, 2)
        self.assertIn("gives -P", p.stderr)

    def test_cases_run_each_program_with_the_workers_as_P_on_both(self):
        with tempfile.TemporaryDirectory() as br:
            weft = os.path.join(br, "build-bddbench-6567068-weft-1.4")
            lace = os.path.join(br, "build-bddbench-6567068-lace")
            os.makedirs(weft)
            os.makedirs(os.path.join(lace, "_deps", "lace-build"))
            with open(os.path.join(weft, "CMakeCache.txt"), "w") as f:
                f.write(f"lace_DIR:PATH={br}/prefix-weft-1.4/lib/cmake/lace\n")
            with open(os.path.join(lace, "CMakeCache.txt"), "w") as f:
                f.write(f"FETCHCONTENT_SOURCE_DIR_LACE:PATH={br}\n")
            args = clients.make_parser().parse_args(["--bddbench-src", br, "--lace-src", br])
            sources = {"bddbench": {"path": br, "commit": "6567068", "expected": "6567068"}}
            notes, builds = [], {}
            cases = clients._bddbench_cases(args, [("queens", ["-n", "8"]), ("tic-tac-toe", [])],
                                            br, 1, False, builds, sources, notes,
                                            os.path.join(br, "prefix-weft-1.4"), "Lace 1.4.2")
            self.assertEqual([(c.program, c.what, c.packages) for c in cases],
                             [("bdd-benchmark 6567068", "queens -n 8", "weft 1.4 / Lace 1.4.2"),
                              ("bdd-benchmark 6567068", "tic-tac-toe", "weft 1.4 / Lace 1.4.2")])
            self.assertEqual(cases[0].commands["weft"](3),
                             [os.path.join(weft, "sylvan_queens_bcdd"), "-n", "8", "-P", "3"])
            self.assertEqual(cases[1].commands["lace"](8),
                             [os.path.join(lace, "sylvan_tic-tac-toe_bcdd"), "-P", "8"])
            self.assertIs(cases[0].parse, parse_bddbench)
            self.assertIsNone(cases[0].workers)
            self.assertEqual(sorted(builds), [os.path.basename(lace), os.path.basename(weft)])
            self.assertEqual(notes, [])
            # A Lace tree made from another Lace source, or that found an
            # installed package, is not the given Lace's.
            for cache in (f"FETCHCONTENT_SOURCE_DIR_LACE:PATH={br}/other-lace\n",
                          f"FETCHCONTENT_SOURCE_DIR_LACE:PATH={br}\n"
                          f"lace_DIR:PATH={br}/prefix-lace/lib/cmake/lace\n", ""):
                with open(os.path.join(lace, "CMakeCache.txt"), "w") as f:
                    f.write(cache)
                with self.assertRaisesRegex(lacesrc.SourceError, "not with the Lace source"):
                    clients._bddbench_cases(args, [("queens", [])], br, 1, False, {}, sources,
                                            [], os.path.join(br, "prefix-weft-1.4"),
                                            "Lace 1.4.2")
            args = clients.make_parser().parse_args(["--bddbench-src", br])
            weft_only = clients._bddbench_cases(args, [("queens", [])], br, 1, False, {},
                                                sources, notes,
                                                os.path.join(br, "prefix-weft-1.4"), None)
            self.assertIsNone(weft_only[0].commands["lace"])
            self.assertEqual(weft_only[0].packages, "weft 1.4")
            self.assertTrue(any("BDD Benchmark 6567068 ran on weft only" in n for n in notes))

    def test_the_driver_builds_on_the_package_or_on_the_lace_source(self):
        """Each program says which Lace its Sylvan got: the installed
        package given by the prefix, or, with the harness's flags for
        Lace, the Lace source in place of FetchContent's download."""
        with tempfile.TemporaryDirectory() as root:
            src = self.fake_source(root)
            for name in ("queens", "tic-tac-toe"):
                with open(os.path.join(src, "src", "sylvan", f"{name}_bcdd.cpp"), "w") as f:
                    f.write('#include <cstdio>\n#include "common/common.h"\nextern "C" const '
                            'char *which_lace(void);\nint main() { std::printf("%s %d\\n", '
                            'which_lace(), COMMON); }\n')
            os.makedirs(os.path.join(src, "src", "common"))
            with open(os.path.join(src, "src", "common", "common.h"), "w") as f:
                f.write("#define COMMON 1\n")
            for name in ("chrono", "input", "json"):
                with open(os.path.join(src, "src", "common", f"{name}.cpp"), "w") as f:
                    f.write(f"int common_{name};\n")
            # Sylvan 9ccb1fd's way: an installed lace first, else FetchContent.
            sylvan = os.path.join(src, "external", "sylvan")
            os.makedirs(sylvan)
            with open(os.path.join(sylvan, "CMakeLists.txt"), "w") as f:
                f.write("cmake_minimum_required(VERSION 3.24)\nproject(sylvan C)\n"
                        "include(FetchContent)\n"
                        "FetchContent_Declare(lace GIT_REPOSITORY https://example.invalid/lace.git"
                        " GIT_TAG v1.4.2 FIND_PACKAGE_ARGS)\n"
                        "FetchContent_MakeAvailable(lace)\n"
                        "add_library(sylvan INTERFACE)\n"
                        "target_link_libraries(sylvan INTERFACE lace)\n"
                        "add_library(sylvan::sylvan ALIAS sylvan)\n")
            lace_src = os.path.join(root, "lace")
            os.makedirs(lace_src)
            with open(os.path.join(lace_src, "CMakeLists.txt"), "w") as f:
                f.write("cmake_minimum_required(VERSION 3.16)\nproject(lace C)\n"
                        "add_library(lace STATIC which.c)\n")
            with open(os.path.join(lace_src, "which.c"), "w") as f:
                f.write('const char *which_lace(void) { return "source"; }\n')
            config = os.path.join(root, "prefix", "lib", "cmake", "lace")
            os.makedirs(config)
            with open(os.path.join(config, "which.c"), "w") as f:
                f.write('const char *which_lace(void) { return "package"; }\n')
            with open(os.path.join(config, "laceConfig.cmake"), "w") as f:
                f.write("add_library(lace INTERFACE IMPORTED)\n"
                        "set_target_properties(lace PROPERTIES INTERFACE_SOURCES "
                        "${CMAKE_CURRENT_LIST_DIR}/which.c)\n")
            flags = [f"-DBDDBENCH_SRC={src}", "-DBDDBENCH_PROGRAMS=queens;tic-tac-toe"]
            got = {}
            for who in ("package", "source"):
                d = os.path.join(root, f"build-{who}")
                if who == "package":
                    lacesrc.build_client(clients.BDDBENCH_DRIVER, d, os.path.join(root, "prefix"),
                                         who, root, 1, flags=flags)
                else:
                    # Even where the environment names the package's prefix.
                    with mock.patch.dict(os.environ,
                                         {"CMAKE_PREFIX_PATH": os.path.join(root, "prefix")}):
                        lacesrc.build_client_on_lace_source(clients.BDDBENCH_DRIVER, d, lace_src,
                                                            who, root, 1, flags=flags)
                got[who] = [subprocess.run([os.path.join(d, f"sylvan_{p}_bcdd")],
                                           capture_output=True, text=True,
                                           check=True).stdout.strip()
                            for p in ("queens", "tic-tac-toe")]
            self.assertEqual(got, {"package": ["package 1", "package 1"],
                                   "source": ["source 1", "source 1"]})
            missing = subprocess.run(
                ["cmake", "-S", clients.BDDBENCH_DRIVER, "-B", os.path.join(root, "b3"),
                 f"-DCMAKE_PREFIX_PATH={os.path.join(root, 'prefix')}", f"-DBDDBENCH_SRC={src}",
                 "-DBDDBENCH_PROGRAMS=nope"], capture_output=True, text=True)
            self.assertNotEqual(missing.returncode, 0)
            self.assertIn("has no nope_bcdd.cpp", missing.stderr)


if __name__ == "__main__":
    unittest.main()
