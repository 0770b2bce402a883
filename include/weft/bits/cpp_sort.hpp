// SPDX-License-Identifier: Apache-2.0
/// @file
/// weft::parallel_sort and weft::parallel_stable_sort (included by
/// weft/weft.hpp): a merge sort in the spirit of Cilk's cilksort -- sorted
/// pieces merged by merges that are parallel themselves (split at the middle
/// of the longer run, binary search in the other) -- that loses no item
/// when the comparator throws.
#ifndef WEFT_BITS_CPP_SORT_HPP
#define WEFT_BITS_CPP_SORT_HPP

#include <weft/bits/cpp_parallel.hpp>

#include <algorithm>
#include <iterator>
#include <memory>

namespace weft {
namespace detail {

// ---- the exception guarantee ---------------------------------------------
//
// If the comparator throws, the range holds the items it held before (as a
// multiset): none is lost, none left moved-from, none there twice
// (docs/cpp.md, "parallel_sort").  The value type's moves cannot throw
// (parallel_sort checks it), nor can the swaps (swap_items), so the
// comparator is the only thing that can, and the sorts keep two rules on
// every path:
//
//  * An item taken out of the range (the one an insertion carries) is held
//    by an insertion_hole, whose destructor puts it into the hole -- the
//    insertion's last step, and what unwinding does when the comparator
//    throws mid-way.
//  * Every other item is in exactly one of the range and the scratch.  A
//    merge's unmerged rest goes to its output in the destructor of a
//    merge_rest: the merge's last step again, and what unwinding does.  A
//    sort of n items returns with all n in the array its caller merges
//    from, sorted or not; once an exception has been caught, the work left
//    only moves the items to where the next level looks for them.
//
// Both guards are destructors that run at the end of the normal path as
// well, so that path pays nothing for them: no flag, no test per
// comparison.  (Rust's slice sorts keep the same guarantee the same way:
// GapGuard, formerly InsertionHole and MergeHole.)  std::sort gives no such
// guarantee -- an exception from the comparator during its insertions or
// its heapsort loses the item carried -- and libstdc++'s std::stable_sort
// loses whatever its buffer held (up to half the range); hence the leaf
// sorts here: std::sort's algorithm and a merge sort, written with the
// guards.

/// Swaps two items: by swap found by ADL (std::string's swaps pointers)
/// when that cannot throw, else by three moves.
template <class It>
inline void swap_items(It a, It b) noexcept
{
    using T = typename std::iterator_traits<It>::value_type;
    if constexpr (std::is_nothrow_swappable_v<T>) {
        std::iter_swap(a, b);
    } else {
        T t(std::move(*a));
        *a = std::move(*b);
        *b = std::move(t);
    }
}

/// An item carried out of the range by an insertion, and the hole it goes
/// back to: `at` follows the hole as the items before it move up.  The
/// destructor moves the item into the hole.
template <class It>
class insertion_hole {
public:
    using value_type = typename std::iterator_traits<It>::value_type;

    explicit insertion_hole(It from) noexcept : item(std::move(*from)), at(from) {}
    ~insertion_hole() { *at = std::move(item); }
    insertion_hole(const insertion_hole &) = delete;
    insertion_hole &operator=(const insertion_hole &) = delete;

