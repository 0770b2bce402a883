#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes include/weft-lace2/lace2_arity.h, the per-arity helper table of
weft's Lace 2 layer (0..14 parameters), or checks that it is fresh.

    python3 scripts/gen_lace2_arity.py > include/weft-lace2/lace2_arity.h
    clang-format -i include/weft-lace2/lace2_arity.h
    python3 scripts/gen_lace2_arity.py --check [HEADER]

--check compares the header (default: the committed one) with what this
script writes, token by token (clang-format's line breaks aside), and
exits 1 naming the first macro that differs when it is stale.
"""
import os
import re
import sys

N = 14
out = []
w = out.append
w("// SPDX-License-Identifier: Apache-2.0")
w("/* Per-arity helpers of the Lace 2 layer (weft-lace2/lace2_bits.h), for 0..14\n"
  " * parameters (T1, a1, ..., Tn, an): written by scripts/gen_lace2_arity.py; the\n"
  " * templates in lace2_bits.h use them.  Not meant to be read\n"
  " * for the API. */\n#ifndef WEFT_LACE2_ARITY_H\n#define WEFT_LACE2_ARITY_H\n")
def pairs(n): return ", ".join(f"T{i}, a{i}" for i in range(1, n+1))
# leading-comma parameter list
w("/* , T1 a1, ..., Tn an */")
w("#define LACE2_P_0()")
for n in range(1, N+1):
    w(f"#define LACE2_P_{n}({pairs(n)}) " + " ".join(f", T{i} a{i}" for i in range(1, n+1)))
w("/* T1 a1, ..., Tn an (void for none) */")
w("#define LACE2_PV_0() void")
for n in range(1, N+1):
    w(f"#define LACE2_PV_{n}({pairs(n)}) " + ", ".join(f"T{i} a{i}" for i in range(1, n+1)))
w("/* , a1, ..., an */")
w("#define LACE2_A_0()")
for n in range(1, N+1):
    w(f"#define LACE2_A_{n}({pairs(n)}) " + " ".join(f", a{i}" for i in range(1, n+1)))
w("/* the fields of the argument struct */")
w("#define LACE2_FLD_0() char lace2_none_;")
for n in range(1, N+1):
    w(f"#define LACE2_FLD_{n}({pairs(n)}) " + " ".join(f"T{i} a{i};" for i in range(1, n+1)))
w("/* store the parameters into the frame f, one word at a time where vectors")
w(" * of 32 bytes exist (WEFT_STORE_APART_, weft/bits/task_macros.h) */")
w("#define LACE2_ST_0(f, ...)")
for n in range(1, N+1):
    w(f"#define LACE2_ST_{n}(f, {pairs(n)}) " + " WEFT_STORE_APART_(f) ".join(f"(f)->d.args.a{i} = a{i};" for i in range(1, n+1)))
w("/* , f->d.args.a1, ..., f->d.args.an */")
w("#define LACE2_LD_0(f, ...)")
for n in range(1, N+1):
    w(f"#define LACE2_LD_{n}(f, {pairs(n)}) " + " ".join(f", (f)->d.args.a{i}" for i in range(1, n+1)))
w("\n/* TASK(RTYPE, NAME, T1, a1, ...): NAME and the pairs counted (1, 3, ..., 29\n * arguments), then mapped to the number of parameters. */")
w("#define LACE2_NARG_(...) LACE2_NARG_N_(__VA_ARGS__, " + ", ".join(str(i) for i in range(30, 0, -1)) + ", 0)")
w("#define LACE2_NARG_N_(" + ", ".join(f"_{i}" for i in range(1, 31)) + ", N, ...) N")
for n in range(0, N+1):
    w(f"#define LACE2_PARAMS_OF_{2*n+1} {n}")
w("\n#endif")
GENERATED = "\n".join(out) + "\n"

TOKEN_RE = re.compile(r"[A-Za-z_0-9]+|->|##|\S")


def directives(text):
    """The text's lines, continuations joined, each as its list of tokens."""
    joined = re.sub(r"\\\n", " ", text)
    joined = re.sub(r"/\*.*?\*/", lambda m: " ".join(m.group(0).split()), joined, flags=re.S)
    return [TOKEN_RE.findall(line) for line in joined.split("\n") if line.strip()]


def check(path):
    with open(path, encoding="utf-8") as f:
        have = directives(f.read())
    want = directives(GENERATED)
    for i, (h, g) in enumerate(zip(have, want)):
        if h != g:
            print(f"{path} is stale: its line {' '.join(h[:4])} ... differs from what "
                  f"scripts/gen_lace2_arity.py writes ({' '.join(g[:4])} ...); regenerate it:\n"
                  f"  python3 scripts/gen_lace2_arity.py > {path} && clang-format -i {path}",
                  file=sys.stderr)
            return 1
    if len(have) != len(want):
        print(f"{path} is stale: {len(have)} lines where scripts/gen_lace2_arity.py writes "
              f"{len(want)}; regenerate it:\n"
              f"  python3 scripts/gen_lace2_arity.py > {path} && clang-format -i {path}",
              file=sys.stderr)
        return 1
    print(f"{path}: fresh (what scripts/gen_lace2_arity.py writes)")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        default = os.path.join(root, "include", "weft-lace2", "lace2_arity.h")
        sys.exit(check(sys.argv[2] if len(sys.argv) > 2 else default))
    sys.stdout.write(GENERATED)
