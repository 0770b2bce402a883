// SPDX-License-Identifier: Apache-2.0
/// @file
/// weft for C++17: fork-join with lambdas over the same runtime as the C API.
///
///     #include <weft/weft.hpp>
///
///     long fib(int n)
///     {
///         if (n < 2)
///             return n;
///         auto [a, b] = weft::join([&] { return fib(n - 2); }, [&] { return fib(n - 1); });
///         return a + b;
///     }
///
///     int main()
///     {
///         weft::scheduler pool;                   // optional (see "The pool" below)
///         std::printf("%ld\n", weft::run([] { return fib(40); }));
///     }
///
/// Everything here is a template over the C runtime (no library of its own):
///   join(f, g), invoke(f...)         run callables, possibly in parallel
///   task_group                       run(f) any number, wait()
///   parallel_for, parallel_reduce    over integers and random-access iterators
///   parallel_sort, parallel_stable_sort   a parallel merge sort
///   run(f), scheduler, workers()     entering the pool; owning it
///   named(name, f)                   f under a name for the profiler
///
/// Where the calls may be made.  Inside code the pool runs (a task, anything
/// called from one, including C tasks) they spawn on the calling worker's
/// deque.  From any other thread they enter the pool the way weft::run does
/// (the thread blocks until the work is done), so main may call
/// weft::parallel_for directly.
///
/// The pool.  A weft::scheduler owns it, or weft_start from the C API.
/// Without either, the first call from outside the pool that needs it
/// starts a default one (the defaults and the WEFT_* environment, as
/// weft_start(0, 0, 0)), as oneTBB and Rayon do; that pool is kept until
/// the process exits (its workers sleep when idle), unless a
/// weft::scheduler is made later, which replaces it, or weft_stop() stops
/// it (the next call starts another).  Nothing else replaces it: while it
/// runs, the C API's weft_start refuses with EBUSY, and a Lace API's
/// lace_start (which cannot fail) stops the program, each with a message
/// naming the default pool; start such a pool before the first weft::
/// call (the weft:: calls then run on it), or weft_stop() the default
/// pool first.  A call from outside the pool that
/// races weft_stop() on another thread runs on the stopping pool (the stop
/// waits for it) or, if it comes too late for that, starts the default
/// pool again once the stop is over.  A default pool that cannot start
/// (a malformed WEFT_* variable, no memory or threads) ends the program
/// with the runtime's message.  Make the scheduler, if any, before other
/// threads use weft::.
///
/// Exceptions.  An exception thrown by a callable reaches the code that
/// joins it (join, invoke, task_group::wait, parallel_*, run) once; when
/// several callables of one join, group or algorithm throw, the first one
/// caught is kept and the others are dropped.  Work not yet started when an
/// exception is caught is skipped (the rest of a parallel_* or a group, the
/// other half of a join when the caller's half threw); work already running
/// finishes.  The pool is unaffected.  Built with -fno-exceptions, a callable
/// that throws anyway ends the program through std::terminate, which prints
/// the exception.
///
/// Cost.  join spawns no allocation: a small byte-copyable callable passed
/// as an rvalue (a lambda written in the call) is copied into the deque's
/// descriptor as a C task's arguments are; a larger one, or any lvalue,
/// stays where it is with the descriptor pointing at it, so a thief calls
/// the caller's own object.  It is called directly when nobody stole it.  The context C tasks get as parameters
/// comes from a thread-local record checked with one load (docs/cpp.md: the
/// design and the figures).
#ifndef WEFT_WEFT_HPP
#define WEFT_WEFT_HPP

#if !defined(__cplusplus) || __cplusplus < 201703L
#error "weft/weft.hpp needs C++17 (the C API is weft/weft.h)"
#endif

#include <weft/bits/cpp_core.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <tuple>
#if WEFT_CPP_EXCEPTIONS
#include <system_error>
#endif

