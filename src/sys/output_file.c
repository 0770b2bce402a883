// SPDX-License-Identifier: Apache-2.0
/* Opening files for writing (output_file.h). */
#include "sys/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

int weft__open_for_writing(const char *path, int flags)
{
    /* O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of
     * waiting for one; for any other file it changes nothing at open. */
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | flags, 0666);
    if (fd < 0)
        return -1;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* A new file for the regular file fd at path (see weft__output_file_empty):
 * made under a name of its own with the old one's mode and group, locked,
 * then renamed over path, so that a process opening path finds either
 * file held; -1 if it cannot be. */
static int replace_by_new_file(const char *path, const struct stat *opened)
{
    size_t cap = strlen(path) + 32;
    char *fresh_path = malloc(cap);
    if (!fresh_path)
        return -1;
    snprintf(fresh_path, cap, "%s.%ld.new", path, (long)getpid());
    mode_t mode = opened->st_mode & 0777;
    int fresh = open(fresh_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fresh >= 0) {
        struct stat made;
        /* fchmod: the bits the umask took off */
        bool kept =
            fstat(fresh, &made) == 0 &&
            (made.st_gid == opened->st_gid || fchown(fresh, (uid_t)-1, opened->st_gid) == 0) &&
            fchmod(fresh, mode) == 0;
        if (kept) {
            (void)flock(fresh, LOCK_EX | LOCK_NB);
            kept = rename(fresh_path, path) == 0;
        }
        if (!kept) {
            close(fresh);
            unlink(fresh_path);
            fresh = -1;
        }
    }
    free(fresh_path);
    return fresh;
}

/* Whether the file is one a new file can stand in for: of this user, with
 * no set-id or sticky bits and no access control list beyond its mode. */
static bool replaceable(int fd, const struct stat *opened)
{
    return opened->st_uid == geteuid() && (opened->st_mode & 07000) == 0 &&
           fgetxattr(fd, "system.posix_acl_access", NULL, 0) <= 0;
}

int weft__output_file_empty(int fd, const char *path)
{
    struct stat opened, named;
    if (fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_size == 0)
        return fd; /* a device, a FIFO, a new file: nothing to empty */
    if (lstat(path, &named) == 0 && S_ISREG(named.st_mode) && named.st_dev == opened.st_dev &&
        named.st_ino == opened.st_ino && named.st_nlink == 1 && replaceable(fd, &opened)) {
        int fresh = replace_by_new_file(path, &opened);
        if (fresh >= 0) {
            close(fd);
            return fresh;
        }
    }
    if (ftruncate(fd, 0) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

FILE *weft__fopen_for_writing(const char *path)
{
    int fd = weft__open_for_writing(path, 0);
    if (fd >= 0)
        fd = weft__output_file_empty(fd, path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

int weft__output_file_check(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return EISDIR;
        return access(path, W_OK) == 0 ? 0 : errno;
    }
    if (errno != ENOENT)
        return errno;
    /* A new file: its directory must exist and take it. */
    size_t len = strlen(path);
    while (len > 0 && path[len - 1] != '/')
        len--;
    if (len == 0)
        return access(".", W_OK | X_OK) == 0 ? 0 : errno;
    char *dir = strndup(path, len);
    if (!dir)
        return ENOMEM;
    int err = access(dir, W_OK | X_OK) == 0 ? 0 : errno;
    free(dir);
    return err;
}

const char *weft__open_error(int err)
{
    return err == ENXIO ? "it is a FIFO that no process has open for reading" : strerror(err);
}

static void xfsz_set(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGXFSZ);
}

void weft__file_size_guard_begin(weft__file_size_guard *g)
{
    sigset_t xfsz, pending;
    xfsz_set(&xfsz);
    pthread_sigmask(SIG_BLOCK, &xfsz, &g->old_mask);
    g->pending_before = sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
}

void weft__file_size_guard_end(weft__file_size_guard *g)
{
    sigset_t xfsz, pending;
    xfsz_set(&xfsz);
    if (!g->pending_before && sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1) {
        static const struct timespec now = {0, 0};
        (void)sigtimedwait(&xfsz, NULL, &now);
    }
    pthread_sigmask(SIG_SETMASK, &g->old_mask, NULL);
}
