// SPDX-License-Identifier: Apache-2.0
/* lace_start leaves the C library's rand() where Lace leaves it: Lace
 * seeds each worker's generator with two rand() draws (lace_init_worker in
 * Lace 1.4.2, 1.6 and 2.0.3), so after srand(s) and lace_start(n, ...) the
 * program's next rand() is the (2n + 1)th number of srand(s)'s sequence.
 * weft makes the draws before lace_start returns (docs/lace.md, "lace_start
 * and rand()").  Built against the Lace 1 layer (WEFT_LACE_API 14 or 16)
 * and the Lace 2 layer (its lace.h); with -DLACE_RAND_WAIT_FOR_WORKERS it
 * first waits for every worker (a TOGETHER), which real Lace needs, whose
 * workers draw on their own threads after lace_start has returned. */
#include <lace.h>

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr); \
            exit(1); \
        } \
    } while (0)

#if LACE_VERSION_MAJOR >= 2
#define START(n) lace_start((n), 0, 0)
VOID_TASK_0(all_workers)
void all_workers_CALL(lace_worker *lw) { (void)lw; }
#define WAIT_FOR_WORKERS() all_workers_TOGETHER()
#else
#define START(n) lace_start((n), 0)
VOID_TASK_0(all_workers) {}
#define WAIT_FOR_WORKERS() TOGETHER(all_workers)
#endif

#ifdef LACE_RAND_WAIT_FOR_WORKERS
#define STARTED() WAIT_FOR_WORKERS()
#else
#define STARTED() ((void)0)
#endif

enum { SEED = 20241124, LOOK = 3 };

/* The LOOK numbers of srand(SEED)'s sequence after the first `skip`. */
static void expected(unsigned skip, int out[LOOK])
{
    srand(SEED);
    for (unsigned i = 0; i < skip; i++)
        (void)rand();
    for (int i = 0; i < LOOK; i++)
        out[i] = rand();
}

static void check_next(unsigned skip, const char *what)
{
    int got[LOOK], want[LOOK];
    for (int i = 0; i < LOOK; i++)
        got[i] = rand();
    expected(skip, want);
    for (int i = 0; i < LOOK; i++)
        CHECK(got[i] == want[i],
              "%s: rand() #%d after lace_start is %d; with %u numbers drawn (2 per worker "
              "started) it would be %d",
              what, i + 1, got[i], skip, want[i]);
}

int main(void)
{
    /* The numbers differ from one skip to the next: a skip that is wrong
     * cannot pass by chance. */
    int a[LOOK], b[LOOK];
    expected(0, a);
    expected(2, b);
    CHECK(a[0] != b[0], "srand(%d)'s sequence repeats itself", SEED);

    static const unsigned sizes[] = {1, 2, 3, 8};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        unsigned n = sizes[k];
        char what[64];
        snprintf(what, sizeof what, "lace_start(%u)", n);
        srand(SEED);
        START(n);
        STARTED();
        check_next(2 * n, what);
        lace_stop();
    }

    /* lace_stop draws none; a second lace_start draws for its workers. */
    srand(SEED);
    START(2);
    STARTED();
    lace_stop();
    START(3);
    STARTED();
    check_next(2 * 2 + 2 * 3, "lace_start(2), lace_stop, lace_start(3)");
    lace_stop();

    /* lace_start(0): two per worker it started. */
    srand(SEED);
    START(0);
    STARTED();
#if LACE_VERSION_MAJOR >= 2
    unsigned w = lace_worker_count();
#else
    unsigned w = lace_workers();
#endif
    check_next(2 * w, "lace_start(0)");
    lace_stop();

    printf("ok: rand() after lace_start is 2 numbers per worker further on\n");
    return 0;
}
