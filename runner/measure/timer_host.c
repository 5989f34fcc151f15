/* The host timer: CLOCK_MONOTONIC around one synchronous execution (cold) or
 * a batch of back-to-back executions. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "timer.h"
#include "base/util.h"

typedef struct host_timer {
    unsigned char *flush_buf;
    size_t flush_bytes;
} host_timer;

/* Size of the last-level cache in bytes, or 0 when unknown. */
static size_t llc_bytes(void) {
    long sizes[] = {
#ifdef _SC_LEVEL4_CACHE_SIZE
        sysconf(_SC_LEVEL4_CACHE_SIZE),
#endif
#ifdef _SC_LEVEL3_CACHE_SIZE
        sysconf(_SC_LEVEL3_CACHE_SIZE),
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
        sysconf(_SC_LEVEL2_CACHE_SIZE),
#endif
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] > 0)
            return (size_t)sizes[i];
    return 0;
}

static int host_open(void **out_state, const br_timer_cfg *cfg) {
    (void)cfg;
    host_timer *t = calloc(1, sizeof *t);
    if (!t)
        return br_error_nomem();
    *out_state = t;
    return 0;
}

/* The read flush's buffer, made on first use: twice the last-level cache,
 * 64 MiB when the size cannot be read. */
static int read_buffer(host_timer *t) {
    if (t->flush_buf)
        return 0;
    size_t llc = llc_bytes();
    t->flush_bytes = llc ? 2 * llc : (size_t)64 << 20;
    t->flush_buf = malloc(t->flush_bytes);
    if (!t->flush_buf)
        return br_error_set("cannot allocate a %zu-byte cache flush buffer", t->flush_bytes);
    memset(t->flush_buf, 1, t->flush_bytes);
    return 0;
}

static void host_close(void *state) {
    host_timer *t = state;
    if (!t)
        return;
    free(t->flush_buf);
    free(t);
}

static void *host_stream(void *state) {
    (void)state;
    return NULL;
}

/* Where the flush's result goes, so the compiler keeps its loads. */
static volatile uint64_t flush_sink;

static int host_flush(host_timer *t, const br_sample_opts *o) {
    (void)o;
#if defined(__x86_64__)
    size_t total = 0;
    for (size_t r = 0; r < o->n_ranges; r++)
        total += o->ranges[r].bytes;
    /* CLFLUSH costs tens of ns per line, reading the buffer a few ns per
     * line of twice the LLC: evict line by line only when that is cheaper
     * (about a tenth of the LLC). */
    size_t llc = llc_bytes();
    if (o->n_ranges && total <= (llc ? llc : (size_t)32 << 20) / 10) {
        /* CLFLUSH writes a dirty line back and invalidates it in every level
         * of the hierarchy (Intel SDM vol. 2A, CLFLUSH); MFENCE orders the
         * flushes before the timed region. */
        for (size_t r = 0; r < o->n_ranges; r++) {
            const char *p = o->ranges[r].p;
            for (size_t i = 0; i < o->ranges[r].bytes; i += 64)
                __builtin_ia32_clflush(p + i);
        }
        __builtin_ia32_mfence();
        return 0;
    }
#endif
    if (read_buffer(t) != 0)
        return -1;
    /* Read every cache line; the volatile sink keeps the loads. */
    const uint64_t *p = (const uint64_t *)(const void *)t->flush_buf;
    uint64_t acc = 0;
    for (size_t i = 0; i < t->flush_bytes / sizeof *p; i += 8)
        acc ^= p[i];
    flush_sink = acc;
    return 0;
}

/* One sample: the flush (any kind evicts the case's lines, or reads the
 * buffer: writing it would only leave dirty lines), then reps executions
 * between two clock readings. */
static int host_sample(void *state, const br_sample_opts *o, br_exec_fn run, void *ctx,
                       br_sample *out) {
    host_timer *t = state;
    size_t reps = o->reps ? o->reps : 1;
    out->ns = NAN;
    out->sm_mhz = NAN;
    out->graph = 0;
    if (o->flush != BR_FLUSH_NONE && host_flush(t, o) != 0)
        return -1;
    double t0 = br_now_ns();
    for (size_t i = 0; i < reps; i++)
        if (run(ctx) != 0)
            return -1;
    double t1 = br_now_ns();
    out->ns = t1 - t0;
    return 0;
}

const br_timer_ops br_timer_monotonic = {
    .name = "monotonic",
    .open = host_open,
    .close = host_close,
    .stream = host_stream,
    .sample = host_sample,
    .end_case = NULL,
};
