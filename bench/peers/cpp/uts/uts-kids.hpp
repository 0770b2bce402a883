// SPDX-License-Identifier: Apache-2.0
// The results of one UTS node's children, for C++ kernels that run the
// children as tasks of a group (uts-tbb.cpp): UTS_INLINE_KIDS of them in
// the node's frame (uts-peer.h), more on the heap; exits with a message if
// the heap has no room.
#ifndef WEFT_PEER_UTS_KIDS_HPP
#define WEFT_PEER_UTS_KIDS_HPP

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>

#include "uts-peer.h"

class ChildResults {
public:
    explicit ChildResults(int n)
        : heap_(n > UTS_INLINE_KIDS ? new (std::nothrow) uts_result[n] : nullptr),
          slots_(heap_ ? heap_.get() : inline_)
    {
        if (n > UTS_INLINE_KIDS && !heap_) {
            std::fprintf(stderr, "uts: cannot allocate the results of %d children\n", n);
            std::exit(1);
        }
    }
    uts_result &operator[](int i) { return slots_[i]; }

private:
    uts_result inline_[UTS_INLINE_KIDS];
    std::unique_ptr<uts_result[]> heap_;
    uts_result *slots_;
};

#endif
