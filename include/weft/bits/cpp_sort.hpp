// SPDX-License-Identifier: Apache-2.0
/// @file
/// weft::parallel_sort and weft::parallel_stable_sort (included by
/// weft/weft.hpp): a merge sort in the spirit of Cilk's cilksort -- sorted
/// pieces merged by merges that are parallel themselves (split at the middle
/// of the longer run, binary search in the other).
#ifndef WEFT_BITS_CPP_SORT_HPP
#define WEFT_BITS_CPP_SORT_HPP

#include <weft/bits/cpp_parallel.hpp>

#include <algorithm>
#include <iterator>
#include <memory>

namespace weft {
namespace detail {

/// A piece sorted sequentially: a leaf of the merge sort, or a whole input
/// too small to split.
/// Only the std:: sort asked for is instantiated: std::sort takes a
/// comparator that std::stable_sort refuses (libstdc++'s calls it on a
/// const item, so bool(T &, T &) does not compile there).
template <bool Stable, class It, class Comp>
inline void sort_leaf(It first, It last, Comp &comp)
{
    if constexpr (Stable)
        std::stable_sort(first, last, comp);
    else
        std::sort(first, last, comp);
}

/// No leaf is smaller than this many items (unless the whole input is).
inline constexpr std::size_t sort_min_leaf = 2048;

/// The comparator is called on lvalues of the items only, as std::sort
/// calls it: one taking non-const references (`bool(int &, int &)`) is
/// accepted.  std::merge of move iterators would pass rvalues, and
/// std::lower_bound a const value, so the merge and the searches below are
/// written out.

/// Merges sorted runs a[0..na) and b[0..nb) into out, ties from a first.
/// Items that are copied as bytes and small are merged without a branch on
/// the comparison (the loser of each step is not moved; the pointers
/// advance by the outcome): random keys make that branch mispredict half
/// the time, and this merge takes about two thirds of std::merge's time on
/// 10^7 random ints.  Any other type is moved, one item at a time.
template <class A, class B, class Out, class Comp>
inline void merge_runs(A a, std::size_t na, B b, std::size_t nb, Out out, Comp &comp)
{
    using T = typename std::iterator_traits<A>::value_type;
    if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= 2 * sizeof(void *)) {
        A a_end = a + na;
        B b_end = b + nb;
        while (a != a_end && b != b_end) {
            bool from_b = comp(*b, *a);
            *out = from_b ? *b : *a;
            ++out;
            b += from_b;
            a += !from_b;
        }
        out = std::copy(a, a_end, out);
        std::copy(b, b_end, out);
    } else {
        A a_end = a + na;
        B b_end = b + nb;
        for (; a != a_end && b != b_end; ++out) {
            if (comp(*b, *a)) {
                *out = std::move(*b);
                ++b;
            } else {
                *out = std::move(*a);
                ++a;
            }
        }
        out = std::move(a, a_end, out);
        std::move(b, b_end, out);
    }
}

/// The number of items of the sorted run x[0..n) that go before pivot
/// (comp(x[i], pivot)): std::lower_bound's answer, as an index.
template <class X, class V, class Comp>
inline std::size_t count_before(X x, std::size_t n, V &pivot, Comp &comp)
{
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
        std::size_t mid = lo + (hi - lo) / 2;
        if (comp(x[mid], pivot))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/// The number of items of x[0..n) that do not go after pivot
/// (!comp(pivot, x[i])): std::upper_bound's answer, as an index.
template <class X, class V, class Comp>
inline std::size_t count_not_after(X x, std::size_t n, V &pivot, Comp &comp)
{
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
        std::size_t mid = lo + (hi - lo) / 2;
        if (comp(pivot, x[mid]))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

template <bool Stable, class Comp>
class merge_sorter {
public:
    merge_sorter(Comp &comp, first_error &errors, std::size_t merge_grain) noexcept
        : comp_(comp), errors_(errors), merge_grain_(merge_grain)
    {}

    /// Sorts the n items at x using the n at y as scratch.  The leaves (depth
    /// 0) sort in x; each level above merges its halves into the other
    /// array, so the result is in x for an even depth and in y for an odd.
    template <class X, class Y>
    void sort(X x, Y y, std::size_t n, unsigned depth)
    {
        if (depth == 0) {
            guarded([&] { sort_leaf<Stable>(x, x + n, comp_); });
            return;
        }
        std::size_t h = n / 2;
        join_here(
            tls_context, [&] { sort(x, y, h, depth - 1); },
            [&] { sort(x + h, y + h, n - h, depth - 1); });
        if (depth % 2 == 1)
            merge(x, h, x + h, n - h, y);
        else
            merge(y, h, y + h, n - h, x);
    }

    /// Moves the merge of sorted runs a[0..na) and b[0..nb) to out.  Ties go
    /// to a first (a's items precede b's in the sequence), which keeps the
    /// sort stable: a split at a's middle a[i] sends b's items below a[i]
    /// left; a split at b's middle b[j] sends a's items up to b[j] left.
    template <class A, class B, class Out>
    void merge(A a, std::size_t na, B b, std::size_t nb, Out out)
    {
        if (na + nb <= merge_grain_) {
            guarded([&] { merge_runs(a, na, b, nb, out, comp_); });
            return;
        }
        std::size_t ia = 0, ib = 0;
        bool ok = guarded([&] {
            if (na >= nb) {
                ia = na / 2;
                auto &&pivot = a[ia];
                ib = count_before(b, nb, pivot, comp_);
            } else {
                ib = nb / 2;
                auto &&pivot = b[ib];
                ia = count_not_after(a, na, pivot, comp_);
            }
        });
        if (!ok)
            return;
        join_here(
            tls_context, [&] { merge(a, ia, b, ib, out); },
            [&] { merge(a + ia, na - ia, b + ib, nb - ib, out + (ia + ib)); });
    }

private:
    /// Runs step unless an exception stopped the sort; catches the first.
    template <class Step>
    bool guarded(Step &&step) noexcept
    {
        return errors_.guarded(std::forward<Step>(step));
    }

    Comp &comp_;
    first_error &errors_;
    std::size_t merge_grain_;
};

/// The sort's shape for n items and P workers: leaves of at most
/// max(sort_min_leaf, ceil(n / 2P)) items (two per worker: few merge passes, and
/// stealing halves balances them), an even or odd number of levels as the
/// caller needs, and merges split down to max(8192, n / 8P) items.
struct sort_shape {
    unsigned depth;
    std::size_t merge_grain;
};

inline sort_shape sort_shape_for(std::size_t n, bool odd_depth) noexcept
{
    std::size_t p = weft_workers();
    if (p == 0)
        p = 1;
    std::size_t leaf = std::max<std::size_t>(sort_min_leaf, (n + 2 * p - 1) / (2 * p));
    unsigned depth = odd_depth ? 1 : 0;
    // The larger piece at a depth d has ceil(n / 2^d) items.
    while (((n - 1) >> depth) + 1 > leaf)
        depth += 2;
    return {depth, std::max<std::size_t>(8192, n / (8 * p))};
}

template <bool Stable, class RanIt, class Comp>
inline void parallel_sort(RanIt first, RanIt last, Comp &comp)
{
    using T = typename std::iterator_traits<RanIt>::value_type;
    static_assert(std::is_base_of_v<std::random_access_iterator_tag,
                                    typename std::iterator_traits<RanIt>::iterator_category>,
                  "weft::parallel_sort needs random-access iterators");
    static_assert(std::is_trivially_copyable_v<T> || std::is_nothrow_move_constructible_v<T>,
                  "weft::parallel_sort needs a value type that is trivially copyable or has a "
                  "noexcept move constructor");
    if (last < first)
        refuse(Stable ? "weft::parallel_stable_sort: the range is reversed (last is before first)"
                      : "weft::parallel_sort: the range is reversed (last is before first)");
    std::size_t n = static_cast<std::size_t>(last - first);
    // Too small to split, or one worker: the merges would only add passes.
    if (n <= sort_min_leaf || weft_workers() == 1) {
        sort_leaf<Stable>(first, last, comp);
        return;
    }
    std::allocator<T> alloc;
    T *scratch = alloc.allocate(n);
    first_error errors;
    if constexpr (std::is_trivially_copyable_v<T>) {
        // The items are sorted where they are, the scratch is raw memory:
        // an even number of levels brings the result back.
        sort_shape shape = sort_shape_for(n, false);
        merge_sorter<Stable, Comp> sorter(comp, errors, shape.merge_grain);
        run_with_context([&] { sorter.sort(first, scratch, n, shape.depth); });
    } else {
        // The items move into the scratch (constructing it), are sorted
        // there, and an odd number of levels moves them back.
        parallel_for(std::size_t{0}, n, [&](std::size_t i) {
            ::new (static_cast<void *>(scratch + i))
                T(std::move(first[static_cast<std::ptrdiff_t>(i)]));
        });
        sort_shape shape = sort_shape_for(n, true);
        merge_sorter<Stable, Comp> sorter(comp, errors, shape.merge_grain);
        run_with_context([&] { sorter.sort(scratch, first, n, shape.depth); });
        parallel_for(std::size_t{0}, n, [&](std::size_t i) { scratch[i].~T(); });
    }
    alloc.deallocate(scratch, n);
    errors.rethrow_and_reset();
}

} // namespace detail

/// Sorts [first, last) (random-access) by comp (default: <), possibly in
/// parallel: a merge sort whose leaves are std::sort and whose merges are
/// parallel.  Needs n extra items of memory; the value type must be
/// trivially copyable or have a noexcept move constructor.  comp is called
/// on lvalues of the items, as std::sort calls it, so it may take them by
/// non-const reference.  If comp throws, the first exception is rethrown
/// and the range holds valid but unspecified values (some possibly
/// moved-from).
template <class RanIt, class Comp>
inline void parallel_sort(RanIt first, RanIt last, Comp comp)
{
    detail::parallel_sort<false>(first, last, comp);
}

/// @overload
template <class RanIt>
inline void parallel_sort(RanIt first, RanIt last)
{
    std::less<> comp;
    detail::parallel_sort<false>(first, last, comp);
}

/// As parallel_sort, and equal items keep their order (std::stable_sort
/// leaves, merges that take ties from the left run).  comp must be callable
/// as std::stable_sort needs it (libstdc++'s calls it on const items too).
template <class RanIt, class Comp>
inline void parallel_stable_sort(RanIt first, RanIt last, Comp comp)
{
    detail::parallel_sort<true>(first, last, comp);
}

/// @overload
template <class RanIt>
inline void parallel_stable_sort(RanIt first, RanIt last)
{
    std::less<> comp;
    detail::parallel_sort<true>(first, last, comp);
}

} // namespace weft

#endif
