/* SPDX-License-Identifier: Apache-2.0 */
/* The futex of src/sys/futex.c as the sleep models use it (sleep.pml,
 * sleep_leap.pml, private_si.pml, chase_lev.pml), modelled exactly:
 * futex_wait blocks only if the word still holds the expected value; a
 * waker's futex_wake is `fwait[v] = 0`.  The including model declares
 * `fwait[NT]` and the sleep words `L_SWORD(i)`, and includes mm.pml first
 * (DRAINED).
 *
 * Mutant:
 *   MUT_FUTEX_NOCMP   futex_wait blocks without comparing the word
 */
inline futex_wait(me, expv)
{
    atomic {
        DRAINED(me) ->                 /* a system call orders the thread's stores */
#ifdef MUT_FUTEX_NOCMP
        fwait[me] = 1
#else
        if
        :: mem[L_SWORD(me)] == expv -> fwait[me] = 1
        :: else
        fi
#endif
    };
    /* asleep: a valid end state (the monitor judges whether it is lost) */
end_futex:
    atomic { fwait[me] == 0 }
}
