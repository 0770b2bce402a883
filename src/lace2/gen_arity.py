# SPDX-License-Identifier: Apache-2.0
# Writes include/weft-lace2/lace2_arity.h, the per-arity helper table of
# weft's Lace 2 layer (0..14 parameters):
#   python3 src/lace2/gen_arity.py > include/weft-lace2/lace2_arity.h
N = 14
out = []
w = out.append
w("/* Per-arity helpers of the Lace 2 layer (weft-lace2/lace2_bits.h), for 0..14\n"
  " * parameters (T1, a1, ..., Tn, an): written by src/lace2/gen_arity.py; the\n"
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
w("/* store the parameters into the frame f */")
w("#define LACE2_ST_0(f, ...)")
for n in range(1, N+1):
    w(f"#define LACE2_ST_{n}(f, {pairs(n)}) " + " ".join(f"(f)->d.args.a{i} = a{i};" for i in range(1, n+1)))
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
print("\n".join(out))
