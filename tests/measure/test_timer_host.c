/* SPDX-License-Identifier: Apache-2.0 */
/* The host timer (timer_host.c): its flush evicts the case's own memory and
 * nothing else, and its samples carry the context-switch count.
 *
 * The eviction is seen the only way user space can see it, by timing: a
 * dependent walk (each load's address comes from the previous load, in a
 * random order, so neither prefetch nor overlap hides a miss) over the
 * lines of a 256 KiB buffer costs a cache hit per line when the buffer is
 * cached and a DRAM access per line (~10-50x more) when it was evicted. The
 * minimum of several samples is compared, with a wide margin (3x). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "measure/timer.h"

#define BYTES (256 * 1024)
#define LINES (BYTES / 64)

typedef struct walk {
    uint64_t *buf; /* one slot per 64-byte line: the index of the next line */
    uint64_t sink;
} walk;

static void walk_init(walk *w, uint64_t seed) {
    w->buf = aligned_alloc(256, BYTES);
    cr_assert_not_null(w->buf);
    uint32_t *order = malloc(LINES * sizeof *order);
    cr_assert_not_null(order);
    for (uint32_t i = 0; i < LINES; i++)
        order[i] = i;
    for (uint32_t i = LINES - 1; i > 0; i--) { /* Fisher-Yates, splitmix-driven */
        seed += 0x9E3779B97F4A7C15ull;
        uint64_t z = seed;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        uint32_t j = (uint32_t)((z ^ (z >> 31)) % (i + 1));
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint32_t i = 0; i < LINES; i++)
        w->buf[(size_t)order[i] * 8] = order[(i + 1) % LINES];
    free(order);
}

static int walk_run(void *ctx) {
    walk *w = ctx;
    uint64_t at = 0;
    for (int i = 0; i < LINES; i++)
        at = w->buf[at * 8];
    w->sink += at;
    return 0;
}

/* The fastest of 15 samples, ns. */
static double best(void *state, const br_sample_opts *o, walk *w) {
    double m = INFINITY;
    for (int i = 0; i < 15; i++) {
        br_sample s;
        memset(&s, 0, sizeof s);
        cr_assert_eq(br_timer_monotonic.sample(state, o, walk_run, w, &s), 0, "%s", br_error_get());
        cr_assert(s.ns > 0);
        m = s.ns < m ? s.ns : m;
    }
    return m;
}

Test(timer_host, the_flush_evicts_the_cases_memory_and_only_it) {
    void *state;
    cr_assert_eq(br_timer_monotonic.open(&state, NULL), 0);
    walk a, b;
    walk_init(&a, 1);
    walk_init(&b, 2);
    br_mem_range mine = {a.buf, BYTES};
    br_sample_opts warm = {.flush = BR_FLUSH_NONE, .reps = 1};
    br_sample_opts cold = {.flush = BR_FLUSH_READ, .reps = 1, .ranges = &mine, .n_ranges = 1};
    double a_warm = best(state, &warm, &a);
    double a_cold = best(state, &cold, &a);
    cr_expect_gt(a_cold, 3 * a_warm,
                 "the case's buffer must come from memory after the flush: %.0f ns flushed, "
                 "%.0f ns cached",
                 a_cold, a_warm);
    /* b is not the case's: the flush of a leaves it cached. */
    double b_warm = best(state, &warm, &b);
    double b_after = best(state, &cold, &b);
    cr_expect_lt(b_after, 3 * b_warm,
                 "memory that is not the case's must stay cached: %.0f ns after the flush, "
                 "%.0f ns cached",
                 b_after, b_warm);
    /* A case that allocated nothing has nothing to flush: a no-op. */
    br_sample_opts none = {.flush = BR_FLUSH_READ, .reps = 1};
    double b_none = best(state, &none, &b);
    cr_expect_lt(b_none, 3 * b_warm, "%.0f ns vs %.0f ns cached", b_none, b_warm);
    free(a.buf);
    free(b.buf);
    br_timer_monotonic.close(state);
}

Test(timer_host, samples_carry_the_context_switches) {
    void *state;
    cr_assert_eq(br_timer_monotonic.open(&state, NULL), 0);
    walk a;
    walk_init(&a, 3);
    br_sample_opts o = {.flush = BR_FLUSH_NONE, .reps = 4};
    br_sample s;
    memset(&s, 0, sizeof s);
    cr_assert_eq(br_timer_monotonic.sample(state, &o, walk_run, &a, &s), 0);
    cr_expect_geq(s.ctx_switches, 0, "getrusage(RUSAGE_THREAD) is read on Linux");
    cr_expect(isnan(s.cpu_mhz) || s.cpu_mhz > 0);
    free(a.buf);
    br_timer_monotonic.close(state);
}
