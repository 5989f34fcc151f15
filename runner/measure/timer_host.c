/* SPDX-License-Identifier: Apache-2.0 */
/* The host timer: CLOCK_MONOTONIC around one synchronous execution (cold) or
 * a batch of back-to-back executions, with the thread's involuntary context
 * switches and the CPU's frequency read around it (cpufreq.h).
 *
 * The flush (cold samples) evicts what the case touched: the memory it
 * allocated through api->alloc (br_sample_opts.ranges), line by line, from
 * every cache level:
 *   x86-64   CLFLUSHOPT where CPUID says so (leaf 7, EBX bit 23), else
 *            CLFLUSH, then MFENCE. Both write a dirty line back and
 *            invalidate it in every level of the coherence domain (Intel
 *            SDM vol. 2A, CLFLUSH / CLFLUSHOPT; AMD APM vol. 3); CLFLUSHOPT
 *            is not ordered with other flushes, so the lines are flushed in
 *            parallel, and the fence orders them all before the timed region.
 *   AArch64  DC CIVAC (clean and invalidate to the point of coherence, by
 *            address; Linux lets user space issue it) then DSB ISH.
 *   others   no instruction for it: read a buffer twice the last-level cache
 *            (64 MiB when its size is unknown), which leaves the caches
 *            holding clean lines of unrelated data.
 * Why evict rather than read a buffer of unrelated data: the eviction is
 * exact (the case's lines, and only they, leave every level, whatever the
 * cache's replacement policy), no write-back is left to land in the timed
 * region, and it costs in proportion to the case's footprint, i.e. to the
 * work its kernel does anyway, instead of a fixed pass over twice a whole
 * socket's cache (1 GiB, ~67 ms, where sysconf reports a 508 MiB L3) before
 * every sample. Memory a module allocates itself (malloc) is not known to
 * benchrun and is not flushed; a case that allocated nothing through
 * api->alloc has nothing to flush. */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include "base/error.h"
#include "base/util.h"
#include "platform/cpufreq.h"
#include "timer.h"

typedef struct host_timer {
    unsigned char *flush_buf; /* the read flush's buffer (no eviction instruction) */
    size_t flush_bytes;
    br_cpu_probe probe; /* context switches and frequency of the CPU that samples */
} host_timer;

static int host_open(void **out_state, const br_timer_cfg *cfg) {
    (void)cfg;
    host_timer *t = calloc(1, sizeof *t);
    if (!t)
        return br_error_nomem();
    *out_state = t;
    return 0;
}

static void host_close(void *state) {
    host_timer *t = state;
    if (!t)
        return;
    br_cpu_probe_close(&t->probe);
    free(t->flush_buf);
    free(t);
}

static void *host_stream(void *state) {
    (void)state;
    return NULL;
}

#if defined(__x86_64__)
/* 1 when the CPU has CLFLUSHOPT (CPUID leaf 7, sub-leaf 0, EBX bit 23). */
static int have_clflushopt(void) {
    static int known = -1;
    if (known < 0) {
        unsigned a, b, c, d;
        known = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b >> 23 & 1u);
    }
    return known;
}

__attribute__((target("clflushopt"))) static void evict_opt(const char *p, size_t bytes) {
    for (size_t i = 0; i < bytes; i += 64)
        __builtin_ia32_clflushopt(p + i);
}

static void evict_lines(const char *p, size_t bytes) {
    /* Allocations are 256-byte aligned (case.c); 64 bytes is the smallest
     * line of any x86-64 CPU. */
    if (have_clflushopt()) {
        evict_opt(p, bytes);
    } else {
        for (size_t i = 0; i < bytes; i += 64)
            __builtin_ia32_clflush(p + i);
    }
}
#define HAVE_EVICT 1
static void evict_fence(void) {
    __builtin_ia32_mfence();
}
#elif defined(__aarch64__)
static void evict_lines(const char *p, size_t bytes) {
    uint64_t ctr;
    __asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
    size_t line = (size_t)4 << ((ctr >> 16) & 0xf); /* DminLine: log2 of words */
    for (size_t i = 0; i < bytes; i += line)
        __asm__ volatile("dc civac, %0" ::"r"(p + i) : "memory");
}
#define HAVE_EVICT 1
static void evict_fence(void) {
    __asm__ volatile("dsb ish" ::: "memory");
}
#else
#define HAVE_EVICT 0
#endif

#if !HAVE_EVICT
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

/* Where the read flush's result goes, so the compiler keeps its loads. */
static volatile uint64_t flush_sink;

/* The read flush (no eviction instruction): every line of a buffer twice
 * the last-level cache, made on first use. */
static int read_flush(host_timer *t) {
    if (!t->flush_buf) {
        size_t llc = llc_bytes();
        t->flush_bytes = llc ? 2 * llc : (size_t)64 << 20;
        t->flush_buf = malloc(t->flush_bytes);
        if (!t->flush_buf)
            return br_error_set("cannot allocate a %zu-byte cache flush buffer", t->flush_bytes);
        memset(t->flush_buf, 1, t->flush_bytes);
    }
    const uint64_t *p = (const uint64_t *)(const void *)t->flush_buf;
    uint64_t acc = 0;
    for (size_t i = 0; i < t->flush_bytes / sizeof *p; i += 8)
        acc ^= p[i];
    flush_sink = acc;
    return 0;
}
#endif

/* The flush before a cold sample (see the top of the file). */
static int host_flush(host_timer *t, const br_sample_opts *o) {
    if (o->n_ranges == 0)
        return 0;
#if HAVE_EVICT
    (void)t;
    for (size_t r = 0; r < o->n_ranges; r++)
        evict_lines(o->ranges[r].p, o->ranges[r].bytes);
    evict_fence();
    return 0;
#else
    return read_flush(t);
#endif
}

/* One sample: the flush (any kind evicts the case's lines: writing would
 * only leave dirty lines), then reps executions between two clock
 * readings, themselves between two readings of the context switches and
 * the CPU's frequency. */
static int host_sample(void *state, const br_sample_opts *o, br_exec_fn run, void *ctx,
                       br_sample *out) {
    host_timer *t = state;
    size_t reps = o->reps ? o->reps : 1;
    out->ns = NAN;
    out->sm_mhz = NAN;
    out->cpu_mhz = NAN;
    out->ctx_switches = -1;
    out->offcpu = NAN;
    out->graph = 0;
    if (o->flush != BR_FLUSH_NONE && host_flush(t, o) != 0)
        return -1;
    br_cpu_reading r0;
    br_cpu_probe_open(&t->probe, sched_getcpu());
    br_cpu_probe_begin(&t->probe, &r0);
    double t0 = br_now_ns();
    for (size_t i = 0; i < reps; i++)
        if (run(ctx) != 0)
            return -1;
    double t1 = br_now_ns();
    br_cpu_probe_end(&t->probe, &r0, &out->ctx_switches, &out->offcpu, &out->cpu_mhz);
    out->ns = t1 - t0;
    return 0;
}

/* CLOCK_MONOTONIC's resolution (br_now_ns reads it), ns; 0 when unknown. */
static double host_tick(void *state) {
    (void)state;
    struct timespec res;
    if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
        return 0;
    return (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
}

const br_timer_ops br_timer_monotonic = {
    .name = "monotonic",
    .open = host_open,
    .close = host_close,
    .stream = host_stream,
    .sample = host_sample,
    .tick = host_tick,
    .end_case = NULL,
};
