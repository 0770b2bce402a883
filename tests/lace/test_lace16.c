// SPDX-License-Identifier: Apache-2.0
/* Lace 1.6 programs as real clients write them: the generic TASK(rtype,
 * name, ...) with 0 to 10 parameters, NAME_CALL pointers as callbacks
 * (LACE_TYPEDEF_CB), lace_is_running, lace_sleep_us, lace_gethrtime,
 * lace_rng and LACE_TRNG, the portability layer, and 64 threads running
 * tasks from outside the pool at once.  Built twice: on weft's 64-byte
 * descriptors and on 128-byte ones, where a task takes 80 bytes of
 * arguments. */
#include <lace.h>

#include "check.h"

WEFT_STATIC_ASSERT(LACE_VERSION_MAJOR == 1 && LACE_VERSION_MINOR == 6, "Lace 1.6");

TASK(long, fib, int, n)
{
    if (n < 2)
        return n;
    SPAWN(fib, n - 1);
    long b = CALL(fib, n - 2);
    return SYNC(fib) + b;
}
TASK(int, zero_args) { return 7; }
static _Atomic int void_sum;
TASK(void, add_one) { void_sum += 1; }
TASK(void, add, int, x) { void_sum += x; }
TASK(int, ten, int, a1, int, a2, int, a3, int, a4, int, a5, int, a6, int, a7, int, a8, int, a9, int,
     a10)
{
    return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 + 9 * a9 + 10 * a10;
}
TASK(void, ten_void, char, a1, char, a2, char, a3, char, a4, char, a5, char, a6, char, a7, char, a8,
     char, a9, int *, out)
{
    *out = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9;
}
/* void * is a value, not void. */
TASK(void *, same_ptr, void *, p) { return p; }
TASK(long double, ld_half, long double, x) { return x / 2; }

#if WEFT_TASK_SIZE >= 128
/* 128-byte descriptors: ten 8-byte arguments, 80 bytes, more than a 64-byte
 * descriptor holds, in a tree whose tasks thieves take. */
TASK(long, wide, long, a1, long, a2, long, a3, long, a4, long, a5, long, a6, long, a7, long, a8,
     long, a9, long, depth)
{
    if (depth == 0)
        return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 + 9 * a9;
    SPAWN(wide, a2, a3, a4, a5, a6, a7, a8, a9, a1 + depth, depth - 1);
    long b = CALL(wide, a9, a8, a7, a6, a5, a4, a3, a2, a1 - depth, depth - 1);
    return SYNC(wide) + b;
}
static long wide_seq(long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8,
                     long a9, long depth)
{
    if (depth == 0)
        return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 + 9 * a9;
    return wide_seq(a2, a3, a4, a5, a6, a7, a8, a9, a1 + depth, depth - 1) +
           wide_seq(a9, a8, a7, a6, a5, a4, a3, a2, a1 - depth, depth - 1);
}
#endif

