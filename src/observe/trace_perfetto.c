// SPDX-License-Identifier: Apache-2.0
/* The trace writer's Perfetto format (trace_perfetto.h; docs/timeline.md):
 * the recorder's records as protobuf TracePackets, encoded here by hand
 * (the wire format is a handful of varints).
 *
 * The file:
 * - Sequence 1 holds what is not one track's time line: the clock (the
 *   trace's clock is CLOCK_MONOTONIC, the recorder's), the groups' tracks,
 *   and every instant (steals, wake-ups, interrupts, drops, the outside
 *   threads' RUNs), with absolute times and the track named in each.
 * - Each worker's track is a sequence of its own: its slices, with times
 *   as deltas on a clock of the sequence, names and argument keys interned,
 *   and the track given once as the sequence's default.  A slice is a
 *   BEGIN and an END packet, about 30 bytes together.
 *
 * The recorder cuts a worker's slice where a frame is pushed (a task that
 * the runtime starts, a SYNC that waits) and takes it up again where the
 * frame is popped.  Here the frames nest, as they do on the worker: a RUN
 * inside a task is a slice inside the task's, and the task's slice is one
 * slice with what started it, not one per piece.  Where the records have
 * a gap (tracing began inside a frame, or records were dropped), every
 * open slice ends at the gap. */
#include "runtime/diagnostics.h"
#include "runtime/state.h"
#include "sys/output_file.h"
#include "observe/trace_perfetto.h"

#include "observe/trace_names.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#if WEFT_TRACE

/* ------------------------------------------------------------------------
 * The wire format
 * ------------------------------------------------------------------------ */

enum { WIRE_VARINT = 0, WIRE_FIXED64 = 1, WIRE_BYTES = 2 };

/* A message being built: in a caller's array (grows = false) or on the
 * heap.  A write that does not fit marks it failed. */
typedef struct pb {
    uint8_t *p;
    size_t n, cap;
    bool grows, failed;
} pb;

