// SPDX-License-Identifier: Apache-2.0
/// @file
/// The machinery under weft.hpp: the calling thread's task context, result
/// slots, exception capture, and join's spawned half as a task descriptor.
/// Not part of the API (docs/cpp.md explains the design).
#ifndef WEFT_BITS_CPP_CORE_HPP
#define WEFT_BITS_CPP_CORE_HPP

#include <weft/weft.h>

#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#define WEFT_CPP_EXCEPTIONS 1
#else
#define WEFT_CPP_EXCEPTIONS 0
#endif

namespace weft {

/// What a callable returning void contributes to a result pair or tuple.
struct none {
    /// Every none equals every other.
    friend constexpr bool operator==(none, none) noexcept { return true; }
    /// Never true.
    friend constexpr bool operator!=(none, none) noexcept { return false; }
};

namespace detail {

// ---- the calling thread's task context --------------------------------

struct group_frame;

/// What a C task receives as its hidden parameters (weft_w, weft_head),
/// kept per thread for code that has no parameters to receive them: the
/// worker and the top of its deque, and the innermost task_group frame.
/// Every C++ frame that changes it (join, a descriptor's wrapper, a task
/// group's frame) puts the old value back as it leaves, so it is either
/// exact or lower than the true deque top (C tasks called in between
/// spawned above it) -- and then its slot is not EMPTY.
/// `depth` tells apart frames that share a deque top: it is raised while a
/// group's callable runs, while a stolen descriptor runs, and -- while this
/// thread has task_group spawns pending (`homes`) -- while join calls its
/// second callable in place, so a task_group's wait() made in one of those
/// frames for a group made below is caught whoever ran it.  (Without
/// pending group spawns there is nothing such a wait() could join wrongly,
/// and join's in-place call stays a plain tail call.)
struct context {
    weft_worker *worker;
    weft_task *head;
    group_frame *group;
    unsigned depth;
    unsigned homes;
};

/// Where a thread that has not entered a C++ task points its head: a slot
/// that is never EMPTY, so the one check of the fast path sends it to the
/// slow path.
inline weft_task outside_slot{{WEFT_STATE_DONE}, {}};

/// Constant-initialised with a trivial destructor: accessed directly (one
/// %fs-relative address), with no guard or TLS wrapper call.
inline thread_local context tls_context{nullptr, &outside_slot, nullptr, 0, 0};

/// True when head, read from a context, is the calling worker's deque top
/// (the core's test, weft/bits/fork_join.h).
inline bool head_is_current(weft_task *head) noexcept { return weft_fj_head_is_top(head); }

inline bool context_is_current(const context &c) noexcept { return head_is_current(c.head); }

/// Puts the context back as it was when a frame leaves (normally or not).
class context_restore {
public:
    explicit context_restore(context &c) noexcept : c_(c), saved_(c) {}
    /// homes is the thread's count, not the frame's: it stays.
    ~context_restore()
    {
        unsigned homes = c_.homes;
        c_ = saved_;
        c_.homes = homes;
    }
    context_restore(const context_restore &) = delete;
    context_restore &operator=(const context_restore &) = delete;

private:
    context &c_;
    context saved_;
};

/// Makes c current on a worker after context_is_current failed: true, or
/// false outside the pool.  The caller restores the old value on leaving
/// (context_restore): a recovered value left behind could end up above the
/// deque top once the C code that moved the top returns, where no check
/// would see it.  The group frame is kept: it is used only where its top is
/// the current head.
[[gnu::cold]] inline bool context_recover(context &c) noexcept
{
    weft_worker *w = weft_self();
    if (w == nullptr)
        return false;
    c.worker = w;
    c.head = weft_current_head(w);
    return true;
}

/// Raises c.depth for the frames a thief would run elsewhere (join's
/// second callable called in place), put back as they leave.
class depth_raise {
public:
    explicit depth_raise(context &c) noexcept : c_(c), saved_(c.depth) { c.depth = saved_ + 1; }
    ~depth_raise() { c_.depth = saved_; }
    depth_raise(const depth_raise &) = delete;
    depth_raise &operator=(const depth_raise &) = delete;

private:
    context &c_;
    unsigned saved_;
};

[[noreturn, gnu::cold]] inline void fatal(const char *what) noexcept
{
    std::fprintf(stderr, "weft: %s\n", what);
    std::fflush(stderr);
    std::abort();
}

/// A call's arguments are impossible (a reversed iterator range, a bound
/// that the loop's type cannot hold): std::invalid_argument with the
/// message, or the message and the end of the program without exceptions.
[[noreturn, gnu::cold]] inline void refuse(const char *what)
{
#if WEFT_CPP_EXCEPTIONS
    throw std::invalid_argument(std::string("weft: ") + what);
#else
    fatal(what);
#endif
}

// ---- results ------------------------------------------------------------

/// What a callable's result R is kept as: none for void, a
/// std::reference_wrapper for an lvalue reference, R itself otherwise.
template <class R>
struct value_of {
    static_assert(!std::is_rvalue_reference_v<R>,
                  "weft: a callable may not return an rvalue reference");
    using type = R;
};
template <>
struct value_of<void> {
    using type = none;
};
template <class R>
struct value_of<R &> {
    using type = std::reference_wrapper<R>;
};
template <class R>
using value_t = typename value_of<R>::type;

template <class F>
using result_of_t = std::invoke_result_t<F>;

/// Calls f once (as the value category it was passed with; with no
/// arguments, so never a member pointer); void becomes none.
template <class F>
inline value_t<result_of_t<F>> call_value(F &&f)
{
    if constexpr (std::is_void_v<result_of_t<F>>) {
        std::forward<F>(f)();
        return none{};
    } else {
        return std::forward<F>(f)();
    }
}

// ---- exceptions ---------------------------------------------------------

/// The first exception of many tasks (a task_group, a parallel loop): the
/// first to arrive is kept, later ones are dropped; `stop` tells the tasks
/// not yet started to skip their work.  Read `error` only after joining
/// every task that could write it (the joins order the writes before).
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
    /// Runs step unless a failure stopped the work; keeps step's exception
    /// if it is the first.  False when step did not run to its end.
    template <class Step>
    bool guarded(Step &&step) noexcept
    {
        if (stopped())
            return false;
#if WEFT_CPP_EXCEPTIONS
        try {
            step();
        } catch (...) {
            capture();
            return false;
        }
#else
        step();
#endif
        return true;
    }

