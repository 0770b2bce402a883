// SPDX-License-Identifier: Apache-2.0
// weft::parallel_sort and weft::parallel_stable_sort refuse at compile time
// a value type whose move may throw (ctest cpp_sort_throwing_move_construct
// and cpp_sort_throwing_move_assign check the message): their exception
// guarantee -- the range keeps its items when the comparator throws --
// rests on moves that cannot throw (docs/cpp.md, "parallel_sort").
// THROWING_ASSIGN makes the move assignment the one that may throw, else it
// is the move constructor; NOTHROW makes neither (the control: compiles);
// ONLY_STABLE calls parallel_stable_sort alone (its message names it).
#include <weft/weft.hpp>

#include <string>
#include <utility>

#if defined(NOTHROW)
#define CTOR_NOEXCEPT noexcept
#define ASSIGN_NOEXCEPT noexcept
#elif defined(THROWING_ASSIGN)
#define CTOR_NOEXCEPT noexcept
#define ASSIGN_NOEXCEPT
#else
#define CTOR_NOEXCEPT
#define ASSIGN_NOEXCEPT noexcept
#endif

struct item {
    std::string text;

    item() = default;
    item(item &&other) CTOR_NOEXCEPT : text(std::move(other.text)) {}
    item &operator=(item &&other) ASSIGN_NOEXCEPT
    {
        text = std::move(other.text);
        return *this;
    }
    bool operator<(const item &other) const { return text < other.text; }
};

int main()
{
    item v[10];
#if !defined(ONLY_STABLE)
    weft::parallel_sort(v, v + 10);
#endif
    weft::parallel_stable_sort(v, v + 10);
    return 0;
}
