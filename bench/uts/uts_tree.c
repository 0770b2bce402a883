// SPDX-License-Identifier: Apache-2.0
/* UTS tree generator: the reference UTS 2.1 tree definition on top of
 * OpenSSL's SHA-1.  See uts_tree.h.
 *
 * Exactness matters more than anything else here: a tree is defined by
 * every bit of every digest and by the double-precision arithmetic that
 * turns a digest into a child count, so the formulas below keep the
 * reference's operation order (and the build must not use -ffast-math).
 */
#define _POSIX_C_SOURCE 200809L

/* The RNG hashes 24-byte messages (20 for the root), which fit one SHA-1
 * block, so driving the block function on a block we pad ourselves skips
 * the buffering of the streaming API.  SHA1_Init/SHA1_Transform are
 * deprecated in OpenSSL 3 but remain the fastest route to the (SHA-NI)
 * block function: about 61 ns per hash here, against 66 ns for
 * SHA1_Init/Update/Final, 113 ns for a reused EVP_MD_CTX, 168 ns for
 * EVP_Digest with a pre-fetched EVP_MD and 410 ns for the one-shot SHA1().
 * Asking for the 1.1.0 API keeps them declared without deprecation
 * warnings.  An OpenSSL built without deprecated APIs falls back to EVP.
 * (Must precede every OpenSSL include.) */
#ifndef OPENSSL_API_COMPAT
#define OPENSSL_API_COMPAT 0x10100000L
#endif

#include "uts_tree.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include "bench.h"

#if defined(OPENSSL_NO_DEPRECATED_3_0) && !defined(UTS_SHA1_USE_EVP)
#define UTS_SHA1_USE_EVP 1
#endif

#ifdef UTS_SHA1_USE_EVP
#include <pthread.h>
#endif

/* ------------------------------------------------------------------ */
/* SHA-1                                                               */
/* ------------------------------------------------------------------ */

#ifndef UTS_SHA1_USE_EVP

/* FIPS 180-4 padding: the message, one 1 bit, zeros, and the message
 * length in bits as a 64-bit big-endian number ending the last block.
 * Messages of up to 55 bytes need one block, up to 119 two. */
static inline void sha1_short(const unsigned char *msg, size_t len,
                              unsigned char digest[UTS_STATE_SIZE])
{
    unsigned char block[2 * SHA_CBLOCK];
    size_t total = len <= SHA_CBLOCK - 9 ? SHA_CBLOCK : 2 * SHA_CBLOCK;
    uint64_t bits = (uint64_t)len * 8;

    memcpy(block, msg, len);
    block[len] = 0x80;
    memset(block + len + 1, 0, total - 8 - (len + 1));
    for (size_t i = 0; i < 8; i++)
        block[total - 1 - i] = (unsigned char)(bits >> (8 * i));

    SHA_CTX ctx;
    SHA1_Init(&ctx);
    for (size_t off = 0; off < total; off += SHA_CBLOCK)
        SHA1_Transform(&ctx, block + off);

    const SHA_LONG h[5] = {ctx.h0, ctx.h1, ctx.h2, ctx.h3, ctx.h4};
    for (int i = 0; i < 5; i++) {
        digest[4 * i + 0] = (unsigned char)(h[i] >> 24);
        digest[4 * i + 1] = (unsigned char)(h[i] >> 16);
        digest[4 * i + 2] = (unsigned char)(h[i] >> 8);
        digest[4 * i + 3] = (unsigned char)h[i];
    }
}

const char *uts_sha1_impl(void) { return "OpenSSL SHA1_Transform"; }

#else /* UTS_SHA1_USE_EVP */

/* Fetching once matters: EVP_sha1() makes every EVP_Digest call look the
 * algorithm up again, which triples its cost. */
static EVP_MD *sha1_md;
static pthread_once_t sha1_md_once = PTHREAD_ONCE_INIT;

static void sha1_md_fetch(void) { sha1_md = EVP_MD_fetch(NULL, "SHA1", NULL); }

static inline void sha1_short(const unsigned char *msg, size_t len,
                              unsigned char digest[UTS_STATE_SIZE])
{
    pthread_once(&sha1_md_once, sha1_md_fetch);
    if (sha1_md == NULL || !EVP_Digest(msg, len, digest, NULL, sha1_md, NULL)) {
        fprintf(stderr, "uts: OpenSSL SHA-1 failed\n");
        abort();
    }
}

const char *uts_sha1_impl(void) { return "OpenSSL EVP_Digest"; }

#endif

