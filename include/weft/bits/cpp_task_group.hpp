// SPDX-License-Identifier: Apache-2.0
/// @file
/// weft::task_group (included by weft/weft.hpp; docs/cpp.md explains the
/// design: spawns in the deque of the frame that waits, a frame per running
/// task for the runs it makes, a list for threads outside the pool).
#ifndef WEFT_BITS_CPP_TASK_GROUP_HPP
#define WEFT_BITS_CPP_TASK_GROUP_HPP

#include <weft/bits/cpp_core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace weft {

class task_group;

namespace detail {

struct group_state;

/// The spawns one frame made for a group: slots [base, top) of worker's
/// deque, joined (top first) before the frame ends.  `root` is the
/// worker's root_serial in that frame: a task the runtime starts on top of
/// it (a RUN on the worker, an interrupt's task) may be at the same head,
/// and is another frame.
struct group_frame {
    group_state *group;
    weft_worker *worker;
    weft_task *base;
    weft_task *top;
    std::uint64_t root;
};

/// A group task's descriptor payload: its group, how the owner runs it
/// once popped, and the callable itself (or a pointer to it on the heap
/// when it does not fit).
struct group_payload {
    group_state *group;
    void (*run_popped)(weft_worker *w, weft_task *t) noexcept;
    unsigned char storage[WEFT_TASK_SIZE - sizeof(std::uintptr_t) - 2 * sizeof(void *)];
};
static_assert(sizeof(group_payload) <= sizeof(weft_task::payload), "weft: group payload too large");
/// The payload starts 8 bytes into a cache-line aligned descriptor, so the
/// storage is 8-aligned.
inline constexpr std::size_t group_storage_align = 8;

inline group_payload *group_payload_of(weft_task *t) noexcept
{
    return std::launder(reinterpret_cast<group_payload *>(t->payload));
}

/// A callable run from a thread outside the pool, kept until wait().
struct outside_task {
    virtual void run(group_state *g, weft_worker *w, weft_task *head) noexcept = 0;
    virtual ~outside_task() = default;
    outside_task *next = nullptr;
};

struct group_state {
    /// The spawns of the frame that made the group.  Only the thread of
    /// home_owner touches `home`; other threads (a task of the group on
    /// another worker calling run()) read home_owner only, and never find
    /// their own worker there.
    group_frame home{this, nullptr, nullptr, nullptr, 0};
    std::atomic<weft_worker *> home_owner{nullptr}; ///< null: nothing spawned at home
    /// The frame that made the group: only it spawns at home (it is the
    /// frame that waits).  creator_head is null when made outside the pool.
    weft_worker *creator_worker = nullptr;
    weft_task *creator_head = nullptr;
    unsigned creator_depth = 0;     ///< the creator's context depth (see context)
    std::uint64_t creator_root = 0; ///< the creator worker's root_serial (see group_frame)
    first_error errors;
    /// Callables from threads outside the pool: pushed by any number of
    /// threads, taken all at once by wait().
    std::atomic<outside_task *> outside{nullptr};
    /// std::uncaught_exceptions() when the group got its first callable
    /// (home or outside): the destructor cancels if more are in flight.
    std::atomic<int> uncaught{0};
};

/// At most this many spawns of one frame wait in the deque; the next run()
/// first joins the newest (thieves take the oldest, so parallelism stays).
inline constexpr std::ptrdiff_t group_max_pending = 256;

/// Runs fn as a task of g at (w, head): in a frame of its own, so runs it
/// makes on g are spawned here and joined before it counts as done.
template <class Fn>
inline void run_in_frame(group_state *g, weft_worker *w, weft_task *head, Fn &fn) noexcept;

/// Joins the newest spawn of fr: runs it here unless a thief has it.
/// `what` names the call that joins it, for the refusal of a join out of
/// order (weft/bits/fork_join.h).
inline void group_sync_top(group_frame &fr, context &c, const char *what) noexcept
{
    weft_worker *w = fr.worker;
    weft_task *t = weft_fj_join_slot_exact(w, --fr.top, what);
    c.head = t;
    weft_fj_join j;
    if (weft_fj_join_begin(w, t, &j, what)) {
        group_payload_of(t)->run_popped(w, t);
        weft_fj_join_inlined(w, &j);
    }
}

inline void group_join_frame(group_frame &fr, context &c, const char *what) noexcept
{
    while (fr.top != fr.base)
        group_sync_top(fr, c, what);
}

template <class T>
struct group_task {
    static constexpr bool in_place = sizeof(T) <= sizeof(group_payload::storage) &&
                                     alignof(T) <= group_storage_align &&
                                     std::is_nothrow_move_constructible_v<T>;

