// SPDX-License-Identifier: Apache-2.0
/* cilksort on OpenMP tasks (the recursion of bench/cilksort/cilksort.h):
 * three quarter sorts as tasks and the fourth called, taskwait; the two
 * first merges one a task and one called, taskwait; then the last merge.
 * A parallel merge runs its lower part as a task and calls the upper
 * one.  The cut-offs and sequential pieces are the header's. */
#include "cilksort.h"
#include "cilksort-peer.h"

static void merge(const cs_key *l1, const cs_key *h1, const cs_key *l2, const cs_key *h2,
                  cs_key *dest)
{
    const cs_key *s1, *s2;
    if (!cs_merge_split(&l1, &h1, &l2, &h2, dest, &s1, &s2))
        return;
        /* The two parts write disjoint ranges of dest. */
#pragma omp task firstprivate(l1, s1, l2, s2, dest)
    merge(l1, s1, l2, s2, dest);
    merge(s1, h1, s2, h2, dest + (s1 - l1) + (s2 - l2));
#pragma omp taskwait
}

static void sort(cs_key *a, cs_key *tmp, size_t n)
{
    if (n < CILKSORT_QUICK_CUTOFF) {
        cs_quicksort(a, a + n);
        return;
    }
    size_t q = n / 4;
#pragma omp task firstprivate(a, tmp, q)
    sort(a, tmp, q);
#pragma omp task firstprivate(a, tmp, q)
    sort(a + q, tmp + q, q);
#pragma omp task firstprivate(a, tmp, q)
    sort(a + 2 * q, tmp + 2 * q, q);
    sort(a + 3 * q, tmp + 3 * q, n - 3 * q);
#pragma omp taskwait
#pragma omp task firstprivate(a, tmp, q)
    merge(a, a + q, a + q, a + 2 * q, tmp);
    merge(a + 2 * q, a + 3 * q, a + 3 * q, a + n, tmp + 2 * q);
#pragma omp taskwait
    merge(tmp, tmp + 2 * q, tmp + 2 * q, tmp + n, a);
}

void cilksort_parallel(cs_key *a, cs_key *tmp, size_t n)
{
#pragma omp parallel firstprivate(a, tmp, n)
    {
#pragma omp single
        sort(a, tmp, n);
    }
}
