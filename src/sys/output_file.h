// SPDX-License-Identifier: Apache-2.0
/* Opening a file the program names for weft to write (a trace, a
 * profile): a FIFO that nobody reads is refused at once instead of
 * blocking the program.  Not installed. */
#ifndef WEFT_SYS_OUTPUT_FILE_H
#define WEFT_SYS_OUTPUT_FILE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/* open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0666), without
 * waiting for a reader if path is a FIFO: -1 with errno ENXIO then (a
 * FIFO with a reader is written as a blocking one).  -1 and errno on
 * other failures. */
int weft__open_for_writing(const char *path, int flags);
/* Empties fd, a file just opened at path to be written from its start:
 * the descriptor to write (fd, or one that replaced it), or -1 and errno
 * with fd closed.  A regular file with content, that path alone names,
 * of this process's user, without set-id bits or an access control list,
 * is replaced by a new one with its mode and group (locked with flock
 * before it takes path's place; other extended attributes are not carried
 * over): a file system that sees a file emptied and written again (ext4,
 * XFS) writes it back to disk as it is closed, and the program waits for
 * that at its end (a tenth of a second for a trace of about 220 MB); a new
 * file is written back later, as any other.  Any other regular file, or
 * one whose new file cannot be made so, is emptied in place; a device or
 * a FIFO is left as it is. */
int weft__output_file_empty(int fd, const char *path);
/* fopen(path, "w") the same way, emptied so (NULL and errno). */
FILE *weft__fopen_for_writing(const char *path);
/* 0 if path can be opened for writing as far as can be told without
 * opening it (it is writable, or its directory is and it does not exist
 * yet), else the errno an open would give; creates nothing. */
int weft__output_file_check(const char *path);
/* What failed: strerror(err), or for ENXIO that the FIFO has no reader. */
const char *weft__open_error(int err);

/* Around writes to such a file on a thread of the program's: a write past
 * the file size limit (ulimit -f) then fails with EFBIG, which weft
 * reports, instead of killing the process with SIGXFSZ.  The signal is
 * blocked on the calling thread from begin to end; one that a write
 * raised meanwhile is taken back at the end (the kernel sends it to the
 * writing thread). */
typedef struct weft__file_size_guard {
    sigset_t old_mask;
    bool pending_before; /* a SIGXFSZ already pending is left for the program */
} weft__file_size_guard;
void weft__file_size_guard_begin(weft__file_size_guard *g);
void weft__file_size_guard_end(weft__file_size_guard *g);

#endif
