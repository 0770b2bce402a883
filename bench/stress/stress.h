// SPDX-License-Identifier: Apache-2.0
/* stress (Wool's load-balancing micro-benchmark, Faxén 2010, section IV-A),
 * shared by stress-seq.c and stress-weft.c: the leaf loop, the closed-form
 * answer and the command line.
 *
 *   stress-seq  <leaf-iterations> <height> <repetitions>
 *   stress-weft -w <workers> <leaf-iterations> <height> <repetitions>
 *
 * Wool writes stress(4096, 3, 128K): leaf size 4096, height 3, 131072
 * repetitions.
 *
 * The algorithm, precisely (a port must give the same answer):
 *   - A tree of height h has 2^h leaves, numbered j = 0 .. 2^h - 1 from the
 *     left.  tree(h, first) is leaf(n, first) when h == 0, otherwise
 *     tree(h-1, first) + tree(h-1, first + 2^(h-1)); the parallel version
 *     spawns the left subtree, calls the right one and joins.
 *   - leaf(n, j): x = j; for i = 0 .. n-1: x = x + i; return x.  All
 *     arithmetic is on unsigned 64-bit integers, wrapping.  The loop makes
 *     no memory references; an empty asm statement that claims to change x
 *     after every addition stops the compiler from replacing the loop by
 *     its closed form or vectorising it (a port needs its own opaque
 *     barrier: an empty asm in C++, std::hint::black_box in Rust; in Java
 *     check that the time grows with n, i.e. that the JIT kept the loop).
 *   - The program evaluates tree(h, 0) r times, one tree after the other
 *     (the trees are serialised: the next starts when the previous one has
 *     returned), and sums the r results (wrapping).
 *   - The answer: leaf(n, j) = j + n(n-1)/2, so one tree sums to
 *     L(L-1)/2 + L n(n-1)/2 with L = 2^h, and the r trees to r times that,
 *     all modulo 2^64.  stress_check compares the sum with this closed form.
 * Output: "stress(n, h, r) = <sum>", then "Time: <seconds>" for the r trees.
 */
#ifndef WEFT_BENCH_STRESS_H
#define WEFT_BENCH_STRESS_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#define STRESS_MAX_LEAF_ITERATIONS (1L << 30)
#define STRESS_MAX_HEIGHT 30
#define STRESS_MAX_REPETITIONS (1L << 40)

/* One leaf: n dependent additions in a register.  The asm statement is
 * opaque to the optimiser (it "may change" x), so the additions stay one
 * per iteration.  Not inlined, and aligned, so that stress-seq and
 * stress-weft run the same machine code for it: inlined, gcc copied the
 * loop into several levels of the unrolled sequential recursion, and a
 * copy that straddled a 32-byte boundary ran at 1.5 cycles an iteration
 * instead of 1 (AMD EPYC here), which made weft look 30-40 % faster than
 * the sequential program. */
__attribute__((noinline, aligned(64))) static uint64_t stress_leaf(uint64_t n, uint64_t j)
{
    uint64_t x = j;
    for (uint64_t i = 0; i < n; i++) {
        x += i;
        __asm__ __volatile__("" : "+r"(x));
    }
    return x;
}

/* n(n-1)/2 modulo 2^64, halving the even factor first so no bit is lost. */
static inline uint64_t stress_triangle(uint64_t n)
{
    if (n == 0)
        return 0;
    return (n % 2 == 0) ? (n / 2) * (n - 1) : n * ((n - 1) / 2);
}

/* The sum of r trees of height h with n-iteration leaves, modulo 2^64. */
static inline uint64_t stress_expected(uint64_t n, int h, uint64_t r)
{
    uint64_t leaves = UINT64_C(1) << h;
    return r * (stress_triangle(leaves) + leaves * stress_triangle(n));
}

typedef struct stress_args {
    uint64_t leaf_iterations;
    int height;
    uint64_t repetitions;
} stress_args;

/* Parses <leaf-iterations> <height> <repetitions> (after -w was taken out
 * by the caller); exits with a usage message on anything else. */
static inline stress_args stress_parse(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 3, 3, usage,
                      "  leaf-iterations: additions per leaf, in [0, %ld]\n"
                      "  height: the tree has 2^height leaves, height in [0, %d]\n"
                      "  repetitions: trees run one after the other, in [1, %ld]\n",
                      STRESS_MAX_LEAF_ITERATIONS, STRESS_MAX_HEIGHT, STRESS_MAX_REPETITIONS);
    stress_args a;
    a.leaf_iterations = (uint64_t)bench_arg_long(argv[0], "leaf-iterations", argv[1], 0,
                                                 STRESS_MAX_LEAF_ITERATIONS);
    a.height = (int)bench_arg_long(argv[0], "height", argv[2], 0, STRESS_MAX_HEIGHT);
    a.repetitions =
        (uint64_t)bench_arg_long(argv[0], "repetitions", argv[3], 1, STRESS_MAX_REPETITIONS);
    return a;
}

static inline void stress_report(const stress_args *a, uint64_t sum)
{
    printf("stress(%" PRIu64 ", %d, %" PRIu64 ") = %" PRIu64 "\n", a->leaf_iterations, a->height,
           a->repetitions, sum);
    uint64_t want = stress_expected(a->leaf_iterations, a->height, a->repetitions);
    BENCH_CHECK(sum == want, "stress sum is %" PRIu64 ", expected %" PRIu64, sum, want);
}

#endif
