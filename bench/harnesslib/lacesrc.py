# SPDX-License-Identifier: Apache-2.0
"""Real Lace and its clients, built from sources the user gives, beside
weft's Lace packages: what the `clients` command and the suite's Lace
peers share.

No third-party source is in the repository.  The user passes checkouts
(--lace-src, --lace2-src, --sylvan-src, --sylvan-cur-src, --oink-src, ...);
without one, what needs it is skipped with a message naming the repository
and commit (SOURCES).  Every tree is built out of its source folder, under the build
root, so the sources stay as they are:

  build-lace-<version>         real Lace by its own CMake (Release, its
                               benchmark programs in benchmarks/), installed
                               into build-prefix-lace-<version>
  build-weft-lace-<mode>       weft with -DWEFT_PROVIDE_LACE=<mode> (1.4,
                               1.6, 2), installed into build-prefix-weft-lace-<mode>
  build-sylvan-<tag>-<lace>    a Sylvan source configured with
                               -DCMAKE_PREFIX_PATH=<one of the prefixes> and
                               -DFETCHCONTENT_FULLY_DISCONNECTED=ON (its
                               tools: lddmc, bddmc, nqueens)
  build-oink-<tag>-<lace>      an Oink source the same way (its test_solvers)
  build-runloop-<lace>         bench/peers/lace (the RUN-loop program)
  build-lacebench-<lace>       a Lace source's benchmarks/ against weft's
                               package (bench/peers/lace/benchmarks)
  build-lacetests-<version>-<lace>
                               a Lace source's test programs against weft's
                               package and against that Lace's install
                               (bench/peers/lace/tests)
  build-bddbench-<tag>-<lace>  BDD Benchmark's Sylvan programs and its
                               Sylvan submodule (bench/peers/bdd-benchmark):
                               against weft's package, and against a Lace
                               source given to Sylvan's FetchContent
                               (FETCHCONTENT_SOURCE_DIR_LACE)

Every folder's name starts with build, so a build root inside the checkout
(the default) leaves git's view of it clean.  Each build is one quiet step (util.run_step): one line on stderr, its
output in build-logs/<tree>.log.
"""
import os
import re
import subprocess

from .build import build_command, cmake_error_message
from .util import logs_dir, run_step, tail


class SourceError(RuntimeError):
    """A given source cannot be used or a build of it failed."""


# option -> (what, repository, commit or tag, why)
SOURCES = {
    "lace": ("Lace 1.4.2", "https://github.com/trolando/lace", "tag v1.4.2 (d4b8c08)",
             "real Lace 1.4.2: the peer of weft's mode-1.4 package"),
    "lace2": ("Lace 2.0.3", "https://github.com/Augists/lace", "56d1c65 (Lace 2.0.3)",
              "real Lace 2.0.3: the peer of weft's mode-2 package"),
    "sylvan": ("Sylvan before Lace 1.5", "https://github.com/trolando/sylvan", "b5dfc77",
               "the Lace 1.4 client built against real Lace 1.4.2 and weft's mode 1.4"),
    "sylvan_cur": ("current Sylvan", "https://github.com/trolando/sylvan", "cd9ccd4",
                   "asks find_package(lace 1.6.2): built against weft's mode 1.6 only"),
    "oink": ("Oink", "https://github.com/trolando/oink", "ac3c12a",
             "parity game solvers in C++ on Lace 2: built against real Lace 2.0.3 and weft's "
             "mode 2"),
    "knor": ("Knor", "https://github.com/trolando/knor", "8fbd45e",
             "a synthesis tool on Sylvan, Oink and Lace 1.4.2, with its submodules (git clone "
             "--recursive): built against real Lace 1.4.2 and weft's mode 1.4; it starts one "
             "worker"),
    "bddbench": ("BDD Benchmark", "https://github.com/SSoelvsten/bdd-benchmark", "6567068",
                 "BDD programs in C++; its Sylvan programs and its external/sylvan submodule "
                 "(Sylvan 9ccb1fd; git -C DIR submodule update --init external/sylvan) are built "
                 "against weft's mode 1.4 and, with --lace-src, against Lace 1.4.2's source as "
                 "Sylvan's FetchContent takes it"),
}


