# SPDX-License-Identifier: Apache-2.0
"""What runs a workload: the sequential baseline, weft (one system per
scheduler) and the peers.

Peers live in bench/peers/ and are built here as projects of their own:

  tbb, omp-gcc  bench/peers/cpp with gcc/g++      -> build-peers-gcc/<binary>-tbb, -omp
  omp-clang     bench/peers/cpp with clang/clang++ -> build-peers-clang/<binary>-omp
  rayon         bench/peers/rust (cargo)         -> build-peers-rust/release/weft-rayon <binary> ...
  java          bench/peers/java (javac)         -> java ... WeftPeers <binary> ...
  lace-1.4.2    a Lace 1.4.2 source (--lace-src), its own CMake -> build-lace-1.4.2/benchmarks/
  lace-2.0.3    a Lace 2.0.3 source (--lace2-src), likewise     -> build-lace-2.0.3/benchmarks/

The Lace peers are Lace's own benchmark programs (no port of ours): they
run where one of them computes the same thing on the same input
(LACE_PROGRAMS); elsewhere they are "not ported".  Without the source they
are skipped with what to give.

A peer that cannot be had (toolchain missing, build failed, listed in the
C++ build's peers-skipped.txt as `<peer>: <reason>`) is skipped with its
reason.  A peer that has no port of a workload (no binary, or the Rust/Java
driver answers exit 2 and "unknown benchmark") is "not ported" for it.
"""
import glob
import os
import re
import shutil

from . import lacesrc
from .build import build_command, cmake_error_message
from .util import logs_dir, run_step, tail

PEERS = ("tbb", "omp-gcc", "omp-clang", "rayon", "java", "lace-1.4.2", "lace-2.0.3")
# The Lace peers: peer name -> the option giving its source (lacesrc.SOURCES).
LACE_PEERS = {"lace-1.4.2": "lace", "lace-2.0.3": "lace2"}
# Which C++ build and binary suffix each C++ peer uses.
_CPP_PEERS = {"tbb": ("gcc", "tbb"), "omp-gcc": ("gcc", "omp"), "omp-clang": ("clang", "omp")}
_COMPILERS = {"gcc": ("gcc", "g++"), "clang": ("clang", "clang++")}
# How the Rust and Java drivers refuse a workload they have no port of.
_UNKNOWN_WORKLOAD_RE = re.compile(r"unknown (benchmark|binary|workload)", re.I)


class System:
    """Something that runs a workload.  kind: 'seq', 'weft' or 'peer'."""
    kind = "peer"
    always = False  # runs on workloads without peer ports too

    def __init__(self, name):
        self.name = name

    def command(self, binary, workers, args):
        """The command line, or None if this system has no port of binary."""
        raise NotImplementedError

    def refused_as_unknown(self, code, output):
        """True if a run's failure means 'no port of this workload'."""
        return code == 2 and bool(_UNKNOWN_WORKLOAD_RE.search(output))

    def not_ported_reason(self, binary):
        """Why command() gave None for binary, for the table of what was skipped."""
        return f"no {binary} binary"


class SeqSystem(System):
    kind = "seq"

    def __init__(self, build_dir):
        super().__init__("seq")
        self.bench_dir = os.path.join(build_dir, "bench")

    def path(self, binary):
        return os.path.join(self.bench_dir, f"{binary}-seq")

    def command(self, binary, workers, args):
        return [self.path(binary)] + list(args)

    def refused_as_unknown(self, code, output):
        return False


class WeftSystem(System):
    """weft built with one scheduler; counters_dir is its counters build."""
    kind = "weft"

    def __init__(self, scheduler, build_dir, counters_dir):
        super().__init__(f"weft-{scheduler}")
        self.scheduler = scheduler
        self.build_dir = build_dir
        self.counters_dir = counters_dir

    def command(self, binary, workers, args, counters=False):
        base = self.counters_dir if counters else self.build_dir
        return [os.path.join(base, "bench", f"{binary}-weft"), "-w", str(workers)] + list(args)

    def refused_as_unknown(self, code, output):
        return False


