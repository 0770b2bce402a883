/* Constants and the location layout of the split deque models
 * (split_ops.pml); included before mm.pml, which needs NLOC. */
#define OWNER 0

#define EMPTY 0
#define TASK 1
#define STOLEN 2
#define DONE 3

#define END NSLOT          /* o_split parked here: o_allstolen */
#define SPLITREQ 255       /* the limit word when a thief asked */

#define L_TS (L_BASE + 0)
#define L_ALLSTOLEN (L_BASE + 1)
#define L_LIMIT (L_BASE + 2)
#define L_STATE(i) (L_BASE + 3 + (i))
#define L_ARG(i) (L_BASE + 3 + NSLOT + (i))
#define L_RES(i) (L_BASE + 3 + 2 * NSLOT + (i))
#define SPLIT_LOCS (3 + 3 * NSLOT)

#define TS(t, s) ((t) + 16 * (s))
#define TAIL(v) ((v) % 16)
#define SPLIT(v) ((v) / 16)
#define RESULT(id) ((id) + 64)

