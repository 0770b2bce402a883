// SPDX-License-Identifier: Apache-2.0
/* cilksort (Cilk-5's cilksort, as benchmarked by Acar, Charguéraud and
 * Rainey): merge sort whose merges are themselves parallel.  Shared by
 * cilksort-seq.c and cilksort-weft.c: the input, the sequential pieces
 * (quicksort, insertion sort, merge, binary-search split) and the check.
 *
 *   cilksort-seq <n>            cilksort-weft [-w workers] <n>
 *
 * Input: n keys, unsigned 64-bit.  key[i] is the i-th output (i = 0, 1, ...)
 * of splitmix64 started from state CILKSORT_SEED:
 *     state += 0x9E3779B97F4A7C15;
 *     z = state;
 *     z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
 *     z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
 *     key = z ^ (z >> 31);
 * Keys compare as unsigned integers.
 *
 * Algorithm, sort(a, tmp, n) sorts a[0..n) using tmp[0..n) as scratch:
 *   - n < CILKSORT_QUICK_CUTOFF: sequential quicksort (median of three,
 *     Hoare partition), insertion sort below CILKSORT_INSERTION_CUTOFF.
 *   - otherwise q = n / 4 and the quarters a[0..q), a[q..2q), a[2q..3q),
 *     a[3q..n) are sorted in parallel (quarter k with tmp's quarter k as
 *     scratch); then quarters 1+2 merge into tmp[0..2q) while quarters 3+4
 *     merge into tmp[2q..n) (in parallel); then the two halves of tmp merge
 *     back into a.
 *   merge(run1, run2, dest), both runs sorted:
 *   - make run1 the longer one; if the total is < CILKSORT_MERGE_CUTOFF,
 *     merge sequentially;
 *   - otherwise s1 = middle element of run1, s2 = the first element of
 *     run2 that is >= run1[s1] (binary search); merge run1[..s1) with
 *     run2[..s2) and run1[s1..) with run2[s2..) into the two consecutive
 *     parts of dest, in parallel.
 * cilksort-seq runs exactly this recursion with plain calls.
 *
 * Output line: "cilksort(<n>): first <hex> median <hex> last <hex>", the
 * sorted keys at 0, n / 2 and n - 1 as 16 hex digits (same in every port).
 *
 * Check: the output is non-decreasing, and it is a permutation of the
 * input as far as a multiset fingerprint can tell: the wrapping (mod 2^64)
 * sum of the keys, the wrapping sum of mix(key) and the xor of mix(key)
 * (mix = the three finalising lines of splitmix64 above, applied to the
 * key itself) are computed from the input before sorting and compared
 * with the output's.  A wrong answer prints "FAILED: ..." and exits 1.
 */
#ifndef WEFT_BENCH_CILKSORT_H
#define WEFT_BENCH_CILKSORT_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define CILKSORT_SEED UINT64_C(0x5EEDC11C5027)
#define CILKSORT_QUICK_CUTOFF 2048   /* sort sizes below this sequentially */
#define CILKSORT_MERGE_CUTOFF 2048   /* merge totals below this sequentially */
#define CILKSORT_INSERTION_CUTOFF 20 /* quicksort hands over below this */
#define CILKSORT_MAX_N 4000000000L   /* 2 x 32 GB of keys */

typedef uint64_t cs_key;

/* ---- input ---- */

static inline uint64_t cs_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static inline void cs_fill(cs_key *a, size_t n)
{
    uint64_t state = CILKSORT_SEED;
    for (size_t i = 0; i < n; i++) {
        state += UINT64_C(0x9E3779B97F4A7C15);
        a[i] = cs_mix(state);
    }
}

static inline long cs_args(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 1, 1, usage, "  n: number of keys to sort, in [1, %ld]\n",
                      CILKSORT_MAX_N);
    return bench_arg_long(argv[0], "n", argv[1], 1, CILKSORT_MAX_N);
}

static inline cs_key *cs_alloc(size_t n) { return bench_alloc(n, sizeof(cs_key), "keys"); }

/* ---- sequential building blocks ---- */

static inline void cs_insertion_sort(cs_key *lo, cs_key *hi)
{
    for (cs_key *p = lo + 1; p < hi; p++) {
        cs_key k = *p;
        cs_key *q = p;
        for (; q > lo && q[-1] > k; q--)
            *q = q[-1];
        *q = k;
    }
}

static inline void cs_swap(cs_key *a, cs_key *b)
{
    cs_key t = *a;
    *a = *b;
    *b = t;
}

/* Sorts [lo, hi).  The three sampled keys are put in order in place, so
 * lo[0] <= pivot <= hi[-1] stop both scans and the Hoare split point j
 * lies in [lo, hi - 2]: both parts are non-empty and smaller.  Recurses on
 * the smaller part and loops on the larger: O(log n) stack. */