    /// Rethrows the kept exception, if any, and makes the object reusable.
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

/// Where a descriptor's wrapper runs the callable: the thief's (or RUN
/// worker's) context, put back afterwards.
class context_scope {
public:
    context_scope(weft_worker *w, weft_task *head) noexcept
        : restore_(tls_context), w_(w), head_(head)
    {
        context &c = tls_context;
        c.worker = w;
        c.head = head;
        c.group = nullptr;
        c.depth++;
    }
    /// With WEFT_CHECKS: the callable joined everything it spawned.
    void check_return() const noexcept
    {
#if WEFT_CHECKS
        weft_check_return(w_, head_, "a C++ task");
#endif
    }

private:
    context_restore restore_;
    [[maybe_unused]] weft_worker *w_;
    [[maybe_unused]] weft_task *head_;
};

/// Where a spawned callable's outcome goes: its result, or the exception it
/// threw.  Raw bytes: nothing is constructed until the callable has run.
template <class R>
class outcome {
public:
    /// Runs f and keeps what came of it.
    template <class F>
    void run(F &&f) noexcept
    {
#if WEFT_CPP_EXCEPTIONS
        try {
            ::new (static_cast<void *>(result_)) R(call_value(std::forward<F>(f)));
            threw_ = false;
        } catch (...) {
            ::new (static_cast<void *>(error_)) std::exception_ptr(std::current_exception());
            threw_ = true;
        }
#else
        ::new (static_cast<void *>(result_)) R(call_value(std::forward<F>(f)));
#endif
    }

    /// After run: the result moved out, or the exception rethrown.
    R take()
    {
#if WEFT_CPP_EXCEPTIONS
        if (threw_) {
            std::exception_ptr *e = std::launder(reinterpret_cast<std::exception_ptr *>(error_));
            std::exception_ptr kept = std::move(*e);
            e->~exception_ptr();
            std::rethrow_exception(std::move(kept));
        }
#endif
        R *r = std::launder(reinterpret_cast<R *>(result_));
        // The stored result is destroyed however the move out ends (a
        // move constructor may throw).
        struct destroy_stored {
            R *r;
            ~destroy_stored() { r->~R(); }
        } destroy{r};
        return R(std::move(*r));
    }

