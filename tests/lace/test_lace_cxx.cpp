// SPDX-License-Identifier: Apache-2.0
// lace.h (Lace 1.4 or 1.6, WEFT_LACE_API) in a C++ translation unit
// gives what Lace's gives a C++ includer: <atomic>, _Atomic(T) as
// std::atomic<T> and the memory orders in the global namespace.  A C
// header of a client written with them (as Sylvan's sylvan_table.h is, which
// C++ programs include through sylvan_int.h) compiles after it, and its
// atomics count correctly under tasks on several workers.
#include <lace.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            std::fprintf(stderr, __VA_ARGS__); \
            std::fputc('\n', stderr); \
            std::exit(1); \
        } \
    } while (0)

// ---- A client's C header, as C++ sees it after lace.h ----
extern "C" {
typedef struct {
    _Atomic(uint64_t) *table;
    _Atomic(uint64_t) count;
    _Atomic(int16_t) threshold;
    _Atomic(uint32_t) max_seen;
} client_table_t;
}

static_assert(std::is_same<_Atomic(uint64_t), std::atomic<uint64_t>>::value,
              "_Atomic(T) is std::atomic<T>");
static_assert(memory_order_relaxed == std::memory_order_relaxed &&
                  memory_order_acquire == std::memory_order_acquire &&
                  memory_order_release == std::memory_order_release &&
                  memory_order_seq_cst == std::memory_order_seq_cst,
              "Lace's four memory orders");
#if WEFT_LACE_API == 16
static_assert(LACE_VERSION_MINOR == 6 && LACE_TASKSIZE == sizeof(Task),
              "Lace 1.6: LACE_TASKSIZE is the descriptor's size");
#else
static_assert(LACE_VERSION_MINOR == 4 && LACE_TASKSIZE == sizeof(Task) - 2 * sizeof(void *),
              "Lace 1.4: LACE_TASKSIZE is the arguments' room");
#endif

enum { SLOTS = 64 };

// Each leaf adds its index to a slot and counts itself.
VOID_TASK_3(fill, client_table_t *, t, unsigned, lo, unsigned, hi)
{
    if (hi - lo == 1) {
        atomic_fetch_add_explicit(&t->table[lo % SLOTS], (uint64_t)lo, memory_order_relaxed);
        t->count.fetch_add(1, memory_order_release);
        uint32_t seen = t->max_seen.load(memory_order_acquire);
        while (seen < lo && !t->max_seen.compare_exchange_weak(seen, lo, memory_order_seq_cst,
                                                               memory_order_relaxed)) {
        }
        return;
    }
    unsigned mid = lo + (hi - lo) / 2;
    SPAWN(fill, t, lo, mid);
    CALL(fill, t, mid, hi);
    SYNC(fill);
}

#if WEFT_LACE_API == 16
static LACE_TLS int tls_mark; // __thread in C++, as in Lace
VOID_TASK_1(mark, _Atomic(int) *, marked)
{
    tls_mark = LACE_WORKER_ID + 1;
    lace_barrier();
    if (tls_mark == LACE_WORKER_ID + 1)
        atomic_fetch_add_explicit(marked, 1, memory_order_relaxed);
}
#endif

int main()
{
    static _Atomic(uint64_t) slots[SLOTS];
    client_table_t t;
    t.table = slots;
    t.count.store(0, memory_order_relaxed);
    t.threshold.store(7, memory_order_relaxed);
    t.max_seen.store(0, memory_order_relaxed);
    const unsigned n = 20000;

    lace_start(2, 0);
    RUN(fill, &t, 0u, n);
    CHECK(t.count.load(memory_order_acquire) == n, "%llu leaves counted, not %u",
          (unsigned long long)t.count.load(), n);
    CHECK(t.max_seen.load() == n - 1, "the largest leaf seen is %u, not %u",
          (unsigned)t.max_seen.load(), n - 1);
    for (unsigned s = 0; s < SLOTS; s++) {
        uint64_t want = 0;
        for (unsigned i = s; i < n; i += SLOTS)
            want += i;
        CHECK(slots[s].load(memory_order_relaxed) == want, "slot %u holds %llu, not %llu", s,
              (unsigned long long)slots[s].load(), (unsigned long long)want);
    }
    CHECK(t.threshold.load(memory_order_seq_cst) == 7, "threshold changed");
#if WEFT_LACE_API == 16
    _Atomic(int) marked{0};
    TOGETHER(mark, &marked);
    CHECK(marked.load() == (int)lace_workers(), "%d of %u workers kept their LACE_TLS mark",
          marked.load(), lace_workers());
#endif
    lace_stop();
    std::printf("ok: lace.h (Lace 1.%d) as C++: _Atomic(T) and the memory orders\n",
                LACE_VERSION_MINOR);
    return 0;
}