def source_hint(key):
    """`--<key>-src DIR: <what>, <repository> at <commit>` for messages."""
    what, repo, commit, why = SOURCES[key]
    return f"--{key.replace('_', '-')}-src DIR: {what}, {repo} at {commit} ({why})"


def lace_version(src):
    """The version in a Lace source's `project(lace VERSION x.y.z`, or None."""
    try:
        with open(os.path.join(src, "CMakeLists.txt"), encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"project\s*\(\s*lace\b[^)]*?VERSION\s+([0-9]+\.[0-9]+\.[0-9]+)", text, re.S)
    return m.group(1) if m else None


def source_commit(src):
    """The short commit of a source folder (None if it is not a git work tree)."""
    try:
        p = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return p.stdout.strip() or None if p.returncode == 0 else None


def check_source(key, src, marker):
    """src made absolute; SourceError if it lacks `marker` (a file every
    such source has)."""
    src = os.path.abspath(src)
    if not os.path.isfile(os.path.join(src, marker)):
        raise SourceError(f"{src} has no {marker}: not a source of {SOURCES[key][0]} "
                          f"({source_hint(key)})")
    return src


def cmake_tree(tag, label, src, build_dir, flags, build_root, jobs=None, targets=(),
               install_prefix=None):
    """Configure, build (and install) one CMake tree quietly; SourceError if
    any step fails, with CMake's message or the log's end."""
    name = os.path.basename(build_dir)
    configure = ["cmake", "-S", src, "-B", build_dir, "-G", "Ninja",
                 "-DCMAKE_BUILD_TYPE=Release"] + list(flags)
    if install_prefix:
        configure.append(f"-DCMAKE_INSTALL_PREFIX={install_prefix}")
    commands = [configure, build_command(build_dir, jobs, targets)]
    if install_prefix:
        commands.append(["cmake", "--install", build_dir])
    step = run_step(tag, f"{label}: {name}", commands,
                    os.path.join(logs_dir(build_root), f"{name}.log"))
    if step.failed_at == 0:
        raise SourceError(f"{label}: cmake configure failed: {cmake_error_message(step.output)}"
                          f" (log {step.log_path})")
    if not step.ok:
        raise SourceError(f"{label}: build failed (log {step.log_path}):\n"
                          f"{tail(step.output, 20)}")
    return build_dir


def build_real_lace(src, build_root, jobs=None, build=True):
    """A real Lace by its own CMake, its benchmark programs included, installed.
    Returns (version, build dir, prefix)."""
    version = lace_version(src)
    if version is None:
        raise SourceError(f"{src}/CMakeLists.txt names no `project(lace VERSION ...)`")
    build_dir = os.path.join(build_root, f"build-lace-{version}")
    prefix = os.path.join(build_root, f"build-prefix-lace-{version}")
    if build:
        cmake_tree("[build]", f"Lace {version} (its own CMake)", src, build_dir,
                   ["-DLACE_BUILD_TESTS=OFF", "-DLACE_BUILD_BENCHMARKS=ON"], build_root, jobs,
                   install_prefix=prefix)
    elif not os.path.isdir(os.path.join(prefix, "lib", "cmake", "lace")):
        raise SourceError(f"{prefix} holds no installed Lace (and --no-build)")
    return version, build_dir, prefix


_BENCHMARK_TARGET_RE = re.compile(r"^\s*add_lace\w*_benchmark\(\s*([A-Za-z0-9_.+-]+)", re.M)


def benchmark_targets(src):
    """The programs a Lace source's benchmarks/CMakeLists.txt builds on
    Lace (its add_lace*_benchmark targets)."""
    try:
        with open(os.path.join(src, "benchmarks", "CMakeLists.txt"), encoding="utf-8",
                  errors="replace") as f:
            return set(_BENCHMARK_TARGET_RE.findall(f.read()))
    except OSError:
        return set()


def test_programs(src):
    """The test programs a Lace source has: the names of its test/*.c."""
    try:
        return {name[:-2] for name in os.listdir(os.path.join(src, "test"))
                if name.endswith(".c")}
    except OSError:
        return set()


