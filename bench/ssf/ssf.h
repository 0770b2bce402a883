// SPDX-License-Identifier: Apache-2.0
/* ssf (Wool's sub-string finder, after the TBB example; Faxén 2010,
 * section IV-A), shared by ssf-seq.c and ssf-weft.c: the string, the
 * per-position search, the command line and the answer checks.
 *
 *   ssf-seq  <k> <repetitions>
 *   ssf-weft -w <workers> <k> <repetitions>
 *
 * The algorithm, precisely (a port must give the same answer):
 *   - The string is the Fibonacci word of order k: s_0 = "a", s_1 = "b",
 *     s_k = s_{k-1} s_{k-2} (concatenation).  Its length N is the Fibonacci
 *     number F(k+1) with F(1) = F(2) = 1: 233 for k = 12, 1597 for k = 16.
 *   - For every position i in [0, N), over every other position j != i in
 *     increasing order, lcp(i, j) is the length of the longest common
 *     prefix of the suffixes starting at i and at j (both stop at the end
 *     of the string).  len[i] is the largest lcp(i, j) and pos[i] the
 *     smallest j reaching it; when every lcp is 0, len[i] = 0 and
 *     pos[i] = -1.  (Scan: best = 0, pos = -1; replace both when
 *     lcp(i, j) > best.)
 *   - One repetition computes len and pos for every position.  The
 *     parallel version splits the position range [lo, hi) in halves
 *     recursively, spawning the lower half and calling the upper one, down
 *     to one position per task: N - 1 spawns per repetition.  The
 *     sequential version is the plain loop over i.
 *   - The whole search is repeated r times, one after the other (each
 *     overwrites len and pos with the same values).
 *   - Output: "ssf(k, r): N = <N>, total length <sum of len[i]>, checksum
 *     <c>" with c = sum over i of (i + 1) * (len[i] * (N + 1) + pos[i] + 1)
 *     modulo 2^64 (unsigned).  Then "Time: <seconds>" for the r searches.
 *   - The checks: len and pos are recomputed by a different algorithm, a
 *     dynamic programme over the lcp table (lcp(i, j) = 0 if s[i] != s[j],
 *     else 1 + lcp(i+1, j+1), one row at a time from i = N-1 down), and
 *     must be equal everywhere; for k = 5 the arrays, and for a few k the
 *     total and checksum, must equal values computed independently (a
 *     Python transcription of the definition; k = 5 also by hand).
 */
#ifndef WEFT_BENCH_SSF_H
#define WEFT_BENCH_SSF_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define SSF_MAX_K 25 /* N = 121,393: about 15 G character pairs per search */
#define SSF_MAX_REPETITIONS (1L << 30)

typedef struct ssf_problem {
    int k;
    long repetitions;
    int n;         /* length of the string */
    char *text;    /* the Fibonacci word, NUL-terminated */
    int *best_len; /* len[i] */
    int *best_pos; /* pos[i] */
} ssf_problem;

/* The Fibonacci word of order k, built in place: s_k is s_{k-1} followed
 * by s_{k-2}, and s_{k-1} is a prefix of s_k, so extending the buffer by
 * its own prefix of the right length is enough. */
static inline char *ssf_fibonacci_word(int k, int *length)
{
    long prev = 1, cur = 1; /* |s_0|, |s_1| */
    for (int i = 2; i <= k; i++) {
        long next = cur + prev;
        prev = cur;
        cur = next;
    }
    char *s = malloc((size_t)cur + 1);
    BENCH_CHECK(s != NULL, "cannot allocate %ld bytes", cur + 1);
    if (k == 0) {
        s[0] = 'a';
    } else {
        s[0] = 'b';                   /* s_1 */
        long len = 1, len_before = 1; /* |s_i|, |s_{i-1}| for i = 1 */
        for (int i = 2; i <= k; i++) {
            /* s_i = s_{i-1} s_{i-2}, and s_{i-2} is a prefix of s_{i-1}
             * for i >= 3; for i = 2 it is "a". */
            long len_two_before = len_before;
            if (i == 2)
                s[len] = 'a';
            else
                for (long c = 0; c < len_two_before; c++)
                    s[len + c] = s[c];
            len_before = len;
            len += len_two_before;
        }
    }
    s[cur] = '\0';
    *length = (int)cur;
    return s;
}

/* Parses <k> <repetitions> (after -w was taken out by the caller) and
 * builds the string and the result arrays. */
static inline ssf_problem ssf_setup(int argc, char **argv, const char *usage)
{
    bench_expect_args(argc, argv, 2, 2, usage,
                      "  k: order of the Fibonacci word, in [0, %d]\n"
                      "  repetitions: searches run one after the other, in [1, %ld]\n",
                      SSF_MAX_K, SSF_MAX_REPETITIONS);
    ssf_problem p;
    p.k = (int)bench_arg_long(argv[0], "k", argv[1], 0, SSF_MAX_K);
    p.repetitions = bench_arg_long(argv[0], "repetitions", argv[2], 1, SSF_MAX_REPETITIONS);
    p.text = ssf_fibonacci_word(p.k, &p.n);
    p.best_len = malloc((size_t)p.n * sizeof(int));
    p.best_pos = malloc((size_t)p.n * sizeof(int));
    BENCH_CHECK(p.best_len && p.best_pos, "cannot allocate the result arrays");
    /* Impossible values, so a position no task wrote fails the check. */
    for (int i = 0; i < p.n; i++) {
        p.best_len[i] = -1;
        p.best_pos[i] = -2;
    }
    return p;
}

