// SPDX-License-Identifier: Apache-2.0
/** @file
 * Short, Lace-style names for weft's task macros:
 *
 *     #include <weft/short.h>
 *     TASK_1(long, fib, int, n) { ... SPAWN(fib, n - 1); ... SYNC(fib) ... }
 *     ... RUN(fib, 40) ...
 *
 * Every task macro of weft.h (0 to 9 arguments) and the task operations,
 * under the short names Wool and Lace programs use; nothing else.  Kept
 * out of weft.h because such short names collide easily with other code;
 * include this header only where that is not a concern.  It is not the
 * Lace API (that is <lace.h> of the weft-lace library: docs/lace.md). */
#ifndef WEFT_SHORT_H
#define WEFT_SHORT_H

#include <weft/weft.h>

/** @name The short names
 * Each is the weft macro it is defined as (TASK_1 is WEFT_TASK_1, SPAWN
 * is WEFT_SPAWN, ...).
 * @{ */
#define TASK_0 WEFT_TASK_0 /**< WEFT_TASK_0 */
#define TASK_1 WEFT_TASK_1 /**< WEFT_TASK_1 */
#define TASK_2 WEFT_TASK_2 /**< WEFT_TASK_2 */
#define TASK_3 WEFT_TASK_3 /**< WEFT_TASK_3 */
#define TASK_4 WEFT_TASK_4 /**< WEFT_TASK_4 */
#define TASK_5 WEFT_TASK_5 /**< WEFT_TASK_5 */
#define TASK_6 WEFT_TASK_6 /**< WEFT_TASK_6 */
#define TASK_7 WEFT_TASK_7 /**< WEFT_TASK_7 */
#define TASK_8 WEFT_TASK_8 /**< WEFT_TASK_8 */
#define TASK_9 WEFT_TASK_9 /**< WEFT_TASK_9 */

#define VOID_TASK_0 WEFT_VOID_TASK_0 /**< WEFT_VOID_TASK_0 */
#define VOID_TASK_1 WEFT_VOID_TASK_1 /**< WEFT_VOID_TASK_1 */
#define VOID_TASK_2 WEFT_VOID_TASK_2 /**< WEFT_VOID_TASK_2 */
#define VOID_TASK_3 WEFT_VOID_TASK_3 /**< WEFT_VOID_TASK_3 */
#define VOID_TASK_4 WEFT_VOID_TASK_4 /**< WEFT_VOID_TASK_4 */
#define VOID_TASK_5 WEFT_VOID_TASK_5 /**< WEFT_VOID_TASK_5 */
#define VOID_TASK_6 WEFT_VOID_TASK_6 /**< WEFT_VOID_TASK_6 */
#define VOID_TASK_7 WEFT_VOID_TASK_7 /**< WEFT_VOID_TASK_7 */
#define VOID_TASK_8 WEFT_VOID_TASK_8 /**< WEFT_VOID_TASK_8 */
#define VOID_TASK_9 WEFT_VOID_TASK_9 /**< WEFT_VOID_TASK_9 */

#define TASK_DECL_0 WEFT_TASK_DECL_0 /**< WEFT_TASK_DECL_0 */
#define TASK_DECL_1 WEFT_TASK_DECL_1 /**< WEFT_TASK_DECL_1 */
#define TASK_DECL_2 WEFT_TASK_DECL_2 /**< WEFT_TASK_DECL_2 */
#define TASK_DECL_3 WEFT_TASK_DECL_3 /**< WEFT_TASK_DECL_3 */
#define TASK_DECL_4 WEFT_TASK_DECL_4 /**< WEFT_TASK_DECL_4 */
#define TASK_DECL_5 WEFT_TASK_DECL_5 /**< WEFT_TASK_DECL_5 */
#define TASK_DECL_6 WEFT_TASK_DECL_6 /**< WEFT_TASK_DECL_6 */
#define TASK_DECL_7 WEFT_TASK_DECL_7 /**< WEFT_TASK_DECL_7 */
#define TASK_DECL_8 WEFT_TASK_DECL_8 /**< WEFT_TASK_DECL_8 */
#define TASK_DECL_9 WEFT_TASK_DECL_9 /**< WEFT_TASK_DECL_9 */