namespace weft {

// ---- entering and owning the pool ---------------------------------------

/// Runs f on the pool and returns its result (or rethrows its exception).
/// From a thread outside the pool it blocks until a worker has run f, like
/// WEFT_RUN; any number of threads may do so at once.  On a worker it just
/// calls f.  The pool must be running.
template <class F>
inline std::invoke_result_t<F> run(F &&f)
{
    if (weft_self() != nullptr)
        return std::invoke(std::forward<F>(f));
    if constexpr (std::is_void_v<std::invoke_result_t<F>>)
        detail::run_outside(std::forward<F>(f));
    else
        return detail::run_outside(std::forward<F>(f));
}

/// The number of workers of the running pool: 0 when no pool runs, so 0
/// before the first weft:: call that starts the default pool (run,
/// parallel_for, ...) or a weft::scheduler; call it after one.
inline unsigned workers() noexcept { return weft_workers(); }

/// Owns the pool: starts it in the constructor, stops it in the destructor
/// (which waits for the runs in progress).  Only one pool exists at a time,
/// so at most one scheduler, and not while the C API's weft_start or a
/// Lace API's lace_start is in force; not on a worker.  A default pool
/// that a weft:: call started by itself (see "The pool" above) is stopped
/// first and replaced by this one, configured as asked.  A start that fails -- including a malformed
/// WEFT_* variable for the constructors that read the environment, as
/// weft_start refuses it -- throws std::system_error with the runtime's
/// errno (EBUSY: already started; EINVAL; ENOMEM, EAGAIN), or ends the
/// program with the message when built without exceptions.  The destructor
/// stops the pool only if it still runs and is a scheduler's (an explicit
/// weft_stop() before it is fine, and a pool another API started after
/// that, lace_start's or weft_start's, is left running).
class scheduler {
public:
    /// The defaults, with the WEFT_* environment applied (docs/configuration.md).
    scheduler() : scheduler(0u) {}
    /// The defaults and environment, with this many workers (0: the default).
    explicit scheduler(unsigned workers) { start(config_with_workers(workers)); }
    /// Exactly this configuration (start from weft_config_init).
    explicit scheduler(const weft_config &cfg) { start(cfg); }
    ~scheduler()
    {
        if (weft_workers() != 0 && weft__pool_starter() == &weft__cpp_scheduler_words)
            (void)weft_stop();
    }
    scheduler(const scheduler &) = delete;
    scheduler &operator=(const scheduler &) = delete;

