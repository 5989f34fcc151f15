/* SPDX-License-Identifier: Apache-2.0 */
/* Which device runs which case (devsched.h). */
#include "devsched.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

enum { PENDING = 0, RUNNING = 1, FINAL = 2 };

typedef struct ranked {
    double cost;
    size_t index;
} ranked;

/* Largest cost first; ties: the lower index. */
static int by_cost_desc(const void *a, const void *b) {
    const ranked *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The case indices of costs[0..n) longest first into order (n values). */
static int rank_cases(size_t *order, const double *costs, size_t n, unsigned n_slots) {
    if (n_slots < 1 || n_slots > BR_DEVSCHED_MAX_SLOTS)
        return br_error_set("%u devices: a run uses 1 to %d", n_slots, BR_DEVSCHED_MAX_SLOTS);
    ranked *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return br_error_nomem();
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(costs[i]) || costs[i] < 0) {
            free(v);
            return br_error_set("case %zu: a cost must be finite and >= 0, found %g", i, costs[i]);
        }
        v[i] = (ranked){costs[i], i};
    }
    qsort(v, n, sizeof *v, by_cost_desc);
    for (size_t i = 0; i < n; i++)
        order[i] = v[i].index;
    free(v);
    return 0;
}

int br_devsched_lpt(unsigned *slot, double *finish, const double *costs, size_t n,
                    unsigned n_slots) {
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return br_error_nomem();
    if (rank_cases(order, costs, n, n_slots) != 0) {
        free(order);
        return -1;
    }
    double load[BR_DEVSCHED_MAX_SLOTS] = {0};
    /* The next case goes to the device that is free first (the least
     * loaded; ties: the lowest), as br_devsched_next hands them out. */
    for (size_t k = 0; k < n; k++) {
        unsigned best = 0;
        for (unsigned d = 1; d < n_slots; d++)
            if (load[d] < load[best])
                best = d;
        slot[order[k]] = best;
        load[best] += costs[order[k]];
    }
    if (finish)
        memcpy(finish, load, n_slots * sizeof *finish);
    free(order);
    return 0;
}

int br_devsched_init(br_devsched *s, const double *costs, size_t n, unsigned n_slots) {
    memset(s, 0, sizeof *s);
    size_t m = n ? n : 1;
    s->n = n;
    s->n_slots = n_slots;
    s->order = malloc(m * sizeof *s->order);
    s->pos = malloc(m * sizeof *s->pos);
    s->state = calloc(m, 1);
    s->crashed_in = malloc(m * sizeof *s->crashed_in);
    if (!s->order || !s->pos || !s->state || !s->crashed_in)
        return br_error_nomem();
    if (rank_cases(s->order, costs, n, n_slots) != 0)
        return -1;
    for (size_t k = 0; k < n; k++) {
        s->pos[s->order[k]] = k;
        s->crashed_in[k] = -1;
    }
    return 0;
}

void br_devsched_dispose(br_devsched *s) {
    free(s->order);
    free(s->pos);
    free(s->state);
    free(s->crashed_in);
    memset(s, 0, sizeof *s);
}

/* 1 when a live slot other than `slot` exists. */
static int other_alive(const br_devsched *s, unsigned slot) {
    for (unsigned d = 0; d < s->n_slots; d++)
        if (d != slot && !s->dead[d])
            return 1;
    return 0;
}

size_t br_devsched_next(br_devsched *s, unsigned slot) {
    if (slot >= s->n_slots || s->dead[slot])
        return (size_t)-1;
    while (s->head < s->n && s->state[s->order[s->head]] != PENDING)
        s->head++;
    int others = other_alive(s, slot);
    for (size_t k = s->head; k < s->n; k++) {
        size_t i = s->order[k];
        if (s->state[i] != PENDING || (others && s->crashed_in[i] == (int)slot))
            continue;
        s->state[i] = RUNNING;
        return i;
    }
    return (size_t)-1;
}

void br_devsched_retire(br_devsched *s, unsigned slot) {
    if (slot < s->n_slots)
        s->dead[slot] = 1;
}

int br_devsched_retired(const br_devsched *s, unsigned slot) {
    return slot < s->n_slots && s->dead[slot];
}

br_devsched_verdict br_devsched_report(br_devsched *s, size_t i, unsigned slot,
                                       br_devsched_outcome outcome) {
    if (i >= s->n || slot >= s->n_slots)
        return BR_DEVSCHED_RECORD;
    /* A case crashes at most once before it is final: its second run is
     * on another device. */
    if (outcome == BR_DEVSCHED_CRASHED && s->crashed_in[i] < 0 && other_alive(s, slot)) {
        s->crashed_in[i] = (int)slot;
        s->state[i] = PENDING;
        if (s->pos[i] < s->head)
            s->head = s->pos[i];
        return BR_DEVSCHED_RETRY;
    }
    /* Measured elsewhere after a crash: the device it crashed in is at fault. */
    if (outcome == BR_DEVSCHED_DONE && s->crashed_in[i] >= 0 && s->crashed_in[i] != (int)slot)
        s->dead[s->crashed_in[i]] = 1;
    s->state[i] = FINAL;
    return BR_DEVSCHED_RECORD;
}

size_t br_devsched_left(const br_devsched *s, size_t *out) {
    size_t m = 0;
    for (size_t k = 0; k < s->n; k++)
        if (s->state[s->order[k]] == PENDING)
            out[m++] = s->order[k];
    return m;
}