def weft_lace_flags(mode):
    return ["-DWEFT_BUILD_TESTS=OFF", "-DWEFT_BUILD_BENCH=OFF", "-DWEFT_BUILD_EXAMPLES=OFF",
            f"-DWEFT_PROVIDE_LACE={mode}", "-DWEFT_PROFILE_LIBRARY=OFF"]


def build_weft_lace(root, build_root, mode, jobs=None, build=True):
    """weft's `lace` package of one mode (1.4, 1.6, 2), installed.  Returns
    the prefix."""
    build_dir = os.path.join(build_root, f"build-weft-lace-{mode}")
    prefix = os.path.join(build_root, f"build-prefix-weft-lace-{mode}")
    if build:
        cmake_tree("[build]", f"weft's Lace package, mode {mode}", root, build_dir,
                   weft_lace_flags(mode), build_root, jobs, install_prefix=prefix)
    elif not os.path.isdir(os.path.join(prefix, "lib", "cmake", "lace")):
        raise SourceError(f"{prefix} holds no installed package (and --no-build)")
    return prefix


def cache_entry(build_dir, name):
    """The value of `name` in a configured tree's CMakeCache.txt, or None."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8",
                  errors="replace") as f:
            for line in f:
                if line.startswith(f"{name}:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def lace_dir_of(build_dir):
    """Where a configured tree found the `lace` package (its cache's
    lace_DIR), or None."""
    return cache_entry(build_dir, "lace_DIR")


def check_found_in(build_dir, prefix, label):
    """The tree must have used the package of `prefix`, not another one
    (a Lace of the system's, or one FetchContent made)."""
    found = lace_dir_of(build_dir)
    if not found or not os.path.realpath(found).startswith(os.path.realpath(prefix) + os.sep):
        raise SourceError(f"{label}: configured with lace_DIR={found or '(none)'}, not the "
                          f"package in {prefix}")


def build_client_on_lace_source(src, build_dir, lace_src, label, build_root, jobs=None,
                                targets=(), build=True, flags=()):
    """A client whose own FetchContent of Lace is given the Lace source
    lace_src in place of its download (FETCHCONTENT_SOURCE_DIR_LACE), no
    installed package being looked for: what its users get without a Lace
    install."""
    if build:
        cmake_tree("[build]", label, src, build_dir,
                   [f"-DFETCHCONTENT_SOURCE_DIR_LACE={lace_src}",
                    "-DFETCHCONTENT_TRY_FIND_PACKAGE_MODE=NEVER",
                    "-DFETCHCONTENT_FULLY_DISCONNECTED=ON"] + list(flags),
                   build_root, jobs, targets)
    elif not os.path.isdir(build_dir):
        raise SourceError(f"{build_dir} does not exist (and --no-build)")
    found = lace_dir_of(build_dir)
    given = cache_entry(build_dir, "FETCHCONTENT_SOURCE_DIR_LACE")
    if found or not given or os.path.realpath(given) != os.path.realpath(lace_src) or \
            not os.path.isdir(os.path.join(build_dir, "_deps", "lace-build")):
        raise SourceError(f"{label}: configured with lace_DIR={found or '(none)'} and "
                          f"FETCHCONTENT_SOURCE_DIR_LACE={given or '(none)'}, not with the Lace "
                          f"source {lace_src} by FetchContent")
    return build_dir


def build_client(src, build_dir, prefix, label, build_root, jobs=None, targets=(), build=True,
                 flags=()):
    """A Lace client (a Sylvan source, the RUN-loop program, a driver)
    configured against the `lace` package installed in prefix."""
    if build:
        cmake_tree("[build]", label, src, build_dir,
                   [f"-DCMAKE_PREFIX_PATH={prefix}", "-DFETCHCONTENT_FULLY_DISCONNECTED=ON"]
                   + list(flags), build_root, jobs, targets)
    elif not os.path.isdir(build_dir):
        raise SourceError(f"{build_dir} does not exist (and --no-build)")
    check_found_in(build_dir, prefix, label)
    return build_dir
