# SPDX-License-Identifier: Apache-2.0
"""The commit and dirty flag written into every result file."""
import os
import shutil
import subprocess
import tempfile
import unittest

from harness_testutil import ROOT  # noqa: F401  (puts bench/ on sys.path)
from harnesslib.build import git_state


class GitStateTest(unittest.TestCase):
    def setUp(self):
        self.repo = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.repo)
        env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t",
                   GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
        self.git = lambda *a: subprocess.run(["git", "-C", self.repo, *a], check=True,
                                             capture_output=True, env=env)
        self.git("init", "-q")
        with open(os.path.join(self.repo, "a.c"), "w") as f:
            f.write("int a;\n")
        self.git("add", "a.c")
        self.git("commit", "-q", "-m", "one")

    def test_clean_checkout(self):
        commit, dirty = git_state(self.repo)
        self.assertRegex(commit, r"^[0-9a-f]{7,}$")
        self.assertFalse(dirty)

    def test_untracked_output_is_not_dirty(self):
        os.mkdir(os.path.join(self.repo, "results-paper"))
        with open(os.path.join(self.repo, "results-paper", "run.json"), "w") as f:
            f.write("{}\n")
        self.assertFalse(git_state(self.repo)[1])

    def test_modified_tracked_file_is_dirty(self):
        with open(os.path.join(self.repo, "a.c"), "a") as f:
            f.write("int b;\n")
        self.assertTrue(git_state(self.repo)[1])

    def test_outside_git(self):
        plain = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, plain)
        self.assertEqual(git_state(plain), (None, None))


if __name__ == "__main__":
    unittest.main()
