// The machinery under weft.hpp: the calling thread's task context, result
// slots, exception capture, and join's spawned half as a task descriptor.
// Not part of the API (docs/cpp.md explains the design).
#ifndef WEFT_BITS_CPP_CORE_HPP
#define WEFT_BITS_CPP_CORE_HPP

#include <weft/weft.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define WEFT_CPP_EXCEPTIONS 1
#include <exception>
#else
#define WEFT_CPP_EXCEPTIONS 0
#endif

namespace weft {

// What a callable returning void contributes to a result pair or tuple.
struct none {
    friend constexpr bool operator==(none, none) noexcept { return true; }
    friend constexpr bool operator!=(none, none) noexcept { return false; }
};

namespace detail {

// ---- the calling thread's task context --------------------------------

struct group_frame;

// What a C task receives as its hidden parameters (weft_w, weft_head),
// kept per thread for code that has no parameters to receive them: the
// worker and the top of its deque, and the innermost task_group frame.
// Every C++ frame that changes it (join, a descriptor's wrapper, a task
// group's frame) puts the old value back as it leaves, so it is either
// exact or lower than the true deque top (C tasks called in between
// spawned above it) -- and then its slot is not EMPTY.
struct context {
    weft_worker *worker;
    weft_task *head;
    group_frame *group;
};

// Where a thread that has not entered a C++ task points its head: a slot
// that is never EMPTY, so the one check of the fast path sends it to the
// slow path.
inline weft_task outside_slot{{WEFT_STATE_DONE}, {}};

// Constant-initialised with a trivial destructor: accessed directly (one
// %fs-relative address), with no guard or TLS wrapper call.
inline thread_local context tls_context{nullptr, &outside_slot, nullptr};

// True when c.head is the calling worker's deque top.  Relaxed: c.head is
// our own slot, or one below our top that thieves change only between
// non-EMPTY values.
inline bool context_is_current(const context &c) noexcept
{
    return atomic_load_explicit(&c.head->state, memory_order_relaxed) == WEFT_STATE_EMPTY;
}

// Puts the context back as it was when a frame leaves (normally or not).
class context_restore {
public:
    explicit context_restore(context &c) noexcept : c_(c), saved_(c) {}
    ~context_restore() { c_ = saved_; }
    context_restore(const context_restore &) = delete;
    context_restore &operator=(const context_restore &) = delete;

private:
    context &c_;
    context saved_;
};

// Makes c current on a worker after context_is_current failed: true, or
// false outside the pool.  The caller restores the old value on leaving
// (context_restore): a recovered value left behind could end up above the
// deque top once the C code that moved the top returns, where no check
// would see it.  The group frame is kept: it is used only where its top is
// the current head.
[[gnu::cold]] inline bool context_recover(context &c) noexcept
{
    weft_worker *w = weft_self();
    if (w == nullptr)
        return false;
    c.worker = w;
    c.head = weft_current_head(w);
    return true;
}

[[noreturn, gnu::cold]] inline void fatal(const char *what) noexcept
{
    std::fprintf(stderr, "weft: %s\n", what);
    std::fflush(stderr);
    std::abort();
}

// ---- results ------------------------------------------------------------

template <class R>
using value_t = std::conditional_t<std::is_void_v<R>, none, R>;

template <class F>
using result_of_t = std::invoke_result_t<F>;

// Calls f once (as the value category it was passed with); void becomes none.
template <class F>
inline value_t<result_of_t<F>> call_value(F &&f)
{
    if constexpr (std::is_void_v<result_of_t<F>>) {
        std::invoke(std::forward<F>(f));
        return none{};
    } else {
        return std::invoke(std::forward<F>(f));
    }
}

// Storage for a result that may or may not get constructed (a callable run
// by a thief, a callable that threw): no default constructor needed, move-
// only types fine, references kept as pointers.
template <class R>
class slot {
public:
    slot() noexcept {}
    ~slot()
    {
        if (full_)
            ptr()->~R();
    }
    slot(const slot &) = delete;
    slot &operator=(const slot &) = delete;

