// SPDX-License-Identifier: Apache-2.0
/* sort: n random 32-bit ints sorted ascending -- the general-purpose
 * parallel sorts against std::sort.  Shared by sort-seq (std::sort),
 * sort-weft (weft::parallel_sort) and the peers' driver (sort-tbb:
 * tbb::parallel_sort); C and C++.
 *
 *   sort-seq <n>            sort-weft [-w workers] <n>
 *
 * Input: n ints; a[i] is the high 32 bits of the i-th output of
 * splitmix64 started from SORT_SEED (the generator of cilksort.h),
 * as a signed int.
 *
 * Output line: "sort(<n>): first <v> median <v> last <v>" (the sorted
 * values at 0, n / 2 and n - 1).  Check: non-decreasing, and the same
 * multiset as the input as far as the wrapping sum, the sum of squares
 * and the xor of the values can tell.  A wrong answer prints "FAILED: ..."
 * and exits 1.
 */
#ifndef WEFT_BENCH_SORT_H
#define WEFT_BENCH_SORT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define SORT_SEED UINT64_C(0x5EEDC11C5027)
#define SORT_MAX_N 2000000000L

typedef struct sort_fingerprint {
    uint64_t sum, squares, xor_all;
} sort_fingerprint;

/* Parses <n> (after -w was taken out by the caller). */
static inline size_t sort_args(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 1, 1, usage, NULL);
    return (size_t)bench_arg_long(argv[0], "n", argv[1], 1, SORT_MAX_N);
}

static inline int *sort_input(size_t n)
{
    int *a = (int *)bench_alloc(n, sizeof(int), "ints");
    uint64_t state = SORT_SEED;
    for (size_t i = 0; i < n; i++) {
        state += UINT64_C(0x9E3779B97F4A7C15);
        uint64_t z = state;
        z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
        z ^= z >> 31;
        a[i] = (int)(int32_t)(uint32_t)(z >> 32);
    }
    return a;
}

static inline sort_fingerprint sort_fingerprint_of(const int *a, size_t n)
{
    sort_fingerprint f = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint64_t v = (uint64_t)(int64_t)a[i];
        f.sum += v;
        f.squares += v * v;
        f.xor_all ^= v;
    }
    return f;
}

static inline void sort_print(const int *a, size_t n)
{
    printf("sort(%zu): first %d median %d last %d\n", n, a[0], a[n / 2], a[n - 1]);
}

static inline void sort_check(const int *a, size_t n, sort_fingerprint input)
{
    for (size_t i = 1; i < n; i++)
        BENCH_CHECK(a[i - 1] <= a[i], "sort: a[%zu] = %d > a[%zu] = %d", i - 1, a[i - 1], i, a[i]);
    sort_fingerprint out = sort_fingerprint_of(a, n);
    BENCH_CHECK(out.sum == input.sum && out.squares == input.squares &&
                    out.xor_all == input.xor_all,
                "sort: the output is not a permutation of the input");
}

#endif
