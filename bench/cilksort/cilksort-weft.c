// SPDX-License-Identifier: Apache-2.0
/* cilksort with a task per quarter sort and per half of a parallel merge
 * (Cilk-5's cilksort; see cilksort.h).
 *
 *   cilksort-weft [-w workers] <n>
 */
#include "cilksort.h"

#include <weft/weft.h>

WEFT_VOID_TASK_5(merge, const cs_key *, l1, const cs_key *, h1, const cs_key *, l2, const cs_key *,
                 h2, cs_key *, dest)
{
    const cs_key *s1, *s2;
    if (!cs_merge_split(&l1, &h1, &l2, &h2, dest, &s1, &s2))
        return;
    /* The two parts write disjoint ranges of dest. */
    WEFT_SPAWN(merge, l1, s1, l2, s2, dest);
    WEFT_CALL(merge, s1, h1, s2, h2, dest + (s1 - l1) + (s2 - l2));
    WEFT_SYNC(merge);
}

WEFT_VOID_TASK_3(sort, cs_key *, a, cs_key *, tmp, size_t, n)
{
    if (n < CILKSORT_QUICK_CUTOFF) {
        cs_quicksort(a, a + n);
        return;
    }
    size_t q = n / 4;
    WEFT_SPAWN(sort, a, tmp, q);
    WEFT_SPAWN(sort, a + q, tmp + q, q);
    WEFT_SPAWN(sort, a + 2 * q, tmp + 2 * q, q);
    WEFT_CALL(sort, a + 3 * q, tmp + 3 * q, n - 3 * q);
    WEFT_SYNC(sort);
    WEFT_SYNC(sort);
    WEFT_SYNC(sort);
    WEFT_SPAWN(merge, a, a + q, a + q, a + 2 * q, tmp);
    WEFT_CALL(merge, a + 2 * q, a + 3 * q, a + 3 * q, a + n, tmp + 2 * q);
    WEFT_SYNC(merge);
    WEFT_CALL(merge, tmp, tmp + 2 * q, tmp + 2 * q, tmp + n, a);
}

int main(int argc, char **argv)
{
    unsigned workers = bench_take_workers(&argc, &argv);
    size_t n = (size_t)cs_args(argc, argv, "[-w workers] <n>");
    cs_key *a = cs_alloc(n), *tmp = cs_alloc(n);
    cs_fill(a, n);
    cs_fingerprint input = cs_fingerprint_of(a, n);

    printf("workers: %u\n", bench_weft_start(workers));
    double t0 = bench_now();
    WEFT_RUN(sort, a, tmp, n);
    double seconds = bench_seconds_since(t0);

    cs_print(a, n);
    cs_check(a, n, input);
    bench_weft_finish(seconds);
    free(a);
    free(tmp);
    return 0;
}
