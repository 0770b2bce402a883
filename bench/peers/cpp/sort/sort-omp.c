// SPDX-License-Identifier: Apache-2.0
/* sort on OpenMP tasks.  OpenMP has no parallel sort of its own, so this
 * is the usual task-parallel quicksort: a median-of-three Hoare partition,
 * the lower part a task and the upper one taken on in the same task,
 * sequential below SORT_OMP_CUTOFF ints (the same quicksort, insertion
 * sort below SORT_OMP_INSERTION).  No taskwait: nothing waits for a part's
 * result, and the parallel region's closing barrier waits for every
 * task. */
#include "sort.h"
#include "sort-peer.h"

#define SORT_OMP_CUTOFF 4096  /* parts smaller than this are sorted in one task */
#define SORT_OMP_INSERTION 16 /* the quicksort hands over below this */

static void swap(int *a, size_t i, size_t j)
{
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
}

static void insertion_sort(int *a, size_t n)
{
    for (size_t p = 1; p < n; p++) {
        int k = a[p];
        size_t q = p;
        for (; q > 0 && k < a[q - 1]; q--)
            a[q] = a[q - 1];
        a[q] = k;
    }
}

/* Partitions a[0..n), n >= 3: returns s, 1 <= s < n, with every a[0..s)
 * <= every a[s..n).  The median of three is put in order first, so both
 * scans stop inside the range. */
static size_t partition(int *a, size_t n)
{
    size_t mid = n / 2;
    if (a[mid] < a[0])
        swap(a, mid, 0);
    if (a[n - 1] < a[mid]) {
        swap(a, n - 1, mid);
        if (a[mid] < a[0])
            swap(a, mid, 0);
    }
    int pivot = a[mid];
    size_t i = 0, j = n - 1;
    for (;;) {
        while (a[i] < pivot)
            i++;
        while (pivot < a[j])
            j--;
        if (i >= j)
            return j + 1;
        swap(a, i, j);
        i++;
        j--;
    }
}

static void quicksort_seq(int *a, size_t n)
{
    while (n > SORT_OMP_INSERTION) {
        size_t s = partition(a, n);
        if (s < n - s) { /* recurse on the smaller part: depth O(log n) */
            quicksort_seq(a, s);
            a += s;
            n -= s;
        } else {
            quicksort_seq(a + s, n - s);
            n = s;
        }
    }
    insertion_sort(a, n);
}

static void quicksort_tasks(int *a, size_t n)
{
    while (n > SORT_OMP_CUTOFF) {
        size_t s = partition(a, n);
#pragma omp task firstprivate(a, s)
        quicksort_tasks(a, s);
        a += s;
        n -= s;
    }
    quicksort_seq(a, n);
}

void sort_parallel(int *a, size_t n)
{
#pragma omp parallel firstprivate(a, n)
    {
#pragma omp single
        quicksort_tasks(a, n);
    }
}
