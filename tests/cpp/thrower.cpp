// SPDX-License-Identifier: Apache-2.0
// Compiled with exceptions, called from test_cpp_noexcept's tasks.
#include <stdexcept>

void throw_from_elsewhere(int code)
{
    if (code != 0)
        throw std::runtime_error("thrown past -fno-exceptions code");
}