    value_type item;
    It at;
};

/// Inserts *last into the sorted items before it, which include one that
/// does not go after it (unguarded: no test for the front).
template <class It, class Comp>
inline void insert_unguarded(It last, Comp &comp)
{
    insertion_hole<It> hole(last);
    It next = last;
    --next;
    while (comp(hole.item, *next)) {
        *hole.at = std::move(*next);
        hole.at = next;
        --next;
    }
}

/// Sorts [first, last) by insertion; stable (an item moves past the
/// items greater than it only).
template <class It, class Comp>
inline void insertion_sort(It first, It last, Comp &comp)
{
    using T = typename std::iterator_traits<It>::value_type;
    if (first == last)
        return;
    for (It i = first + 1; i != last; ++i) {
        if (comp(*i, *first)) {
            // Before every item: moved to the front with no comparison in
            // between, so nothing can throw while it is out.
            T item(std::move(*i));
            std::move_backward(first, i, i + 1);
            *first = std::move(item);
        } else {
            insert_unguarded(i, comp);
        }
    }
}

/// The introsort below sorts pieces of at most this many items by insertion.
inline constexpr std::ptrdiff_t sort_insertion_max = 16;

/// Swaps the median of *a, *b and *c to *to (std::sort's pivot choice).
template <class It, class Comp>
inline void median_to(It to, It a, It b, It c, Comp &comp)
{
    if (comp(*a, *b)) {
        if (comp(*b, *c))
            swap_items(to, b);
        else if (comp(*a, *c))
            swap_items(to, c);
        else
            swap_items(to, a);
    } else if (comp(*a, *c)) {
        swap_items(to, a);
    } else if (comp(*b, *c)) {
        swap_items(to, c);
    } else {
        swap_items(to, b);
    }
}

/// Partitions [lo, hi) around *pivot: returns the cut, with nothing after
/// it that goes before anything before it.  Unguarded: the median of
/// three and its companions stop the scans.
template <class It, class Comp>
inline It partition_unguarded(It lo, It hi, It pivot, Comp &comp)
{
    for (;;) {
        while (comp(*lo, *pivot))
            ++lo;
        --hi;
        while (comp(*pivot, *hi))
            --hi;
        if (!(lo < hi))
            return lo;
        swap_items(lo, hi);
        ++lo;
    }
}

/// Heapsort by swaps: introsort's way out of a bad run of pivots (rare, so
/// simple rather than fast).
template <class It, class Comp>
[[gnu::noinline, gnu::cold]] void heap_sort(It first, It last, Comp &comp)
{
    using D = typename std::iterator_traits<It>::difference_type;
    D n = last - first;
    auto sift_down = [&](D i, D size) {
        for (;;) {
            D child = 2 * i + 1;
            if (child >= size)
                return;
            if (child + 1 < size && comp(first[child], first[child + 1]))
                child++;
            if (!comp(first[i], first[child]))
                return;
            swap_items(first + i, first + child);
            i = child;
        }
    };
    for (D i = n / 2; i-- > 0;)
        sift_down(i, n);
    for (D end = n - 1; end > 0; --end) {
        swap_items(first, first + end);
        sift_down(0, end);
    }
}

/// Not declared inline: gcc then inlines the recursion into itself, and
/// the partition's loops lose their shape (5 % slower on random ints).
template <class It, class Comp>
void introsort_loop(It first, It last, unsigned depth_limit, Comp &comp)
{
    while (last - first > sort_insertion_max) {
        if (depth_limit == 0) {
            heap_sort(first, last, comp);
            return;
        }
        --depth_limit;
        It mid = first + (last - first) / 2;
        median_to(first, first + 1, mid, last - 1, comp);
        It cut = partition_unguarded(first + 1, last, first, comp);
        introsort_loop(cut, last, depth_limit, comp);
        last = cut;
    }
}

/// Sorts [first, last) in place as libstdc++'s std::sort does (introsort:
/// median-of-three quicksort down to pieces of 16, heapsort past 2 log n
/// levels, then one insertion pass), with the same comparisons, and keeps
/// the guarantee above.
template <class It, class Comp>
inline void unstable_sort(It first, It last, Comp &comp)
{
    auto n = last - first;
    if (n < 2)
        return;
    unsigned lg = 0;
    while ((n >> lg) > 1)
        lg++;
    introsort_loop(first, last, 2 * lg, comp);
    if (n > sort_insertion_max) {
        // The first piece holds the least item: a stop for the rest.
        insertion_sort(first, first + sort_insertion_max, comp);
        for (It i = first + sort_insertion_max; i != last; ++i)
            insert_unguarded(i, comp);
    } else {
        insertion_sort(first, last, comp);
    }
}

/// The comparator is called on lvalues of the items only, as std::sort
/// calls it: one taking non-const references (`bool(int &, int &)`) is
/// accepted by both sorts.  std::merge of move iterators would pass
/// rvalues, and std::lower_bound a const value, so the merge and the
/// searches below are written out.

/// What a merge has not done yet: the rest of each run and where it goes.
/// The destructor moves both rests, in order, to the output -- the end of
/// the merge once a run is used up, and all the unmerged items when the
/// comparator throws.
template <class A, class B, class Out>
struct merge_rest {
    A a, a_end;
    B b, b_end;
    Out out;