static inline void cs_quicksort(cs_key *lo, cs_key *hi)
{
    while (hi - lo > CILKSORT_INSERTION_CUTOFF) {
        cs_key *mid = lo + (hi - lo) / 2;
        if (*mid < *lo)
            cs_swap(mid, lo);
        if (hi[-1] < *mid) {
            cs_swap(hi - 1, mid);
            if (*mid < *lo)
                cs_swap(mid, lo);
        }
        cs_key pivot = *mid;
        cs_key *i = lo - 1, *j = hi;
        for (;;) {
            do
                i++;
            while (*i < pivot);
            do
                j--;
            while (*j > pivot);
            if (i >= j)
                break;
            cs_swap(i, j);
        }
        cs_key *split = j + 1; /* [lo, split) <= pivot <= [split, hi) */
        if (split - lo < hi - split) {
            cs_quicksort(lo, split);
            lo = split;
        } else {
            cs_quicksort(split, hi);
            hi = split;
        }
    }
    cs_insertion_sort(lo, hi);
}

/* Merges the sorted runs [l1, h1) and [l2, h2) into dest. */
static inline void cs_seq_merge(const cs_key *l1, const cs_key *h1, const cs_key *l2,
                                const cs_key *h2, cs_key *dest)
{
    while (l1 < h1 && l2 < h2)
        *dest++ = (*l2 < *l1) ? *l2++ : *l1++;
    while (l1 < h1)
        *dest++ = *l1++;
    while (l2 < h2)
        *dest++ = *l2++;
}

/* The first position in the sorted run [lo, hi) whose key is >= k. */
static inline const cs_key *cs_lower_bound(const cs_key *lo, const cs_key *hi, cs_key k)
{
    while (lo < hi) {
        const cs_key *mid = lo + (hi - lo) / 2;
        if (*mid < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* One level of the parallel merge of the sorted runs [l1, h1) and [l2, h2)
 * into dest.  Below the merge cut-off it merges them itself and returns
 * false.  Otherwise it makes run 1 the longer one (swapping the runs) and
 * returns true with the split points: s1 the middle of run 1, s2 the lower
 * bound of *s1 in run 2.  The caller then merges [l1, s1) + [l2, s2) into
 * dest and [s1, h1) + [s2, h2) into dest + (s1 - l1) + (s2 - l2): disjoint
 * ranges of dest, so the two may run in parallel. */
static inline bool cs_merge_split(const cs_key **l1, const cs_key **h1, const cs_key **l2,
                                  const cs_key **h2, cs_key *dest, const cs_key **s1,
                                  const cs_key **s2)
{
    if (*h1 - *l1 < *h2 - *l2) { /* run 1 is the longer one */
        const cs_key *t = *l1;
        *l1 = *l2;
        *l2 = t;
        t = *h1;
        *h1 = *h2;
        *h2 = t;
    }
    if ((*h1 - *l1) + (*h2 - *l2) < CILKSORT_MERGE_CUTOFF) {
        cs_seq_merge(*l1, *h1, *l2, *h2, dest);
        return false;
    }
    *s1 = *l1 + (*h1 - *l1) / 2;
    *s2 = cs_lower_bound(*l2, *h2, **s1);
    return true;
}

/* ---- check ---- */

typedef struct cs_fingerprint {
    uint64_t sum, mix_sum, mix_xor;
} cs_fingerprint;

static inline cs_fingerprint cs_fingerprint_of(const cs_key *a, size_t n)
{
    cs_fingerprint f = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        uint64_t h = cs_mix(a[i]);
        f.sum += a[i];
        f.mix_sum += h;
        f.mix_xor ^= h;
    }
    return f;
}

static inline void cs_print(const cs_key *a, size_t n)
{
    printf("cilksort(%zu): first %016" PRIx64 " median %016" PRIx64 " last %016" PRIx64 "\n", n,
           a[0], a[n / 2], a[n - 1]);
}

static inline void cs_check(const cs_key *a, size_t n, cs_fingerprint input)
{
    for (size_t i = 1; i < n; i++)
        BENCH_CHECK(a[i - 1] <= a[i],
                    "not sorted: key[%zu] = %016" PRIx64 " > key[%zu] = %016" PRIx64, i - 1,
                    a[i - 1], i, a[i]);
    cs_fingerprint out = cs_fingerprint_of(a, n);
    BENCH_CHECK(out.sum == input.sum && out.mix_sum == input.mix_sum &&
                    out.mix_xor == input.mix_xor,
                "output is not a permutation of the input (fingerprint %016" PRIx64 "/%016" PRIx64
                "/%016" PRIx64 ", expected %016" PRIx64 "/%016" PRIx64 "/%016" PRIx64 ")",
                out.sum, out.mix_sum, out.mix_xor, input.sum, input.mix_sum, input.mix_xor);
}

#endif