    /// After run, when nobody wants it.
    void discard() noexcept
    {
#if WEFT_CPP_EXCEPTIONS
        if (threw_) {
            std::launder(reinterpret_cast<std::exception_ptr *>(error_))->~exception_ptr();
            return;
        }
#endif
        std::launder(reinterpret_cast<R *>(result_))->~R();
    }

private:
    alignas(R) unsigned char result_[sizeof(R)];
#if WEFT_CPP_EXCEPTIONS
    alignas(std::exception_ptr) unsigned char error_[sizeof(std::exception_ptr)];
    bool threw_;
#endif
};

/// A callable and its outcome in the frame of the code that waits for it
/// (join's spawned side, run from outside the pool).  The descriptor holds
/// only a pointer to it: any size of callable, no allocation.  Nothing in it
/// is initialised until the callable runs on a thief (or for RUN): the
/// joiner reads it only after a thief ran it, so the path where nobody
/// stole the callable pays for none of it.
template <class G>
class frame_job {
public:
    using result_type = value_t<result_of_t<G>>;

    explicit frame_job(G &&g) noexcept : g_(g) {}
    frame_job(const frame_job &) = delete;
    frame_job &operator=(const frame_job &) = delete;

    /// Makes the descriptor t point here (before it is pushed); g is the
    /// callable this job was made with.
    void store(weft_task *t, G &) noexcept { payload_store(t, this); }

    /// The descriptor's wrapper: a thief, or RUN's worker, runs it.
    WEFT_WRAPPER_ALIGN static void wrapper(weft_worker *w, weft_task *head, weft_task *t) noexcept
    {
        frame_job *j = payload_load<frame_job>(t);
        WEFT_TRACE_CPP_STARTED_(frame_job, j->g_)
        context_scope scope(w, head);
        WEFT_PROFILE_CPP_BODY_(w, std::decay_t<G>)
        j->out_.run(std::forward<G>(j->g_));
        scope.check_return();
    }

    result_type take(weft_task *) { return out_.take(); }
    void discard(weft_task *) noexcept { out_.discard(); }

private:
    G &g_;
    outcome<result_type> out_;
};

/// What a small callable that can be copied as bytes (most lambdas: a few
/// captured values or references) becomes instead: a copy in the
/// descriptor, as a C task's arguments are, and its outcome written back
/// over it, as a C task's result is.  Spawning it costs the stores of its
/// captures and nothing more.
template <class G>
class descriptor_job {
    using callable = std::decay_t<G>;

public:
    using result_type = value_t<result_of_t<G>>;

private:
    union layout {
        alignas(callable) unsigned char callable_[sizeof(callable)];
        outcome<result_type> out_;
    };

public:
    /// Only a callable passed as an rvalue: a thief runs a copy, and the
    /// caller's lvalue would never see the effects on its state.
    static constexpr bool fits =
        !std::is_lvalue_reference_v<G> && std::is_trivially_copyable_v<callable> &&
        std::is_trivially_destructible_v<callable> &&
        sizeof(layout) <= sizeof(weft_task::payload) && alignof(layout) <= alignof(std::uintptr_t);

    /// Keeps nothing of g: a reference kept here would have g's address
    /// taken, and gcc would then build g in memory and copy it from there.
    explicit descriptor_job(G &&) noexcept {}
    descriptor_job(const descriptor_job &) = delete;
    descriptor_job &operator=(const descriptor_job &) = delete;

    void store(weft_task *t, G &g) noexcept
    {
        ::new (static_cast<void *>(at(t)->callable_)) callable(g);
    }

    WEFT_WRAPPER_ALIGN static void wrapper(weft_worker *w, weft_task *head, weft_task *t) noexcept
    {
        layout *l = at(t);
        // The outcome goes where the callable is: run a copy.
        callable g(*std::launder(reinterpret_cast<callable *>(l->callable_)));
        WEFT_TRACE_CPP_STARTED_(descriptor_job, g)
        context_scope scope(w, head);
        WEFT_PROFILE_CPP_BODY_(w, callable)
        l->out_.run(std::move(g));
        scope.check_return();
    }