    template <class F>
    static void store(group_payload *p, F &&f)
    {
        if constexpr (in_place) {
            ::new (static_cast<void *>(p->storage)) T(std::forward<F>(f));
        } else {
            T *heap = new T(std::forward<F>(f));
            std::memcpy(p->storage, &heap, sizeof heap);
        }
    }

    static T *callable(group_payload *p) noexcept
    {
        if constexpr (in_place) {
            return std::launder(reinterpret_cast<T *>(p->storage));
        } else {
            T *heap;
            std::memcpy(&heap, p->storage, sizeof heap);
            return heap;
        }
    }

    static void destroy(T *fn) noexcept
    {
        if constexpr (in_place)
            fn->~T();
        else
            delete fn;
    }

    /// A thief runs it from the descriptor, which stays put until joined.
    WEFT_WRAPPER_ALIGN static void wrapper(weft_worker *w, weft_task *head, weft_task *t) noexcept
    {
        group_payload *p = group_payload_of(t);
        T *fn = callable(p);
        WEFT_TRACE_CPP_STARTED_(group_task, *fn)
        run_in_frame(p->group, w, head, *fn);
        destroy(fn);
    }

    /// The owner runs it after popping slot t, which is its deque top now:
    /// the task's own spawns reuse the slot, so the callable moves out first.
    static void run_popped(weft_worker *w, weft_task *t) noexcept
    {
        group_payload *p = group_payload_of(t);
        group_state *g = p->group;
        if constexpr (in_place) {
            T *stored = callable(p);
            T fn(std::move(*stored));
            stored->~T();
            run_in_frame(g, w, t, fn);
        } else {
            T *fn = callable(p);
            run_in_frame(g, w, t, *fn);
            delete fn;
        }
    }
};

/// Spawns f in fr, whose top is the current head c.head.
template <class F>
inline void group_push(group_frame &fr, context &c, F &&f)
{
    using T = std::decay_t<F>;
    if (fr.top - fr.base >= group_max_pending)
        group_sync_top(fr, c, "weft::task_group::run");
    weft_worker *w = c.worker;
    weft_task *h = c.head;
    weft_fj_spawn_at(w, h);
    group_payload *p = ::new (static_cast<void *>(h->payload)) group_payload;
    p->group = fr.group;
    p->run_popped = &group_task<T>::run_popped;
    group_task<T>::store(p, std::forward<F>(f)); // may throw: nothing is spawned yet
    weft_fj_spawn_publish(w, h, wrapper_address(&group_task<T>::wrapper));
    fr.top = h + 1;
    c.head = h + 1;
}

template <class Fn>
inline void run_in_frame(group_state *g, weft_worker *w, weft_task *head, Fn &fn) noexcept
{
    context &c = tls_context;
    context_restore restore(c);
    group_frame frame{g, w, head, head, w->root_serial};
    c.worker = w;
    c.head = head;
    c.group = &frame;
    c.depth++;
    {
        WEFT_PROFILE_CPP_BODY_(w, Fn)
        g->errors.guarded(fn);
    }
    group_join_frame(frame, c, "the end of a weft::task_group callable");
}

template <class T>
struct outside_task_of final : outside_task {
    template <class F>
    explicit outside_task_of(F &&f) : fn(std::forward<F>(f))
    {}
    void run(group_state *g, weft_worker *w, weft_task *head) noexcept override
    {
        run_in_frame(g, w, head, fn);
    }
    T fn;
};

} // namespace detail

