// SPDX-License-Identifier: Apache-2.0
/* The work-pool cases.  Each builds its input from a seed, runs on a pool,
 * and checks its own result against a sequential computation.
 *
 *   raw        a random tree (mean 2 children); each node visited once,
 *              its children pushed (a visit counter makes it idempotent)
 *   quicksort  not in place: children get copies of their partitions;
 *              leaves insertion-sort and notify the parent through an
 *              atomic child counter; the last child pushes the parent,
 *              which concatenates (the paper's structure)
 *   spanning   Bader-Cong style spanning tree: a vertex claims unclaimed
 *              neighbours by CAS of their parent and pushes them (on a
 *              random local graph, a 3-d grid or an R-MAT graph)
 *   xml        serialisation of a generated document tree: elements push
 *              their children; leaves serialise; parent counters; the last
 *              child pushes the parent, which concatenates
 *   dfs-*      pseudo-DFS reachability (Acar et al.) on a 3-d grid, a random
 *              local graph and an R-MAT graph; with coalescing, an item is a
 *              batch (slice) of vertices, processed at most 256 at a time,
 *              and the split function halves a batch
 * raw, spanning and dfs are idempotent (processing an item twice is
 * harmless); quicksort and xml are not (a counter would be decremented
 * twice).
 */
#include "cases.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void *pc_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory (%zu x %zu bytes)\n", n, size);
        exit(2);
    }
    return p;
}

/* A random tree in breadth-first order: the children of v are
 * first[v] .. first[v] + nchild[v] - 1.  fanout(s) draws a child count. */
static void make_tree(uint32_t n, uint64_t seed, unsigned (*fanout)(uint64_t *), uint32_t *first,
                      uint32_t *nchild, uint32_t *parent)
{
    uint64_t s = seed;
    uint32_t next = 1;
    if (parent)
        parent[0] = 0;
    for (uint32_t v = 0; v < n; v++) {
        uint32_t c = fanout(&s);
        if (c == 0 && next == v + 1 && next < n)
            c = 1; /* the last node created so far: keep the tree growing */
        if (c > n - next)
            c = n - next;
        first[v] = next;
        nchild[v] = c;
        if (parent)
            for (uint32_t i = 0; i < c; i++)
                parent[next + i] = v;
        next += c;
    }
}

/* ======================================================================
 * raw
 * ====================================================================== */

typedef struct raw_state {
    uint32_t n;
    uint32_t *first, *nchild;
    _Atomic uint32_t *visits;
    uint32_t root;
} raw_state;

static unsigned raw_fanout(uint64_t *s) { return (unsigned)(splitmix(s) % 5); /* 0..4, mean 2 */ }

static void *raw_create(const pc_params *pp)
{
    raw_state *st = xcalloc(1, sizeof *st);
    st->n = (uint32_t)pp->size;
    st->first = pc_xmalloc(st->n * sizeof *st->first);
    st->nchild = pc_xmalloc(st->n * sizeof *st->nchild);
    st->visits = xcalloc(st->n, sizeof *st->visits);
    make_tree(st->n, pp->seed, raw_fanout, st->first, st->nchild, NULL);
    return st;
}

static void raw_visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    raw_state *st = arg;
    uint32_t v = *(uint32_t *)item;
    /* Relaxed: counts visits; the first one expands the node. */
    if (atomic_fetch_add_explicit(&st->visits[v], 1, memory_order_relaxed) != 0)
        return;
    for (uint32_t c = st->first[v], e = c + st->nchild[v]; c < e; c++)
        weft_pool_push(ctx, &c);
}

static void raw_prepare(void *state, pc_run *run)
{
    raw_state *st = state;
    for (uint32_t i = 0; i < st->n; i++)
        /* Relaxed: no pool is running. */
        atomic_store_explicit(&st->visits[i], 0, memory_order_relaxed);
    st->root = 0;
    *run = (pc_run){sizeof(uint32_t), &st->root, 1, raw_visit, NULL, st};
}

