# SPDX-License-Identifier: Apache-2.0
"""bench.json loading, validation and suite selection."""
import json
import os
import tempfile
import unittest

from harness_testutil import ROOT
from harnesslib import catalog as cat

GOOD = {"binary": "fib", "description": "Fibonacci",
        "sizes": {"small": "30", "medium": "40", "paper": "50"}, "quick": "small", "peers": True}


def entry(**changes):
    spec = json.loads(json.dumps(GOOD))
    spec.update(changes)
    return spec


class ParseEntriesTest(unittest.TestCase):
    def parse(self, data, warn=None):
        text = data if isinstance(data, str) else json.dumps(data)
        return cat.parse_entries(text, "bench/x/bench.json", warn)

    def test_good_entry(self):
        (e,) = self.parse({"fib": GOOD})
        self.assertEqual((e.name, e.binary, e.quick, e.peers), ("fib", "fib", "small", True))
        self.assertEqual(e.args("paper"), ["50"])

    def test_bad_json_names_file_and_line(self):
        with self.assertRaisesRegex(cat.CatalogError,
                                    r"bench/x/bench.json: not valid JSON: .* line 2"):
            self.parse('{"fib":\n  {"binary": "fib",,}}')

    def test_missing_size_is_an_error(self):
        spec = entry(sizes={"small": "30", "paper": "50"})
        with self.assertRaisesRegex(cat.CatalogError, r"entry 'fib': missing size 'medium'"):
            self.parse({"fib": spec})

    def test_missing_key_is_an_error(self):
        spec = entry()
        del spec["peers"]
        with self.assertRaisesRegex(cat.CatalogError, "missing 'peers'"):
            self.parse({"fib": spec})

    def test_null_medium_or_paper_allowed_but_not_small(self):
        (e,) = self.parse({"t": entry(sizes={"small": "1", "medium": None, "paper": None})})
        self.assertIsNone(e.args("paper"))
        with self.assertRaisesRegex(cat.CatalogError, "size 'small' must be a non-empty"):
            self.parse({"t": entry(sizes={"small": None, "medium": "1", "paper": "2"})})

    def test_quick_must_name_an_existing_size(self):
        with self.assertRaisesRegex(cat.CatalogError, "'quick' must be null, a size"):
            self.parse({"t": entry(quick="huge")})
        with self.assertRaisesRegex(cat.CatalogError, "'quick' must be null, a size"):
            self.parse({"t": entry(quick="paper", sizes={"small": "1", "medium": "2",
                                                         "paper": None})})

    def test_quick_may_give_its_own_arguments(self):
        (e,) = self.parse({"t": entry(quick={"args": "35 -x"})})
        self.assertEqual(e.quick, "quick")
        self.assertEqual(e.args("quick"), ["35", "-x"])
        self.assertEqual(e.args("small"), ["30"])
        with self.assertRaisesRegex(cat.CatalogError, "size 'quick' must be a non-empty"):
            self.parse({"t": entry(quick={"args": "  "})})
        with self.assertRaisesRegex(cat.CatalogError, "'quick' as an object must be"):
            self.parse({"t": entry(quick={"args": "1", "size": "small"})})
        with self.assertRaisesRegex(cat.CatalogError, "'quick' as an object must be"):
            self.parse({"t": entry(quick={})})

    def test_types_are_checked(self):
        bad = [({"peers": "yes"}, "'peers' must be true or false"),
               ({"binary": "../fib"}, "'binary' must be a plain file name"),
               ({"description": ""}, "'description' must be a non-empty"),
               ({"sizes": ["30"]}, "'sizes' must be an object"),
               ({"sizes": {"small": "1", "medium": "2", "paper": "3", "huge": "4"}},
                "unknown size"),
               ({"sizes": {"small": "'unbalanced", "medium": "2", "paper": "3"}},
                "No closing quotation")]
        for change, message in bad:
            with self.subTest(change=change), self.assertRaisesRegex(cat.CatalogError, message):
                self.parse({"t": entry(**change)})

    def test_duplicate_key_is_an_error(self):
        with self.assertRaisesRegex(cat.CatalogError, "key 'fib' appears twice"):
            self.parse('{"fib": %s, "fib": %s}' % (json.dumps(GOOD), json.dumps(GOOD)))

    def test_empty_file_is_an_error(self):
        with self.assertRaisesRegex(cat.CatalogError, "non-empty JSON object"):
            self.parse({})

    def test_unknown_key_warns(self):
        warnings = []
        self.parse({"fib": entry(notes="x")}, warnings.append)
        self.assertEqual(len(warnings), 1)
        self.assertIn("notes", warnings[0])