#define PB_ON_STACK(name, size) \
    uint8_t name##_bytes[size]; \
    pb name = {name##_bytes, 0, sizeof name##_bytes, false, false}

static bool pb_room(pb *b, size_t more)
{
    if (b->failed)
        return false;
    if (b->n + more <= b->cap)
        return true;
    if (!b->grows) {
        b->failed = true;
        return false;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

static void pb_raw(pb *b, const void *data, size_t n)
{
    if (pb_room(b, n)) {
        memcpy(b->p + b->n, data, n);
        b->n += n;
    }
}

static void pb_varint(pb *b, uint64_t v)
{
    if (!pb_room(b, 10))
        return;
    while (v >= 0x80) {
        b->p[b->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->p[b->n++] = (uint8_t)v;
}

static void pb_key(pb *b, uint32_t field, int wire)
{
    pb_varint(b, (uint64_t)field << 3 | (uint32_t)wire);
}

static void pb_uint(pb *b, uint32_t field, uint64_t v)
{
    pb_key(b, field, WIRE_VARINT);
    pb_varint(b, v);
}

static void pb_fixed64(pb *b, uint32_t field, uint64_t v)
{
    pb_key(b, field, WIRE_FIXED64);
    uint8_t le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (uint8_t)(v >> (8 * i));
    pb_raw(b, le, sizeof le);
}

static void pb_bytes(pb *b, uint32_t field, const void *data, size_t n)
{
    pb_key(b, field, WIRE_BYTES);
    pb_varint(b, n);
    pb_raw(b, data, n);
}

static void pb_str(pb *b, uint32_t field, const char *s) { pb_bytes(b, field, s, strlen(s)); }

static void pb_msg(pb *b, uint32_t field, const pb *inner)
{
    if (inner->failed)
        b->failed = true;
    else
        pb_bytes(b, field, inner->p, inner->n);
}

/* The slices' packets are most of a file: written without the checks
 * above, into arrays of known size (varint: at most 10 bytes). */
static inline uint8_t *raw_varint(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* The fields used, by message (Perfetto's protos/perfetto/trace). */
enum {
    TRACE_PACKET = 1, /* Trace */
    /* TracePacket */
    PK_CLOCK_SNAPSHOT = 6,
    PK_TIMESTAMP = 8,
    PK_SEQUENCE_ID = 10,
    PK_TRACK_EVENT = 11,
    PK_INTERNED_DATA = 12,
    PK_SEQUENCE_FLAGS = 13,
    PK_TIMESTAMP_CLOCK_ID = 58,
    PK_DEFAULTS = 59,
    PK_TRACK_DESCRIPTOR = 60,
    SEQ_INCREMENTAL_STATE_CLEARED = 1,
    /* TracePacketDefaults */
    DEF_TIMESTAMP_CLOCK_ID = 58,
    DEF_TRACK_EVENT = 11,
    DEF_TRACK_UUID = 11, /* TrackEventDefaults */
    /* ClockSnapshot, ClockSnapshot.Clock */
    CS_CLOCKS = 1,
    CS_PRIMARY_TRACE_CLOCK = 2,
    CLK_ID = 1,
    CLK_TIMESTAMP = 2,
    CLK_INCREMENTAL = 3,
    CLOCK_MONOTONIC_ID = 3, /* BuiltinClock */
    CLOCK_SEQUENCE = 64,    /* the first clock of a sequence's own */
    /* TrackDescriptor */
    TD_UUID = 1,
    TD_NAME = 2,
    TD_PARENT_UUID = 5,
    TD_CHILD_ORDERING = 11,
    TD_SIBLING_ORDER_RANK = 12,
    TD_ORDER_EXPLICIT = 3,
    /* TrackEvent */
    TE_CATEGORY_IIDS = 3,
    TE_DEBUG_ANNOTATIONS = 4,
    TE_TYPE = 9,
    TE_NAME_IID = 10,
    TE_TRACK_UUID = 11,
    TE_FLOW_IDS = 47,
    TE_TERMINATING_FLOW_IDS = 48,
    TYPE_SLICE_BEGIN = 1,
    TYPE_SLICE_END = 2,
    TYPE_INSTANT = 3,
    /* DebugAnnotation */
    DA_NAME_IID = 1,
    DA_UINT_VALUE = 3,
    DA_STRING_VALUE_IID = 17,
    /* InternedData; its entries are {iid = 1, name = 2} */
    ID_EVENT_CATEGORIES = 1,
    ID_EVENT_NAMES = 2,
    ID_ANNOTATION_NAMES = 3,
    ID_ANNOTATION_STRINGS = 29,
    IE_IID = 1,
    IE_NAME = 2,
};

/* ------------------------------------------------------------------------
 * What every sequence interns: names of states and instants, categories,
 * argument keys, what started a task
 * ------------------------------------------------------------------------ */

/* Instants' names: their iids follow the states'. */
enum {
    NAME_STEAL = WEFT_TRACE_STATES + 1,
    NAME_LEAP,
    NAME_STOLEN,
    NAME_WAKE,
    NAME_WOKEN,
    NAME_TOGETHER,
    NAME_NEWFRAME,
    NAME_POOL_STEAL,
    NAME_POOL_TRANSFER,
    NAME_RUN_WAITING,
    NAME_RUN_TAKEN,
    NAME_DROPPED,
    NAME_SUMMARY,
    NAME_POOL_END,
    NAME_FIRST_TASK, /* task names are interned from here on */
};
static const char *const instant_names[] = {
    [NAME_STEAL - NAME_STEAL] = "steal",
    [NAME_LEAP - NAME_STEAL] = "leap",
    [NAME_STOLEN - NAME_STEAL] = "stolen from",
    [NAME_WAKE - NAME_STEAL] = "wake",
    [NAME_WOKEN - NAME_STEAL] = "woken",
    [NAME_TOGETHER - NAME_STEAL] = "TOGETHER",
    [NAME_NEWFRAME - NAME_STEAL] = "NEWFRAME",
    [NAME_POOL_STEAL - NAME_STEAL] = "steal (items)",
    [NAME_POOL_TRANSFER - NAME_STEAL] = "steal-half transfer (items)",
    [NAME_RUN_WAITING - NAME_STEAL] = "RUN (waiting)",
    [NAME_RUN_TAKEN - NAME_STEAL] = "RUN",
    [NAME_DROPPED - NAME_STEAL] = "buffer full: events dropped",
    [NAME_SUMMARY - NAME_STEAL] = "end of trace",
    [NAME_POOL_END - NAME_STEAL] = "end of the pool run",
};

/* Categories: what a viewer colours or filters by (the JSON's "cat"). */
enum {
    CAT_TASK = 1,
    CAT_SEARCH,
    CAT_JOIN,
    CAT_SLEEP,
    CAT_BARRIER,
    CAT_PARKED,
    CAT_UNKNOWN,
    CAT_STEAL,
    CAT_WAKE,
    CAT_INTERRUPT,
    CAT_RUN,
    CAT_DROPPED,
    CAT_END,
    CATS
};
static const char *const cat_names[] = {
    [CAT_TASK] = "task",       [CAT_SEARCH] = "search",
    [CAT_JOIN] = "join",       [CAT_SLEEP] = "sleep",
    [CAT_BARRIER] = "barrier", [CAT_PARKED] = "parked",
    [CAT_UNKNOWN] = "unknown", [CAT_STEAL] = "steal",
    [CAT_WAKE] = "wake",       [CAT_INTERRUPT] = "interrupt",
    [CAT_RUN] = "run",         [CAT_DROPPED] = "dropped",
    [CAT_END] = "end",
};
static const uint8_t state_cat[WEFT_TRACE_STATES] = {
    [WEFT_TRACE_NONE] = CAT_UNKNOWN,  [WEFT_TRACE_RUNNING] = CAT_TASK,
    [WEFT_TRACE_SEARCH] = CAT_SEARCH, [WEFT_TRACE_JOIN] = CAT_JOIN,
    [WEFT_TRACE_SLEEP] = CAT_SLEEP,   [WEFT_TRACE_BARRIER] = CAT_BARRIER,
    [WEFT_TRACE_HELP] = CAT_SEARCH,   [WEFT_TRACE_PARKED] = CAT_PARKED,
    [WEFT_TRACE_BATCH] = CAT_TASK,
};

/* Argument keys. */
enum {
    ARG_STARTED_BY = 1,
    ARG_SPAWNS,
    ARG_FAILED_STEALS,
    ARG_ITEMS,
    ARG_DROPPED,
    ARG_TASKS,
    ARG_STEALS,
    ARG_LEAPS,
    ARG_STEAL_FAILS,
    ARG_LEAP_FAILS,
    ARG_SLEEPS,
    ARG_EXTERNALS_DROPPED,
    ARG_POOL_RUNS_UNTRACED,
    ARG_PROCESSED,
    ARG_DUPLICATES,
    ARG_STOLEN_ITEMS,
    ARG_REQUESTS,
    ARG_END
};
static const char *const arg_names[] = {
    [ARG_STARTED_BY] = "started_by",
    [ARG_SPAWNS] = "spawns",
    [ARG_FAILED_STEALS] = "failed_steals",
    [ARG_ITEMS] = "items",
    [ARG_DROPPED] = "dropped",
    [ARG_TASKS] = "tasks",
    [ARG_STEALS] = "steals",
    [ARG_LEAPS] = "leaps",
    [ARG_STEAL_FAILS] = "steal_fails",
    [ARG_LEAP_FAILS] = "leap_fails",
    [ARG_SLEEPS] = "sleeps",
    [ARG_EXTERNALS_DROPPED] = "external_runs_dropped",
    [ARG_POOL_RUNS_UNTRACED] = "pool_runs_not_traced",
    [ARG_PROCESSED] = "processed",
    [ARG_DUPLICATES] = "duplicates",
    [ARG_STOLEN_ITEMS] = "stolen_items",
    [ARG_REQUESTS] = "requests",
};
static void intern_entry(pb *interned, uint32_t table, uint64_t iid, const char *name)
{
    pb e = {.grows = true}; /* a name may be long (a C++ callable's type) */
    pb_uint(&e, IE_IID, iid);
    pb_str(&e, IE_NAME, name);
    pb_msg(interned, table, &e);
    free(e.p);
}

static void intern_fixed(pb *interned)
{
    for (unsigned s = 1; s < WEFT_TRACE_STATES; s++)
        intern_entry(interned, ID_EVENT_NAMES, s, weft__trace_state_names[s]);
    for (unsigned k = NAME_STEAL; k < NAME_FIRST_TASK; k++)
        intern_entry(interned, ID_EVENT_NAMES, k, instant_names[k - NAME_STEAL]);
    for (unsigned c = 1; c < CATS; c++)
        intern_entry(interned, ID_EVENT_CATEGORIES, c, cat_names[c]);
    for (unsigned a = 1; a < ARG_END; a++)
        intern_entry(interned, ID_ANNOTATION_NAMES, a, arg_names[a]);
    /* What started a task: the string values' iids are how + 1. */
    for (unsigned h = 0; h < WEFT__TRACE_HOWS; h++)
        intern_entry(interned, ID_ANNOTATION_STRINGS, h + 1, weft__trace_how_names[h]);
}

/* ------------------------------------------------------------------------
 * The file and its tracks
 * ------------------------------------------------------------------------ */

#define EXTRAS_SEQUENCE 1u
/* Track uuids: a group's is GROUP_UUID(g), its worker i's one more than
 * GROUP_UUID(g) + i; an outside thread's, OUTSIDE_UUID(k). */
#define GROUP_UUID(g) (((uint64_t)(g) + 1) << 24)
#define WORKER_UUID(g, i) (GROUP_UUID(g) + 1 + (uint64_t)(i))
#define OUTSIDE_UUID(k) (((uint64_t)1 << 40) + (uint64_t)(k))
/* Flow ids: steals and wake-ups count up from 1; an outside RUN's arrow
 * is RUN_FLOW(k). */
#define RUN_FLOW(k) (((uint64_t)1 << 48) + (uint64_t)(k))

/* A frame open on a track: its state, what its slice counts so far, and
 * whether its slice is shown (a frame that does not hold others, such as
 * a search, has its slice ended while another is pushed on it, and a new
 * one begun when it is popped back to). */
typedef struct open_slice {
    uint8_t state;
    bool shown;
    uint64_t count;
} open_slice;

typedef struct name_slot {
    uintptr_t wrapper; /* 0: empty */
    uint64_t iid;
} name_slot;

struct weft__pf_track {
    unsigned group, index;
    uint32_t sequence;
    uint64_t uuid;
    bool begun;     /* the sequence's first packets are written */
    uint64_t clock; /* ns: the sequence clock's time (deltas are from it) */
    /* The open slices, outermost first; `at` is where the last record
     * ended (a record that starts elsewhere follows a gap). */
    open_slice *open;
    uint32_t depth, open_cap;
    bool any;
    uint64_t at;
    uint64_t dropped_seen; /* the track's drop count at its last marker */
    /* Task names interned on this sequence: wrapper -> iid. */
    name_slot *names;
    uint32_t names_n, names_cap;
    uint64_t next_iid;
    weft__pf_track *next;
};

typedef struct run_taken {
    uintptr_t task;
    uint64_t ts, track_uuid;
} run_taken;

struct weft__pf {
    int fd; /* written with write(2): no stdio buffer that a forked child could write again */
    char *path;
    pb out; /* packets not yet written */
    int err;
    uint64_t t0;
    uint32_t next_sequence;
    uint64_t next_flow;
    weft__pf_track *tracks;
    /* The workers' takings of outside RUNs, matched with the RUNs at the
     * end (weft__pf_external). */
    run_taken *taken;
    size_t n_taken, taken_cap;
    bool taken_sorted;
    long *outside_tids;
    size_t n_outside;
    bool group0; /* the fork-join group's track is described */
};

#define FLUSH_AT ((size_t)1 << 20)
/* Takings of outside RUNs kept for their arrows: twice the RUNs the
 * recorder keeps (trace.c). */
#define TAKEN_MAX ((size_t)1 << 17)

/* After a packet went into the buffer: a failure noted, a full buffer
 * written. */
static void packet_put(weft__pf *pf)
{
    if (pf->out.failed && !pf->err)
        pf->err = ENOMEM;
    if (pf->out.n >= FLUSH_AT)
        weft__pf_flush(pf);
}

static void put_packet(weft__pf *pf, const pb *packet)
{
    pb_msg(&pf->out, TRACE_PACKET, packet);
    packet_put(pf);
}

int weft__pf_flush(weft__pf *pf)
{
    /* (The streaming thread blocks every signal; the writes of a trace
     * written at the end are made on the program's thread.) */
    if (pf->out.n > 0 && !pf->err) {
        weft__file_size_guard size_guard;
        weft__file_size_guard_begin(&size_guard);
        for (size_t done = 0; done < pf->out.n && !pf->err;) {
            ssize_t k = write(pf->fd, pf->out.p + done, pf->out.n - done);
            if (k > 0)
                done += (size_t)k;
            else if (k == 0 || errno != EINTR)
                pf->err = k == 0 ? EIO : errno;
        }
        weft__file_size_guard_end(&size_guard);
    }
    pf->out.n = 0;
    pf->out.failed = false;
    return pf->err;
}

/* The length of the ending that names Perfetto's format (0: none). */
static size_t pf_ending(const char *path)
{
    static const char *const ends[] = {".pftrace", ".perfetto-trace"};
    size_t len = path ? strlen(path) : 0;
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t k = strlen(ends[i]);
        if (len > k && strcmp(path + len - k, ends[i]) == 0)
            return k;
    }
    return 0;
}

bool weft__pf_path(const char *path) { return pf_ending(path) != 0; }

/* Whether fd is the file path names now (a process that replaces a file
 * it holds, weft__output_file_empty, lets go of the old one once the new
 * one, locked, has its name). */
static bool still_named(int fd, const char *path)
{
    struct stat opened, named;
    return fstat(fd, &opened) == 0 && stat(path, &named) == 0 && opened.st_dev == named.st_dev &&
           opened.st_ino == named.st_ino;
}

/* path opened and locked (flock, LOCK_NB): the descriptor, -1 with errno
 * EWOULDBLOCK if another process holds it, or -1 and errno.  A lock taken
 * on a file that another process replaced meanwhile is let go of and the
 * name opened again: the file it names now is the one to lock (EBUSY if
 * it keeps changing, rather than a file no name reaches). */
static int open_and_lock(const char *path)
{
    for (int tries = 0; tries < 8; tries++) {
        int fd = weft__open_for_writing(path, 0);
        if (fd < 0)
            return -1;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno == EWOULDBLOCK) {
                close(fd);
                errno = EWOULDBLOCK;
                return -1;
            }
            return fd; /* a file system without locks: no reason not to trace */
        }
        if (still_named(fd, path))
            return fd;
        close(fd);
    }
    errno = EBUSY;
    return -1;
}

/* Opens `path` for a trace, locked (flock) for as long as it is open: a
 * file that another process holds so (a parent that streams to the
 * WEFT_TRACE this process inherited through fork() or exec) is not
 * emptied, and this process writes <stem>.<pid><ending> instead.
 * *where is the path opened (malloc'd); -1 and errno on failure. */
static int open_locked(const char *path, char **where)
{
    *where = NULL;
    int fd = open_and_lock(path);
    if (fd < 0 && errno == EWOULDBLOCK) {
        size_t len = strlen(path), k = pf_ending(path), cap = len + 24;
        char *alt = malloc(cap);
        if (!alt) {
            errno = ENOMEM;
            return -1;
        }
        snprintf(alt, cap, "%.*s.%ld%s", (int)(len - k), path, (long)getpid(), path + len - k);
        weft__warn("tracing: another process is writing %s (one started with the same "
                   "WEFT_TRACE, such as this process's parent before fork()): this process "
                   "writes %s",
                   path, alt);
        fd = open_and_lock(alt);
        if (fd < 0) {
            int e = errno == EWOULDBLOCK ? EBUSY : errno;
            free(alt);
            errno = e;
            return -1;
        }
        *where = alt;
    }
    if (fd < 0)
        return -1;
    /* Emptied only now that it is ours (a new file that takes its place
     * comes locked). */
    int emptied = weft__output_file_empty(fd, *where ? *where : path);
    if (emptied < 0) {
        int e = errno;
        free(*where);
        *where = NULL;
        errno = e;
        return -1;
    }
    return emptied;
}

/* Sequence 1's first packet: the trace's clock, the names, the instants'
 * clock (absolute). */
weft__pf *weft__pf_open(const char *path, uint64_t t0, int *err)
{
    weft__pf *pf = calloc(1, sizeof *pf);
    if (pf) {
        pf->out.grows = true;
        pf->t0 = t0;
        pf->next_sequence = EXTRAS_SEQUENCE + 1;
        pf->next_flow = 1;
        pf->path = strdup(path);
    }
    if (!pf || !pf->path) {
        if (pf)
            free(pf);
        *err = ENOMEM;
        weft__warn("tracing: no memory to write %s", path);
        return NULL;
    }
    char *opened = NULL;
    if ((pf->fd = open_locked(path, &opened)) < 0) {
        *err = errno;
        weft__warn("tracing: cannot open %s for writing: %s", path, weft__open_error(*err));
        free(pf->path);
        free(pf);
        return NULL;
    }
    if (opened) { /* its messages name the file written */
        free(pf->path);
        pf->path = opened;
    }
    pb packet = {.grows = true};
    pb_uint(&packet, PK_SEQUENCE_ID, EXTRAS_SEQUENCE);
    pb_uint(&packet, PK_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
    PB_ON_STACK(clock, 32);
    pb_uint(&clock, CLK_ID, CLOCK_MONOTONIC_ID);
    pb_uint(&clock, CLK_TIMESTAMP, t0);
    PB_ON_STACK(snapshot, 48);
    pb_msg(&snapshot, CS_CLOCKS, &clock);
    pb_uint(&snapshot, CS_PRIMARY_TRACE_CLOCK, CLOCK_MONOTONIC_ID);
    pb_msg(&packet, PK_CLOCK_SNAPSHOT, &snapshot);
    PB_ON_STACK(defaults, 16);
    pb_uint(&defaults, DEF_TIMESTAMP_CLOCK_ID, CLOCK_MONOTONIC_ID);
    pb_msg(&packet, PK_DEFAULTS, &defaults);
    pb interned = {.grows = true};
    intern_fixed(&interned);
    pb_msg(&packet, PK_INTERNED_DATA, &interned);
    put_packet(pf, &packet);
    free(interned.p);
    free(packet.p);
    return pf;
}

const char *weft__pf_file(const weft__pf *pf) { return pf->path; }

static void put_track_descriptor(weft__pf *pf, uint32_t sequence, uint64_t uuid, uint64_t parent,
                                 const char *name, long rank)
{
    PB_ON_STACK(td, 256);
    pb_uint(&td, TD_UUID, uuid);
    if (parent)
        pb_uint(&td, TD_PARENT_UUID, parent);
    pb_str(&td, TD_NAME, name);
    if (rank >= 0)
        pb_uint(&td, TD_SIBLING_ORDER_RANK, (uint64_t)rank);
    else
        pb_uint(&td, TD_CHILD_ORDERING, TD_ORDER_EXPLICIT);
    PB_ON_STACK(packet, 320);
    pb_uint(&packet, PK_SEQUENCE_ID, sequence);
    pb_msg(&packet, PK_TRACK_DESCRIPTOR, &td);
    put_packet(pf, &packet);
}

void weft__pf_group(weft__pf *pf, unsigned group, const char *label)
{
    if (group == 0) {
        if (pf->group0)
            return;
        pf->group0 = true;
    }
    put_track_descriptor(pf, EXTRAS_SEQUENCE, GROUP_UUID(group), 0, label, -1);
}

weft__pf_track *weft__pf_track_new(weft__pf *pf, unsigned group, unsigned index, const char *name,
                                   uint64_t dropped_before)
{
    weft__pf_track *tr = calloc(1, sizeof *tr);
    if (!tr)
        return NULL;
    tr->group = group;
    tr->index = index;
    tr->sequence = pf->next_sequence++;
    tr->uuid = WORKER_UUID(group, index);
    tr->next_iid = NAME_FIRST_TASK;
    tr->dropped_seen = dropped_before;
    tr->next = pf->tracks;
    pf->tracks = tr;
    put_track_descriptor(pf, EXTRAS_SEQUENCE, tr->uuid, GROUP_UUID(group), name, (long)index);
    return tr;
}

/* A track's sequence begins: its clock (incremental, from `ts`), its
 * track as the default, the names. */
static void begin_sequence(weft__pf *pf, weft__pf_track *tr, uint64_t ts)
{
    pb packet = {.grows = true};
    pb_uint(&packet, PK_SEQUENCE_ID, tr->sequence);
    pb_uint(&packet, PK_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
    PB_ON_STACK(mono, 32);
    pb_uint(&mono, CLK_ID, CLOCK_MONOTONIC_ID);
    pb_uint(&mono, CLK_TIMESTAMP, ts);
    PB_ON_STACK(own, 32);
    pb_uint(&own, CLK_ID, CLOCK_SEQUENCE);
    pb_uint(&own, CLK_TIMESTAMP, ts);
    pb_uint(&own, CLK_INCREMENTAL, 1);
    PB_ON_STACK(snapshot, 96);
    pb_msg(&snapshot, CS_CLOCKS, &mono);
    pb_msg(&snapshot, CS_CLOCKS, &own);
    pb_msg(&packet, PK_CLOCK_SNAPSHOT, &snapshot);
    PB_ON_STACK(event_defaults, 16);
    pb_uint(&event_defaults, DEF_TRACK_UUID, tr->uuid);
    PB_ON_STACK(defaults, 32);
    pb_uint(&defaults, DEF_TIMESTAMP_CLOCK_ID, CLOCK_SEQUENCE);
    pb_msg(&defaults, DEF_TRACK_EVENT, &event_defaults);
    pb_msg(&packet, PK_DEFAULTS, &defaults);
    pb interned = {.grows = true};
    intern_fixed(&interned);
    pb_msg(&packet, PK_INTERNED_DATA, &interned);
    put_packet(pf, &packet);
    free(interned.p);
    free(packet.p);
    tr->begun = true;
    tr->clock = ts;
}

/* The iid of a task's name on tr's sequence; 0 if new (*iid is then the
 * one to give it, and the caller interns it in its packet). */
static bool task_name_iid(weft__pf_track *tr, uintptr_t wrapper, uint64_t *iid)
{
    if (tr->names_n * 2 >= tr->names_cap) {
        uint32_t cap = tr->names_cap ? tr->names_cap * 2 : 64;
        name_slot *slots = calloc(cap, sizeof *slots);
        if (!slots) {
            *iid = WEFT_TRACE_RUNNING; /* "task" */
            return true;
        }
        for (uint32_t i = 0; i < tr->names_cap; i++) {
            if (!tr->names[i].wrapper)
                continue;
            uint32_t k = (uint32_t)(tr->names[i].wrapper >> 4) & (cap - 1);
            while (slots[k].wrapper)
                k = (k + 1) & (cap - 1);
            slots[k] = tr->names[i];
        }
        free(tr->names);
        tr->names = slots;
        tr->names_cap = cap;
    }
    uint32_t k = (uint32_t)(wrapper >> 4) & (tr->names_cap - 1);
    while (tr->names[k].wrapper && tr->names[k].wrapper != wrapper)
        k = (k + 1) & (tr->names_cap - 1);
    if (tr->names[k].wrapper) {
        *iid = tr->names[k].iid;
        return true;
    }
    tr->names[k] = (name_slot){wrapper, tr->next_iid++};
    tr->names_n++;
    *iid = tr->names[k].iid;
    return false;
}

static void annotate_uint(pb *event, uint64_t key, uint64_t value)
{
    PB_ON_STACK(a, 24);
    pb_uint(&a, DA_NAME_IID, key);
    pb_uint(&a, DA_UINT_VALUE, value);
    pb_msg(event, TE_DEBUG_ANNOTATIONS, &a);
}

/* A slice's event is at most this long (its name's iid and its count
 * being varints of at most 10 bytes). */
#define SLICE_EVENT_MAX 40u
/* A slice's packet: its key and length, the sequence (a varint of at most
 * 5 bytes) and the time (at most 10), the event's key and length, the
 * event.  Under 128 bytes, so that each length is one byte. */
#define SLICE_PACKET_MAX (2u + 1u + 5u + 1u + 10u + 2u + SLICE_EVENT_MAX)

/* A packet of tr's sequence at ts (not before its clock), with a name
 * interned in it: on the heap, names being of any length. */
static void put_interned(weft__pf *pf, weft__pf_track *tr, uint64_t ts, const pb *event,
                         const pb *interned)
{
    if (ts < tr->clock)
        ts = tr->clock;
    pb packet = {.grows = true};
    pb_uint(&packet, PK_SEQUENCE_ID, tr->sequence);
    pb_uint(&packet, PK_TIMESTAMP, ts - tr->clock);
    pb_msg(&packet, PK_INTERNED_DATA, interned);
    pb_msg(&packet, PK_TRACK_EVENT, event);
    put_packet(pf, &packet);
    free(packet.p);
    tr->clock = ts;
}

/* The slices' packets are most of a file: each is written straight into
 * the file's buffer, its event where slice_open says, its two lengths (one
 * byte each) filled in by slice_close once the event is written.  NULL:
 * no memory for it (the file's error says so). */
static uint8_t *slice_open(weft__pf *pf, weft__pf_track *tr, uint64_t ts)
{
    if (!pb_room(&pf->out, SLICE_PACKET_MAX)) {
        packet_put(pf);
        return NULL;
    }
    if (ts < tr->clock)
        ts = tr->clock;
    uint8_t *p = pf->out.p + pf->out.n;
    *p = TRACE_PACKET << 3 | WIRE_BYTES;
    p += 2;
    *p++ = PK_SEQUENCE_ID << 3 | WIRE_VARINT;
    p = raw_varint(p, tr->sequence);
    *p++ = PK_TIMESTAMP << 3 | WIRE_VARINT;
    p = raw_varint(p, ts - tr->clock);
    *p++ = PK_TRACK_EVENT << 3 | WIRE_BYTES;
    tr->clock = ts;
    return p + 1;
}

static void slice_close(weft__pf *pf, uint8_t *event, const uint8_t *end)
{
    uint8_t *packet = pf->out.p + pf->out.n;
    event[-1] = (uint8_t)(end - event);
    packet[1] = (uint8_t)(end - packet - 2);
    pf->out.n = (size_t)(end - pf->out.p);
    packet_put(pf);
}

/* A slice's BEGIN event, for a frame as its record e says, its name's iid
 * `name`, written at p (SLICE_EVENT_MAX bytes); returns its end. */
static uint8_t *begin_event(uint8_t *p, const trace_event *e, uint8_t state, uint64_t name)
{
    *p++ = TE_TYPE << 3 | WIRE_VARINT;
    *p++ = TYPE_SLICE_BEGIN;
    *p++ = TE_CATEGORY_IIDS << 3 | WIRE_VARINT;
    *p++ = state_cat[state];
    *p++ = TE_NAME_IID << 3 | WIRE_VARINT;
    p = raw_varint(p, name);
    if (state == WEFT_TRACE_RUNNING) {
        /* DebugAnnotation {name_iid: started_by, string_value_iid: how} */
        *p++ = TE_DEBUG_ANNOTATIONS << 3 | WIRE_BYTES;
        *p++ = 5;
        *p++ = DA_NAME_IID << 3 | WIRE_VARINT;
        *p++ = ARG_STARTED_BY;
        p = raw_varint(p, DA_STRING_VALUE_IID << 3 | WIRE_VARINT); /* two bytes */
        *p++ = (uint8_t)((e->how < WEFT__TRACE_HOWS ? e->how : WEFT_TRACE_RESUMED) + 1u);
    }
    return p;
}

/* A slice's BEGIN packet, for a frame as its record e says. */
static void emit_begin(weft__pf *pf, weft__pf_track *tr, const trace_event *e)
{
    uint8_t state = e->kind < WEFT_TRACE_STATES ? e->kind : WEFT_TRACE_NONE;
    uint64_t name = state ? state : WEFT_TRACE_RUNNING;
    if (state == WEFT_TRACE_RUNNING && !task_name_iid(tr, e->ptr, &name)) {
        /* The type's first slice on this sequence: its name goes with it. */
        pb interned = {.grows = true};
        intern_entry(&interned, ID_EVENT_NAMES, name, weft__trace_task_name(e->ptr));
        uint8_t bytes[SLICE_EVENT_MAX];
        pb event = {bytes, 0, sizeof bytes, false, false};
        event.n = (size_t)(begin_event(bytes, e, state, name) - bytes);
        put_interned(pf, tr, e->start, &event, &interned);
        free(interned.p);
        return;
    }
    uint8_t *event = slice_open(pf, tr, e->start);
    if (event)
        slice_close(pf, event, begin_event(event, e, state, name));
}

/* A slice's END packet at ts, with what it counted. */
static void emit_end(weft__pf *pf, weft__pf_track *tr, const open_slice *s, uint64_t ts)
{
    uint8_t *event = slice_open(pf, tr, ts);
    if (!event)
        return;
    uint8_t *p = event;
    *p++ = TE_TYPE << 3 | WIRE_VARINT;
    *p++ = TYPE_SLICE_END;
    uint64_t key = 0;
    if (s->state == WEFT_TRACE_RUNNING)
        key = s->count != COUNT_UNKNOWN && s->count ? ARG_SPAWNS : 0;
    else if (s->state == WEFT_TRACE_BATCH)
        key = ARG_ITEMS;
    else if (s->state == WEFT_TRACE_SEARCH || s->state == WEFT_TRACE_JOIN ||
             s->state == WEFT_TRACE_HELP)
        key = s->count ? ARG_FAILED_STEALS : 0;
    if (key) { /* DebugAnnotation {name_iid, uint_value} */
        uint8_t *len = p + 1;
        *p = TE_DEBUG_ANNOTATIONS << 3 | WIRE_BYTES;
        p += 2;
        *p++ = DA_NAME_IID << 3 | WIRE_VARINT;
        *p++ = (uint8_t)key;
        *p++ = DA_UINT_VALUE << 3 | WIRE_VARINT;
        p = raw_varint(p, s->count);
        *len = (uint8_t)(p - len - 1);
    }
    slice_close(pf, event, p);
}

/* Frames that hold the ones pushed on them as slices inside theirs: a
 * task (a RUN inside it, a wait at its SYNC, a barrier) and a SYNC's wait
 * (the tasks it steals meanwhile).  A search or a sleep does not: the
 * task a searcher steals is no part of its search. */
static bool holds(uint8_t state) { return state == WEFT_TRACE_RUNNING || state == WEFT_TRACE_JOIN; }

/* A frame pushed, its slice begun (the one below ended if it does not
 * hold others). */
static void push_frame(weft__pf *pf, weft__pf_track *tr, const trace_event *e)
{
    if (tr->depth == tr->open_cap) {
        uint32_t cap = tr->open_cap ? tr->open_cap * 2 : 16;
        open_slice *open = realloc(tr->open, cap * sizeof *open);
        if (!open) {
            pf->err = pf->err ? pf->err : ENOMEM;
            return;
        }
        tr->open = open;
        tr->open_cap = cap;
    }
    if (tr->depth) {
        open_slice *below = &tr->open[tr->depth - 1];
        if (below->shown && !holds(below->state)) {
            emit_end(pf, tr, below, e->start);
            below->shown = false;
        }
    }
    emit_begin(pf, tr, e);
    uint8_t state = e->kind < WEFT_TRACE_STATES ? e->kind : WEFT_TRACE_NONE;
    tr->open[tr->depth++] = (open_slice){state, true, e->count};
}

/* The top frame popped at ts, its slice ended. */
static void pop_frame(weft__pf *pf, weft__pf_track *tr, uint64_t ts)
{
    if (!tr->depth)
        return;
    open_slice s = tr->open[--tr->depth];
    if (s.shown)
        emit_end(pf, tr, &s, ts);
}

static void end_all(weft__pf *pf, weft__pf_track *tr)
{
    while (tr->depth)
        pop_frame(pf, tr, tr->at);
}

/* A packet of sequence 1: an event at an absolute time, its track named
 * in it. */
static void put_on_extras(weft__pf *pf, uint64_t ts, const pb *event)
{
    PB_ON_STACK(packet, 352);
    pb_uint(&packet, PK_SEQUENCE_ID, EXTRAS_SEQUENCE);
    pb_uint(&packet, PK_TIMESTAMP, ts);
    pb_msg(&packet, PK_TRACK_EVENT, event);
    put_packet(pf, &packet);
}

/* An event's type, track, category and name. */
static void event_head(pb *event, uint64_t type, uint64_t track_uuid, uint64_t cat, uint64_t name)
{
    pb_uint(event, TE_TYPE, type);
    pb_uint(event, TE_TRACK_UUID, track_uuid);
    pb_uint(event, TE_CATEGORY_IIDS, cat);
    pb_uint(event, TE_NAME_IID, name);
}

/* An instant on a track, on sequence 1, with a flow that starts or ends
 * there (0: none). */
static void instant(weft__pf *pf, uint64_t track_uuid, uint64_t ts, uint64_t name, uint64_t cat,
                    uint64_t flow, bool flow_ends, uint64_t arg, uint64_t value)
{
    PB_ON_STACK(event, 96);
    event_head(&event, TYPE_INSTANT, track_uuid, cat, name);
    if (arg)
        annotate_uint(&event, arg, value);
    if (flow)
        pb_fixed64(&event, flow_ends ? TE_TERMINATING_FLOW_IDS : TE_FLOW_IDS, flow);
    put_on_extras(pf, ts, &event);
}

/* An arrow from one track to another at ts: an instant on each. */
static void arrow(weft__pf *pf, uint64_t from_uuid, uint64_t from_name, uint64_t to_uuid,
                  uint64_t to_name, uint64_t cat, uint64_t ts, uint64_t arg, uint64_t value)
{
    uint64_t id = pf->next_flow++;
    instant(pf, from_uuid, ts, from_name, cat, id, false, 0, 0);
    instant(pf, to_uuid, ts, to_name, cat, id, true, arg, value);
}

static void on_instant(weft__pf *pf, weft__pf_track *tr, const trace_event *e)
{
    uint64_t peer = WORKER_UUID(tr->group, e->peer);
    switch (e->kind) {
    case EV_STEAL:
    case EV_LEAP:
        arrow(pf, peer, NAME_STOLEN, tr->uuid, e->kind == EV_STEAL ? NAME_STEAL : NAME_LEAP,
              CAT_STEAL, e->start, 0, 0);
        break;
    case EV_POOL_STEAL:
    case EV_POOL_TRANSFER:
        arrow(pf, peer, NAME_STOLEN, tr->uuid,
              e->kind == EV_POOL_STEAL ? NAME_POOL_STEAL : NAME_POOL_TRANSFER, CAT_STEAL, e->start,
              ARG_ITEMS, e->count);
        break;
    case EV_WAKE: arrow(pf, tr->uuid, NAME_WAKE, peer, NAME_WOKEN, CAT_WAKE, e->start, 0, 0); break;
    case EV_TOGETHER:
    case EV_NEWFRAME:
        instant(pf, tr->uuid, e->start, e->kind == EV_TOGETHER ? NAME_TOGETHER : NAME_NEWFRAME,
                CAT_INTERRUPT, 0, false, 0, 0);
        break;
    case EV_RUN_TAKEN:
        if (pf->n_taken == TAKEN_MAX)
            break; /* (as many as the outside RUNs kept, twice over) */
        if (pf->n_taken == pf->taken_cap) {
            size_t cap = pf->taken_cap ? pf->taken_cap * 2 : 64;
            run_taken *t = realloc(pf->taken, cap * sizeof *t);
            if (!t)
                break; /* the arrow is left out */
            pf->taken = t;
            pf->taken_cap = cap;
        }
        pf->taken[pf->n_taken++] = (run_taken){e->ptr, e->start, tr->uuid};
        break;
    case EV_DROPPED: {
        /* Records were lost before this one: the slices open before the
         * gap end at its start, and the next record starts afresh. */
        uint64_t lost = e->count - tr->dropped_seen;
        tr->dropped_seen = e->count;
        if (!lost)
            break; /* drops of an earlier session */
        end_all(pf, tr);
        tr->any = false;
        instant(pf, tr->uuid, e->start, NAME_DROPPED, CAT_DROPPED, 0, false, ARG_DROPPED, lost);
        break;
    }
    default: break;
    }
}

/* A slice's record: how its frame was opened says whether it is pushed
 * on the frame before, continues the one below (popped back to), or
 * replaces it (set). */
static void on_slice(weft__pf *pf, weft__pf_track *tr, const trace_event *e)
{
    if (!tr->begun)
        begin_sequence(pf, tr, e->start);
    if (tr->any && e->start != tr->at)
        end_all(pf, tr); /* a gap: what was open is not known to go on */
    tr->any = true;
    switch (e->opened) {
    case TRACE_OPENED_PUSH: push_frame(pf, tr, e); break;
    case TRACE_OPENED_POP:
        if (tr->depth >= 2) {
            pop_frame(pf, tr, e->start);
            open_slice *top = &tr->open[tr->depth - 1];
            if (!top->shown) { /* its slice ended when a frame was pushed on it */
                emit_begin(pf, tr, e);
                top->shown = true;
                top->count = e->count;
            } else if (top->count != COUNT_UNKNOWN) {
                top->count = e->count == COUNT_UNKNOWN ? COUNT_UNKNOWN : top->count + e->count;
            }
            break;
        }
        /* Back to a frame opened before the records began: a new slice. */
        end_all(pf, tr);
        push_frame(pf, tr, e);
        break;
    default:
        pop_frame(pf, tr, e->start);
        push_frame(pf, tr, e);
        break;
    }
    tr->at = e->end;
}

void weft__pf_records(weft__pf *pf, weft__pf_track *tr, const trace_event *ring, uint32_t cap,
                      uint64_t from, uint64_t to)
{
    if (!tr)
        return;
    uint32_t i = (uint32_t)(from % cap);
    for (uint64_t k = from; k < to; k++) {
        const trace_event *e = &ring[i];
        if (++i == cap)
            i = 0;
        if (e->kind < WEFT_TRACE_STATES)
            on_slice(pf, tr, e);
        else
            on_instant(pf, tr, e);
    }
}

void weft__pf_track_end(weft__pf *pf, weft__pf_track *tr, uint64_t dropped)
{
    if (!tr)
        return;
    end_all(pf, tr);
    /* Drops after the last record: marked where the records end. */
    if (dropped > tr->dropped_seen) {
        instant(pf, tr->uuid, tr->any ? tr->at : pf->t0, NAME_DROPPED, CAT_DROPPED, 0, false,
                ARG_DROPPED, dropped - tr->dropped_seen);
        tr->dropped_seen = dropped;
    }
}

static int compare_taken(const void *a, const void *b)
{
    const run_taken *x = a, *y = b;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void weft__pf_external(weft__pf *pf, const external_run *run)
{
    weft__pf_group(pf, 0, "weft"); /* (if no pool ran) */
    size_t k = 0;
    while (k < pf->n_outside && pf->outside_tids[k] != run->tid)
        k++;
    if (k == pf->n_outside) {
        long *tids = realloc(pf->outside_tids, (k + 1) * sizeof *tids);
        if (!tids)
            return;
        pf->outside_tids = tids;
        pf->outside_tids[pf->n_outside++] = run->tid;
        char name[64];
        snprintf(name, sizeof name, "thread %ld (outside the pool)", run->tid);
        put_track_descriptor(pf, EXTRAS_SEQUENCE, OUTSIDE_UUID(k), GROUP_UUID(0), name,
                             (long)(1u << 20) + (long)k);
    }
    /* The worker that took it: the first taking of this descriptor while
     * the RUN waited (the takings sorted by time, once). */
    if (!pf->taken_sorted) {
        if (pf->n_taken)
            qsort(pf->taken, pf->n_taken, sizeof *pf->taken, compare_taken);
        pf->taken_sorted = true;
    }
    size_t lo = 0, hi = pf->n_taken;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pf->taken[mid].ts < run->start)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint64_t flow = 0, taken_at = 0, taken_on = 0;
    for (size_t t = lo; t < pf->n_taken && pf->taken[t].ts <= run->end; t++)
        if (pf->taken[t].task == run->task) {
            flow = RUN_FLOW(pf->next_flow++);
            taken_at = pf->taken[t].ts;
            taken_on = pf->taken[t].track_uuid;
            break;
        }
    /* The waiting slice: a BEGIN and an END on sequence 1. */
    PB_ON_STACK(begin, 64);
    event_head(&begin, TYPE_SLICE_BEGIN, OUTSIDE_UUID(k), CAT_RUN, NAME_RUN_WAITING);
    if (flow)
        pb_fixed64(&begin, TE_FLOW_IDS, flow);
    put_on_extras(pf, run->start, &begin);
    PB_ON_STACK(end, 16);
    pb_uint(&end, TE_TYPE, TYPE_SLICE_END);
    pb_uint(&end, TE_TRACK_UUID, OUTSIDE_UUID(k));
    put_on_extras(pf, run->end, &end);
    if (flow)
        instant(pf, taken_on, taken_at, NAME_RUN_TAKEN, CAT_RUN, flow, true, 0, 0);
}

void weft__pf_pool_end(weft__pf *pf, unsigned group, uint64_t ts, const weft_trace_pool_counts *c)
{
    PB_ON_STACK(event, 160);
    event_head(&event, TYPE_INSTANT, GROUP_UUID(group), CAT_END, NAME_POOL_END);
    annotate_uint(&event, ARG_PROCESSED, c->processed);
    annotate_uint(&event, ARG_DUPLICATES, c->duplicates);
    annotate_uint(&event, ARG_STEALS, c->steals);
    annotate_uint(&event, ARG_STOLEN_ITEMS, c->stolen_items);
    annotate_uint(&event, ARG_REQUESTS, c->requests);
    annotate_uint(&event, ARG_SLEEPS, c->sleeps);
    put_on_extras(pf, ts, &event);
}

int weft__pf_close(weft__pf *pf, const weft__pf_summary *summary)
{
    uint64_t last = pf->t0;
    for (weft__pf_track *tr = pf->tracks; tr; tr = tr->next) {
        end_all(pf, tr);
        if (tr->any && tr->at > last)
            last = tr->at;
    }
    /* The summary: an instant at the end of the fork-join group's track. */
    weft__pf_group(pf, 0, "weft");
    PB_ON_STACK(event, 256);
    event_head(&event, TYPE_INSTANT, GROUP_UUID(0), CAT_END, NAME_SUMMARY);
    annotate_uint(&event, ARG_DROPPED, summary->dropped);
    annotate_uint(&event, ARG_EXTERNALS_DROPPED, summary->externals_dropped);
    annotate_uint(&event, ARG_POOL_RUNS_UNTRACED, summary->pool_runs_untraced);
    if (summary->counters) {
        const weft_stats *st = summary->counters;
        annotate_uint(&event, ARG_TASKS, st->tasks);
        annotate_uint(&event, ARG_STEALS, st->steals);
        annotate_uint(&event, ARG_LEAPS, st->leaps);
        annotate_uint(&event, ARG_STEAL_FAILS, st->steal_fails);
        annotate_uint(&event, ARG_LEAP_FAILS, st->leap_fails);
        annotate_uint(&event, ARG_SLEEPS, st->sleeps);
    }
    put_on_extras(pf, last, &event);
    int err = weft__pf_flush(pf);
    if (close(pf->fd) != 0 && !err)
        err = errno ? errno : EIO;
    if (err)
        weft__warn("tracing: writing %s failed: %s", pf->path, strerror(err));
    while (pf->tracks) {
        weft__pf_track *next = pf->tracks->next;
        free(pf->tracks->open);
        free(pf->tracks->names);
        free(pf->tracks);
        pf->tracks = next;
    }
    free(pf->taken);
    free(pf->outside_tids);
    free(pf->out.p);
    free(pf->path);
    free(pf);
    return err;
}

#endif