class ApiSystem(System):
    """weft through another of its APIs: the <binary>-<suffix> programs of a
    weft build, run beside the peers whatever the workload's `peers` flag
    says; a workload without such a program is "not ported"."""
    always = True

    def __init__(self, name, build_dir, suffix):
        super().__init__(name)
        self.build_dir = build_dir
        self.suffix = suffix

    def command(self, binary, workers, args):
        path = os.path.join(self.build_dir, "bench", f"{binary}-{self.suffix}")
        if not os.path.isfile(path):
            return None
        return [path, "-w", str(workers)] + list(args)

    def refused_as_unknown(self, code, output):
        return False


class LaceApiSystem(ApiSystem):
    """weft through its Lace API (docs/lace.md): the <binary>-lace programs."""

    def __init__(self, build_dir):
        super().__init__("weft-lace-api", build_dir, "lace")


class CppApiSystem(ApiSystem):
    """weft through its C++ API (docs/cpp.md): the <binary>-cpp programs
    (kernels written with weft/weft.hpp, driven as the C++ peers are)."""

    def __init__(self, build_dir):
        super().__init__("weft-cpp", build_dir, "cpp")


class CppPeer(System):
    def __init__(self, name, build_dir, suffix):
        super().__init__(name)
        self.build_dir = build_dir
        self.suffix = suffix

    def command(self, binary, workers, args):
        path = os.path.join(self.build_dir, f"{binary}-{self.suffix}")
        if not os.path.isfile(path):
            return None
        return [path, "-w", str(workers)] + list(args)

    def refused_as_unknown(self, code, output):
        return False


class RayonPeer(System):
    def __init__(self, exe):
        super().__init__("rayon")
        self.exe = exe

    def command(self, binary, workers, args):
        return [self.exe, binary, "-w", str(workers)] + list(args)


class JavaPeer(System):
    def __init__(self, class_dir):
        super().__init__("java")
        self.class_dir = class_dir

    def command(self, binary, workers, args):
        return ["java", "-Xss512m", "-cp", self.class_dir, "WeftPeers", binary,
                "-w", str(workers)] + list(args)


def _same(program):
    return lambda args: (program, list(args))


def _strassen(program):
    # Lace's strassen has its cut-off built in (16); ours takes it as an argument.
    return lambda args: (program, [args[0]]) if len(args) == 2 and args[1] == "16" else None


def _uts(args):
    # Lace's uts knows the tree's flags, not our -c <expected node count>.
    out, rest = [], list(args)
    while rest:
        flag = rest.pop(0)
        if flag == "-c" and rest:
            rest.pop(0)
            continue
        out.append(flag)
    return "uts-lace", out


# Our workload's binary -> (Lace's program, its arguments), per Lace
# generation (1 or 2): only where Lace's program runs the same algorithm on
# the same input.  Not listed, so "not ported": Lace 2's nqueens (a task per
# square tried, not per legal board), Lace's dfs (its leaves' results are
# unused, so the compiler may drop their loops), pi (a grain of its own),
# knapsack (reads an input file).
_COMMON = {"fib": _same("fib-lace"), "matmul": _same("matmul-lace"),
           "cilksort": _same("cilksort-lace"), "strassen": _strassen("strassen-lace"),
           "uts": _uts}
LACE_PROGRAMS = {1: dict(_COMMON, queens=_same("queens-lace")), 2: dict(_COMMON)}


def lace_command(bench_dir, generation, binary, workers, args):
    """The command running Lace's program for our workload, or None.  It runs
    in bench_dir/run (env -C), where cilksort-lace keeps its input file."""
    mapping = LACE_PROGRAMS[generation].get(binary)
    found = mapping(list(args)) if mapping else None
    if found is None:
        return None
    program, lace_args = found
    path = os.path.join(bench_dir, program)
    if not os.path.isfile(path):
        return None
    return ["env", "-C", os.path.join(bench_dir, "run"), path, "-w", str(workers)] + lace_args