    ~merge_rest() { std::move(b, b_end, std::move(a, a_end, out)); }
};

/// Merges sorted runs a[0..na) and b[0..nb) into out, ties from a first;
/// every item is in out when it returns or throws.
/// Items that are copied as bytes and small are merged without a branch on
/// the comparison (the loser of each step is not moved; the pointers
/// advance by the outcome): random keys make that branch mispredict half
/// the time, and this merge takes about two thirds of std::merge's time on
/// 10^7 random ints.  Any other type is moved, one item at a time.
template <class A, class B, class Out, class Comp>
inline void merge_runs(A a, std::size_t na, B b, std::size_t nb, Out out, Comp &comp)
{
    using T = typename std::iterator_traits<A>::value_type;
    merge_rest<A, B, Out> rest{a, a + na, b, b + nb, out};
    if constexpr (std::is_trivially_copyable_v<T> && sizeof(T) <= 2 * sizeof(void *)) {
        while (rest.a != rest.a_end && rest.b != rest.b_end) {
            bool from_b = comp(*rest.b, *rest.a);
            *rest.out = from_b ? *rest.b : *rest.a;
            ++rest.out;
            rest.b += from_b;
            rest.a += !from_b;
        }
    } else {
        for (; rest.a != rest.a_end && rest.b != rest.b_end; ++rest.out) {
            if (comp(*rest.b, *rest.a)) {
                *rest.out = std::move(*rest.b);
                ++rest.b;
            } else {
                *rest.out = std::move(*rest.a);
                ++rest.a;
            }
        }
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

/// The merge sort's shape (sort_shape_for).
struct sort_shape {
    unsigned depth;        ///< levels of merges above the leaves
    unsigned serial_depth; ///< the levels at and below it run on one worker
    std::size_t merge_grain;
};

template <bool Stable, class Comp>
class merge_sorter {
public:
    merge_sorter(Comp &comp, first_error &errors, const sort_shape &shape) noexcept
        : comp_(comp), errors_(errors), shape_(shape)
    {}

    /// Sorts the n items at x using the n at y as scratch.  The leaves (depth
    /// 0) sort in x; each level above merges its halves into the other
    /// array, so the result is in x for an even depth and in y for an odd.
    /// There are all n items on every path: sorted, or -- once an exception
    /// stopped the sort, here or anywhere -- in any order.
    template <class X, class Y>
    void sort(X x, Y y, std::size_t n, unsigned depth) noexcept
    {
        if (errors_.stopped()) {
            if (depth % 2 == 1)
                std::move(x, x + n, y);
            return;
        }
        if (depth == 0) {
            // The items stay in x, whatever the comparator does.
            caught([&] {
                if constexpr (Stable)
                    insertion_sort(x, x + n, comp_);
                else
                    unstable_sort(x, x + n, comp_);
            });
            return;
        }
        std::size_t h = n / 2;
        bool parallel = depth > shape_.serial_depth;
        if (parallel) {
            join_here(
                tls_context, [&] { sort(x, y, h, depth - 1); },
                [&] { sort(x + h, y + h, n - h, depth - 1); });
        } else {
            sort(x, y, h, depth - 1);
            sort(x + h, y + h, n - h, depth - 1);
        }
        if (depth % 2 == 1)
            merge(x, h, x + h, n - h, y, parallel);
        else
            merge(y, h, y + h, n - h, x, parallel);
    }

    /// Moves the merge of sorted runs a[0..na) and b[0..nb) to out, in
    /// parallel if asked; all the items are in out on every path.  Ties go
    /// to a first (a's items precede b's in the sequence), which keeps the
    /// sort stable: a split at a's middle a[i] sends b's items below a[i]
    /// left; a split at b's middle b[j] sends a's items up to b[j] left.
    template <class A, class B, class Out>
    void merge(A a, std::size_t na, B b, std::size_t nb, Out out, bool parallel) noexcept
    {
        if (errors_.stopped()) {
            std::move(b, b + nb, std::move(a, a + na, out));
            return;
        }
        if (!parallel || na + nb <= shape_.merge_grain) {
            caught([&] { merge_runs(a, na, b, nb, out, comp_); });
            return;
        }
        std::size_t ia = 0, ib = 0;
        bool found = caught([&] {
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
        if (!found) {
            std::move(b, b + nb, std::move(a, a + na, out));
            return;
        }
        join_here(
            tls_context, [&] { merge(a, ia, b, ib, out, true); },
            [&] { merge(a + ia, na - ia, b + ib, nb - ib, out + (ia + ib), true); });
    }

private:
    /// Runs step (even when the sort is stopping: the items must move all
    /// the same); false, with the exception kept if it is the first, when
    /// step threw.
    template <class Step>
    bool caught(Step &&step) noexcept
    {
#if WEFT_CPP_EXCEPTIONS
        try {
            step();
        } catch (...) {
            errors_.capture();
            return false;
        }
#else
        step();
#endif
        return true;
    }

    Comp &comp_;
    first_error &errors_;
    sort_shape shape_;
};

/// No leaf of a parallel sort is smaller than this many items (unless the
/// whole input is).
inline constexpr std::size_t sort_min_leaf = 2048;

/// The stable sort's merges go down to pieces of at most this many items,
/// sorted by insertion (std::stable_sort's go to 7).
inline constexpr std::size_t stable_sort_leaf = 16;

/// The fewest levels of the parity asked for whose pieces have at most
/// `leaf` items (the larger piece at depth d has ceil(n / 2^d)).
inline unsigned sort_levels(std::size_t n, std::size_t leaf, bool odd) noexcept
{
    unsigned depth = odd ? 1 : 0;
    while (((n - 1) >> depth) + 1 > leaf)
        depth += 2;
    return depth;
}

/// The sort's shape for n items and p workers (parallel: more than one
/// worker, or no pool yet, and n above sort_min_leaf): an even or odd
/// number of levels as the caller needs.
/// The parallel levels, at the top, halve down to pieces of at most
/// max(sort_min_leaf, ceil(n / 2p)) items (two per worker: few merge
/// passes, and stealing halves balances them), with merges split down to
/// max(8192, n / 8p) items.  Below them the unstable sort's leaves are
/// introsorts; the stable sort merges on down to stable_sort_leaf.
template <bool Stable>
inline sort_shape sort_shape_for(std::size_t n, std::size_t p, bool parallel, bool odd) noexcept
{
    unsigned parallel_levels =
        parallel
            ? sort_levels(n, std::max<std::size_t>(sort_min_leaf, (n + 2 * p - 1) / (2 * p)), odd)
            : (odd ? 1 : 0);
    unsigned depth = Stable ? sort_levels(n, stable_sort_leaf, odd) : parallel_levels;
    unsigned serial = parallel ? depth - parallel_levels : depth;
    return {depth, serial, std::max<std::size_t>(8192, n / (8 * p))};
}

/// The scratch: raw memory for n items, freed however the sort ends.
template <class T>
struct sort_scratch {
    explicit sort_scratch(std::size_t count) : items(std::allocator<T>().allocate(count)), n(count)
    {}
    ~sort_scratch() { std::allocator<T>().deallocate(items, n); }
    sort_scratch(const sort_scratch &) = delete;
    sort_scratch &operator=(const sort_scratch &) = delete;

    T *items;
    std::size_t n;
};

template <bool Stable, class RanIt, class Comp>
inline void parallel_sort(RanIt first, RanIt last, Comp &comp)
{
    using T = typename std::iterator_traits<RanIt>::value_type;
    // Each rule twice, so that the message names the function called.
    constexpr bool random_access =
        std::is_base_of_v<std::random_access_iterator_tag,
                          typename std::iterator_traits<RanIt>::iterator_category>;
    static_assert(Stable || random_access, "weft::parallel_sort needs random-access iterators");
    static_assert(!Stable || random_access,
                  "weft::parallel_stable_sort needs random-access iterators");
    constexpr bool moves_do_not_throw =
        std::is_trivially_copyable_v<T> ||
        (std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>);
    static_assert(Stable || moves_do_not_throw,
                  "weft::parallel_sort needs a value type whose moves do not throw (trivially "
                  "copyable, or a noexcept move constructor and move assignment): a move that "
                  "threw could leave an item nowhere");
    static_assert(!Stable || moves_do_not_throw,
                  "weft::parallel_stable_sort needs a value type whose moves do not throw "
                  "(trivially copyable, or a noexcept move constructor and move assignment): a "
                  "move that threw could leave an item nowhere");
    if (last < first)
        refuse(Stable ? "weft::parallel_stable_sort: the range is reversed (last is before first)"
                      : "weft::parallel_sort: the range is reversed (last is before first)");
    std::size_t n = static_cast<std::size_t>(last - first);
    // Too small to split, or one worker: the merges would only add passes,
    // and the sort runs here, without the pool.  (No pool: the default one
    // starts, as for any call that needs it.)
    unsigned workers = weft_workers();
    bool parallel = n > sort_min_leaf && workers != 1;
    std::size_t p = workers == 0 ? 1 : workers;
    if (!parallel) {
        // The introsort in place; a stable sort of one piece by insertion.
        if constexpr (!Stable) {
            unstable_sort(first, last, comp);
            return;
        } else if (n <= stable_sort_leaf) {
            insertion_sort(first, last, comp);
            return;
        }
    }
    sort_scratch<T> owned(n); // may throw: nothing has moved yet
    T *scratch = owned.items;
    first_error errors;
    auto run = [&](auto &&body) {
        if (parallel)
            run_with_context(body);
        else
            body();
    };
    if constexpr (std::is_trivially_copyable_v<T>) {
        // The items are sorted where they are, the scratch is raw memory:
        // an even number of levels brings the result back.
        sort_shape shape = sort_shape_for<Stable>(n, p, parallel, false);
        merge_sorter<Stable, Comp> sorter(comp, errors, shape);
        run([&]() noexcept { sorter.sort(first, scratch, n, shape.depth); });
    } else {
        // The items move into the scratch (constructing it), are sorted
        // there, and an odd number of levels moves them back; all in one
        // body that cannot throw, so no item is left in the scratch.
        sort_shape shape = sort_shape_for<Stable>(n, p, parallel, true);
        merge_sorter<Stable, Comp> sorter(comp, errors, shape);
        run([&]() noexcept {
            auto construct = [&](std::size_t lo, std::size_t hi) noexcept {
                for (std::size_t i = lo; i < hi; i++)
                    ::new (static_cast<void *>(scratch + i))
                        T(std::move(first[static_cast<std::ptrdiff_t>(i)]));
            };
            auto destroy = [&](std::size_t lo, std::size_t hi) noexcept {
                for (std::size_t i = lo; i < hi; i++)
                    scratch[i].~T();
            };
            if (parallel)
                split_for(0, n, auto_grain(n), construct);
            else
                construct(0, n);
            sorter.sort(scratch, first, n, shape.depth);
            if (parallel)
                split_for(0, n, auto_grain(n), destroy);
            else
                destroy(0, n);
        });
    }
    errors.rethrow_and_reset();
}

} // namespace detail

/// Sorts [first, last) (random-access) by comp (default: <), possibly in
/// parallel: a merge sort whose leaves are introsorts (std::sort's
/// algorithm) and whose merges are parallel.  Needs n extra items of
/// memory (none at one worker or for n <= 2048).  The value type must be
/// trivially copyable or have noexcept moves (checked): items are moved,
/// never copied.  comp is called on lvalues of the items, as std::sort
/// calls it, so it may take them by non-const reference.  If comp throws,
/// the first exception is rethrown once the sort has stopped, and the
/// range holds the items it held before, in some order (docs/cpp.md,
/// "parallel_sort").
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

/// As parallel_sort, and equal items keep their order: a merge sort down
/// to pieces of 16 sorted by insertion, merges that take ties from the left
/// run.  Needs n extra items of memory (n > 16) at any worker count.  Same
/// exception guarantee.
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