static int raw_check(void *state, char *msg, size_t len, uint64_t *extra)
{
    raw_state *st = state;
    uint64_t more = 0;
    for (uint32_t i = 0; i < st->n; i++) {
        /* Relaxed: the pool has been joined. */
        uint32_t k = atomic_load_explicit(&st->visits[i], memory_order_relaxed);
        if (k == 0) {
            snprintf(msg, len, "raw: node %u of %u never visited", i, st->n);
            return 1;
        }
        more += k - 1;
    }
    *extra = more;
    snprintf(msg, len, "raw: %u nodes visited", st->n);
    return 0;
}

static void raw_destroy(void *state)
{
    raw_state *st = state;
    free(st->first);
    free(st->nchild);
    free(st->visits);
    free(st);
}

/* ======================================================================
 * quicksort
 * ====================================================================== */

enum { QS_SPLIT = 0, QS_MERGE = 1 };
#define QS_CUTOFF 32

typedef struct qs_node {
    uint32_t *data;
    size_t len;
    struct qs_node *parent;
    struct qs_node *child[2];
    uint32_t pivot;
    size_t npivot;
    int stage;                /* written before the node's children are pushed */
    _Atomic uint32_t pending; /* children not yet sorted */
} qs_node;

typedef struct qs_state {
    size_t n;
    uint32_t *input, *expected;
    qs_node *root;
} qs_state;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static qs_node *qs_new(uint32_t *data, size_t len, qs_node *parent)
{
    qs_node *x = pc_xmalloc(sizeof *x);
    x->data = data;
    x->len = len;
    x->parent = parent;
    x->child[0] = x->child[1] = NULL;
    x->stage = QS_SPLIT;
    atomic_init(&x->pending, 0);
    return x;
}

static void *qs_create(const pc_params *pp)
{
    qs_state *st = xcalloc(1, sizeof *st);
    st->n = pp->size;
    st->input = pc_xmalloc(st->n * sizeof *st->input);
    st->expected = pc_xmalloc(st->n * sizeof *st->expected);
    uint64_t s = pp->seed;
    for (size_t i = 0; i < st->n; i++)
        st->input[i] = (uint32_t)splitmix(&s);
    memcpy(st->expected, st->input, st->n * sizeof *st->input);
    qsort(st->expected, st->n, sizeof *st->expected, cmp_u32);
    return st;
}

/* x is sorted: tell its parent; the last child to finish pushes it. */
static void qs_done(weft_pool_ctx *ctx, qs_node *x)
{
    qs_node *p = x->parent;
    if (p == NULL)
        return;
    /* Acq_rel: the first child's data before the last child's decrement,
     * and both before the parent is pushed (and merged). */
    if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1)
        weft_pool_push(ctx, &p);
}

static void qs_process(weft_pool_ctx *ctx, void *item, void *arg)
{
    (void)arg;
    qs_node *x = *(qs_node **)item;
    if (x->stage == QS_MERGE) {
        qs_node *l = x->child[0], *r = x->child[1];
        uint32_t *d = x->data;
        memcpy(d, l->data, l->len * sizeof *d);
        for (size_t i = 0; i < x->npivot; i++)
            d[l->len + i] = x->pivot;
        memcpy(d + l->len + x->npivot, r->data, r->len * sizeof *d);
        free(l->data);
        free(l);
        free(r->data);
        free(r);
        qs_done(ctx, x);
        return;
    }
    uint32_t *d = x->data;
    size_t n = x->len;
    if (n <= QS_CUTOFF) {
        for (size_t i = 1; i < n; i++) {
            uint32_t v = d[i];
            size_t j = i;
            for (; j > 0 && d[j - 1] > v; j--)
                d[j] = d[j - 1];
            d[j] = v;
        }
        qs_done(ctx, x);
        return;
    }
    uint32_t a = d[0], b = d[n / 2], c = d[n - 1];
    uint32_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
    size_t lt = 0, eq = 0;
    for (size_t i = 0; i < n; i++) {
        lt += d[i] < pivot;
        eq += d[i] == pivot;
    }
    uint32_t *ld = pc_xmalloc((lt ? lt : 1) * sizeof *ld);
    uint32_t *rd = pc_xmalloc((n - lt - eq ? n - lt - eq : 1) * sizeof *rd);
    size_t li = 0, ri = 0;
    for (size_t i = 0; i < n; i++) {
        if (d[i] < pivot)
            ld[li++] = d[i];
        else if (d[i] > pivot)
            rd[ri++] = d[i];
    }
    x->child[0] = qs_new(ld, lt, x);
    x->child[1] = qs_new(rd, ri, x);
    x->pivot = pivot;
    x->npivot = eq;
    x->stage = QS_MERGE;
    /* Relaxed: published to the children by the pushes below (release). */
    atomic_store_explicit(&x->pending, 2, memory_order_relaxed);
    weft_pool_push(ctx, &x->child[0]);
    weft_pool_push(ctx, &x->child[1]);
}

