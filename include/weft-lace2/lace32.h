// SPDX-License-Identifier: Apache-2.0
/* Lace 2's lace32.h on weft, for 32-byte tasks: 16 bytes of arguments or
 * result, checked at compile time as Lace does.  On weft they occupy the
 * runtime's 64-byte descriptors (docs/lace2.md, task sizes).
 * Everything else is in lace2_bits.h; docs/lace2.md maps each name. */
#ifndef WEFT_LACE2_LACE32_H
#define WEFT_LACE2_LACE32_H

#ifdef LACE_TASKSIZE
#error "include only one of lace32.h, lace.h and lace128.h"
#endif
#define LACE_TASKSIZE (32)
#include <weft-lace2/lace2_bits.h>

#endif
