// SPDX-License-Identifier: Apache-2.0
/* Lace 2's lace128.h on weft, for 128-byte tasks: 112 bytes of arguments or
 * result.  Build with the lace128 target or lace128.pc: their runtime is a
 * copy of weft's built with 128-byte descriptors (docs/lace2.md).
 * Everything else is in lace2_bits.h; docs/lace2.md maps each name. */
#ifndef WEFT_LACE2_LACE128_H
#define WEFT_LACE2_LACE128_H

#ifdef LACE_TASKSIZE
#error "include only one of lace32.h, lace.h and lace128.h"
#endif
#define LACE_TASKSIZE (128)
#include <weft-lace2/lace2_bits.h>

#endif