    /// The number of workers started.
    unsigned workers() const noexcept { return weft_workers(); }

private:
    static weft_config config_with_workers(unsigned n)
    {
        weft_config cfg;
        check(weft_config_init(&cfg)); // a malformed variable: EINVAL, as weft_start
        if (n != 0)
            cfg.workers = n;
        return cfg;
    }
    static void start(const weft_config &cfg)
    {
        std::lock_guard<std::mutex> lock(detail::default_pool_lock());
        if (weft_self() == nullptr) // on a worker, weft_start refuses (below)
            detail::default_pool_give_up();
        int err;
        {
            detail::speaking_as speaking(&weft__cpp_scheduler_words); // its messages name it
            err = weft_start_config(&cfg);
        }
        check(err);
    }
    static void check(int err)
    {
        if (err == 0)
            return;
#if WEFT_CPP_EXCEPTIONS
        throw std::system_error(err, std::generic_category(),
                                "weft::scheduler: the pool did not start");
#else
        detail::fatal("weft::scheduler: the pool did not start");
#endif
    }
};

/// Long-running code on a worker calls this now and then (WEFT_YIELD): it
/// lets interrupts and weft_suspend proceed and, with the schedulers whose
/// owners hand out work only when they poll, lets idle workers have some.
/// The split deque shares work when it spawns, so a loop that waits without
/// spawning keeps its spawned tasks to itself.  Outside the pool it does
/// nothing.
inline void yield() noexcept
{
    detail::context &c = detail::tls_context;
    if (WEFT_LIKELY(detail::context_is_current(c))) {
        weft_yield(c.worker, c.head);
    } else if (weft_worker *w = weft_self()) {
        weft_yield(w, weft_current_head(w));
    }
}

// ---- join and invoke ----------------------------------------------------

/// Runs f and g, possibly in parallel, and returns both results: f runs on
/// the calling worker while g waits in its deque for a thief (and is called
/// here if none came).  The result is std::pair<A, B> of the two results,
/// weft::none standing for void; void when both are void.  Results may be
/// move-only and need no default constructor.  An exception from f skips g
/// if no thief took it (and waits for g otherwise); then f's exception is
/// rethrown, else g's.  An lvalue callable is called in place, whoever runs
/// it, so the caller's object sees its own state changes; only an rvalue
/// may be copied.
template <class F, class G>
[[gnu::always_inline]] inline auto join(F &&f, G &&g)
{
    using RF = std::invoke_result_t<F>;
    using RG = std::invoke_result_t<G>;
    detail::context &c = detail::tls_context;
    weft_task *h = c.head; // read once: the check and the spawn use it
    if constexpr (std::is_void_v<RF> && std::is_void_v<RG>) {
        if (WEFT_LIKELY(detail::head_is_current(h)))
            (void)detail::join_at(c, h, std::forward<F>(f), std::forward<G>(g));
        else
            (void)detail::join_slow<F, G>(std::forward<F>(f), std::forward<G>(g));
    } else {
        if (WEFT_LIKELY(detail::head_is_current(h)))
            return detail::join_at(c, h, std::forward<F>(f), std::forward<G>(g));
        return detail::join_slow<F, G>(std::forward<F>(f), std::forward<G>(g));
    }
}

namespace detail {

/// invoke's halves: a tuple of the results of callables [B, E) of t.
template <std::size_t B, std::size_t E, class Tuple>
inline auto invoke_range(Tuple &t)
{
    if constexpr (E - B == 1) {
        using F = std::tuple_element_t<B, Tuple>;
        return std::tuple<value_t<result_of_t<F>>>(call_value(std::forward<F>(std::get<B>(t))));
    } else {
        constexpr std::size_t M = B + (E - B) / 2;
        auto halves = with_context([&](context &c) {
            return join_here(
                c, [&] { return invoke_range<B, M>(t); }, [&] { return invoke_range<M, E>(t); });
        });
        return std::tuple_cat(std::move(halves.first), std::move(halves.second));
    }
}

} // namespace detail

/// Runs any number of callables, possibly in parallel (split in halves, each
/// half a join), and returns a std::tuple of their results (weft::none for
/// void), or void when every one returns void.  Exceptions as in join: the
/// first in argument order among those thrown wins.
template <class... Fs>
inline auto invoke(Fs &&...fs)
{
    if constexpr (sizeof...(Fs) == 0) {
        return;
    } else {
        std::tuple<Fs &&...> refs(std::forward<Fs>(fs)...);
        if constexpr ((std::is_void_v<std::invoke_result_t<Fs>> && ...))
            (void)detail::invoke_range<0, sizeof...(Fs)>(refs);
        else
            return detail::invoke_range<0, sizeof...(Fs)>(refs);
    }
}

// ---- names for the profiler and the tracer ---------------------------------
namespace detail {
#if WEFT_PROFILE || WEFT_TRACE
/// What `lookup` (a registry's call, under its lock) returns for `name`,
/// with a per-thread cache by the string's address that spares the lock on
/// later calls with the same string; `text_of` gives a result's name, which
/// must still be the string's (an address may be reused).
template <class T, class Lookup, class TextOf>
inline T *registry_lookup_cached(const char *name, Lookup lookup, TextOf text_of) noexcept
{
    if (!name)
        return nullptr;
    struct entry {
        const char *key;
        T *value;
    };
    static thread_local entry cache[8];
    entry &e = cache[(reinterpret_cast<std::uintptr_t>(name) >> 4) % 8];
    if (e.key == name && e.value && std::strcmp(text_of(e.value), name) == 0)
        return e.value;
    T *value = lookup(name);
    if (value)
        e = {name, value};
    return value;
}
#endif

#if WEFT_PROFILE
/// The profiler's task type named `name` (one record per distinct name,
/// kept for the process: weft__profile_type_named).
inline weft_profile_type *profile_type_named(const char *name) noexcept
{
    return registry_lookup_cached<weft_profile_type>(
        name, weft__profile_type_named, [](const weft_profile_type *t) { return t->name; });
}

/// Counts what runs in its scope as task type `type` (nothing for a null
/// type or off the pool's workers).
class label_enter {
public:
    explicit label_enter(weft_profile_type *type) noexcept
        : w_(type ? tls_context.worker : nullptr), outer_(w_ ? weft_profile_enter(w_, type) : 0)
    {}
    ~label_enter()
    {
        if (w_)
            weft_profile_leave(w_, outer_);
    }
    label_enter(const label_enter &) = delete;
    label_enter &operator=(const label_enter &) = delete;

private:
    weft_worker *w_;
    uint32_t outer_;
};
#elif WEFT_TRACE
/// The tracer's copy of `name` (one per distinct name, kept for the
/// process: weft__trace_name_copy).
inline const char *trace_name_named(const char *name) noexcept
{
    return registry_lookup_cached<const char>(name, weft__trace_name_copy,
                                              [](const char *copy) { return copy; });
}
#endif

#if WEFT_PROFILE || WEFT_TRACE
/// What weft::named returns in a profiling or tracing build: f, whose calls
/// are the named task type's bodies, and whose tasks the timeline names.
template <class F>
class named_fn {
public:
    named_fn(const char *name, F f)
#if WEFT_PROFILE
        : type_(profile_type_named(name)), f_(std::move(f))
#else
        : name_(trace_name_named(name)), f_(std::move(f))
#endif
    {}
    template <class... A>
    decltype(auto) operator()(A &&...a)
    {
#if WEFT_PROFILE
        label_enter in(type_);
#endif
        return f_(std::forward<A>(a)...);
    }
    template <class... A>
    decltype(auto) operator()(A &&...a) const
    {
#if WEFT_PROFILE
        label_enter in(type_);
#endif
        return f_(std::forward<A>(a)...);
    }
#if WEFT_PROFILE
    weft_profile_type *type() const noexcept { return type_; }
    /// The name kept for the process (the profiler's copy), or null.
    const char *name() const noexcept { return type_ ? type_->name : nullptr; }
#else
    const char *name() const noexcept { return name_; }
#endif
    F &callable() noexcept { return f_; }
    const F &callable() const noexcept { return f_; }

private:
#if WEFT_PROFILE
    weft_profile_type *type_;
#else
    const char *name_;
#endif
    F f_;
};

template <class F>
inline F &unlabel(named_fn<F> &f) noexcept
{
    return f.callable();
}
template <class F>
inline const F &unlabel(const named_fn<F> &f) noexcept
{
    return f.callable();
}
#endif

#if WEFT_TRACE
/// A named callable's tasks carry its name in the timeline.
template <class F>
inline const char *trace_given_name(const named_fn<F> &f) noexcept
{
    return f.name();
}
#endif

#if WEFT_PROFILE
/// A named callable enters its own type (above), not the wrapper's.
template <class F>
struct profile_body<named_fn<F>> {
    explicit profile_body(weft_worker *) noexcept {}
};

/// A piece of parallel_for or parallel_reduce: one body of the name, its
/// items called unwrapped.
template <class F>
struct label_scope {
    explicit label_scope(const F &) noexcept {}
};
template <class F>
struct label_scope<named_fn<F>> : label_enter {
    explicit label_scope(const named_fn<F> &f) noexcept : label_enter(f.type()) {}
};
#else
template <class F>
struct label_scope {
    explicit label_scope(const F &) noexcept {}
};
#endif
template <class F>
inline F &unlabel(F &f) noexcept
{
    return f;
}
} // namespace detail

/// f under a name of your choosing for the work/span profiler
/// (weft/profile.h, docs/profiling.md): where C++ tasks are otherwise named
/// by their callable's type (a lambda by the function it is written in),
/// every call of what this returns is a body of task type `name`, for
/// join, invoke, task_group::run and run alike; given to parallel_for (f)
/// or parallel_reduce (map), each piece of the range is one body of
/// `name`.  A RUN whose root is named makes a region of that name.  The
/// name is copied (any string will do; names are told apart by their
/// text, at most 256 distinct ones); a null name leaves f unnamed.  In
/// the timeline (docs/timeline.md) the tasks of join, invoke,
/// task_group::run and run that a thief or a RUN's worker starts carry the
/// name (a callable type named twice keeps its first name; unnamed ones
/// carry their type's name).  Returns a copy of f (moved from an rvalue):
/// an lvalue's own state is not what the call changes.  In a build
/// without the profiler and the tracer it returns that copy and nothing
/// else: no cost.
template <class F>
inline auto named(const char *name, F &&f)
{
#if WEFT_PROFILE || WEFT_TRACE
    return detail::named_fn<std::decay_t<F>>(name, std::forward<F>(f));
#else
    (void)name;
    return std::decay_t<F>(std::forward<F>(f));
#endif
}

} // namespace weft

#include <weft/bits/cpp_task_group.hpp>
#include <weft/bits/cpp_parallel.hpp>
#include <weft/bits/cpp_sort.hpp>

#endif
