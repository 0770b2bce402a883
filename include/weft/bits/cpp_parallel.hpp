// SPDX-License-Identifier: Apache-2.0
/// @file
/// weft::parallel_for and weft::parallel_reduce (included by weft/weft.hpp).
#ifndef WEFT_BITS_CPP_PARALLEL_HPP
#define WEFT_BITS_CPP_PARALLEL_HPP

#include <weft/bits/cpp_core.hpp>
#include <weft/bits/cpp_task_group.hpp>

#include <climits>
#include <cstddef>
#include <iterator>
#include <optional>
#include <vector>

namespace weft {
namespace detail {

/// The grain when none is given, Cilk's cilk_for rule: pieces of n / 8P
/// items (P workers), so that each worker gets about eight to balance with,
/// but at most 2048 items (splitting costs a join, tens of instructions;
/// 2048 items amortise it even for a body of one instruction) and at least 1.
inline std::size_t auto_grain(std::size_t n) noexcept
{
    std::size_t p = weft_workers();
    if (p == 0)
        p = 1;
    std::size_t g = (n + 8 * p - 1) / (8 * p);
    return g < 1 ? 1 : g > 2048 ? 2048 : g;
}

/// A range [first, last) of integers or of random-access iterators, as
/// offsets 0..size(): at(k) is the k-th integer or *(first + k).
template <class First, class Last>
struct index_range {
    static constexpr bool integral = std::is_integral_v<First> && std::is_integral_v<Last>;
    static_assert(integral || std::is_same_v<First, Last>,
                  "weft: first and last must both be integers or both the same iterator type");
    /// The pieces are counted in std::size_t: a range of a wider integer
    /// type (__int128, an integral type under gnu++17) could hold more
    /// items than that counts, and is refused rather than cut short.
    static_assert(!integral ||
                      (sizeof(First) <= sizeof(std::size_t) && sizeof(Last) <= sizeof(std::size_t)),
                  "weft: parallel_for/parallel_reduce take integer bounds of at most 64 bits; "
                  "integer bounds wider than 64 bits (__int128) could span more items than "
                  "std::size_t counts");
    /// Integers of mixed signedness: a signed loop, `long long`, which
    /// holds every value of both when the unsigned type is narrower than
    /// 64 bits; a 64-bit unsigned bound above LLONG_MAX is refused.  (The
    /// common type would be unsigned: a negative bound would wrap around.)
    static constexpr bool mixed_sign = [] {
        if constexpr (integral)
            return std::is_signed_v<First> != std::is_signed_v<Last> &&
                   std::is_unsigned_v<std::common_type_t<First, Last>>;
        else
            return false;
    }();
    using type = std::conditional_t<
        integral, std::conditional_t<mixed_sign, long long, std::common_type_t<First, Last>>,
        First>;

    /// Iterators: last before first is refused (a reversed range).
    index_range(First first, Last last, const char *who)
        : first_(static_cast<type>(first)), last_(static_cast<type>(last))
    {
        if constexpr (mixed_sign) {
            if constexpr (std::is_unsigned_v<First>) {
                if (first > static_cast<unsigned long long>(LLONG_MAX))
                    refuse_mixed(who);
            } else {
                if (last > static_cast<unsigned long long>(LLONG_MAX))
                    refuse_mixed(who);
            }
        }
        if constexpr (!integral) {
            static_assert(
                std::is_base_of_v<std::random_access_iterator_tag,
                                  typename std::iterator_traits<type>::iterator_category>,
                "weft: parallel_for/parallel_reduce need integers or random-access iterators");
            if (last_ < first_)
                refuse(std::string(who)
                           .append(": the range is reversed (last is before first)")
                           .c_str());
        }
    }

    [[noreturn, gnu::cold]] static void refuse_mixed(const char *who)
    {
        refuse(std::string(who)
                   .append(": an unsigned bound above LLONG_MAX with a signed one (bounds of "
                           "mixed signedness run as long long; make both bounds unsigned)")
                   .c_str());
    }

    /// Integers: [first, last) with last <= first is empty, as a for loop.
    std::size_t size() const noexcept
    {
        if constexpr (integral) {
            using U = std::make_unsigned_t<type>;
            // Narrow types promote to int: wrap back to U before widening.
            return last_ > first_ ? static_cast<std::size_t>(static_cast<U>(static_cast<U>(last_) -
                                                                            static_cast<U>(first_)))
                                  : 0;
        } else {
            return static_cast<std::size_t>(last_ - first_);
        }
    }

    decltype(auto) at(std::size_t k) const
    {
        if constexpr (integral) {
            using U = std::make_unsigned_t<type>;
            return static_cast<type>(static_cast<U>(first_) + static_cast<U>(k));
        } else {
            return *(first_ + static_cast<typename std::iterator_traits<type>::difference_type>(k));
        }
    }