void uts_sha1(const void *msg, size_t len, unsigned char digest[UTS_STATE_SIZE])
{
    if (len > UTS_SHA1_MAX_LEN) {
        fprintf(stderr, "uts_sha1: message of %zu bytes exceeds %d\n", len, UTS_SHA1_MAX_LEN);
        abort();
    }
    sha1_short(msg, len, digest);
}

/* ------------------------------------------------------------------ */
/* The splittable RNG of the reference UTS (its rng/brg_sha1.c)        */
/* ------------------------------------------------------------------ */

static inline void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* Root state: SHA-1 of 16 zero bytes followed by the seed, big-endian. */
void uts_rng_init(unsigned char state[UTS_STATE_SIZE], int seed)
{
    unsigned char msg[UTS_STATE_SIZE] = {0};
    put_be32(msg + 16, (uint32_t)seed);
    sha1_short(msg, sizeof msg, state);
}

/* Child state: SHA-1 of the parent's 20-byte state followed by the spawn
 * number, big-endian. */
void uts_rng_spawn(const unsigned char parent[UTS_STATE_SIZE], int spawn_number,
                   unsigned char child[UTS_STATE_SIZE])
{
    unsigned char msg[UTS_STATE_SIZE + 4];
    memcpy(msg, parent, UTS_STATE_SIZE);
    put_be32(msg + UTS_STATE_SIZE, (uint32_t)spawn_number);
    sha1_short(msg, sizeof msg, child);
}

/* A node's one random number: the last four state bytes, big-endian, with
 * the sign bit cleared, i.e. uniform on [0, 2^31). */
int uts_rng_rand(const unsigned char state[UTS_STATE_SIZE])
{
    uint32_t b = (uint32_t)state[16] << 24 | (uint32_t)state[17] << 16 | (uint32_t)state[18] << 8 |
                 (uint32_t)state[19];
    return (int)(b & 0x7fffffffu);
}

static inline double rng_to_prob(int n) { return (double)n / 2147483648.0; }

/* ------------------------------------------------------------------ */
/* Tree shape                                                          */
/* ------------------------------------------------------------------ */

/* BIN: m children with probability q, else none. */
static int num_children_bin(const uts_params *p, const uts_node *node)
{
    double d = rng_to_prob(uts_rng_rand(node->state));
    return d < p->non_leaf_prob ? p->non_leaf_bf : 0;
}

/* GEO: a geometric child count whose mean b_i depends on the depth through
 * the shape function. */
static int num_children_geo(const uts_params *p, const uts_node *node)
{
    double b_0 = p->b_0, b_i = b_0;
    int depth = node->height;

    if (depth > 0) {
        switch (p->shape_fn) {
        case UTS_EXPDEC: /* expected size polynomial in depth */
            b_i = b_0 * pow((double)depth, -log(b_0) / log((double)p->gen_mx));
            break;
        case UTS_CYCLIC:
            /* In double: the reference's int 5 * gen_mx could overflow. */
            if ((double)depth > 5.0 * (double)p->gen_mx)
                b_i = 0.0;
            else
                b_i = pow(b_0, sin(2.0 * 3.141592653589793 * (double)depth / (double)p->gen_mx));
            break;
        case UTS_FIXED: b_i = depth < p->gen_mx ? b_0 : 0; break;
        case UTS_LINEAR:
        default: b_i = b_0 * (1.0 - (double)depth / (double)p->gen_mx); break;
        }
    }

    /* The geometric distribution with mean b_i has parameter 1/(1+b_i);
     * invert its CDF at a uniform u. */
    double prob = 1.0 / (1.0 + b_i);
    double u = rng_to_prob(uts_rng_rand(node->state));
    double n = floor(log(1 - u) / log(1 - prob));

    /* The reference converts n to int unchecked.  NaN or a negative count
     * (a linear shape past gen_mx) makes a leaf, as the reference's
     * nonsense int would; an oversized count is capped by the caller.  No
     * sample tree reaches either case. */
    if (!(n >= 0.0))
        return 0;
    if (n > (double)INT_MAX)
        return INT_MAX;
    return (int)n;
}