#define TASK_IMPL_0 WEFT_TASK_IMPL_0 /**< WEFT_TASK_IMPL_0 */
#define TASK_IMPL_1 WEFT_TASK_IMPL_1 /**< WEFT_TASK_IMPL_1 */
#define TASK_IMPL_2 WEFT_TASK_IMPL_2 /**< WEFT_TASK_IMPL_2 */
#define TASK_IMPL_3 WEFT_TASK_IMPL_3 /**< WEFT_TASK_IMPL_3 */
#define TASK_IMPL_4 WEFT_TASK_IMPL_4 /**< WEFT_TASK_IMPL_4 */
#define TASK_IMPL_5 WEFT_TASK_IMPL_5 /**< WEFT_TASK_IMPL_5 */
#define TASK_IMPL_6 WEFT_TASK_IMPL_6 /**< WEFT_TASK_IMPL_6 */
#define TASK_IMPL_7 WEFT_TASK_IMPL_7 /**< WEFT_TASK_IMPL_7 */
#define TASK_IMPL_8 WEFT_TASK_IMPL_8 /**< WEFT_TASK_IMPL_8 */
#define TASK_IMPL_9 WEFT_TASK_IMPL_9 /**< WEFT_TASK_IMPL_9 */

#define VOID_TASK_DECL_0 WEFT_VOID_TASK_DECL_0 /**< WEFT_VOID_TASK_DECL_0 */
#define VOID_TASK_DECL_1 WEFT_VOID_TASK_DECL_1 /**< WEFT_VOID_TASK_DECL_1 */
#define VOID_TASK_DECL_2 WEFT_VOID_TASK_DECL_2 /**< WEFT_VOID_TASK_DECL_2 */
#define VOID_TASK_DECL_3 WEFT_VOID_TASK_DECL_3 /**< WEFT_VOID_TASK_DECL_3 */
#define VOID_TASK_DECL_4 WEFT_VOID_TASK_DECL_4 /**< WEFT_VOID_TASK_DECL_4 */
#define VOID_TASK_DECL_5 WEFT_VOID_TASK_DECL_5 /**< WEFT_VOID_TASK_DECL_5 */
#define VOID_TASK_DECL_6 WEFT_VOID_TASK_DECL_6 /**< WEFT_VOID_TASK_DECL_6 */
#define VOID_TASK_DECL_7 WEFT_VOID_TASK_DECL_7 /**< WEFT_VOID_TASK_DECL_7 */
#define VOID_TASK_DECL_8 WEFT_VOID_TASK_DECL_8 /**< WEFT_VOID_TASK_DECL_8 */
#define VOID_TASK_DECL_9 WEFT_VOID_TASK_DECL_9 /**< WEFT_VOID_TASK_DECL_9 */

#define VOID_TASK_IMPL_0 WEFT_VOID_TASK_IMPL_0 /**< WEFT_VOID_TASK_IMPL_0 */
#define VOID_TASK_IMPL_1 WEFT_VOID_TASK_IMPL_1 /**< WEFT_VOID_TASK_IMPL_1 */
#define VOID_TASK_IMPL_2 WEFT_VOID_TASK_IMPL_2 /**< WEFT_VOID_TASK_IMPL_2 */
#define VOID_TASK_IMPL_3 WEFT_VOID_TASK_IMPL_3 /**< WEFT_VOID_TASK_IMPL_3 */
#define VOID_TASK_IMPL_4 WEFT_VOID_TASK_IMPL_4 /**< WEFT_VOID_TASK_IMPL_4 */
#define VOID_TASK_IMPL_5 WEFT_VOID_TASK_IMPL_5 /**< WEFT_VOID_TASK_IMPL_5 */
#define VOID_TASK_IMPL_6 WEFT_VOID_TASK_IMPL_6 /**< WEFT_VOID_TASK_IMPL_6 */
#define VOID_TASK_IMPL_7 WEFT_VOID_TASK_IMPL_7 /**< WEFT_VOID_TASK_IMPL_7 */
#define VOID_TASK_IMPL_8 WEFT_VOID_TASK_IMPL_8 /**< WEFT_VOID_TASK_IMPL_8 */
#define VOID_TASK_IMPL_9 WEFT_VOID_TASK_IMPL_9 /**< WEFT_VOID_TASK_IMPL_9 */
#define SPAWN WEFT_SPAWN                       /**< WEFT_SPAWN */
#define SYNC WEFT_SYNC                         /**< WEFT_SYNC */
#define CALL WEFT_CALL                         /**< WEFT_CALL */
#define DROP WEFT_DROP                         /**< WEFT_DROP */
#define RUN WEFT_RUN                           /**< WEFT_RUN */
#define TOGETHER WEFT_TOGETHER                 /**< WEFT_TOGETHER */
#define NEWFRAME WEFT_NEWFRAME                 /**< WEFT_NEWFRAME */
#define YIELD_NEWFRAME WEFT_YIELD              /**< WEFT_YIELD */
#define LACE_ME WEFT_ME                        /**< WEFT_ME */

/** @} */

#endif