static void qs_free_root(qs_state *st)
{
    if (st->root) {
        free(st->root->data);
        free(st->root);
        st->root = NULL;
    }
}

static void qs_prepare(void *state, pc_run *run)
{
    qs_state *st = state;
    qs_free_root(st);
    uint32_t *d = pc_xmalloc((st->n ? st->n : 1) * sizeof *d);
    memcpy(d, st->input, st->n * sizeof *d);
    st->root = qs_new(d, st->n, NULL);
    *run = (pc_run){sizeof(qs_node *), &st->root, 1, qs_process, NULL, st};
}

static int qs_check(void *state, char *msg, size_t len, uint64_t *extra)
{
    qs_state *st = state;
    *extra = 0;
    if (memcmp(st->root->data, st->expected, st->n * sizeof *st->expected) != 0) {
        size_t i = 0;
        while (st->root->data[i] == st->expected[i])
            i++;
        snprintf(msg, len, "quicksort: element %zu is %u, expected %u", i, st->root->data[i],
                 st->expected[i]);
        return 1;
    }
    snprintf(msg, len, "quicksort: %zu elements sorted", st->n);
    return 0;
}

static void qs_destroy(void *state)
{
    qs_state *st = state;
    qs_free_root(st);
    free(st->input);
    free(st->expected);
    free(st);
}

/* ======================================================================
 * spanning tree
 * ====================================================================== */

typedef struct span_state {
    pc_graph *g;
    _Atomic int32_t *parent;
    uint8_t *reach;
    uint64_t n_reach;
    uint32_t root;
} span_state;

static void *span_create(const pc_params *pp)
{
    span_state *st = xcalloc(1, sizeof *st);
    const char *graph = pp->graph ? pp->graph : "rlg";
    if (strcmp(graph, "grid") == 0) {
        uint32_t k = 2;
        while ((uint64_t)(k + 1) * (k + 1) * (k + 1) <= pp->size)
            k++;
        st->g = pc_graph_grid3d(k);
    } else if (strcmp(graph, "rmat") == 0) {
        unsigned scale = 4;
        while (scale < 30 && ((uint64_t)1 << (scale + 1)) <= pp->size)
            scale++;
        st->g = pc_graph_rmat(scale, 8, pp->seed);
    } else if (strcmp(graph, "rlg") == 0) {
        st->g = pc_graph_rlg((uint32_t)pp->size, 4, pp->seed);
    } else {
        fprintf(stderr, "spanning: unknown graph '%s' (grid, rlg, rmat)\n", graph);
        exit(2);
    }
    st->parent = pc_xmalloc(st->g->n * sizeof *st->parent);
    st->reach = pc_xmalloc(st->g->n);
    st->n_reach = pc_graph_reach(st->g, 0, st->reach);
    return st;
}

static void span_visit(weft_pool_ctx *ctx, void *item, void *arg)
{
    span_state *st = arg;
    const pc_graph *g = st->g;
    uint32_t v = *(uint32_t *)item;
    for (uint64_t i = g->off[v]; i < g->off[v + 1]; i++) {
        uint32_t u = g->adj[i];
        int32_t none = -1;
        /* Relaxed: a peek; the CAS claims u for v (the graph is read-only). */
        if (atomic_load_explicit(&st->parent[u], memory_order_relaxed) == -1 &&
            /* Relaxed: the claim; u's item is published by the push. */
            atomic_compare_exchange_strong_explicit(&st->parent[u], &none, (int32_t)v,
                                                    memory_order_relaxed, memory_order_relaxed))
            weft_pool_push(ctx, &u);
    }
}