/// Runs any number of callables, possibly in parallel, until wait().
///
///     weft::task_group g;
///     for (node *n : children)
///         g.run([n] { visit(n); });
///     g.wait();                       // rethrows the first exception, if any
///
/// In a task (or any code the pool runs), the callables of the frame that
/// made the group are spawned on the worker's deque (small callables inside
/// the descriptor, larger ones on the heap) and joined by wait(); a callable
/// of the group that calls run() on it spawns into a frame of its own, joined
/// when it returns (so nested runs, as in a recursive traversal, are
/// parallel too, and wait() covers them).  run() from other frames of the
/// pool -- another task holding a reference to the group -- runs the
/// callable at once in the caller.  From a thread outside the pool, run()
/// keeps the callable and wait() runs all kept ones on the pool, in
/// parallel, blocking like weft::run.
///
/// wait() must be called by the frame that made the group, after the groups
/// it made later have been waited for (destructors do that in the right
/// order); it then rethrows the first exception a callable threw, and the
/// group can be used again.  Once a callable has thrown (or cancel() was
/// called), callables not yet started are skipped.  The destructor waits
/// (cancelling first when an exception is unwinding the stack) and drops an
/// exception nobody waited for.  A wait() in the wrong frame -- another
/// function's task, a callable of the group itself, the other half of a
/// join -- stops the program with a message whichever worker runs it (it
/// could not join the spawns below others').
class task_group {
public:
    task_group() noexcept
    {
        detail::context &c = detail::tls_context;
        state_.creator_depth = c.depth;
        if (detail::context_is_current(c)) {
            state_.creator_worker = c.worker;
            state_.creator_head = c.head;
        } else if (weft_worker *w = weft_self()) {
            state_.creator_worker = w;
            state_.creator_head = weft_current_head(w);
        }
        if (state_.creator_worker)
            state_.creator_root = state_.creator_worker->root_serial;
    }

    ~task_group()
    {
        if (pending()) {
            // Relaxed: the group's own counts, written before its callables
            // were run (by whichever thread ran the first).
            if (std::uncaught_exceptions() > state_.uncaught.load(std::memory_order_relaxed))
                cancel();
            finish();
        }
        try_reset(); // an exception nobody waited for is dropped
    }

    task_group(const task_group &) = delete;
    task_group &operator=(const task_group &) = delete;

    /// Runs f (a copy of it, or f moved in) possibly in parallel with the
    /// caller.  Throws only what copying f or allocating throws; then f is
    /// not run.
    template <class F>
    void run(F &&f)
    {
        static_assert(std::is_invocable_v<std::decay_t<F> &>,
                      "weft::task_group::run needs a callable");
        detail::context &c = detail::tls_context;
        if (WEFT_LIKELY(detail::context_is_current(c)))
            run_at(c, std::forward<F>(f));
        else
            run_slow(std::forward<F>(f));
    }

    /// Waits for every callable run on the group (and those they ran), then
    /// rethrows the first exception one of them threw.
    void wait()
    {
        finish();
        state_.errors.rethrow_and_reset();
    }

    /// Callables not started yet are skipped, until the next wait() returns.
    void cancel() noexcept { state_.errors.request_stop(); }
    /// True after cancel() (or an exception) until the next wait() returns.
    bool is_canceling() const noexcept { return state_.errors.stopped(); }

private:
    /// The frame of c in which this group may spawn, or null.
    detail::group_frame *frame_for(detail::context &c) noexcept
    {
        detail::group_frame &home = state_.home;
        // Relaxed: only this thread stores its own worker there.
        weft_worker *owner = state_.home_owner.load(std::memory_order_relaxed);
        if (owner == c.worker && home.top == c.head && c.depth == state_.creator_depth &&
            c.worker->root_serial == home.root)
            return &home;
        if (c.group != nullptr && c.group->group == &state_ && c.group->top == c.head &&
            c.worker->root_serial == c.group->root)
            return c.group;
        if (owner == nullptr && c.head == state_.creator_head &&
            c.worker == state_.creator_worker && c.depth == state_.creator_depth &&
            c.worker->root_serial == state_.creator_root) {
            home.worker = c.worker;
            home.base = home.top = c.head;
            home.root = state_.creator_root;
            state_.uncaught.store(std::uncaught_exceptions(),
                                  std::memory_order_relaxed);             // see ~task_group
            state_.home_owner.store(c.worker, std::memory_order_relaxed); // as above
            c.homes++;
            return &home;
        }
        return nullptr;
    }

