// SPDX-License-Identifier: Apache-2.0
// Integer bounds wider than 64 bits (__int128 is an integral type under
// gnu++17) may span more than SIZE_MAX items: parallel_for and
// parallel_reduce refuse them at compile time (ctest cpp_int128_bounds
// checks the message).  Counted in size_t, these 2^64 + 5 items would be 5.
#include <weft/weft.hpp>

int main()
{
    __int128 first = 0, last = (static_cast<__int128>(1) << 64) + 5;
    long calls = 0;
    weft::parallel_for(first, last, [&](__int128) { calls++; });
    return calls == 5 ? 1 : 0;
}
