// SPDX-License-Identifier: Apache-2.0
/* Stealing (steal.c): victim selection and running a stolen task.  Not
 * installed. */
#ifndef WEFT_RUNTIME_STEAL_H
#define WEFT_RUNTIME_STEAL_H

#include <weft/bits/lang.h>

#include <stdbool.h>

#include <weft/weft.h>

/* weft__random_victim and weft__steal_and_run: declared in stealing.h, so
 * that the front-ends' and the schedulers' seams can offer them too. */
#include "runtime/stealing.h"

#endif