    /// run() where c, the calling worker's current context, is known: a
    /// spawn when c is in a frame of the group, else a call right here.
    template <class F>
    void run_at(detail::context &c, F &&f)
    {
        if (detail::group_frame *fr = frame_for(c))
            detail::group_push(*fr, c, std::forward<F>(f));
        else
            detail::run_in_frame(&state_, c.worker, c.head, f);
    }

    /// run() where the thread's context is stale (C code spawned since) or
    /// the thread is not a worker.
    template <class F>
    void run_slow(F &&f)
    {
        detail::context &c = detail::tls_context;
        detail::context_restore restore(c);
        if (detail::context_recover(c)) {
            run_at(c, std::forward<F>(f));
            return;
        }
        auto *node = new detail::outside_task_of<std::decay_t<F>>(std::forward<F>(f));
        state_.uncaught.store(std::uncaught_exceptions(),
                              std::memory_order_relaxed); // see ~task_group
        // Relaxed: only a guess of the head, checked by the CAS.  Release
        // (the CAS): the node is built before wait() takes it (acquire).
        node->next = state_.outside.load(std::memory_order_relaxed);
        while (!state_.outside.compare_exchange_weak(node->next, node, std::memory_order_release,
                                                     std::memory_order_relaxed)) {
        }
    }

    /// Joins the home frame's spawns and runs what threads outside the pool
    /// left; keeps the first exception in state_.errors.
    void finish() noexcept
    {
        // Relaxed: see frame_for.
        if (state_.home_owner.load(std::memory_order_relaxed) != nullptr) {
            detail::context &c = detail::tls_context;
            if (detail::context_is_current(c)) {
                join_home(c);
            } else {
                detail::context_restore restore(c);
                if (!detail::context_recover(c))
                    detail::fatal("weft::task_group::wait() outside the pool for a group whose "
                                  "tasks were spawned on a worker");
                join_home(c);
            }
        }
        drain_outside();
    }

    void join_home(detail::context &c) noexcept
    {
        detail::group_frame &home = state_.home;
        // Relaxed: see frame_for.
        // A top above the group's spawns in its own frame is a task spawned
        // after them, still pending: the join of the newest spawn below
        // refuses that (weft_fj_join_slot), naming the order rule.
        if (c.worker != state_.home_owner.load(std::memory_order_relaxed) || c.head < home.top ||
            c.depth != state_.creator_depth || c.worker->root_serial != home.root)
            detail::fatal("weft::task_group::wait() (or its destructor) called in another frame "
                          "than the group's runs (a callable of the group, the other half of a "
                          "join), or before a group made later was waited for");
        detail::group_join_frame(home, c, "weft::task_group::wait()");
        c.homes--;
        home.worker = nullptr;
        home.base = home.top = nullptr;
        state_.home_owner.store(nullptr, std::memory_order_relaxed); // see frame_for
    }

    void drain_outside() noexcept;

    /// Spawns at home, or callables from outside, not yet joined.
    bool pending() const noexcept
    {
        // Relaxed both: see frame_for; callables from outside are taken
        // with acquire by drain_outside.
        return state_.home_owner.load(std::memory_order_relaxed) != nullptr ||
               state_.outside.load(std::memory_order_relaxed) != nullptr;
    }

    void try_reset() noexcept
    {
#if WEFT_CPP_EXCEPTIONS
        try {
            state_.errors.rethrow_and_reset();
        } catch (...) {
        }
#else
        state_.errors.rethrow_and_reset();
#endif
    }

    detail::group_state state_;
};

} // namespace weft

#endif
