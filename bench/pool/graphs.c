// SPDX-License-Identifier: Apache-2.0
/* Seeded graph generators (our own): 3-d grid, random local graph, R-MAT.
 * All graphs are symmetric, stored in compressed sparse rows. */
#include "cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static inline double uniform(uint64_t *s)
{
    return (double)(splitmix(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* Builds a symmetric CSR graph from an undirected edge list (u[i], v[i]);
 * self loops are dropped. */
static pc_graph *from_edges(uint32_t n, const uint32_t *u, const uint32_t *v, uint64_t e)
{
    pc_graph *g = pc_xmalloc(sizeof *g);
    g->n = n;
    g->off = calloc((size_t)n + 1, sizeof *g->off);
    if (g->off == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (uint64_t i = 0; i < e; i++) {
        if (u[i] == v[i])
            continue;
        g->off[u[i] + 1]++;
        g->off[v[i] + 1]++;
    }
    for (uint32_t i = 0; i < n; i++)
        g->off[i + 1] += g->off[i];
    g->m = g->off[n];
    g->adj = pc_xmalloc(g->m * sizeof *g->adj);
    uint64_t *fill = pc_xmalloc((size_t)n * sizeof *fill);
    memcpy(fill, g->off, (size_t)n * sizeof *fill);
    for (uint64_t i = 0; i < e; i++) {
        if (u[i] == v[i])
            continue;
        g->adj[fill[u[i]]++] = v[i];
        g->adj[fill[v[i]]++] = u[i];
    }
    free(fill);
    return g;
}

pc_graph *pc_graph_grid3d(uint32_t k)
{
    uint32_t n = k * k * k;
    uint64_t e = 3ull * n, i = 0;
    uint32_t *u = pc_xmalloc(e * sizeof *u), *v = pc_xmalloc(e * sizeof *v);
    for (uint32_t z = 0; z < k; z++)
        for (uint32_t y = 0; y < k; y++)
            for (uint32_t x = 0; x < k; x++) {
                uint32_t id = x + k * (y + k * z);
                if (x + 1 < k)
                    u[i] = id, v[i++] = id + 1;
                if (y + 1 < k)
                    u[i] = id, v[i++] = id + k;
                if (z + 1 < k)
                    u[i] = id, v[i++] = id + k * k;
            }
    pc_graph *g = from_edges(n, u, v, i);
    free(u);
    free(v);
    return g;
}

pc_graph *pc_graph_rlg(uint32_t n, unsigned d, uint64_t seed)
{
    uint64_t e = (uint64_t)n * d, s = seed ^ 0x726c67;
    uint32_t *u = pc_xmalloc(e * sizeof *u), *v = pc_xmalloc(e * sizeof *v);
    double span = log(n > 4 ? n / 2.0 : 2.0);
    for (uint32_t i = 0; i < n; i++)
        for (unsigned j = 0; j < d; j++) {
            uint64_t dist = (uint64_t)exp(uniform(&s) * span);
            if (dist < 1)
                dist = 1;
            uint64_t w = (splitmix(&s) & 1) ? i + dist : i + n - dist % n;
            u[(uint64_t)i * d + j] = i;
            v[(uint64_t)i * d + j] = (uint32_t)(w % n);
        }
    pc_graph *g = from_edges(n, u, v, e);
    free(u);
    free(v);
    return g;
}

pc_graph *pc_graph_rmat(unsigned scale, unsigned ef, uint64_t seed)
{
    uint32_t n = 1u << scale;
    uint64_t e = (uint64_t)n * ef, s = seed ^ 0x726d6174;
    uint32_t *u = pc_xmalloc(e * sizeof *u), *v = pc_xmalloc(e * sizeof *v);
    for (uint64_t i = 0; i < e; i++) {
        uint32_t a = 0, b = 0;
        for (unsigned bit = 0; bit < scale; bit++) {
            double r = uniform(&s);
            /* Quadrants a .57 (0,0), b .19 (0,1), c .19 (1,0), d .05 (1,1). */
            if (r >= 0.57 && r < 0.76)
                b |= 1u << bit;
            else if (r >= 0.76 && r < 0.95)
                a |= 1u << bit;
            else if (r >= 0.95)
                a |= 1u << bit, b |= 1u << bit;
        }
        u[i] = a;
        v[i] = b;
    }
    pc_graph *g = from_edges(n, u, v, e);
    free(u);
    free(v);
    return g;
}

void pc_graph_free(pc_graph *g)
{
    if (g == NULL)
        return;
    free(g->off);
    free(g->adj);
    free(g);
}

uint64_t pc_graph_reach(const pc_graph *g, uint32_t src, uint8_t *reach)
{
    memset(reach, 0, g->n);
    uint32_t *queue = pc_xmalloc((size_t)g->n * sizeof *queue);
    uint64_t head = 0, tail = 0;
    reach[src] = 1;
    queue[tail++] = src;
    while (head < tail) {
        uint32_t x = queue[head++];
        for (uint64_t i = g->off[x]; i < g->off[x + 1]; i++) {
            uint32_t y = g->adj[i];
            if (!reach[y]) {
                reach[y] = 1;
                queue[tail++] = y;
            }
        }
    }
    free(queue);
    return tail;
}
