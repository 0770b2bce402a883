/* SPDX-License-Identifier: Apache-2.0 */
/* SYNC of the task on top (weft_split_pop_private + sync_slow), included
 * twice by split_ops.pml: SYNC_NAME is the inline's name and JOIN how it
 * waits for a stolen task (Promela inlines cannot recurse). */
inline SYNC_NAME()
{
    head--;
    LD(OWNER, DQ_LIMIT(OWNER), cur);
    if
    :: head >= cur ->                              /* fast path */
#ifdef JOIN_GUARD
        assert(head >= guard);                     /* never below the join guard */
#endif
        run_inline()
    :: else ->
        if
        :: head >= o_split ->                      /* private: asked, or below the guard */
            LD(OWNER, DQ_LIMIT(OWNER), cur);
            if
            :: cur == SPLITREQ -> grow_shared(head)
            :: else
            fi;
            run_inline()
        :: o_split != END && head < o_split ->     /* lines 25-26 */
            shrink_shared();
            if
            :: !all ->
                LD(OWNER, DQ_LIMIT(OWNER), cur);
                if
                :: cur == SPLITREQ -> grow_shared(head)
                :: else
                fi;
                run_inline()
            :: else ->
                JOIN(head, SLOT_ID(OWNER, head));
                pop_stolen(head)
            fi
        :: o_split == END ->                       /* line 24 */
            JOIN(head, SLOT_ID(OWNER, head));
            pop_stolen(head)
        fi
    fi;
    all = 0; cur = 0
}