TASK(int, spawn_all)
{
    int out = 0;
    SPAWN(ten, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    SPAWN(ten_void, 1, 2, 3, 4, 5, 6, 7, 8, 9, &out);
    SPAWN(add, 5);
    SPAWN(add_one);
    SYNC(add_one);
    SYNC(add);
    SYNC(ten_void);
    int t = SYNC(ten);
    return t == 55 && out == 45 ? 1 : 0;
}

/* Callbacks: the NAME_CALL functions themselves, as a 1.6 client passes
 * them (mtbdd_apply(a, b, op_CALL)). */
LACE_TYPEDEF_CB(long, binop_cb, long, long)
TASK(long, op_plus, long, a, long, b) { return a + b; }
TASK(long, op_max, long, a, long, b) { return a > b ? a : b; }
TASK(long, fold, binop_cb, op, int, lo, int, hi)
{
    if (hi - lo == 1)
        return lo;
    int mid = (lo + hi) / 2;
    SPAWN(fold, op, lo, mid);
    long b = CALL(fold, op, mid, hi);
    long a = SYNC(fold);
    return WRAP(op, a, b);
}

TASK(int, rng_distinct)
{
    uint64_t a = lace_rng(__lace_worker), b = LACE_TRNG, c = lace_rng(lace_get_worker());
    return a != b && b != c && a != c;
}

static LACE_TLS int tls_value;
static lace_mutex_t mutex;
static lace_cond_t cond;
static lace_sem_t sem;
static int flag;
static void *signaller(void *arg)
{
    (void)arg;
    tls_value = 2;
    lace_mutex_lock(&mutex);
    flag = 1;
    lace_cond_broadcast(&cond);
    lace_mutex_unlock(&mutex);
    lace_sem_post(&sem);
    return NULL;
}

#define OUTSIDE 64
static void *outside(void *arg)
{
    int n = 12 + (int)(intptr_t)arg % 6;
    for (int r = 0; r < 5; r++) {
        long want = 0, a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        want = a;
        CHECK(RUN(fib, n) == want, "RUN(fib, %d) from an outside thread", n);
    }
    return NULL;
}

int main(void)
{
    CHECK(!lace_is_running(), "running before lace_start");
    lace_start(2, 0);
    CHECK(lace_is_running(), "not running after lace_start");

    CHECK(RUN(fib, 20) == 6765, "fib");
    CHECK(RUN(zero_args) == 7, "TASK with no parameters");
    void_sum = 0;
    RUN(add_one);
    RUN(add, 41);
    CHECK(void_sum == 42, "TASK(void, ...)");
    CHECK(RUN(ten, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == 385, "10 parameters");
    int out = 0;
    RUN(ten_void, 1, 1, 1, 1, 1, 1, 1, 1, 1, &out);
    CHECK(out == 9, "10 parameters, void");
    CHECK(RUN(same_ptr, &out) == &out, "void * result");
    CHECK(RUN(ld_half, 3.0L) == 1.5L, "long double");
    void_sum = 0;
    CHECK(RUN(spawn_all) == 1 && void_sum == 6, "SPAWN/SYNC of generic tasks");
    CHECK(fib_CALL != NULL, "NAME_CALL");
    CHECK(RUN(fold, op_plus_CALL, 0, 100) == 4950, "op_plus_CALL as a callback");
    CHECK(RUN(fold, op_max_CALL, 0, 100) == 99, "op_max_CALL as a callback");
    CHECK(RUN(rng_distinct), "lace_rng");
#if WEFT_TASK_SIZE >= 128
    CHECK(RUN(wide, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14) == wide_seq(1, 2, 3, 4, 5, 6, 7, 8, 9, 14),
          "80 bytes of arguments in 128-byte descriptors");
#endif

    uint64_t t0 = lace_gethrtime();
    lace_sleep_us(2000);
    uint64_t t1 = lace_gethrtime();
    CHECK(t1 - t0 >= 2000000, "lace_sleep_us(2000) took %llu ns", (unsigned long long)(t1 - t0));
    CHECK(LACE_LIKELY(t1 >= t0) && !LACE_UNLIKELY(t1 < t0), "LACE_LIKELY");

    tls_value = 1;
    lace_mutex_init(&mutex);
    lace_cond_init(&cond);
    CHECK(lace_sem_init(&sem, 0) == 0, "lace_sem_init");
    pthread_t th;
    CHECK(pthread_create(&th, NULL, signaller, NULL) == 0, "thread");
    lace_mutex_lock(&mutex);
    while (!flag)
        lace_cond_wait(&cond, &mutex);
    lace_mutex_unlock(&mutex);
    CHECK(lace_sem_wait(&sem) == 0, "lace_sem_wait");
    pthread_join(th, NULL);
    CHECK(tls_value == 1, "LACE_TLS is per thread");
    lace_sem_destroy(&sem);
    lace_cond_destroy(&cond);
    lace_mutex_destroy(&mutex);

    pthread_t ths[OUTSIDE];
    for (intptr_t i = 0; i < OUTSIDE; i++)
        CHECK(pthread_create(&ths[i], NULL, outside, (void *)i) == 0, "thread %d", (int)i);
    for (int i = 0; i < OUTSIDE; i++)
        pthread_join(ths[i], NULL);

    lace_stop();
    CHECK(!lace_is_running(), "running after lace_stop");
    printf("lace 1.6 API: all checks passed\n");
    return 0;
}