int uts_num_children(const uts_params *p, const uts_node *node)
{
    int n = 0;

    switch (p->type) {
    case UTS_BIN: n = node->height == 0 ? (int)floor(p->b_0) : num_children_bin(p, node); break;
    case UTS_GEO: n = num_children_geo(p, node); break;
    case UTS_HYBRID:
        if (node->height < p->shift_depth * p->gen_mx)
            n = num_children_geo(p, node);
        else
            n = num_children_bin(p, node);
        break;
    case UTS_BALANCED:
        if (node->height < p->gen_mx)
            n = (int)p->b_0;
        break;
    default: break; /* unreachable: uts_parse_args validates the type */
    }

    /* Only a BIN root may exceed the cap.  The reference prints a line
     * whenever it truncates; from many workers that would flood the output
     * and perturb the timing, so this truncates silently. */
    if (node->height == 0 && node->type == UTS_BIN) {
        int root_bf = (int)ceil(p->b_0);
        if (n > root_bf)
            n = root_bf;
    } else if (p->type != UTS_BALANCED && n > UTS_MAX_CHILDREN) {
        n = UTS_MAX_CHILDREN;
    }
    return n;
}

static int child_type(const uts_params *p, const uts_node *parent)
{
    if (p->type == UTS_HYBRID)
        return parent->height < p->shift_depth * p->gen_mx ? UTS_GEO : UTS_BIN;
    return p->type;
}

void uts_root(const uts_params *p, uts_node *root)
{
    root->type = p->type;
    root->height = 0;
    root->num_kids = -1;
    uts_rng_init(root->state, p->root_seed);
}

void uts_child(const uts_params *p, const uts_node *parent, int i, uts_node *child)
{
    child->type = child_type(p, parent);
    child->height = parent->height + 1;
    child->num_kids = -1;
    /* -g repeats the same hash to make nodes costlier; the result is the
     * same each time, and the calls into libcrypto cannot be elided. */
    for (int j = 0; j < p->compute_granularity; j++)
        uts_rng_spawn(parent->state, i, child->state);
}

/* ------------------------------------------------------------------ */
/* Sample trees                                                        */
/* ------------------------------------------------------------------ */

/* The standard workloads published with UTS (its sample_trees.sh) and
 * reproduced by the Lace, BOTS and other UTS ports. */
const uts_sample uts_samples[] = {
    {"T1", "-t 1 -a 3 -d 10 -b 4 -r 19", 4130071, 3305118, 10},
    {"T5", "-t 1 -a 0 -d 20 -b 4 -r 34", 4147582, 2181318, 20},
    {"T2", "-t 1 -a 2 -d 16 -b 6 -r 502", 4117769, 2342762, 81},
    {"T3", "-t 0 -b 2000 -q 0.124875 -m 8 -r 42", 4112897, 3599034, 1572},
    {"T4", "-t 2 -a 0 -d 16 -b 6 -r 1 -q 0.234375 -m 4", 4132453, 3108986, 134},
    {"T1L", "-t 1 -a 3 -d 13 -b 4 -r 29", 102181082, 81746377, 13},
    {"T2L", "-t 1 -a 2 -d 23 -b 7 -r 220", 96793510, 53791152, 67},
    {"T3L", "-t 0 -b 2000 -q 0.200014 -m 5 -r 7", 111345631, 89076904, 17844},
    {"T1XL", "-t 1 -a 3 -d 15 -b 4 -r 29", 1635119272, 1308100063, 15},
    {NULL, NULL, 0, 0, 0},
};

/* True if a and b generate the same tree: compares only the parameters the
 * tree type reads. */
static bool same_tree(const uts_params *a, const uts_params *b)
{
    if (a->type != b->type || a->b_0 != b->b_0 || a->root_seed != b->root_seed)
        return false;
    bool geo = a->type == UTS_GEO || a->type == UTS_HYBRID;
    bool bin = a->type == UTS_BIN || a->type == UTS_HYBRID;
    if (geo && (a->shape_fn != b->shape_fn || a->gen_mx != b->gen_mx))
        return false;
    if (bin && (a->non_leaf_prob != b->non_leaf_prob || a->non_leaf_bf != b->non_leaf_bf))
        return false;
    if (a->type == UTS_HYBRID && a->shift_depth != b->shift_depth)
        return false;
    if (a->type == UTS_BALANCED && a->gen_mx != b->gen_mx)
        return false;
    return true;
}