/* The search for one position: the definition, pair by pair. */
static inline void ssf_position(const char *restrict s, int n, int i, int *restrict best_len,
                                int *restrict best_pos)
{
    int best = 0, where = -1;
    for (int j = 0; j < n; j++) {
        if (j == i)
            continue;
        int limit = n - (i > j ? i : j);
        int l = 0;
        while (l < limit && s[i + l] == s[j + l])
            l++;
        if (l > best) {
            best = l;
            where = j;
        }
    }
    best_len[i] = best;
    best_pos[i] = where;
}

/* ---- checks ---- */

/* len and pos by the lcp-table recurrence, O(N^2) time, O(N) space. */
static inline void ssf_reference(const char *s, int n, int *ref_len, int *ref_pos)
{
    int *next_row = calloc((size_t)n + 1, sizeof(int)); /* lcp(i+1, j), j <= n */
    int *row = calloc((size_t)n + 1, sizeof(int));      /* lcp(i, j) */
    BENCH_CHECK(next_row && row, "cannot allocate the reference rows");
    for (int i = n - 1; i >= 0; i--) {
        int best = 0, where = -1;
        for (int j = 0; j < n; j++) {
            row[j] = (s[i] == s[j]) ? next_row[j + 1] + 1 : 0;
            if (j != i && row[j] > best) {
                best = row[j];
                where = j;
            }
        }
        row[n] = 0; /* the empty suffix */
        ref_len[i] = best;
        ref_pos[i] = where;
        int *t = row;
        row = next_row;
        next_row = t;
    }
    free(row);
    free(next_row);
}

/* Values computed independently of this file (see the top). */
static const struct ssf_known {
    int k;
    uint64_t total_length, checksum;
} ssf_known_totals[] = {
    {5, 17, 707},
    {8, 384, 195093},
    {12, 19052, 412172794},
    {16, 901929, UINT64_C(903845346554)},
};
static const int ssf_known_len5[8] = {3, 2, 1, 3, 2, 3, 2, 1};
static const int ssf_known_pos5[8] = {3, 4, 0, 0, 1, 0, 1, 0};

/* Prints the result line and checks it (see the top of this file). */
static inline void ssf_report(const ssf_problem *p)
{
    const int n = p->n;
    uint64_t total = 0, checksum = 0;
    for (int i = 0; i < n; i++) {
        BENCH_CHECK(p->best_len[i] >= 0 && p->best_pos[i] >= -1 && p->best_pos[i] < n,
                    "position %d was not searched (len %d, pos %d)", i, p->best_len[i],
                    p->best_pos[i]);
        total += (uint64_t)p->best_len[i];
        checksum += (uint64_t)(i + 1) *
                    ((uint64_t)p->best_len[i] * (uint64_t)(n + 1) + (uint64_t)(p->best_pos[i] + 1));
    }
    printf("ssf(%d, %ld): N = %d, total length %" PRIu64 ", checksum %" PRIu64 "\n", p->k,
           p->repetitions, n, total, checksum);

    int *ref_len = malloc((size_t)n * sizeof(int));
    int *ref_pos = malloc((size_t)n * sizeof(int));
    BENCH_CHECK(ref_len && ref_pos, "cannot allocate the reference arrays");
    ssf_reference(p->text, n, ref_len, ref_pos);
    for (int i = 0; i < n; i++)
        BENCH_CHECK(p->best_len[i] == ref_len[i] && p->best_pos[i] == ref_pos[i],
                    "position %d: longest repeat %d at %d, the lcp table says %d at %d", i,
                    p->best_len[i], p->best_pos[i], ref_len[i], ref_pos[i]);
    free(ref_len);
    free(ref_pos);

    if (p->k == 5)
        for (int i = 0; i < n; i++)
            BENCH_CHECK(p->best_len[i] == ssf_known_len5[i] && p->best_pos[i] == ssf_known_pos5[i],
                        "k = 5, position %d: %d at %d, known %d at %d", i, p->best_len[i],
                        p->best_pos[i], ssf_known_len5[i], ssf_known_pos5[i]);
    for (size_t e = 0; e < sizeof ssf_known_totals / sizeof ssf_known_totals[0]; e++)
        if (ssf_known_totals[e].k == p->k)
            BENCH_CHECK(total == ssf_known_totals[e].total_length &&
                            checksum == ssf_known_totals[e].checksum,
                        "k = %d: total %" PRIu64 ", checksum %" PRIu64 "; known %" PRIu64
                        ", %" PRIu64,
                        p->k, total, checksum, ssf_known_totals[e].total_length,
                        ssf_known_totals[e].checksum);
}

static inline void ssf_free(ssf_problem *p)
{
    free(p->text);
    free(p->best_len);
    free(p->best_pos);
}

#endif
