// SPDX-License-Identifier: Apache-2.0
/* A file weft writes afresh (a trace, a profile) is emptied the way
 * sys/output_file.h says: a regular file with content that one name of
 * this user's names is replaced by a new, empty file with its mode and
 * group, locked before it takes the name; a file with two names, one
 * reached through a symbolic link, one with a set-id bit, or one whose
 * replacement cannot be made is emptied in place; a new file, a device or
 * a FIFO is left as it is.  What is then
 * written through the descriptor returned is what the name holds.
 *
 * Usage: test_output_file
 */
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "sys/output_file.h"

static char dir[64];

static void path_in_dir(char *out, size_t cap, const char *name)
{
    snprintf(out, cap, "%s/%s", dir, name);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    CHECK(fd >= 0, "create %s: %s", path, strerror(errno));
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "write %s", path);
    CHECK(fchmod(fd, mode) == 0, "chmod %s", path);
    CHECK(close(fd) == 0, "close %s", path);
}

static struct stat stat_of(const char *path)
{
    struct stat st;
    CHECK(stat(path, &st) == 0, "stat %s: %s", path, strerror(errno));
    return st;
}

static void expect_content(const char *path, const char *text)
{
    char buf[128] = "";
    int fd = open(path, O_RDONLY);
    CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
    ssize_t n = read(fd, buf, sizeof buf - 1);
    CHECK(n >= 0, "read %s", path);
    buf[n] = '\0';
    close(fd);
    CHECK(strcmp(buf, text) == 0, "%s holds \"%s\", not \"%s\"", path, buf, text);
}

/* Opens path as weft does and empties it; writes `text` through the
 * descriptor it gets and returns that descriptor, still open. */
static int empty_and_write(const char *path, const char *text)
{
    int fd = weft__open_for_writing(path, 0);
    CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
    fd = weft__output_file_empty(fd, path);
    CHECK(fd >= 0, "empty %s: %s", path, strerror(errno));
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text), "write %s", path);
    return fd;
}

