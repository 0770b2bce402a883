/* SPDX-License-Identifier: Apache-2.0 */
/* Model check of two processes opening one trace path to stream to it
 * (src/observe/trace_perfetto.c: open_and_lock, open_locked;
 * src/sys/output_file.c: weft__output_file_empty, replace_by_new_file).
 *
 * The path names a file with content (an earlier run's trace).  Each
 * process opens the path (the file it names at that moment), tries its
 * lock (flock, LOCK_NB): held by the other, it writes a name of its own
 * (<stem>.<pid>.pftrace) and is done with the path.  With the lock, it
 * looks again at what the path names: another file (the other process
 * replaced it meanwhile), it lets go (close) and opens the path again, a
 * bounded number of times (then it fails with EBUSY).
 * Then it empties its file: one with content is replaced by a new file,
 * made and locked under a name of its own, renamed over the path; then
 * the old file is let go of.  It writes the file it holds until the end
 * (the lock is held while the trace streams).
 *
 * Each system call is one atomic step (the kernel orders them); no
 * memory of the processes is shared: SC only.
 *
 * Properties, when both have opened their files:
 *   lost      a process that writes the path writes the file the path
 *             names (not one the other unlinked by its rename)
 *   shared    at most one process writes the path's file
 *
 * Mutants (-D, one at a time):
 *   MUT_NO_RECHECK       no second look at what the path names once
 *                        locked (lost)
 *   MUT_NEW_UNLOCKED     the new file is locked only after the rename: the
 *                        other process may lock it first (shared)
 *   MUT_OLD_CLOSED_FIRST the old file is let go of before the rename
 *                        (lost)
 * Cover (must fail, so the checks are not vacuous):
 *   COVER_RETRIED        a process found the path replaced under its lock
 *                        and opened it again
 *   COVER_ALT            a process found the path held and wrote its own
 */

#define NFILES 4   /* the earlier trace, and a new file for each process */
#define MAXTRY 3   /* open_and_lock's bound on the opens (8 in the code) */

byte named = 0;              /* the file the path names */
bool content[NFILES];        /* a file with content (emptied: false) */
byte lock_holder[NFILES];    /* 0: none, else the process's id + 1 */
byte next_file = 1;          /* the next new file */
byte writes[2];              /* the file each process writes (NFILES: not the path's) */
bool done[2];
bool retried;

proctype opener(byte me)
{
    byte fd, fresh, tries = 0;
again:
    atomic { fd = named };                                   /* open(path) */
    if
    :: atomic { lock_holder[fd] != 0 && lock_holder[fd] != me + 1 -> skip };
       /* EWOULDBLOCK: another process writes the path */
       writes[me] = NFILES;
       goto opened
    :: atomic { lock_holder[fd] == 0 -> lock_holder[fd] = me + 1 }
    fi;
#ifndef MUT_NO_RECHECK
    if
    :: atomic { named != fd && tries + 1 < MAXTRY -> lock_holder[fd] = 0; tries++; retried = true };
       goto again                                            /* close(fd); open again */
    :: atomic { named != fd && tries + 1 == MAXTRY -> lock_holder[fd] = 0 };
       writes[me] = NFILES;                                  /* EBUSY: it writes no file */
       goto opened
    :: atomic { named == fd -> skip }
    fi;
#endif
    if
    :: atomic { content[fd] && named == fd ->
         /* replace_by_new_file (the path names this file, one name):
          * open(O_EXCL) under a name of its own */
         fresh = next_file; next_file++; content[fresh] = false;
#ifndef MUT_NEW_UNLOCKED
         lock_holder[fresh] = me + 1                         /* flock(fresh) */
#endif
       };
#ifdef MUT_OLD_CLOSED_FIRST
       atomic { lock_holder[fd] = 0 };
#endif
       atomic { named = fresh };                             /* rename(fresh, path) */
#ifdef MUT_NEW_UNLOCKED
       if
       :: atomic { lock_holder[fresh] == 0 -> lock_holder[fresh] = me + 1 }
       :: atomic { lock_holder[fresh] != 0 -> skip }          /* (void)flock: failure ignored */
       fi;
#endif
#ifndef MUT_OLD_CLOSED_FIRST
       atomic { lock_holder[fd] = 0 };                       /* close(old) */
#endif
       fd = fresh
    :: atomic { content[fd] && named != fd -> content[fd] = false }   /* ftruncate in place */
    :: atomic { !content[fd] -> skip }
    fi;
    writes[me] = fd;
opened:
    done[me] = true
}

init {
    content[0] = true;
    atomic {
        run opener(0);
        run opener(1)
    }
    (done[0] && done[1]);
    /* lost: a process that writes the path writes what the path names */
    assert(writes[0] == NFILES || writes[0] == named);
    assert(writes[1] == NFILES || writes[1] == named);
    /* shared: not both on the path's file */
    assert(!(writes[0] == named && writes[1] == named));
#ifdef COVER_RETRIED
    assert(!retried);
#endif
#ifdef COVER_ALT
    assert(writes[0] != NFILES && writes[1] != NFILES);
#endif
}