const uts_sample *uts_find_sample(const uts_params *p)
{
    for (const uts_sample *s = uts_samples; s->name != NULL; s++) {
        /* The table keeps the published flags, the one description that
         * cannot drift from the publication; parse them as a user's are. */
        char buf[128], prog[] = "uts-sample-table", *save = NULL;
        char *argv[32] = {prog};
        int argc = 1;
        snprintf(buf, sizeof buf, "%s", s->flags);
        for (char *tok = strtok_r(buf, " ", &save); tok != NULL && argc < 31;
             tok = strtok_r(NULL, " ", &save))
            argv[argc++] = tok;

        uts_params sp;
        uint64_t unused;
        uts_parse_args(argc, argv, prog, "", &sp, &unused);
        if (same_tree(p, &sp))
            return s;
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Command line                                                        */
/* ------------------------------------------------------------------ */

void uts_params_default(uts_params *p)
{
    p->type = UTS_GEO;
    p->b_0 = 4.0;
    p->root_seed = 0;
    p->shape_fn = UTS_LINEAR;
    p->gen_mx = 6;
    p->non_leaf_prob = 15.0 / 64.0;
    p->non_leaf_bf = 4;
    p->shift_depth = 0.5;
    p->compute_granularity = 1;
}

static void usage(FILE *out, const char *prog, const char *extra)
{
    fprintf(out,
            "usage: %s %s[-t type] [-b b_0] [-r seed] [-a shape] [-d depth] [-q prob] [-m kids]\n"
            "       [-f fraction] [-g granularity] [-c expected-nodes]\n"
            "  -t int   tree type: 0 BIN (binomial), 1 GEO (geometric), 2 HYBRID, 3 BALANCED\n"
            "  -b dbl   root branching factor b_0\n"
            "  -r int   root seed, 0 <= r < 2^31\n"
            "  -a int   GEO shape: 0 linear, 1 exp. decrease, 2 cyclic, 3 fixed\n"
            "  -d int   GEO, BALANCED: depth parameter gen_mx\n"
            "  -q dbl   BIN: probability of a non-leaf node\n"
            "  -m int   BIN: number of children of a non-leaf node\n"
            "  -f dbl   HYBRID: fraction of gen_mx where GEO turns into BIN\n"
            "  -g int   compute granularity: SHA-1 evaluations per child\n"
            "  -c int   expected node count; a different count fails the run\n"
            "Sample trees (checked automatically):\n",
            prog, extra);
    for (const uts_sample *s = uts_samples; s->name != NULL; s++)
        fprintf(out, "  %-5s %-40s %llu nodes\n", s->name, s->flags, (unsigned long long)s->nodes);
}

/* Prints the error and a pointer to -h, exits 2. */
static void bad_args(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

static void bad_args(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s -h' for help.\n", prog);
    va_end(ap);
    exit(2);
}

static long parse_long(const char *prog, const char *flag, const char *text, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || errno != 0 || v < lo || v > hi)
        bad_args(prog, "%s needs an integer in [%ld, %ld], got '%s'", flag, lo, hi, text);
    return v;
}

static double parse_double(const char *prog, const char *flag, const char *text, double lo,
                           double hi)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (*text == '\0' || *end != '\0' || errno != 0 || !(v >= lo && v <= hi))
        bad_args(prog, "%s needs a number in [%.10g, %.10g], got '%s'", flag, lo, hi, text);
    return v;
}

void uts_parse_args(int argc, char **argv, const char *prog, const char *extra_usage, uts_params *p,
                    uint64_t *expected_nodes)
{
    uts_params_default(p);
    *expected_nodes = 0;

    for (int i = 1; i < argc; i += 2) {
        const char *flag = argv[i];
        if (strcmp(flag, "-h") == 0 || strcmp(flag, "--help") == 0) {
            usage(stdout, prog, extra_usage);
            exit(0);
        }
        if (flag[0] != '-' || flag[1] == '\0' || flag[2] != '\0' ||
            strchr("tbradqmfgc", flag[1]) == NULL)
            bad_args(prog, "unknown argument '%s'", flag);
        if (i + 1 >= argc)
            bad_args(prog, "%s needs a value", flag);
        const char *v = argv[i + 1];

        switch (flag[1]) {
        case 't': p->type = (int)parse_long(prog, flag, v, UTS_BIN, UTS_BALANCED); break;
        case 'b': p->b_0 = parse_double(prog, flag, v, 0.0, (double)INT_MAX); break;
        case 'r': p->root_seed = (int)parse_long(prog, flag, v, 0, INT_MAX); break;
        case 'a': p->shape_fn = (int)parse_long(prog, flag, v, UTS_LINEAR, UTS_FIXED); break;
        case 'd': p->gen_mx = (int)parse_long(prog, flag, v, 0, INT_MAX); break;
        case 'q': p->non_leaf_prob = parse_double(prog, flag, v, 0.0, 1.0); break;
        case 'm': p->non_leaf_bf = (int)parse_long(prog, flag, v, 0, INT_MAX); break;
        case 'f': p->shift_depth = parse_double(prog, flag, v, 0.0, 1.0); break;
        case 'g': p->compute_granularity = (int)parse_long(prog, flag, v, 1, 1000000); break;
        case 'c': {
            char *end;
            errno = 0;
            unsigned long long c = strtoull(v, &end, 10);
            if (*v < '0' || *v > '9' || *end != '\0' || errno != 0 || c == 0)
                bad_args(prog, "%s needs a positive node count, got '%s'", flag, v);
            *expected_nodes = (uint64_t)c;
            break;
        }
        }
    }

    /* GEO divides by gen_mx (linear, cyclic) or by log(gen_mx) (exp.
     * decrease); with gen_mx 0 every child count would be NaN. */
    if ((p->type == UTS_GEO || p->type == UTS_HYBRID) && p->gen_mx < 1)
        bad_args(prog, "GEO and HYBRID trees need -d >= 1, got %d", p->gen_mx);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

void uts_print_params(const uts_params *p, FILE *out)
{
    static const char *const tree_names[] = {"Binomial", "Geometric", "Hybrid", "Balanced"};
    static const char *const shape_names[] = {"Linear decrease", "Exponential decrease", "Cyclic",
                                              "Fixed branching factor"};

    fprintf(out, "UTS - Unbalanced Tree Search\n");
    fprintf(out, "Tree type: %d (%s)\n", p->type, tree_names[p->type]);
    fprintf(out, "Tree shape parameters:\n");
    fprintf(out, "  root branching factor b_0 = %.1f, root seed = %d\n", p->b_0, p->root_seed);
    if (p->type == UTS_GEO || p->type == UTS_HYBRID)
        fprintf(out, "  GEO parameters: gen_mx = %d, shape function = %d (%s)\n", p->gen_mx,
                p->shape_fn, shape_names[p->shape_fn]);
    if (p->type == UTS_BIN || p->type == UTS_HYBRID) {
        double q = p->non_leaf_prob;
        int m = p->non_leaf_bf;
        fprintf(out, "  BIN parameters: q = %f, m = %d, E(n) = %f, E(s) = %.2f\n", q, m, q * m,
                1.0 / (1.0 - q * m));
    }
    if (p->type == UTS_HYBRID)
        fprintf(out, "  HYBRID: GEO from root to depth %d, then BIN\n",
                (int)ceil(p->shift_depth * p->gen_mx));
    if (p->type == UTS_BALANCED)
        fprintf(out, "  BALANCED parameters: gen_mx = %d\n", p->gen_mx);
    fprintf(out, "Random number generator: SHA-1 (%s, state size = %dB)\n", uts_sha1_impl(),
            UTS_STATE_SIZE);
    fprintf(out, "Compute granularity: %d\n", p->compute_granularity);

    const uts_sample *s = uts_find_sample(p);
    if (s != NULL)
        fprintf(out, "Sample tree: %s (published: %llu nodes, %llu leaves, depth %llu)\n", s->name,
                (unsigned long long)s->nodes, (unsigned long long)s->leaves,
                (unsigned long long)s->max_depth);
    fflush(out);
}

void uts_report(const uts_result *r, double seconds)
{
    printf("Nodes: %llu\n", (unsigned long long)r->nodes);
    printf("Leaves: %llu\n", (unsigned long long)r->leaves);
    printf("Max depth: %llu\n", (unsigned long long)r->max_depth);
    bench_print_time(seconds);
}

void uts_check(const uts_params *p, const uts_result *r, uint64_t expected_nodes)
{

    if (expected_nodes != 0)
        BENCH_CHECK(r->nodes == expected_nodes, "%llu nodes, expected %llu (-c)",
                    (unsigned long long)r->nodes, (unsigned long long)expected_nodes);

    const uts_sample *s = uts_find_sample(p);
    if (s != NULL) {
        BENCH_CHECK(r->nodes == s->nodes, "%llu nodes, sample tree %s has %llu",
                    (unsigned long long)r->nodes, s->name, (unsigned long long)s->nodes);
        BENCH_CHECK(r->leaves == s->leaves, "%llu leaves, sample tree %s has %llu",
                    (unsigned long long)r->leaves, s->name, (unsigned long long)s->leaves);
        BENCH_CHECK(r->max_depth == s->max_depth, "max depth %llu, sample tree %s has %llu",
                    (unsigned long long)r->max_depth, s->name, (unsigned long long)s->max_depth);
    }
}