static bool locked_elsewhere(const char *path)
{
    int other = open(path, O_RDONLY);
    CHECK(other >= 0, "open %s: %s", path, strerror(errno));
    bool held = flock(other, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(other);
    return held;
}

static void no_leftover(const char *path)
{
    char fresh[160];
    snprintf(fresh, sizeof fresh, "%s.%ld.new", path, (long)getpid());
    CHECK(access(fresh, F_OK) != 0, "%s is left behind", fresh);
}

/* Opens `opened` as weft does, writes "new" and checks that `file`, the
 * file it names, was emptied in place (the same inode) and holds "new". */
static void expect_in_place(const char *opened, const char *file, const char *what)
{
    struct stat before = stat_of(file);
    close(empty_and_write(opened, "new"));
    CHECK(stat_of(file).st_ino == before.st_ino, "%s was replaced", what);
    expect_content(file, "new");
}

static void replaced(void)
{
    char path[96];
    path_in_dir(path, sizeof path, "trace.pftrace");
    write_file(path, "an earlier run's trace, longer than the new one", 0640);
    struct stat before = stat_of(path);
    int fd = empty_and_write(path, "new");
    struct stat after = stat_of(path);
    CHECK(after.st_ino != before.st_ino, "a file of one name was emptied in place");
    CHECK((after.st_mode & 0777) == 0640, "the new file's mode is %o, not 640",
          (unsigned)(after.st_mode & 0777));
    CHECK(locked_elsewhere(path), "the new file is not locked as it takes the name");
    expect_content(path, "new");
    no_leftover(path);
    close(fd);
    CHECK(!locked_elsewhere(path), "the lock outlives the descriptor");
    printf("ok: a file of one name with content: replaced by a new one, its mode kept, locked\n");
}

static void in_place_two_names(void)
{
    char path[96], other[96];
    path_in_dir(path, sizeof path, "linked.json");
    path_in_dir(other, sizeof other, "linked-too.json");
    write_file(path, "old content", 0644);
    CHECK(link(path, other) == 0, "link: %s", strerror(errno));
    expect_in_place(path, path, "a file of two names");
    expect_content(other, "new");
    no_leftover(path);
    unlink(other);
    printf("ok: a file of two names: emptied in place, both names see what was written\n");
}

static void in_place_through_symlink(void)
{
    char target[96], link_path[96];
    path_in_dir(target, sizeof target, "target.json");
    path_in_dir(link_path, sizeof link_path, "via-link.json");
    write_file(target, "old content", 0644);
    CHECK(symlink(target, link_path) == 0, "symlink: %s", strerror(errno));
    expect_in_place(link_path, target, "the link's target");
    struct stat link_st;
    CHECK(lstat(link_path, &link_st) == 0 && S_ISLNK(link_st.st_mode),
          "the symbolic link was replaced by a file");
    no_leftover(link_path);
    unlink(link_path);
    printf("ok: a file reached through a symbolic link: emptied in place, the link kept\n");
}

static void in_place_when_no_replacement(void)
{
    char path[96], fresh[160];
    path_in_dir(path, sizeof path, "blocked.json");
    write_file(path, "old content", 0644);
    /* The replacement's own name is taken: it cannot be made. */
    snprintf(fresh, sizeof fresh, "%s.%ld.new", path, (long)getpid());
    write_file(fresh, "someone else's", 0644);
    expect_in_place(path, path, "a file whose new file could not be made");
    expect_content(fresh, "someone else's");
    unlink(fresh);
    printf("ok: no replacement can be made: emptied in place, nothing else touched\n");
}

static void in_place_set_id(void)
{
    char path[96];
    path_in_dir(path, sizeof path, "setgid.json");
    write_file(path, "old content", 02640);
    expect_in_place(path, path, "a file with a set-id bit");
    CHECK((stat_of(path).st_mode & 07777) == 02640, "a file with a set-id bit lost it (mode %o)",
          (unsigned)(stat_of(path).st_mode & 07777));
    printf("ok: a file with a set-id bit: emptied in place, its mode kept\n");
}

static void group_kept(void)
{
    /* A group other than the process's, where the process may give one
     * (as root; a user in a second group): the new file has it too. */
    gid_t other = getegid() == 0 ? 1 : getegid();
    char path[96];
    path_in_dir(path, sizeof path, "group.json");
    write_file(path, "old content", 0664);
    if (chown(path, (uid_t)-1, other) != 0)
        other = getegid();
    struct stat before = stat_of(path);
    close(empty_and_write(path, "new"));
    struct stat after = stat_of(path);
    CHECK(after.st_gid == before.st_gid, "the group was %u, is %u", (unsigned)before.st_gid,
          (unsigned)after.st_gid);
    expect_content(path, "new");
    printf("ok: the group of a file replaced (%u) is kept\n", (unsigned)after.st_gid);
}

static void fifo_left(void)
{
    char path[96];
    path_in_dir(path, sizeof path, "fifo");
    CHECK(mkfifo(path, 0600) == 0, "mkfifo %s: %s", path, strerror(errno));
    int reader = open(path, O_RDONLY | O_NONBLOCK);
    CHECK(reader >= 0, "open %s for reading", path);
    int fd = weft__open_for_writing(path, 0);
    CHECK(fd >= 0, "open %s: %s", path, strerror(errno));
    CHECK(weft__output_file_empty(fd, path) == fd, "a FIFO: %s", strerror(errno));
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode), "the FIFO was replaced");
    close(fd);
    close(reader);
    printf("ok: a FIFO with a reader: left as it is\n");
}

static void left_as_they_are(void)
{
    char path[96];
    path_in_dir(path, sizeof path, "fresh.json");
    int fd = weft__open_for_writing(path, 0);
    CHECK(fd >= 0, "open %s", path);
    struct stat before = stat_of(path);
    CHECK(weft__output_file_empty(fd, path) == fd, "a new file was replaced");
    CHECK(stat_of(path).st_ino == before.st_ino, "a new file was replaced");
    close(fd);
    fd = weft__open_for_writing("/dev/null", 0);
    CHECK(fd >= 0, "open /dev/null");
    CHECK(weft__output_file_empty(fd, "/dev/null") == fd, "/dev/null: %s", strerror(errno));
    close(fd);
    printf("ok: a new file and a device: left as they are\n");
}

/* The directory goes at exit, also after a failed CHECK. */
static void remove_dir(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "%s failed\n", cmd);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/weft-output-file-%ld", (long)getpid());
    CHECK(mkdir(dir, 0700) == 0, "mkdir %s: %s", dir, strerror(errno));
    atexit(remove_dir);
    replaced();
    in_place_two_names();
    in_place_through_symlink();
    in_place_when_no_replacement();
    in_place_set_id();
    group_kept();
    fifo_left();
    left_as_they_are();
    return 0;
}
