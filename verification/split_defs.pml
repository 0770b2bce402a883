/* SPDX-License-Identifier: Apache-2.0 */
/* Constants and the location layout of the split deque models
 * (split_ops.pml); included before mm.pml, which needs NLOC.
 *
 * OWNER is the owning thread and also the index of its deque.  These
 * models have one deque, owned by thread 0; interrupt.pml, with one deque
 * per worker, defines OWNER (the worker running the owner's code) and the
 * DQ_* locations of deque d before including this file. */
#ifndef OWNER
#define OWNER 0
#endif

#define EMPTY 0
#define TASK 1
#define STOLEN 2
#define DONE 3

#define END NSLOT          /* o_split parked here: o_allstolen */
#define SPLITREQ 255       /* the limit word when a thief asked */

#ifndef DQ_TS
#define L_TS (L_BASE + 0)
#define L_ALLSTOLEN (L_BASE + 1)
#define L_LIMIT (L_BASE + 2)
#define L_STATE(i) (L_BASE + 3 + (i))
#define L_ARG(i) (L_BASE + 3 + NSLOT + (i))
#define L_RES(i) (L_BASE + 3 + 2 * NSLOT + (i))
#define SPLIT_LOCS (3 + 3 * NSLOT)
/* split_ops.pml names the deque of each access (d: OWNER for the owner,
 * the victim for a thief); with one deque, d is always it. */
#define DQ_TS(d) L_TS
#define DQ_ALLSTOLEN(d) L_ALLSTOLEN
#define DQ_LIMIT(d) L_LIMIT
#define DQ_STATE(d, i) L_STATE(i)
#define DQ_ARG(d, i) L_ARG(i)
#define DQ_RES(d, i) L_RES(i)
#endif

#define TS(t, s) ((t) + 16 * (s))
#define TAIL(v) ((v) % 16)
#define SPLIT(v) ((v) / 16)
#define RESULT(id) ((id) + 64)

