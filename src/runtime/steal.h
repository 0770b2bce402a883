// SPDX-License-Identifier: Apache-2.0
/* Stealing (steal.c): victim selection and running a stolen task.  Not
 * installed. */
#ifndef WEFT_RUNTIME_STEAL_H
#define WEFT_RUNTIME_STEAL_H

#include <weft/bits/lang.h>

#include <stdbool.h>

#include <weft/weft.h>

/* weft__random_victim and weft__steal_and_run: the front-end seam declares
 * them, as the Lace libraries call them too. */
#include "runtime/frontend.h"

#endif