    result_type take(weft_task *t) { return at(t)->out_.take(); }
    void discard(weft_task *t) noexcept { at(t)->out_.discard(); }

private:
    static layout *at(weft_task *t) noexcept { return reinterpret_cast<layout *>(t->payload); }
};

template <class G>
using job_for = std::conditional_t<descriptor_job<G>::fits, descriptor_job<G>, frame_job<G>>;

/// join on a worker whose context is current: g is spawned (a descriptor
/// pointing at a job in this frame), f runs here, then g is joined -- if
/// nobody stole it, it is called right here, with no indirection.
/// h is c.head, already read (by the caller's check).  Profiled: the
/// copy with the profiler's hooks (bits/fork_join.h, "The profiler's
/// hooks"), which join_at goes to when profiling is on.
template <bool Raise, bool Profiled, class F, class G>
[[gnu::always_inline]] inline std::pair<value_t<result_of_t<F>>, value_t<result_of_t<G>>>
join_at_impl(context &c, weft_task *h, F &&f, G &&g)
{
    using RF = value_t<result_of_t<F>>;
    weft_worker *w = c.worker;
#if WEFT_CHECKS
    if (h != weft_current_head(w))
        fatal("weft::join: the task context is not the worker's deque top (a C++ frame "
              "left a spawn unjoined?)");
#endif
    using J = job_for<G>;
    J spawned(std::forward<G>(g));
    weft_fj_spawn_at_as(w, h, Profiled);
    spawned.store(h, g);
    weft_fj_spawn_publish(w, h, wrapper_address(&J::wrapper));
    c.head = h + 1;
    // g is skipped if f throws and nobody took g, waited for if a thief did
    // (its result or exception then dropped); f's exception goes on.
    RF a = [&]() -> RF {
#if WEFT_CPP_EXCEPTIONS
        try {
            WEFT_PROFILE_CPP_BODY_AS_(Profiled, w, std::decay_t<F>)
            return call_value(std::forward<F>(f));
        } catch (...) {
            c.head = h;
            if (weft__drop_as(w, h, "weft::join, left by an exception,"))
                spawned.discard(h);
            throw;
        }
#else
        WEFT_PROFILE_CPP_BODY_AS_(Profiled, w, std::decay_t<F>)
        return call_value(std::forward<F>(f));
#endif
    }();
    // The head goes back after the pop's store to the slot: gcc treats an
    // atomic store as one that may write the context too, and the joins
    // of g, inlined, then read the head from this store at compile time.
    weft_fj_join j;
    bool here =
        weft_fj_join_begin_as(w, weft_fj_join_slot(w, h, "weft::join"), &j, "weft::join", Profiled);
    c.head = h;
    if (WEFT_LIKELY(here)) {
        auto b = [&] {
            WEFT_PROFILE_CPP_BODY_AS_(Profiled, w, std::decay_t<G>)
            if constexpr (Raise) {
                depth_raise raised(c);
                return call_value(std::forward<G>(g));
            } else {
                return call_value(std::forward<G>(g));
            }
        }();
        weft_fj_join_inlined_as(w, &j, Profiled);
        return {std::move(a), std::move(b)};
    }
    return {std::move(a), spawned.take(h)};
}

/// join_at while this thread has task_group spawns pending: g called in
/// place runs at a raised depth (see context).  Out of line, so that the
/// common join keeps its shape.
template <class F, class G>
[[gnu::noinline]] std::pair<value_t<result_of_t<F>>, value_t<result_of_t<G>>>
join_at_raised(context &c, weft_task *h, F &&f, G &&g)
{
    return join_at_impl<true, false>(c, h, std::forward<F>(f), std::forward<G>(g));
}

#if WEFT_PROFILE
/// join_at with profiling on: the copy with the hooks, out of line, so
/// that the plain join keeps the plain build's code and one test.
template <class F, class G>
[[gnu::noinline]] std::pair<value_t<result_of_t<F>>, value_t<result_of_t<G>>>
join_at_profiled(context &c, weft_task *h, F &&f, G &&g)
{
    if (c.homes != 0)
        return join_at_impl<true, true>(c, h, std::forward<F>(f), std::forward<G>(g));
    return join_at_impl<false, true>(c, h, std::forward<F>(f), std::forward<G>(g));
}
#endif

template <class F, class G>
[[gnu::always_inline]] inline std::pair<value_t<result_of_t<F>>, value_t<result_of_t<G>>>
join_at(context &c, weft_task *h, F &&f, G &&g)
{
#if WEFT_PROFILE
    if (WEFT_UNLIKELY(weft_fj_profiling(c.worker)))
        return join_at_profiled(c, h, std::forward<F>(f), std::forward<G>(g));
#endif
    if (WEFT_UNLIKELY(c.homes != 0))
        return join_at_raised(c, h, std::forward<F>(f), std::forward<G>(g));
    return join_at_impl<false, false>(c, h, std::forward<F>(f), std::forward<G>(g));
}

template <class F, class G>
[[gnu::always_inline]] inline std::pair<value_t<result_of_t<F>>, value_t<result_of_t<G>>>
join_here(context &c, F &&f, G &&g)
{
    return join_at(c, c.head, std::forward<F>(f), std::forward<G>(g));
}

/// The default pool (weft.hpp, "The pool"): started by the first call from
/// outside the pool when none runs, kept until exit or until a scheduler
/// replaces it.  One lock for every process (an inline function's static).
inline std::mutex &default_pool_lock() noexcept
{
    static std::mutex lock;
    return lock;
}

/// The runtime's messages speak as `words` (a weft::scheduler, the default
/// pool) while this lives: around a start, which runs no task.
class speaking_as {
public:
    explicit speaking_as(const weft__api_words *words) noexcept : was_(weft__speak_as(words)) {}
    ~speaking_as() { (void)weft__speak_as(was_); }
    speaking_as(const speaking_as &) = delete;
    speaking_as &operator=(const speaking_as &) = delete;

private:
    const weft__api_words *was_;
};

/// Under the lock: stops the default pool if it is the one running (a
/// scheduler is about to start its own).  The runtime knows which API
/// started the running pool: after a weft_stop() of the default pool,
/// the pool running may be another API's (weft_start, lace_start), which
/// is left alone (the scheduler's start then says it runs).
inline void default_pool_give_up() noexcept
{
    if (weft__pool_starter() == &weft__cpp_default_pool_words && weft_workers() != 0)
        (void)weft_stop();
}

[[gnu::noinline, gnu::cold]] inline void default_pool_start()
{
    std::lock_guard<std::mutex> lock(default_pool_lock());
    if (weft_workers() != 0)
        return; // another thread started it
    int err;
    {
        speaking_as speaking(&weft__cpp_default_pool_words);
        err = weft_start(0, 0, 0);
    }
    if (err != 0 && err != EBUSY)
        fatal("the default pool of the first weft:: call did not start (the message above "
              "says why; a weft::scheduler or weft_start chooses another configuration)");
}

/// A RUN found no pool after weft_workers() said one ran: it stopped, or is
/// stopping, meanwhile.  Starts the default pool once the stop is over
/// (while it lasts the pool still counts its workers, or weft_start says
/// EBUSY: yield, and the RUN tries again).
[[gnu::noinline, gnu::cold]] inline void default_pool_restart()
{
    std::this_thread::yield();
    if (weft_workers() == 0)
        default_pool_start();
}

/// Runs f on the pool from a thread outside it: a descriptor on this stack,
/// handed to the runtime's RUN, which blocks until a worker has run it.
/// Starts the default pool when none runs, and again when the pool stopped
/// between that check and the RUN (a weft_stop() on another thread): the
/// RUN enters the pool or runs nothing, so a call that races weft_stop()
/// runs on the old pool (the stop waits for it) or on a new default one.
template <class F>
inline value_t<result_of_t<F>> run_outside(F &&f)
{
    if (WEFT_UNLIKELY(weft_workers() == 0))
        default_pool_start();
    frame_job<F> j(std::forward<F>(f));
    weft_task t;
    j.store(&t, f);
    while (WEFT_UNLIKELY(!weft__run_task_if_running(&t, wrapper_address(&frame_job<F>::wrapper))))
        default_pool_restart();
    return j.take(&t);
}

/// Calls body(c) with a current context: at once on the fast path, after
/// recovering it on a worker whose context is stale (restored afterwards),
/// or through the pool from outside it.  body returns a value (not void).
template <class Body>
[[gnu::noinline, gnu::cold]] decltype(auto) with_context_slow(Body &body)
{
    context &c = tls_context;
    context_restore restore(c);
    if (context_recover(c))
        return body(c);
    return run_outside([&]() -> decltype(auto) { return body(tls_context); });
}

template <class Body>
[[gnu::always_inline]] inline decltype(auto) with_context(Body &&body)
{
    context &c = tls_context;
    if (WEFT_LIKELY(context_is_current(c)))
        return body(c);
    return with_context_slow(body);
}

/// How join's slow path takes a callable: a temporary by value, moved
/// there, so that join's caller never has the callable's address taken
/// (an address taken anywhere keeps the callable in memory on the fast
/// path too, and stops gcc from turning a recursion's last call into a
/// loop); an lvalue, or a temporary that cannot be moved, by reference.
template <class F>
using slow_arg_t =
    std::conditional_t<!std::is_reference_v<F> && std::is_move_constructible_v<F>, F, F &&>;

/// join where the context is not current (see with_context_slow).
template <class F, class G>
[[gnu::noinline, gnu::cold]] std::pair<value_t<result_of_t<F>>, value_t<result_of_t<G>>>
join_slow(slow_arg_t<F> f, slow_arg_t<G> g)
{
    auto both = [&](context &c) { return join_here(c, std::forward<F>(f), std::forward<G>(g)); };
    return with_context_slow(both);
}

} // namespace detail
} // namespace weft

#endif