    template <class F>
    void fill(F &&f)
    {
        ::new (static_cast<void *>(buf_)) R(call_value(std::forward<F>(f)));
        full_ = true;
    }
    R take() { return std::move(*ptr()); }

private:
    R *ptr() noexcept { return std::launder(reinterpret_cast<R *>(buf_)); }
    alignas(R) unsigned char buf_[sizeof(R)];
    bool full_ = false;
};

template <class R>
class slot<R &> {
public:
    template <class F>
    void fill(F &&f)
    {
        p_ = &std::invoke(std::forward<F>(f));
    }
    R &take() noexcept { return *p_; }

private:
    R *p_ = nullptr;
};

// ---- exceptions ---------------------------------------------------------

// One exception taken from a task and handed to its joiner.
#if WEFT_CPP_EXCEPTIONS
class caught {
public:
    void capture() noexcept { error_ = std::current_exception(); }
    explicit operator bool() const noexcept { return static_cast<bool>(error_); }
    [[noreturn]] void rethrow() { std::rethrow_exception(std::move(error_)); }

private:
    std::exception_ptr error_;
};
#else
class caught {
public:
    explicit operator bool() const noexcept { return false; }
    [[noreturn]] void rethrow() { std::abort(); }
};
#endif

// The first exception of many tasks (a task_group, a parallel loop): the
// first to arrive is kept, later ones are dropped; `stop` tells the tasks
// not yet started to skip their work.  Read `error` only after joining
// every task that could write it (the joins order the writes before).
class first_error {
public:
    bool stopped() const noexcept
    {
        // Relaxed: a late view only runs one more piece of work.
        return stop_.load(std::memory_order_relaxed);
    }
    void request_stop() noexcept
    {
        // Relaxed: a hint to tasks not yet started; the joins order the rest.
        stop_.store(true, std::memory_order_relaxed);
    }
#if WEFT_CPP_EXCEPTIONS
    void capture() noexcept
    {
        // Relaxed: the winner is decided by the exchange alone; the joiner
        // reads `error_` after the joins, which order the write before.
        if (!taken_.exchange(true, std::memory_order_relaxed))
            error_ = std::current_exception();
        request_stop();
    }
#endif
    // Rethrows the kept exception, if any, and makes the object reusable.
    void rethrow_and_reset()
    {
        // Relaxed (all three): the joins made every task's writes visible.
        stop_.store(false, std::memory_order_relaxed);
#if WEFT_CPP_EXCEPTIONS
        if (taken_.load(std::memory_order_relaxed)) {
            taken_.store(false, std::memory_order_relaxed);
            std::exception_ptr e = std::move(error_);
            error_ = nullptr;
            std::rethrow_exception(e);
        }
#endif
    }

private:
    std::atomic<bool> stop_{false};
#if WEFT_CPP_EXCEPTIONS
    std::atomic<bool> taken_{false};
    std::exception_ptr error_;
#endif
};

// ---- a descriptor that points at a closure ---------------------------------

template <class T>
inline void payload_store(weft_task *t, T *p) noexcept
{
    std::memcpy(t->payload, &p, sizeof p);
}

template <class T>
inline T *payload_load(const weft_task *t) noexcept
{
    T *p;
    std::memcpy(&p, t->payload, sizeof p);
    return p;
}

template <class Fn>
inline std::uintptr_t wrapper_address(Fn *fn) noexcept
{
    return reinterpret_cast<std::uintptr_t>(fn);
}

// A callable, where its result goes and what it threw, in the frame of the
// code that waits for it (join's spawned side, run from outside the pool).
// The descriptor holds only a pointer to it: any size of callable, no
// allocation.
template <class G>
struct job {
    using result_type = value_t<result_of_t<G>>;

    explicit job(G &&g) noexcept : g_(g) {}

    // Runs the callable here, with (w, head) as the task context.
    void execute(weft_worker *w, weft_task *head) noexcept
    {
        context &c = tls_context;
        context_restore restore(c);
        c.worker = w;
        c.head = head;
        c.group = nullptr;
#if WEFT_CPP_EXCEPTIONS
        try {
            result.fill(std::forward<G>(g_));
        } catch (...) {
            error.capture();
        }
#else
        result.fill(std::forward<G>(g_));
#endif
#if WEFT_CHECKS
        weft_check_return(w, head, "a C++ task");
#endif
    }

    // The descriptor's wrapper: a thief, or RUN's worker, runs it.
    WEFT_WRAPPER_ALIGN static void wrapper(weft_worker *w, weft_task *head, weft_task *t) noexcept
    {
        payload_load<job>(t)->execute(w, head);
    }

    G &g_;
    slot<result_type> result;
    caught error;
};

// join on a worker whose context is current: g is spawned (a descriptor
// pointing at a job in this frame), f runs here, then g is joined -- if
// nobody stole it, it is called right here, with no indirection.
template <class F, class G>
inline std::pair<value_t<result_of_t<F>>, value_t<result_of_t<G>>>
join_here(context &c, F &&f, G &&g)
{
    using RF = value_t<result_of_t<F>>;
    weft_worker *w = c.worker;
    weft_task *h = c.head;
#if WEFT_CHECKS
    if (h != weft_current_head(w))
        fatal("weft::join: the task context is not the worker's deque top (a C++ frame "
              "left a spawn unjoined?)");
#endif
    job<G> spawned(std::forward<G>(g));
    weft_sched_reserve(w, h);
    payload_store(h, &spawned);
    weft_sched_push(w, h, wrapper_address(&job<G>::wrapper));
    c.head = h + 1;
    slot<RF> a;
#if WEFT_CPP_EXCEPTIONS
    try {
        a.fill(std::forward<F>(f));
    } catch (...) {
        // g is skipped if nobody took it, waited for if a thief did (its
        // result and exception are dropped); f's exception goes on.
        c.head = h;
        weft_drop(w, h);
        throw;
    }
#else
    a.fill(std::forward<F>(f));
#endif
    c.head = h;
    if (WEFT_LIKELY(weft_sched_pop_private(w, h)) || !weft_sched_sync_slow(w, h))
        return {a.take(), call_value(std::forward<G>(g))};
    if (spawned.error)
        spawned.error.rethrow();
    return {a.take(), spawned.result.take()};
}

// Runs f on the pool from a thread outside it: a descriptor on this stack,
// handed to the runtime's RUN, which blocks until a worker has run it.
template <class F>
inline value_t<result_of_t<F>> run_outside(F &&f)
{
    job<F> j(std::forward<F>(f));
    weft_task t;
    payload_store(&t, &j);
    weft_run_task(&t, wrapper_address(&job<F>::wrapper));
    if (j.error)
        j.error.rethrow();
    return j.result.take();
}

// Calls body(c) with a current context: at once on the fast path, after
// recovering it on a worker whose context is stale (restored afterwards),
// or through the pool from outside it.
template <class Body>
inline decltype(auto) with_context(Body &&body)
{
    context &c = tls_context;
    if (WEFT_LIKELY(context_is_current(c)))
        return body(c);
    context_restore restore(c);
    if (context_recover(c))
        return body(c);
    return run_outside([&]() -> decltype(auto) { return body(tls_context); });
}

} // namespace detail
} // namespace weft

#endif