    type first_, last_;
};

/// Runs leaf(lo, hi) on pieces of [lo, hi) of at most grain items, the two
/// halves of each split joined.  The context is the calling thread's: a
/// half run by a thief finds its own.
template <class Leaf>
inline void split_for(std::size_t lo, std::size_t hi, std::size_t grain, Leaf &leaf)
{
    if (hi - lo <= grain) {
        leaf(lo, hi);
        return;
    }
    std::size_t mid = lo + (hi - lo) / 2;
    join_here(
        tls_context, [&] { split_for(lo, mid, grain, leaf); },
        [&] { split_for(mid, hi, grain, leaf); });
}

template <class T, class Leaf, class Combine>
inline T split_reduce(std::size_t lo, std::size_t hi, std::size_t grain, Leaf &leaf,
                      Combine &combine, const T &identity, first_error &errors)
{
    if (hi - lo <= grain)
        return leaf(lo, hi);
    std::size_t mid = lo + (hi - lo) / 2;
    auto halves = join_here(
        tls_context,
        [&] { return split_reduce<T>(lo, mid, grain, leaf, combine, identity, errors); },
        [&] { return split_reduce<T>(mid, hi, grain, leaf, combine, identity, errors); });
    if (errors.stopped())
        return identity;
#if WEFT_CPP_EXCEPTIONS
    try {
        return combine(std::move(halves.first), std::move(halves.second));
    } catch (...) {
        errors.capture();
        return identity;
    }
#else
    return combine(std::move(halves.first), std::move(halves.second));
#endif
}

/// Runs body() where the calling thread's context is current (entering the
/// pool from outside it); body's exceptions are caught into `errors`.
template <class Body>
inline void run_with_context(Body &&body)
{
    (void)with_context([&](context &) {
        body();
        return none{};
    });
}

} // namespace detail

/// Calls f(i) for every integer i in [first, last), or f(*it) for every
/// iterator it in [first, last) (random-access), possibly in parallel: the
/// range is halved recursively (each split a join) down to pieces of at
/// most `grain` items, which run in order.  grain 0, or the overload
/// without it, picks min(2048, max(1, ceil(n / 8P))) for n items and P
/// workers.  Exceptions: the first is rethrown once every piece has
/// stopped; pieces not started by then are skipped.
template <class First, class Last, class F>
inline void parallel_for(First first, Last last, std::size_t grain, F &&f)
{
    detail::index_range<First, Last> range(first, last, "weft::parallel_for");
    std::size_t n = range.size();
    if (n == 0)
        return;
    if (grain == 0)
        grain = detail::auto_grain(n);
    detail::first_error errors;
    auto leaf = [&](std::size_t lo, std::size_t hi) noexcept {
        detail::label_scope<std::decay_t<F>> label(f); // weft::named's piece
        errors.guarded([&] {
            auto &&body = detail::unlabel(f);
            for (std::size_t k = lo; k < hi; k++)
                body(range.at(k));
        });
    };
    detail::run_with_context([&] { detail::split_for(0, n, grain, leaf); });
    errors.rethrow_and_reset();
}

/// @overload
template <class First, class Last, class F>
inline void parallel_for(First first, Last last, F &&f)
{
    parallel_for(first, last, std::size_t{0}, std::forward<F>(f));
}

/// Reduces [first, last) (integers or random-access iterators, as in
/// parallel_for) to combine(... combine(identity, map(x0)) ..., map(xn-1)),
/// possibly in parallel: each piece folds its items from a copy of
/// identity, in order, and the pieces' results are combined in order, so
/// combine must be associative (not commutative) and identity its neutral
/// element.  T is copied once per piece.  grain as in parallel_for.
/// Exceptions from map or combine: the first is rethrown at the end.
template <class First, class Last, class T, class Map, class Combine>
inline T parallel_reduce(First first, Last last, std::size_t grain, T identity, Map &&map,
                         Combine &&combine)
{
    detail::index_range<First, Last> range(first, last, "weft::parallel_reduce");
    std::size_t n = range.size();
    if (n == 0)
        return identity;
    if (grain == 0)
        grain = detail::auto_grain(n);
    detail::first_error errors;
    auto leaf = [&](std::size_t lo, std::size_t hi) -> T {
        detail::label_scope<std::decay_t<Map>> label(map); // weft::named's piece
        T acc = identity;
        errors.guarded([&] {
            auto &&body = detail::unlabel(map);
            for (std::size_t k = lo; k < hi; k++)
                acc = combine(std::move(acc), body(range.at(k)));
        });
        return acc;
    };
    std::optional<T> result; // T need not be default-constructible
    detail::run_with_context([&] {
        result.emplace(detail::split_reduce<T>(0, n, grain, leaf, combine, identity, errors));
    });
    errors.rethrow_and_reset();
    return std::move(*result);
}

/// @overload
template <class First, class Last, class T, class Map, class Combine>
inline T parallel_reduce(First first, Last last, T identity, Map &&map, Combine &&combine)
{
    return parallel_reduce(first, last, std::size_t{0}, std::move(identity), std::forward<Map>(map),
                           std::forward<Combine>(combine));
}

/// The callables threads outside the pool left for wait(), run in parallel.
inline void task_group::drain_outside() noexcept
{
    for (;;) {
        // Relaxed first: nothing to take is the common case.  Acquire: the
        // pushers' nodes (release) are complete.
        if (state_.outside.load(std::memory_order_relaxed) == nullptr)
            return;
        detail::outside_task *list = state_.outside.exchange(nullptr, std::memory_order_acquire);
        std::vector<detail::outside_task *> tasks;
        for (; list != nullptr; list = list->next)
            tasks.push_back(list);
        parallel_for(tasks.rbegin(), tasks.rend(), 1, [this](detail::outside_task *t) {
            detail::context &c = detail::tls_context;
            t->run(&state_, c.worker, c.head);
            delete t;
        });
    }
}

} // namespace weft

#endif
