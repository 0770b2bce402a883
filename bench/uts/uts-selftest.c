// SPDX-License-Identifier: Apache-2.0
/* uts-selftest: checks the SHA-1 the UTS generator uses and the generator
 * itself.  Exits 0 if all is well, 1 with a message per failure otherwise.
 *
 *  1. uts_sha1 against the FIPS 180 test vectors, and against OpenSSL's
 *     one-shot SHA1() for every length it supports (covers our padding,
 *     including the one/two-block boundary).
 *  2. the RNG's message layout, recomputed independently through SHA1().
 *  3. the five small published sample trees (T1..T5, ~4M nodes each, which
 *     together use every GEO shape but exp. decrease, BIN and HYBRID):
 *     node, leaf and depth counts.
 *  4. the argument parser accepts every sample tree's flags.
 */
#define _POSIX_C_SOURCE 200809L

#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "uts_tree.h"

static int failures;

static void fail(const char *what)
{
    fprintf(stderr, "FAILED: %s\n", what);
    failures++;
}

static void to_hex(const unsigned char *d, char hex[2 * UTS_STATE_SIZE + 1])
{
    for (int i = 0; i < UTS_STATE_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static void check_vector(const char *msg, const char *want_hex)
{
    unsigned char d[UTS_STATE_SIZE];
    char hex[2 * UTS_STATE_SIZE + 1];
    uts_sha1(msg, strlen(msg), d);
    to_hex(d, hex);
    if (strcmp(hex, want_hex) != 0) {
        char what[256];
        snprintf(what, sizeof what, "SHA-1(\"%s\") = %s, want %s", msg, hex, want_hex);
        fail(what);
    }
}

static void check_sha1(void)
{
    /* FIPS 180-2, appendix A.1 and A.2 (the latter is 56 bytes: two blocks). */
    check_vector("abc", "a9993e364706816aba3e25717850c26c9cd0d89d");
    check_vector("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                 "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    check_vector("", "da39a3ee5e6b4b0d3255bfef95601890afd80709");

    unsigned char msg[UTS_SHA1_MAX_LEN];
    for (size_t i = 0; i < sizeof msg; i++)
        msg[i] = (unsigned char)(i * 37 + 11);
    for (size_t len = 0; len <= UTS_SHA1_MAX_LEN; len++) {
        unsigned char ours[UTS_STATE_SIZE], ref[SHA_DIGEST_LENGTH];
        uts_sha1(msg, len, ours);
        SHA1(msg, len, ref);
        if (memcmp(ours, ref, sizeof ours) != 0) {
            char what[96];
            snprintf(what, sizeof what, "uts_sha1 differs from SHA1() at length %zu", len);
            fail(what);
        }
    }
}

static void check_rng(void)
{
    /* rng_init(seed): SHA-1 of 16 zero bytes and the big-endian seed. */
    unsigned char msg[24] = {0}, want[SHA_DIGEST_LENGTH], got[UTS_STATE_SIZE];
    msg[16] = 0x12, msg[17] = 0x34, msg[18] = 0x56, msg[19] = 0x78;
    SHA1(msg, 20, want);
    uts_rng_init(got, 0x12345678);
    if (memcmp(got, want, sizeof got) != 0)
        fail("uts_rng_init layout");

    /* rng_spawn(parent, i): SHA-1 of the parent state and the big-endian i. */
    memcpy(msg, got, 20);
    msg[20] = 0x01, msg[21] = 0x02, msg[22] = 0x03, msg[23] = 0x04;
    SHA1(msg, 24, want);
    unsigned char child[UTS_STATE_SIZE];
    uts_rng_spawn(got, 0x01020304, child);
    if (memcmp(child, want, sizeof child) != 0)
        fail("uts_rng_spawn layout");

    /* rng_rand: bytes 16..19 big-endian, sign bit cleared. */
    unsigned char s[UTS_STATE_SIZE] = {0};
    s[16] = 0xff, s[17] = 0x01, s[18] = 0x02, s[19] = 0x03;
    if (uts_rng_rand(s) != 0x7f010203)
        fail("uts_rng_rand extraction");
}

static uts_result search(const uts_params *p, const uts_node *node)
{
    int n = uts_num_children(p, node);
    uts_result r = {1, n == 0, (uint64_t)node->height};
    for (int i = 0; i < n; i++) {
        uts_node child;
        uts_child(p, node, i, &child);
        uts_result_add(&r, search(p, &child));
    }
    return r;
}

/* Parses a sample's flags the way the benchmarks do. */
static void parse_sample(const uts_sample *s, uts_params *p)
{
    char buf[128], prog[] = "uts-selftest", *save = NULL;
    char *argv[32] = {prog};
    int argc = 1;
    uint64_t expected;
    snprintf(buf, sizeof buf, "%s", s->flags);
    for (char *tok = strtok_r(buf, " ", &save); tok != NULL && argc < 31;
         tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    uts_parse_args(argc, argv, prog, "", p, &expected);
}

static void check_trees(void)
{
    for (const uts_sample *s = uts_samples; s->name != NULL; s++) {
        uts_params p;
        parse_sample(s, &p);
        if (uts_find_sample(&p) != s) {
            char what[96];
            snprintf(what, sizeof what, "sample %s not recognised from its own flags", s->name);
            fail(what);
        }
        if (s->nodes > 5000000)
            continue; /* the large trees take seconds to minutes: run uts-seq */

        uts_node root;
        uts_root(&p, &root);
        double t0 = bench_now();
        uts_result r = search(&p, &root);
        double t = bench_now() - t0;
        printf("%-4s %-46s nodes %llu leaves %llu depth %llu (%.2f s)\n", s->name, s->flags,
               (unsigned long long)r.nodes, (unsigned long long)r.leaves,
               (unsigned long long)r.max_depth, t);
        if (r.nodes != s->nodes || r.leaves != s->leaves || r.max_depth != s->max_depth) {
            char what[256];
            snprintf(what, sizeof what,
                     "sample tree %s: got %llu/%llu/%llu nodes/leaves/depth, published "
                     "%llu/%llu/%llu",
                     s->name, (unsigned long long)r.nodes, (unsigned long long)r.leaves,
                     (unsigned long long)r.max_depth, (unsigned long long)s->nodes,
                     (unsigned long long)s->leaves, (unsigned long long)s->max_depth);
            fail(what);
        }
    }
}

int main(void)
{
    _Static_assert(sizeof(uts_node) <= 48, "uts_node travels by value in a 64-byte task");
    _Static_assert(sizeof(uts_result) <= 56, "uts_result is returned in a 64-byte task");

    check_sha1();
    check_rng();
    check_trees();
    if (failures != 0) {
        fprintf(stderr, "uts-selftest: %d check(s) failed\n", failures);
        return 1;
    }
    printf("uts-selftest: all checks passed (SHA-1 via %s)\n", uts_sha1_impl());
    return 0;
}
