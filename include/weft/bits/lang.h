// SPDX-License-Identifier: Apache-2.0
/* What weft's headers need from the language, spelled so that they compile
 * as C11 and as C++ (C++17 and later) with the same layout.  C code sees
 * exactly the C11 constructs it always did; a C++ translation unit gets
 * C++'s <atomic> in their place, the way C++23's <stdatomic.h> maps them
 * (std::atomic<T> for _Atomic(T), the memory orders and the
 * atomic_*_explicit functions brought into the global namespace), so the
 * inline fast paths read the same in both languages.  Not part of the API. */
#ifndef WEFT_BITS_LANG_H
#define WEFT_BITS_LANG_H

#ifdef __cplusplus
#include <atomic>
#include <cstddef>
#include <cstdint>

#define WEFT_ATOMIC(T) std::atomic<T>
#define WEFT_ALIGNAS(n) alignas(n)
#define WEFT_ALIGNOF(T) alignof(T)
#define WEFT_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
/* Functions and variables keep C linkage: one library for both languages;
 * what the public headers declare is what a shared libweft exports
 * (it is built with -fvisibility=hidden). */
#define WEFT_BEGIN_DECLS \
    extern "C" { \
    _Pragma("GCC visibility push(default)")
#define WEFT_END_DECLS \
    _Pragma("GCC visibility pop") \
    }
#define WEFT_EXTERN_C extern "C"

using std::atomic_compare_exchange_strong_explicit;
using std::atomic_compare_exchange_weak_explicit;
using std::atomic_exchange_explicit;
using std::atomic_fetch_add_explicit;
using std::atomic_fetch_sub_explicit;
using std::atomic_load_explicit;
using std::atomic_store_explicit;
using std::atomic_thread_fence;
using std::memory_order;
using std::memory_order_acq_rel;
using std::memory_order_acquire;
using std::memory_order_relaxed;
using std::memory_order_release;
using std::memory_order_seq_cst;
#else
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define WEFT_ATOMIC(T) _Atomic(T)
#define WEFT_ALIGNAS(n) _Alignas(n)
#define WEFT_ALIGNOF(T) _Alignof(T)
#define WEFT_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#define WEFT_BEGIN_DECLS _Pragma("GCC visibility push(default)")
#define WEFT_END_DECLS _Pragma("GCC visibility pop")
#define WEFT_EXTERN_C
#endif

/* The atomic types in weft's structs have the size and alignment of their
 * plain types in both languages (gcc and clang lay out _Atomic(T) and
 * std::atomic<T> so for these T), so every struct holding them has one
 * layout whichever language includes it. */
#define WEFT_ATOMIC_LAYOUT_(T) \
    WEFT_STATIC_ASSERT(sizeof(WEFT_ATOMIC(T)) == sizeof(T) && \
                           WEFT_ALIGNOF(WEFT_ATOMIC(T)) == sizeof(T), \
                       "weft: the atomic " #T " does not have the layout of " #T)
WEFT_ATOMIC_LAYOUT_(uint8_t);
WEFT_ATOMIC_LAYOUT_(uint32_t);
WEFT_ATOMIC_LAYOUT_(uint64_t);
WEFT_ATOMIC_LAYOUT_(int64_t);
WEFT_ATOMIC_LAYOUT_(uintptr_t);
WEFT_ATOMIC_LAYOUT_(void *);

#endif