static void span_prepare(void *state, pc_run *run)
{
    span_state *st = state;
    for (uint32_t i = 0; i < st->g->n; i++)
        /* Relaxed: no pool is running. */
        atomic_store_explicit(&st->parent[i], -1, memory_order_relaxed);
    st->root = 0;
    /* Relaxed: no pool is running. */
    atomic_store_explicit(&st->parent[0], 0, memory_order_relaxed);
    *run = (pc_run){sizeof(uint32_t), &st->root, 1, span_visit, NULL, st};
}

static int span_check(void *state, char *msg, size_t len, uint64_t *extra)
{
    span_state *st = state;
    const pc_graph *g = st->g;
    uint32_t n = g->n;
    *extra = 0;
    int32_t *par = pc_xmalloc(n * sizeof *par);
    for (uint32_t v = 0; v < n; v++)
        /* Relaxed: the pool has been joined. */
        par[v] = atomic_load_explicit(&st->parent[v], memory_order_relaxed);
    int rc = 0;
    for (uint32_t v = 0; v < n && rc == 0; v++) {
        if ((par[v] >= 0) != (st->reach[v] != 0)) {
            snprintf(msg, len, "spanning: vertex %u %s", v,
                     par[v] >= 0 ? "has a parent but is unreachable"
                                 : "is reachable but has no parent");
            rc = 1;
        } else if (par[v] >= 0 && v != st->root) {
            bool edge = false;
            for (uint64_t i = g->off[v]; i < g->off[v + 1]; i++)
                edge |= g->adj[i] == (uint32_t)par[v];
            if (!edge) {
                snprintf(msg, len, "spanning: parent %d of %u is not a neighbour", par[v], v);
                rc = 1;
            }
        }
    }
    /* Acyclic: every parent chain reaches the root (0 unknown, 1 on the
     * current chain, 2 reaches the root). */
    uint8_t *mark = xcalloc(n, 1);
    uint32_t *chain = pc_xmalloc(n * sizeof *chain);
    mark[st->root] = 2;
    for (uint32_t v = 0; v < n && rc == 0; v++) {
        if (par[v] < 0 || mark[v] == 2)
            continue;
        size_t k = 0;
        uint32_t x = v;
        while (mark[x] == 0) {
            mark[x] = 1;
            chain[k++] = x;
            x = (uint32_t)par[x];
        }
        if (mark[x] == 1) {
            snprintf(msg, len, "spanning: the parent pointers of %u form a cycle", x);
            rc = 1;
        }
        while (k > 0)
            mark[chain[--k]] = 2;
    }
    free(mark);
    free(chain);
    free(par);
    if (rc == 0)
        snprintf(msg, len, "spanning: tree of %llu vertices (%u in the graph, %llu edges)",
                 (unsigned long long)st->n_reach, n, (unsigned long long)g->m / 2);
    return rc;
}

static void span_destroy(void *state)
{
    span_state *st = state;
    pc_graph_free(st->g);
    free(st->parent);
    free(st->reach);
    free(st);
}

/* ======================================================================
 * xml serialisation
 * ====================================================================== */

static const char *const xml_tags[] = {"doc", "section", "para", "item", "list",  "table",
                                       "row", "cell",    "note", "ref",  "title", "span"};
static const char *const xml_attrs[] = {"id", "class", "lang", "href"};
enum { XML_EXPAND = 0, XML_COMBINE = 1 };

typedef struct xml_item {
    uint32_t node, stage;
} xml_item;

typedef struct xml_node {
    uint32_t first, nchild, parent;
    uint8_t tag, nattr, attr[2];
    uint32_t attr_val[2];
    uint32_t text_off, text_len; /* leaves */
} xml_node;

typedef struct xml_state {
    uint32_t n;
    xml_node *nodes;
    char *text;
    char *expected;
    size_t expected_len;
    /* Per run. */
    char **buf;
    size_t *len;
    _Atomic uint32_t *pending;
    xml_item root;
} xml_state;