class LacePeer(System):
    """A real Lace's own benchmark programs (its benchmarks/, built by its
    own CMake), on the workloads they share with ours."""
    always = True  # runs wherever one of its programs matches (LACE_PROGRAMS)

    def __init__(self, name, bench_dir, generation):
        super().__init__(name)
        self.bench_dir = bench_dir
        self.generation = generation
        os.makedirs(os.path.join(bench_dir, "run"), exist_ok=True)

    def command(self, binary, workers, args):
        return lace_command(self.bench_dir, self.generation, binary, workers, args)

    def not_ported_reason(self, binary):
        return f"none of Lace's programs runs {binary}'s algorithm on this input"

    def refused_as_unknown(self, code, output):
        return False


def prepare_lace_peers(build_root, wanted, sources, build=True, jobs=None):
    """The wanted Lace peers: ({peer: LacePeer}, {peer: reason skipped},
    {build name: dir}).  sources: {'lace': dir or None, 'lace2': ...}."""
    systems, skipped, builds = {}, {}, {}
    for peer, key in LACE_PEERS.items():
        if peer not in wanted:
            continue
        src = sources.get(key)
        if not src:
            skipped[peer] = f"skipped: give {lacesrc.source_hint(key)}"
            continue
        try:
            src = lacesrc.check_source(key, src, "benchmarks/CMakeLists.txt")
            version, build_dir, _ = lacesrc.build_real_lace(src, build_root, jobs, build)
        except lacesrc.SourceError as e:
            skipped[peer] = str(e)
            continue
        name = f"lace-{version}"
        generation = int(version.split(".")[0])
        systems[peer] = LacePeer(name, os.path.join(build_dir, "benchmarks"), generation)
        builds[os.path.basename(build_dir)] = build_dir
    return systems, skipped, builds


def parse_peer_list(text):
    """--peers: 'all', 'none' or a comma-separated list of PEERS."""
    text = text.strip()
    if text == "all":
        return list(PEERS)
    if text == "none" or text == "":
        return []
    chosen = [p.strip() for p in text.split(",") if p.strip()]
    unknown = [p for p in chosen if p not in PEERS]
    if unknown:
        raise ValueError(f"unknown peer(s) {', '.join(unknown)}; known: {', '.join(PEERS)}, "
                         f"or all / none")
    return [p for p in PEERS if p in chosen]


def read_skipped_file(path):
    """{peer: reason} from a C++ build's peers-skipped.txt ('' if absent)."""
    skipped = {}
    if not os.path.isfile(path):
        return skipped
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            peer, sep, reason = line.partition(":")
            if sep and peer.strip():
                skipped[peer.strip()] = reason.strip() or "skipped by its build"
    return skipped


def _build_cpp(root, build_root, family, build, jobs=None):
    """(build dir, None) or (None, reason) for bench/peers/cpp with one compiler."""
    source = os.path.join(root, "bench", "peers", "cpp")
    build_dir = os.path.join(build_root, f"build-peers-{family}")
    if not build:
        if not os.path.isdir(build_dir):
            return None, f"{build_dir} does not exist (and --no-build)"
        return build_dir, None
    if not os.path.isfile(os.path.join(source, "CMakeLists.txt")):
        return None, "bench/peers/cpp/CMakeLists.txt not present"
    cc, cxx = _COMPILERS[family]
    if shutil.which(cxx) is None:
        return None, f"{cxx} is not installed"
    step = run_step("[build]", f"C++ peers with {cxx}: {os.path.basename(build_dir)}",
                    [["cmake", "-S", source, "-B", build_dir, "-G", "Ninja",
                      "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_C_COMPILER={cc}",
                      f"-DCMAKE_CXX_COMPILER={cxx}"], build_command(build_dir, jobs)],
                    os.path.join(logs_dir(build_root), f"{os.path.basename(build_dir)}.log"))
    if step.failed_at == 0:
        return None, f"cmake configure failed: {cmake_error_message(step.output)}"
    if not step.ok:
        return None, f"build failed (log {step.log_path}):\n{tail(step.output, 10)}"
    return build_dir, None


