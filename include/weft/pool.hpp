// SPDX-License-Identifier: Apache-2.0
/// @file
/// The work pool (weft/pool.h) for C++: the process function is any
/// callable, and an exception it throws reaches the caller.
///
///     #include <weft/pool.hpp>
///
///     weft_pool_config cfg;
///     weft_pool_config_init(&cfg, sizeof(node *));
///     int err = weft::pool_run(cfg, &root, 1, [&](weft_pool_ctx *ctx, void *item) {
///         node *n = *static_cast<node **>(item);
///         for (node *c : n->children)
///             weft_pool_push(ctx, &c);
///     });
///
/// Exceptions, as oneTBB has them: the first exception thrown by the
/// callable, on any worker (the calling thread's included), ends the run
/// (weft_pool_cancel: every worker returns after its current item, the
/// items not yet processed are dropped); once every worker thread has been
/// joined, pool_run rethrows it on the calling thread.  Later exceptions
/// of the same run are dropped.  The next run starts afresh.  Built with
/// -fno-exceptions, a callable that throws anyway ends the program through
/// std::terminate.
///
/// A C++ exception must not leave a process function given to
/// weft_pool_run itself: C frames cannot pass it on, so it would leave the
/// other threads running (thrown on the calling thread) or end the program
/// (thrown on another).
#ifndef WEFT_POOL_HPP
#define WEFT_POOL_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "weft/pool.hpp needs C++17 (the C API is weft/pool.h)"
#endif

#include <weft/pool.h>

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <type_traits>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define WEFT_POOL_CPP_EXCEPTIONS 1
#else
#define WEFT_POOL_CPP_EXCEPTIONS 0
#endif

namespace weft {
namespace detail {

/// One run's callable and its first exception.  `error` is written by the
/// worker that wins `failed` and read by the caller after weft_pool_run
/// has joined every thread (the join orders it).
template <class F>
struct pool_call {
    pool_call(F &fn, weft_pool_split_fn split_fn) noexcept : f(fn), split(split_fn) {}

    F &f;
    weft_pool_split_fn split; // the configuration's, called without arg
#if WEFT_POOL_CPP_EXCEPTIONS
    std::exception_ptr error;
    std::atomic<bool> failed{false};
#endif

    static void process(weft_pool_ctx *ctx, void *item, void *arg) noexcept
    {
        auto *self = static_cast<pool_call *>(arg);
#if WEFT_POOL_CPP_EXCEPTIONS
        try {
            std::invoke(self->f, ctx, item);
        } catch (...) {
            // Acq_rel: one winner; the others' exceptions are dropped.
            if (!self->failed.exchange(true, std::memory_order_acq_rel))
                self->error = std::current_exception();
            (void)weft_pool_cancel(ctx);
        }
#else
        std::invoke(self->f, ctx, item);
#endif
    }

    static bool split_item(void *item, void *out, void *arg)
    {
        return static_cast<pool_call *>(arg)->split(item, out, nullptr);
    }
};

} // namespace detail

/// weft_pool_run(&cfg, initial, n_initial, ..., stats) with f(ctx, item)
/// as the process function (`item` as in weft_pool_fn: a worker-private
/// copy of item_size bytes).  Returns weft_pool_run's result: 0; ECANCELED
/// when f called weft_pool_cancel; EINVAL, ENOBUFS, ENOMEM, EAGAIN as
/// there (nothing ran).  Rethrows the first exception f threw, after the
/// run has ended and its threads are joined (see the top of this file).
/// A cfg.split function is called with arg NULL.
template <class F>
[[nodiscard]] inline int pool_run(const weft_pool_config &cfg, const void *initial,
                                  std::size_t n_initial, F &&f, weft_pool_stats *stats = nullptr)
{
    static_assert(std::is_invocable_v<F &, weft_pool_ctx *, void *>,
                  "weft::pool_run: f must be callable as f(weft_pool_ctx *, void *)");
    using call = detail::pool_call<std::remove_reference_t<F>>;
    call c(f, cfg.split);
    weft_pool_config run_cfg = cfg;
    if (cfg.split != nullptr)
        run_cfg.split = &call::split_item;
    int err = weft_pool_run(&run_cfg, initial, n_initial, &call::process, &c, stats);
#if WEFT_POOL_CPP_EXCEPTIONS
    if (c.error)
        std::rethrow_exception(c.error);
#endif
    return err;
}

} // namespace weft

#endif
