#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the API-mixing matrix (docs/design.md, "Mixing the APIs") as one
C++ source: every ordered pair of front-ends, every order of their pending
operations in one task body, each case with the outcome the rule gives.

    python3 tests/mixing/gen_matrix.py OUT.cpp [--lace2]

Front-ends: weft's C macros (c), a Lace layer (lace: Lace 1.4 or 1.6,
chosen by the build, or with --lace2 Lace 2), the C++ API's task_group
(tg) with spawns that stay pending, and the C++ API's join (join),
parallel_for (pfor) and the work pool's weft::pool_run (pool), which
return with nothing pending.  A pending operation is a spawn and its join;
a body is a task of the first front-end of the pair; every case is entered
with a RUN from outside the pool (main's thread).

Lace 2 keeps its head in the worker's record, not in the body: a body of
another API reaches it through NAME() (which finds the top), as a whole
operation or as a called task that spawns and joins; its NAME_SPAWN on
lace_get_worker() from such a body is test_lace2_adversarial's case.

The expected outcome comes from a model of the rule, not from running:
the deque is a stack of pending tasks; a task_group (made where the body
starts) spawns where it was made and runs a callable at once elsewhere; the C and Lace macros keep a head of
their own (read where the body starts, or by WEFT_ME / LACE_ME where the
body first uses the other one), which their own spawns and joins move;
the C++ API finds the true top each time.  A spawn whose head is not the
top is refused ("its slot ... holds a task still pending"), a join of a task
that is not the newest pending one is refused ("while the task above
it"); everything else gives the answer.
"""
import itertools
import sys

PENDING = ("c", "lace", "tg")
WHOLE = ("join", "pfor", "pool")
REGISTER = ("c", "lace")
LEAF = {"c": 11, "lace": 12, "tg": 13, "join": 14, "pfor": 15, "pool": 16}
LACE2 = "--lace2" in sys.argv[2:]

# The orders of two pending operations A and B in one body ("s": spawn,
# "j": join), and the whole operations in between or around.
ORDERS = [
    ("AsBsBjAj", ["As", "Bs", "Bj", "Aj"]),
    ("AsBsAjBj", ["As", "Bs", "Aj", "Bj"]),
    ("BsAsAjBj", ["Bs", "As", "Aj", "Bj"]),
    ("BsAsBjAj", ["Bs", "As", "Bj", "Aj"]),
    ("AsBsBjAj_call", ["As", "Bs", "Bj", "Aj"]),  # B's ops in a task A calls
    ("AsBwAj", ["As", "Bw", "Aj"]),  # B whole while A is pending
    ("BwAsAj", ["Bw", "As", "Aj"]),
]


def host_of(a):
    """The front-end of the body's task: a Lace task for lace, else a weft one."""
    return "lace" if a == "lace" else "c"


def model(a, b, steps, called, below=False):
    """(outcome, refused step): outcome 'answer' or 'spawn'/'join' refusal.
    below: the body spawned one task of its own first (joined last)."""
    stack = [host_of(a)] if below else []  # pending tasks, by front-end
    held = {host_of(a): len(stack)}  # a register front-end's head, as a stack depth: the body's own
    ran_at_once = False
    for step in steps:
        api = a if step[0] == "A" else b
        op = step[1]
        if op == "w":
            continue  # a whole operation: nothing stays pending
        if op == "s" and api == "tg" and len(stack) != (1 if below else 0):
            # task_group::run away from the frame that made the group (the
            # body's start, here) runs the callable at once (docs/cpp.md)
            ran_at_once = True
            continue
        if op == "j" and api == "tg" and ran_at_once:
            continue
        if op == "s":
            if api in REGISTER:
                if api not in held:
                    held[api] = len(stack)  # WEFT_ME / LACE_ME here
                elif called and api == b and b != host_of(a):
                    held[api] = len(stack)  # the call made with WEFT_ME / LACE_ME
                if held[api] != len(stack):
                    return "spawn", step
                held[api] += 1
            stack.append(api)
        else:
            if not stack or stack[-1] != api:
                return "join", step
            stack.pop()
            if api in REGISTER:
                held[api] -= 1
    return "answer", None


def op_code(api, op):
    """The C++ statement of one step of `api` in a body ("s" spawn, "j"
    join, "w" the whole operation), its hidden names in scope."""
    n = LEAF[api]
    if api == "c":
        return f"WEFT_SPAWN(mx_leaf, {n});" if op == "s" else "sum += WEFT_SYNC(mx_leaf);"
    if api == "lace" and LACE2:
        return {"s": f"mx_lleaf_SPAWN(lw, {n});", "j": "sum += mx_lleaf_SYNC(lw);",
                "w": f"sum += mx_lleaf({n});"}[op]
    if api == "lace":
        return f"SPAWN(mx_lleaf, {n});" if op == "s" else "sum += SYNC(mx_lleaf);"
    if api == "tg":
        return (f"tg.run([&] {{ tg_sum = mx_fib({n}); }});" if op == "s"
                else "tg.wait(); sum += tg_sum;")
    if api == "join":
        return (f"{{ auto r = weft::join([] {{ return mx_fib({n}); }}, [] {{ return 0L; }});"
                " sum += r.first; }")
    if api == "pfor":
        return (f"{{ std::atomic<long> s{{0}}; weft::parallel_for(0, 4, [&](int i) "
                f"{{ if (i == 0) s += mx_fib({n}); }}); sum += s.load(); }}")
    return (f"{{ std::atomic<long> s{{0}}; int root = {n}; weft_pool_config cfg; "
            "weft_pool_config_init(&cfg, sizeof root); "
            "if (weft::pool_run(cfg, &root, 1, [&](weft_pool_ctx *, void *item) "
            "{ s += mx_fib(*static_cast<int *>(item)); }) != 0) return -1; sum += s.load(); }")


def task_head(api, name):
    """The first line of a task of the body's front-end, up to its '{'."""
    if api == "c":
        return f"WEFT_TASK_0(long, {name}) {{"
    if LACE2:
        return f"TASK(long, {name})\nlong {name}_CALL(lace_worker *lw) {{ (void)lw;"
    return f"TASK_0(long, {name}) {{"


def answer(a, b, steps):
    return sum(mx_fib(LEAF[a if s[0] == "A" else b]) for s in steps if s[1] in "jw")


def mx_fib(n):
    return n if n < 2 else mx_fib(n - 1) + mx_fib(n - 2)


def case_body(idx, a, b, steps, called, below=False):
    """The case's task(s): a body of front-end a (a weft task for c and tg,
    a Lace task for lace) that runs the steps; returns C++ lines.  below:
    the body first spawns a task of its own (a leaf of 0) and joins it
    last, so that the tasks of the steps are not the frame's first: the
    split deque shares a frame's first task at once, whose join then takes
    the slow path; the ones after it stay private, on the fast path."""
    lines = []
    name = f"mx_case{idx}"
    body = ["long sum = 0;"]
    if below:  # before the group is made: the group's frame is above it
        body.append(op_code(host_of(a), "s").replace(f", {LEAF[host_of(a)]})", ", 0)"))
    uses_tg = "tg" in (a, b)
    if uses_tg:
        body.append("weft::task_group tg; long tg_sum = 0;")
    opened = {host_of(a)}
    b_steps = [s for s in steps if s[0] == "B"]
    if called and b in REGISTER:
        # B's operations in a task that the body calls, with A's pending
        # around the call: B's spawn and join inside it.
        lines.append(task_head(b, f"{name}_inner") + " long sum = 0;")
        lines += [op_code(b, s[1]) for s in b_steps] + ["return sum; }"]
    lines.append(task_head(host_of(a), name))
    for s in steps:
        api = a if s[0] == "A" else b
        if called and api == b and b in REGISTER:
            if s[1] == "s":
                if b == host_of(a):  # with the body's own head
                    body.append(("sum += WEFT_CALL(%s_inner);" if b == "c" else
                                 "sum += CALL(%s_inner);") % name)
                elif b == "c":
                    body.append("{ WEFT_ME; sum += WEFT_CALL(%s_inner); }" % name)
                elif LACE2:
                    body.append("sum += %s_inner();" % name)  # NAME() finds the top
                else:
                    body.append("{ LACE_ME; sum += CALL(%s_inner); }" % name)
            continue
        if api not in opened and api in REGISTER and s[1] != "w":
            opened.add(api)
            body.append("WEFT_ME;" if api == "c" else "LACE_ME;")
        body.append(op_code(api, s[1]))
    if below:
        body.append(op_code(host_of(a), "j"))
    lines += body + ["return sum; }"]
    return lines


def main():
    out_path = sys.argv[1]
    cases = []
    lines = []
    idx = 0
    pairs = [(a, b) for a in PENDING + WHOLE for b in PENDING + WHOLE if a != b]
    for a, b in pairs:
        for order, steps in ORDERS:
            called = order.endswith("_call")
            if a in WHOLE:
                continue  # a whole operation hosts no body of ours: see below
            has_b_pending = any(s[0] == "B" and s[1] in "sj" for s in steps)
            if b in WHOLE and has_b_pending:
                continue
            if b not in WHOLE and not has_b_pending and not (LACE2 and b == "lace"):
                continue
            if called and b not in REGISTER:
                continue
            if LACE2 and b == "lace" and has_b_pending and not called:
                continue  # Lace 2's record head: reached from another body by NAME() only
            for below in (False, True):
                outcome, at = model(a, b, steps, called, below)
                lines += case_body(idx, a, b, steps, called, below)
                host = host_of(a)
                label = f"{a}-{b}-{order}" + ("-below" if below else "")
                cases.append((idx, label, host, outcome, answer(a, b, steps)))
                idx += 1
    # The body of a whole operation (join's callables, parallel_for's body)
    # hosting another front-end's pending spawn and join: always nested.
    # (The work pool's process function runs on the pool's own threads: a
    # fork-join call from there is a RUN from outside, the pool-inside-a-
    # task case of docs/pool.md, not a mixing of two APIs in one body.)
    for a in ("join", "pfor"):
        for b in PENDING:
            name = f"mx_case{idx}"
            pre = {"c": "WEFT_ME;", "lace": "LACE_ME;", "tg": "weft::task_group tg; long tg_sum = 0;"}[b]
            ops = [op_code(b, "s"), op_code(b, "j")]
            if LACE2 and b == "lace":
                pre, ops = "", [op_code(b, "w")]
            inner = " ".join([pre, "long sum = 0;"] + ops + ["return sum;"])
            if a == "join":
                lines.append(f"WEFT_TASK_0(long, {name}) {{ auto r = weft::join([&]() -> long {{ {inner} }},"
                             " [] { return 0L; }); return r.first; }")
            else:
                lines.append(f"WEFT_TASK_0(long, {name}) {{ std::atomic<long> s{{0}};"
                             f" weft::parallel_for(0, 2, [&](int i) {{ if (i == 0) s += [&]() -> long {{ {inner} }}(); }});"
                             " return s.load(); }")
            cases.append((idx, f"{a}-{b}-inside", "c", "answer", mx_fib(LEAF[b])))
            idx += 1

    with open(out_path, "w") as f:
        f.write("// Generated by tests/mixing/gen_matrix.py: do not edit.\n")
        f.write('#include "matrix_runner.hpp"\n\n')
        f.write("\n".join(lines) + "\n\n")
        f.write("static long mx_run(int i) {\n    switch (i) {\n")
        for i, label, host, outcome, ans in cases:
            if host == "c":
                call = f"WEFT_RUN(mx_case{i})"
            else:
                call = f"mx_case{i}()" if LACE2 else f"RUN(mx_case{i})"
            f.write(f"    case {i}: return {call};\n")
        f.write("    }\n    return -1;\n}\n\n")
        f.write("static const mx_case mx_cases[] = {\n")
        for i, label, host, outcome, ans in cases:
            f.write(f'    {{{i}, "{label}", MX_{outcome.upper()}, {ans}L}},\n')
        f.write("};\n\n")
        f.write("int main(int argc, char **argv) { return mx_main(mx_cases, "
                "sizeof mx_cases / sizeof mx_cases[0], mx_run, argc, argv); }\n")
    refused = sum(1 for c in cases if c[3] != "answer")
    print(f"gen_matrix: {len(cases)} cases, {len(cases) - refused} with an answer, "
          f"{refused} refused")


if __name__ == "__main__":
    main()
