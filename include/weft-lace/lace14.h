// SPDX-License-Identifier: Apache-2.0
/* Lace 1.4's lace14.h on weft: the same API as lace.h (weft's tasks take up
 * to 10 arguments in every build; their size is weft's descriptor's,
 * LACE_TASKSIZE, 112 bytes when weft is configured with
 * -DWEFT_TASK_SIZE=128).  docs/lace.md compares it with Lace's. */
#include "lace.h"