static unsigned xml_fanout(uint64_t *s)
{
    uint64_t r = splitmix(s);
    return (r % 100) < 45 ? 0 : 1 + (unsigned)((r >> 8) % 6); /* leaf 45%, else 1..6 */
}

/* The opening tag of x into out (at most 128 bytes). */
static size_t xml_open(const xml_node *x, char *out)
{
    int k = sprintf(out, "<%s", xml_tags[x->tag]);
    for (unsigned i = 0; i < x->nattr; i++)
        k += sprintf(out + k, " %s=\"v%u\"", xml_attrs[x->attr[i]], x->attr_val[i]);
    out[k++] = '>';
    return (size_t)k;
}

static size_t xml_close(const xml_node *x, char *out)
{
    return (size_t)sprintf(out, "</%s>", xml_tags[x->tag]);
}

typedef struct strbuf {
    char *p;
    size_t n, cap;
} strbuf;

static void sb_add(strbuf *b, const char *s, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (b->p == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

static void xml_seq(const xml_state *st, uint32_t v, strbuf *b)
{
    const xml_node *x = &st->nodes[v];
    char tmp[160];
    sb_add(b, tmp, xml_open(x, tmp));
    if (x->nchild == 0)
        sb_add(b, st->text + x->text_off, x->text_len);
    for (uint32_t c = x->first; c < x->first + x->nchild; c++)
        xml_seq(st, c, b);
    sb_add(b, tmp, xml_close(x, tmp));
}

static void *xml_create(const pc_params *pp)
{
    xml_state *st = xcalloc(1, sizeof *st);
    uint32_t n = st->n = (uint32_t)pp->size;
    st->nodes = xcalloc(n, sizeof *st->nodes);
    uint32_t *first = pc_xmalloc(n * sizeof *first), *nchild = pc_xmalloc(n * sizeof *nchild);
    uint32_t *parent = pc_xmalloc(n * sizeof *parent);
    make_tree(n, pp->seed, xml_fanout, first, nchild, parent);
    size_t text_cap = (size_t)n * 64 + 64;
    st->text = pc_xmalloc(text_cap);
    uint64_t s = pp->seed ^ 0x786d6c;
    for (size_t i = 0; i < text_cap; i++) {
        uint64_t r = splitmix(&s) % 32;
        st->text[i] = r < 26 ? (char)('a' + r) : ' ';
    }
    for (uint32_t v = 0; v < n; v++) {
        xml_node *x = &st->nodes[v];
        uint64_t r = splitmix(&s);
        x->first = first[v];
        x->nchild = nchild[v];
        x->parent = parent[v];
        x->tag = (uint8_t)(r % 12);
        x->nattr = (uint8_t)((r >> 8) % 3);
        for (unsigned i = 0; i < x->nattr; i++) {
            x->attr[i] = (uint8_t)((r >> (16 + 4 * i)) % 4);
            x->attr_val[i] = (uint32_t)(splitmix(&s) % 100000);
        }
        x->text_len = 8 + (uint32_t)(splitmix(&s) % 57);
        x->text_off = (uint32_t)(splitmix(&s) % (text_cap - 64));
    }
    free(first);
    free(nchild);
    free(parent);
    strbuf b = {0};
    xml_seq(st, 0, &b);
    st->expected = b.p;
    st->expected_len = b.n;
    st->buf = xcalloc(n, sizeof *st->buf);
    st->len = xcalloc(n, sizeof *st->len);
    st->pending = xcalloc(n, sizeof *st->pending);
    return st;
}

static void xml_process(weft_pool_ctx *ctx, void *item, void *arg)
{
    xml_state *st = arg;
    xml_item it = *(xml_item *)item;
    uint32_t v = it.node;
    const xml_node *x = &st->nodes[v];
    if (it.stage == XML_EXPAND && x->nchild > 0) {
        /* Relaxed: published to the children by the pushes (release). */
        atomic_store_explicit(&st->pending[v], x->nchild, memory_order_relaxed);
        for (uint32_t c = x->first; c < x->first + x->nchild; c++) {
            xml_item ci = {c, XML_EXPAND};
            weft_pool_push(ctx, &ci);
        }
        return;
    }
    char open[160], close[32];
    size_t lo = xml_open(x, open), lc = xml_close(x, close), total = lo + lc;
    if (x->nchild == 0)
        total += x->text_len;
    for (uint32_t c = x->first; c < x->first + x->nchild; c++)
        total += st->len[c];
    char *out = pc_xmalloc(total), *p = out;
    memcpy(p, open, lo);
    p += lo;
    if (x->nchild == 0) {
        memcpy(p, st->text + x->text_off, x->text_len);
        p += x->text_len;
    }
    for (uint32_t c = x->first; c < x->first + x->nchild; c++) {
        memcpy(p, st->buf[c], st->len[c]);
        p += st->len[c];
        free(st->buf[c]);
        st->buf[c] = NULL;
    }
    memcpy(p, close, lc);
    st->buf[v] = out;
    st->len[v] = total;
    if (v == 0)
        return;
    xml_item pi = {x->parent, XML_COMBINE};
    /* Acq_rel: our buffer before the last sibling's decrement, and every
     * sibling's before the parent is pushed (and combined). */
    if (atomic_fetch_sub_explicit(&st->pending[x->parent], 1, memory_order_acq_rel) == 1)
        weft_pool_push(ctx, &pi);
}

static void xml_prepare(void *state, pc_run *run)
{
    xml_state *st = state;
    for (uint32_t v = 0; v < st->n; v++) {
        free(st->buf[v]);
        st->buf[v] = NULL;
        st->len[v] = 0;
    }
    st->root = (xml_item){0, XML_EXPAND};
    *run = (pc_run){sizeof(xml_item), &st->root, 1, xml_process, NULL, st};
}

static int xml_check(void *state, char *msg, size_t len, uint64_t *extra)
{
    xml_state *st = state;
    *extra = 0;
    if (st->buf[0] == NULL || st->len[0] != st->expected_len ||
        memcmp(st->buf[0], st->expected, st->expected_len) != 0) {
        snprintf(msg, len, "xml: serialisation differs (%zu bytes, expected %zu)", st->len[0],
                 st->expected_len);
        return 1;
    }
    snprintf(msg, len, "xml: %u elements, %zu bytes", st->n, st->expected_len);
    return 0;
}

static void xml_destroy(void *state)
{
    xml_state *st = state;
    for (uint32_t v = 0; v < st->n; v++)
        free(st->buf[v]);
    free(st->buf);
    free(st->len);
    free((void *)st->pending);
    free(st->nodes);
    free(st->text);
    free(st->expected);
    free(st);
}

/* ======================================================================
 * pseudo-DFS reachability
 * ====================================================================== */

#define DFS_BATCH 256
#define DFS_CHUNK ((size_t)1 << 18)

/* A batch: vertices nodes[lo .. hi-1] (16 bytes).  The arrays are
 * read-only once pushed, so a batch processed twice is harmless. */
typedef struct dfs_slice {
    const uint32_t *nodes;
    uint32_t lo, hi;
} dfs_slice;

typedef struct dfs_chunk {
    struct dfs_chunk *next;
    size_t used, cap;
    uint32_t data[];
} dfs_chunk;

/* Per worker: where its batches live (freed after the run). */
typedef struct dfs_arena {
    dfs_chunk *chunks;
    uint32_t *scratch;
    size_t scratch_n, scratch_cap;
    char pad[64];
} dfs_arena;

enum { DFS_GRID, DFS_RLG, DFS_RMAT };

typedef struct dfs_state {
    pc_graph *g;
    bool coalesce;
    unsigned workers;
    _Atomic uint8_t *visited;
    uint8_t *reach;
    uint64_t n_reach;
    dfs_arena *arenas;
    uint32_t src[1];
    dfs_slice root_slice;
    uint32_t root_node;
} dfs_state;

static void *dfs_create(const pc_params *pp, int kind)
{
    dfs_state *st = xcalloc(1, sizeof *st);
    if (kind == DFS_GRID)
        st->g = pc_graph_grid3d((uint32_t)pp->size);
    else if (kind == DFS_RLG)
        st->g = pc_graph_rlg((uint32_t)pp->size, 5, pp->seed);
    else
        st->g = pc_graph_rmat((unsigned)pp->size, 8, pp->seed);
    st->coalesce = pp->coalesce;
    st->workers = pp->workers ? pp->workers : 1;
    st->visited = xcalloc(st->g->n, 1);
    st->reach = pc_xmalloc(st->g->n);
    st->n_reach = pc_graph_reach(st->g, 0, st->reach);
    st->arenas = xcalloc(st->workers, sizeof *st->arenas);
    return st;
}

static void *dfs_grid_create(const pc_params *pp) { return dfs_create(pp, DFS_GRID); }
static void *dfs_rlg_create(const pc_params *pp) { return dfs_create(pp, DFS_RLG); }
static void *dfs_rmat_create(const pc_params *pp) { return dfs_create(pp, DFS_RMAT); }

static inline bool first_visit(dfs_state *st, uint32_t v)
{
    /* Relaxed: a peek; the exchange decides who visits v. */
    if (atomic_load_explicit(&st->visited[v], memory_order_relaxed))
        return false;
    /* Relaxed: only the claim matters (the graph is read-only). */
    return atomic_exchange_explicit(&st->visited[v], 1, memory_order_relaxed) == 0;
}

static inline bool seen(dfs_state *st, uint32_t v)
{
    /* Relaxed: a filter; a stale 0 only pushes a vertex that is skipped. */
    return atomic_load_explicit(&st->visited[v], memory_order_relaxed) != 0;
}

static uint32_t *arena_alloc(dfs_arena *a, size_t n)
{
    if (a->chunks == NULL || a->chunks->used + n > a->chunks->cap) {
        size_t cap = n > DFS_CHUNK ? n : DFS_CHUNK;
        dfs_chunk *c = pc_xmalloc(sizeof *c + cap * sizeof(uint32_t));
        c->next = a->chunks;
        c->used = 0;
        c->cap = cap;
        a->chunks = c;
    }
    uint32_t *p = a->chunks->data + a->chunks->used;
    a->chunks->used += n;
    return p;
}

static void dfs_batch(weft_pool_ctx *ctx, void *item, void *arg)
{
    dfs_state *st = arg;
    const pc_graph *g = st->g;
    dfs_slice s = *(dfs_slice *)item;
    dfs_arena *a = &st->arenas[weft_pool_worker_id(ctx)];
    a->scratch_n = 0;
    for (unsigned budget = DFS_BATCH; s.lo < s.hi && budget > 0; budget--) {
        uint32_t v = s.nodes[s.lo++];
        if (!first_visit(st, v))
            continue;
        for (uint64_t i = g->off[v]; i < g->off[v + 1]; i++) {
            uint32_t u = g->adj[i];
            if (seen(st, u))
                continue;
            if (a->scratch_n == a->scratch_cap) {
                a->scratch_cap = a->scratch_cap ? a->scratch_cap * 2 : 1024;
                a->scratch = realloc(a->scratch, a->scratch_cap * sizeof(uint32_t));
                if (a->scratch == NULL) {
                    fprintf(stderr, "out of memory\n");
                    exit(2);
                }
            }
            a->scratch[a->scratch_n++] = u;
        }
    }
    if (s.lo < s.hi)
        weft_pool_push(ctx, &s); /* the rest of the batch */
    if (a->scratch_n > 0) {
        uint32_t *d = arena_alloc(a, a->scratch_n);
        memcpy(d, a->scratch, a->scratch_n * sizeof *d);
        dfs_slice o = {d, 0, (uint32_t)a->scratch_n};
        weft_pool_push(ctx, &o); /* pushed last: taken next (depth first) */
    }
}

/* Coalescing: cuts the upper half of a batch off into `out`. */
static bool dfs_split(void *item, void *out, void *arg)
{
    (void)arg;
    dfs_slice *s = item;
    if (s->hi - s->lo < 2)
        return false;
    uint32_t mid = s->lo + (s->hi - s->lo) / 2;
    dfs_slice o = {s->nodes, mid, s->hi};
    memcpy(out, &o, sizeof o);
    s->hi = mid;
    return true;
}

static void dfs_single(weft_pool_ctx *ctx, void *item, void *arg)
{
    dfs_state *st = arg;
    const pc_graph *g = st->g;
    uint32_t v = *(uint32_t *)item;
    if (!first_visit(st, v))
        return;
    for (uint64_t i = g->off[v]; i < g->off[v + 1]; i++) {
        uint32_t u = g->adj[i];
        if (!seen(st, u))
            weft_pool_push(ctx, &u);
    }
}

static void dfs_free_arenas(dfs_state *st)
{
    for (unsigned i = 0; i < st->workers; i++) {
        dfs_arena *a = &st->arenas[i];
        while (a->chunks) {
            dfs_chunk *next = a->chunks->next;
            free(a->chunks);
            a->chunks = next;
        }
    }
}

static void dfs_prepare(void *state, pc_run *run)
{
    dfs_state *st = state;
    dfs_free_arenas(st);
    for (uint32_t i = 0; i < st->g->n; i++)
        /* Relaxed: no pool is running. */
        atomic_store_explicit(&st->visited[i], 0, memory_order_relaxed);
    st->src[0] = 0;
    if (st->coalesce) {
        st->root_slice = (dfs_slice){st->src, 0, 1};
        *run = (pc_run){sizeof(dfs_slice), &st->root_slice, 1, dfs_batch, dfs_split, st};
    } else {
        st->root_node = 0;
        *run = (pc_run){sizeof(uint32_t), &st->root_node, 1, dfs_single, NULL, st};
    }
}

static int dfs_check(void *state, char *msg, size_t len, uint64_t *extra)
{
    dfs_state *st = state;
    *extra = 0;
    for (uint32_t v = 0; v < st->g->n; v++) {
        /* Relaxed: the pool has been joined. */
        bool vis = atomic_load_explicit(&st->visited[v], memory_order_relaxed) != 0;
        if (vis != (st->reach[v] != 0)) {
            snprintf(msg, len, "dfs: vertex %u %s", v,
                     vis ? "visited but unreachable" : "reachable but not visited");
            return 1;
        }
    }
    snprintf(msg, len, "dfs: %llu of %u vertices reachable (%llu edges)%s",
             (unsigned long long)st->n_reach, st->g->n, (unsigned long long)st->g->m / 2,
             st->coalesce ? ", coalesced" : "");
    return 0;
}

static void dfs_destroy(void *state)
{
    dfs_state *st = state;
    dfs_free_arenas(st);
    for (unsigned i = 0; i < st->workers; i++)
        free(st->arenas[i].scratch);
    free(st->arenas);
    pc_graph_free(st->g);
    free((void *)st->visited);
    free(st->reach);
    free(st);
}

/* ====================================================================== */

const pc_case pc_cases[] = {
    {"raw", "tree nodes", true, false, 2000000, 20000, raw_create, raw_prepare, raw_check,
     raw_destroy},
    {"quicksort", "elements", false, false, 1000000, 20000, qs_create, qs_prepare, qs_check,
     qs_destroy},
    {"spanning",
     "vertices (-g rlg: random local graph of degree 8, the default; -g grid: "
     "3-d grid; -g rmat: R-MAT of 8 x vertices edges)",
     true, false, 1000000, 20000, span_create, span_prepare, span_check, span_destroy},
    {"xml", "elements", false, false, 200000, 3000, xml_create, xml_prepare, xml_check,
     xml_destroy},
    {"dfs-grid", "side of the cube", true, true, 100, 20, dfs_grid_create, dfs_prepare, dfs_check,
     dfs_destroy},
    {"dfs-rlg", "vertices (degree 10)", true, true, 1000000, 20000, dfs_rlg_create, dfs_prepare,
     dfs_check, dfs_destroy},
    {"dfs-rmat", "scale (2^scale vertices, 16 x 2^scale edges)", true, true, 20, 14,
     dfs_rmat_create, dfs_prepare, dfs_check, dfs_destroy},
};
const unsigned pc_n_cases = sizeof pc_cases / sizeof pc_cases[0];

const pc_case *pc_case_find(const char *name)
{
    for (unsigned i = 0; i < pc_n_cases; i++)
        if (strcmp(pc_cases[i].name, name) == 0)
            return &pc_cases[i];
    return NULL;
}