class LoadCatalogTest(unittest.TestCase):
    def test_repository_catalog(self):
        c = cat.load_catalog(os.path.join(ROOT, "bench"))
        for name in ("fib", "queens", "matmul", "uts-T1", "uts-T3", "uts-T1L", "uts-T2L",
                     "uts-T3L"):
            self.assertIn(name, c)
        self.assertEqual(c["fib"].sizes["paper"], "50")
        self.assertEqual(c["queens"].sizes["paper"], "15")
        self.assertEqual(c["matmul"].sizes["paper"], "4096")
        self.assertEqual(c["uts-T1L"].sizes["paper"], "-t 1 -a 3 -d 13 -b 4 -r 29")
        self.assertEqual(c["uts-T2L"].sizes["paper"], "-t 1 -a 2 -d 23 -b 7 -r 220")
        self.assertEqual(c["uts-T3L"].sizes["paper"], "-t 0 -b 2000 -q 0.200014 -m 5 -r 7")

    def test_name_defined_twice_across_files(self):
        with tempfile.TemporaryDirectory() as d:
            for folder in ("a", "b"):
                os.makedirs(os.path.join(d, folder))
                with open(os.path.join(d, folder, "bench.json"), "w") as f:
                    json.dump({"fib": GOOD}, f)
            with self.assertRaisesRegex(cat.CatalogError, "'fib' is also defined in"):
                cat.load_catalog(d)

    def test_bad_file_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "broken"))
            with open(os.path.join(d, "broken", "bench.json"), "w") as f:
                f.write("{not json")
            with self.assertRaisesRegex(cat.CatalogError, "broken/bench.json: not valid JSON"):
                cat.load_catalog(d)


class SelectJobsTest(unittest.TestCase):
    def setUp(self):
        self.catalog = {e.name: e for e in cat.parse_entries(json.dumps({
            "fib": GOOD,
            "big": entry(quick=None, sizes={"small": "1", "medium": "2", "paper": None}),
        }), "test")}

    def test_quick_takes_quick_entries_at_their_size(self):
        jobs, notes = cat.select_jobs(self.catalog, suite="quick")
        self.assertEqual([(j.entry.name, j.size, j.args) for j in jobs], [("fib", "small", ("30",))])
        self.assertEqual(notes, [])

    def test_a_quick_run_names_every_input_quick(self):
        catalog = {e.name: e for e in cat.parse_entries(json.dumps({
            "fib": entry(quick={"args": "34"}), "matmul": entry(quick="small")}), "test")}
        jobs, _ = cat.select_jobs(catalog, suite="quick")
        self.assertEqual([(j.entry.name, j.size, j.input) for j in jobs],
                         [("fib", "quick", "quick"), ("matmul", "small", "quick")])
        # Outside the suite's choice, the size is the name.
        jobs, _ = cat.select_jobs(self.catalog, names=["big"], suite="quick")
        self.assertEqual([j.input for j in jobs], ["small"])
        jobs, _ = cat.select_jobs(catalog, size="medium")
        self.assertEqual({j.input for j in jobs}, {"medium"})

    def test_quick_uses_an_entrys_own_quick_input(self):
        catalog = {e.name: e for e in cat.parse_entries(json.dumps({
            "fib": entry(quick={"args": "34"})}), "test")}
        jobs, _ = cat.select_jobs(catalog, suite="quick")
        self.assertEqual([(j.key, j.args) for j in jobs], [("fib/quick", ("34",))])
        jobs, _ = cat.select_jobs(catalog, suite="medium")
        self.assertEqual([(j.key, j.args) for j in jobs], [("fib/medium", ("40",))])
        self.assertIn("quick: its own input: 34", cat.format_list(catalog))

    def test_paper_leaves_out_entries_without_paper_input_with_a_note(self):
        jobs, notes = cat.select_jobs(self.catalog, suite="paper")
        self.assertEqual([j.key for j in jobs], ["fib/paper"])
        self.assertEqual(len(notes), 1)
        self.assertIn("big: no paper input", notes[0])

    def test_size_without_suite_takes_every_entry(self):
        jobs, _ = cat.select_jobs(self.catalog, size="medium")
        self.assertEqual([j.key for j in jobs], ["fib/medium", "big/medium"])

    def test_explicit_names(self):
        jobs, _ = cat.select_jobs(self.catalog, names=["big"], suite="quick")
        self.assertEqual([j.key for j in jobs], ["big/small"])
        with self.assertRaisesRegex(cat.CatalogError, "unknown benchmark"):
            cat.select_jobs(self.catalog, names=["nope"], suite="quick")
        with self.assertRaisesRegex(cat.CatalogError, "big has no paper input"):
            cat.select_jobs(self.catalog, names=["big"], size="paper")

    def test_targets_use_target_inputs(self):
        jobs, notes = cat.select_jobs(self.catalog, suite="targets")
        self.assertEqual([(j.entry.name, j.args) for j in jobs], [("fib", ("40",))])
        self.assertTrue(any("uts-T3L" in n for n in notes))

    def test_list_shows_every_size(self):
        text = cat.format_list(self.catalog)
        self.assertIn("fib  (binary fib, quick: small", text)
        self.assertIn("paper   (none)", text)


if __name__ == "__main__":
    unittest.main()
