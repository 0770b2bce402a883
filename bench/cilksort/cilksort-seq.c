// SPDX-License-Identifier: Apache-2.0
/* cilksort, sequential baseline: the recursion of cilksort-weft.c (see
 * cilksort.h) with plain calls where the parallel version spawns.
 *
 *   cilksort-seq <n>
 */
#include "cilksort.h"

static void merge(const cs_key *l1, const cs_key *h1, const cs_key *l2, const cs_key *h2,
                  cs_key *dest)
{
    const cs_key *s1, *s2;
    if (!cs_merge_split(&l1, &h1, &l2, &h2, dest, &s1, &s2))
        return;
    merge(l1, s1, l2, s2, dest);
    merge(s1, h1, s2, h2, dest + (s1 - l1) + (s2 - l2));
}

static void sort(cs_key *a, cs_key *tmp, size_t n)
{
    if (n < CILKSORT_QUICK_CUTOFF) {
        cs_quicksort(a, a + n);
        return;
    }
    size_t q = n / 4;
    sort(a, tmp, q);
    sort(a + q, tmp + q, q);
    sort(a + 2 * q, tmp + 2 * q, q);
    sort(a + 3 * q, tmp + 3 * q, n - 3 * q);
    merge(a, a + q, a + q, a + 2 * q, tmp);
    merge(a + 2 * q, a + 3 * q, a + 3 * q, a + n, tmp + 2 * q);
    merge(tmp, tmp + 2 * q, tmp + 2 * q, tmp + n, a);
}

int main(int argc, char **argv)
{
    size_t n = (size_t)cs_args(argc, argv, "<n>");
    cs_key *a = cs_alloc(n), *tmp = cs_alloc(n);
    cs_fill(a, n);
    cs_fingerprint input = cs_fingerprint_of(a, n);

    double t0 = bench_now();
    sort(a, tmp, n);
    double seconds = bench_seconds_since(t0);

    cs_print(a, n);
    cs_check(a, n, input);
    bench_print_time(seconds);
    free(a);
    free(tmp);
    return 0;
}
