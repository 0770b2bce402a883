// SPDX-License-Identifier: Apache-2.0
/* Lace 2's lace.h on weft, for 64-byte tasks: 48 bytes of arguments or
 * result, checked at compile time as Lace does.
 * Everything else is in lace2_bits.h; docs/lace2.md maps each name. */
#ifndef WEFT_LACE2_LACE_H
#define WEFT_LACE2_LACE_H

#ifdef LACE_TASKSIZE
#error "include only one of lace32.h, lace.h and lace128.h"
#endif
#define LACE_TASKSIZE (64)
#include <weft-lace2/lace2_bits.h>

#endif