def _build_rust(root, build_root, build, jobs=None):
    target = os.path.join(build_root, "build-peers-rust")
    exe = os.path.join(target, "release", "weft-rayon")
    if build:
        manifest = os.path.join(root, "bench", "peers", "rust", "Cargo.toml")
        if not os.path.isfile(manifest):
            return None, "bench/peers/rust/Cargo.toml not present"
        if shutil.which("cargo") is None:
            return None, "cargo is not installed"
        # The first build downloads the crates: quiet too, into the log.
        step = run_step("[build]", f"Rust peer (rayon, cargo): {os.path.basename(target)}",
                        ["cargo", "build", "--release", "--manifest-path", manifest,
                         "--target-dir", target] + (["--jobs", str(jobs)] if jobs else []),
                        os.path.join(logs_dir(build_root), "build-peers-rust.log"))
        if not step.ok:
            return None, f"cargo build failed (log {step.log_path}):\n{tail(step.output, 10)}"
    if not os.path.isfile(exe):
        return None, f"{exe} not built" + ("" if build else " (and --no-build)")
    return RayonPeer(exe), None


def _build_java(root, build_root, build):
    class_dir = os.path.join(build_root, "build-peers-java")
    if build:
        sources = sorted(glob.glob(os.path.join(root, "bench", "peers", "java", "**", "*.java"),
                                   recursive=True))
        if not sources:
            return None, "no bench/peers/java/**/*.java"
        if shutil.which("javac") is None:
            return None, "javac is not installed"
        step = run_step("[build]", f"Java peer (javac): {os.path.basename(class_dir)}",
                        ["javac", "-d", class_dir] + sources,
                        os.path.join(logs_dir(build_root), "build-peers-java.log"))
        if not step.ok:
            return None, f"javac failed (log {step.log_path}):\n{tail(step.output, 10)}"
    if shutil.which("java") is None:
        return None, "java is not installed"
    if not os.path.isfile(os.path.join(class_dir, "WeftPeers.class")):
        return None, f"{class_dir}/WeftPeers.class not built" + ("" if build else " (and --no-build)")
    return JavaPeer(class_dir), None


def prepare_peers(root, build_root, wanted, build=True, jobs=None, lace_sources=None):
    """Builds the wanted peers (unless build is False: then uses what the
    build root holds).  lace_sources: {'lace': dir, 'lace2': dir}, the Lace
    sources given (a Lace peer without one is skipped, saying what to give).
    Returns ([System], {peer: reason skipped}, {build name: build dir})
    with systems in PEERS order."""
    systems, skipped, builds = prepare_lace_peers(build_root, wanted, lace_sources or {},
                                                  build, jobs)
    families = sorted({_CPP_PEERS[p][0] for p in wanted if p in _CPP_PEERS})
    for family in families:
        build_dir, reason = _build_cpp(root, build_root, family, build, jobs)
        members = [p for p in wanted if _CPP_PEERS.get(p, ("",))[0] == family]
        if build_dir is None:
            for p in members:
                skipped[p] = reason
            continue
        builds[f"peers-{family}"] = build_dir
        listed = read_skipped_file(os.path.join(build_dir, "peers-skipped.txt"))
        for p in members:
            if p in listed:
                skipped[p] = listed[p]
            else:
                systems[p] = CppPeer(p, build_dir, _CPP_PEERS[p][1])
    if "rayon" in wanted:
        peer, reason = _build_rust(root, build_root, build, jobs)
        if peer:
            systems["rayon"], builds["peers-rust"] = peer, os.path.dirname(os.path.dirname(peer.exe))
        else:
            skipped["rayon"] = reason
    if "java" in wanted:
        peer, reason = _build_java(root, build_root, build)
        if peer:
            systems["java"], builds["peers-java"] = peer, peer.class_dir
        else:
            skipped["java"] = reason
    return [systems[p] for p in PEERS if p in systems], skipped, builds
