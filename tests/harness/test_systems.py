# SPDX-License-Identifier: Apache-2.0
"""Peer selection, skip reporting and 'not ported' detection."""
import os
import tempfile
import unittest

from harness_testutil import write_script
from harnesslib import systems


class PeerListTest(unittest.TestCase):
    def test_all_none_and_lists(self):
        self.assertEqual(systems.parse_peer_list("all"), list(systems.PEERS))
        self.assertEqual(systems.parse_peer_list("none"), [])
        self.assertEqual(systems.parse_peer_list("java, tbb"), ["tbb", "java"])

    def test_unknown_peer_is_an_error(self):
        with self.assertRaisesRegex(ValueError, "unknown peer.*cilk"):
            systems.parse_peer_list("tbb,cilk")


class PreparePeersTest(unittest.TestCase):
    """Uses what a build root holds (build=False), as --no-build does."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        gcc = os.path.join(self.root, "build-peers-gcc")
        write_script(os.path.join(gcc, "fib-tbb"), 'echo "Time: 0.1"')
        write_script(os.path.join(gcc, "fib-omp"), 'echo "Time: 0.1"')
        with open(os.path.join(gcc, "peers-skipped.txt"), "w") as f:
            f.write("omp-gcc: g++ has no libgomp\n")
        write_script(os.path.join(self.root, "build-peers-rust", "release", "weft-rayon"),
                     'echo "weft-rayon: unknown benchmark \'$1\'" >&2; exit 2')

    def tearDown(self):
        self.tmp.cleanup()

    def test_skips_are_reported_with_reasons(self):
        peers, skipped, builds = systems.prepare_peers(self.root, self.root,
                                                       list(systems.PEERS), build=False)
        self.assertEqual([p.name for p in peers], ["tbb", "rayon"])
        self.assertEqual(skipped["omp-gcc"], "g++ has no libgomp")
        self.assertIn("build-peers-clang does not exist", skipped["omp-clang"])
        self.assertIn("WeftPeers.class not built", skipped["java"])
        self.assertEqual(set(skipped) | {p.name for p in peers}, set(systems.PEERS))
        self.assertIn("peers-gcc", builds)

    def test_missing_cpp_binary_is_not_ported(self):
        peers, _, _ = systems.prepare_peers(self.root, self.root, ["tbb"], build=False)
        tbb = peers[0]
        self.assertEqual(tbb.command("fib", 2, ["30"])[1:], ["-w", "2", "30"])
        self.assertIsNone(tbb.command("queens", 2, ["10"]))

    def test_driver_refusal_is_not_ported_but_bad_args_are_not(self):
        peers, _, _ = systems.prepare_peers(self.root, self.root, ["rayon"], build=False)
        rayon = peers[0]
        self.assertEqual(rayon.command("fib", 2, ["30"])[1:], ["fib", "-w", "2", "30"])
        self.assertTrue(rayon.refused_as_unknown(2, "weft-rayon: unknown benchmark 'ssf'"))
        self.assertTrue(rayon.refused_as_unknown(2, "weft-rayon: unknown binary 'ssf'"))
        self.assertFalse(rayon.refused_as_unknown(2, "fib: n must be an integer"))
        self.assertFalse(rayon.refused_as_unknown(1, "unknown benchmark"))

    def test_skipped_file_format(self):
        path = os.path.join(self.root, "skipped.txt")
        with open(path, "w") as f:
            f.write("tbb: libtbb-dev not installed\n\nomp-clang: no libomp: try apt\nnonsense\n")
        self.assertEqual(systems.read_skipped_file(path),
                         {"tbb": "libtbb-dev not installed", "omp-clang": "no libomp: try apt"})
        self.assertEqual(systems.read_skipped_file(os.path.join(self.root, "absent")), {})


if __name__ == "__main__":
    unittest.main()


class ApiSystemTest(unittest.TestCase):
    """weft-lace-api and weft-cpp: a weft build's <binary>-lace and
    <binary>-cpp programs, on every workload that has one."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = self.tmp.name
        write_script(os.path.join(self.build, "bench", "fib-cpp"), 'echo "Time: 0.1"')
        write_script(os.path.join(self.build, "bench", "fib-lace"), 'echo "Time: 0.1"')

    def tearDown(self):
        self.tmp.cleanup()

    def test_programs_and_not_ported(self):
        for system, suffix in ((systems.CppApiSystem(self.build), "cpp"),
                               (systems.LaceApiSystem(self.build), "lace")):
            self.assertTrue(system.always)
            self.assertEqual(system.command("fib", 2, ["30"]),
                             [os.path.join(self.build, "bench", f"fib-{suffix}"), "-w", "2", "30"])
            self.assertIsNone(system.command("sort", 2, ["100"]))
        self.assertEqual(systems.CppApiSystem(self.build).name, "weft-cpp")
        self.assertEqual(systems.LaceApiSystem(self.build).name, "weft-lace-api")
