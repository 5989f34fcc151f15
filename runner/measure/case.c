/* SPDX-License-Identifier: Apache-2.0 */
/* One case's life (case.h): the handle a module sees, then
 * setup, one checked execution, the timed measurements, verify, teardown. */
#include "case.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "platform/energy.h"
#include "measure.h"
#include "model/stats.h"
#include "platform/device.h"
#include "nvtx.h"
#include "stage.h"

/* ---- the case handle a module sees ------------------------------------------------ */

typedef struct case_alloc {
    void *p;
    size_t bytes;
    br_mem_kind kind;
} case_alloc;

typedef struct case_impl {
    br_case c;
    const br_kernel *k;
    const br_case_spec *spec;
    const br_case_ctx *ctx;
    void *stream;
    uint64_t seed;
    case_alloc *allocs;
    size_t n_allocs, cap_allocs;
    char message[1024]; /* the first failure a module reported */
} case_impl;

static int api_fail(br_case *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int api_fail(br_case *c, const char *fmt, ...) {
    case_impl *ci = c->runner;
    if (!ci->message[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ci->message, sizeof ci->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int api_param(br_case *c, const char *name, int64_t *out) {
    case_impl *ci = c->runner;
    for (size_t i = 0; name && i < ci->spec->n_params; i++) {
        if (strcmp(ci->spec->param_names[i], name) == 0) {
            *out = ci->spec->values[i];
            return 0;
        }
    }
    return api_fail(c, "the kernel asked for parameter '%s', which the suite does not define",
                    name ? name : "(null)");
}

static void *api_stream(br_case *c) {
    return ((case_impl *)c->runner)->stream;
}

static void *api_alloc(br_case *c, size_t bytes, br_mem_kind kind) {
    case_impl *ci = c->runner;
    if (ci->n_allocs == ci->cap_allocs) {
        size_t cap = ci->cap_allocs ? ci->cap_allocs * 2 : 8;
        case_alloc *na = realloc(ci->allocs, cap * sizeof *na);
        if (!na) {
            api_fail(c, "out of memory");
            return NULL;
        }
        ci->allocs = na;
        ci->cap_allocs = cap;
    }
    size_t size = bytes ? bytes : 1;
    if (size > SIZE_MAX - 255) {
        api_fail(c, "cannot allocate %zu bytes", bytes);
        return NULL;
    }
    size = (size + 255) & ~(size_t)255;
    void *p = NULL;
    switch (kind) {
    case BR_MEM_HOST: {
        /* More than the machine has would be granted by overcommit and then
         * killed when touched: refuse it with a reason instead. */
        if ((double)size > br_host_memory()) {
            char a[32], b[32];
            br_format_bytes(a, sizeof a, (double)bytes);
            br_format_bytes(b, sizeof b, br_host_memory());
            api_fail(c, "the kernel asked for %s of host memory; the host has %s", a, b);
            break;
        }
        p = aligned_alloc(256, size);
        if (!p)
            api_fail(c, "cannot allocate %zu bytes of host memory", bytes);
        break;
    }
    case BR_MEM_DEVICE:
    case BR_MEM_PINNED:
        if (ci->ctx->ops->alloc) {
            const char *why = "";
            if (ci->ctx->ops->alloc(ci->ctx->state, &p, size, kind == BR_MEM_PINNED, &why) != 0) {
                p = NULL;
                api_fail(c, "cannot allocate %zu bytes of %s memory: %s", bytes,
                         kind == BR_MEM_DEVICE ? "device" : "pinned host", why);
            }
            break;
        }
        api_fail(c, "a host module asked for %s memory",
                 kind == BR_MEM_DEVICE ? "device" : "pinned");
        break;
    default:
        api_fail(c, "unknown memory kind %d", (int)kind);
    }
    if (p)
        ci->allocs[ci->n_allocs++] = (case_alloc){p, size, kind};
    return p;
}

static uint64_t api_seed(br_case *c) {
    return ((case_impl *)c->runner)->seed;
}

static const void *api_arg(br_case *c) {
    return ((case_impl *)c->runner)->k->arg;
}

static const br_case_api case_api = {
    .abi_version = BR_KERNEL_ABI_VERSION,
    .param = api_param,
    .stream = api_stream,
    .alloc = api_alloc,
    .fail = api_fail,
    .seed = api_seed,
    .arg = api_arg,
};

static void free_allocs(case_impl *ci) {
    for (size_t i = 0; i < ci->n_allocs; i++) {
        case_alloc *a = &ci->allocs[i];
        if (a->kind == BR_MEM_HOST)
            free(a->p);
        else
            ci->ctx->ops->free(ci->ctx->state, a->p, a->kind == BR_MEM_PINNED);
    }
    free(ci->allocs);
    ci->allocs = NULL;
    ci->n_allocs = ci->cap_allocs = 0;
}

static int exec_run(void *ctx) {
    case_impl *ci = ctx;
    int rc = ci->k->run(&ci->c);
    if (rc != 0 && !ci->message[0])
        api_fail(&ci->c, "run returned %d", rc);
    return rc != 0 ? -1 : 0;
}

uint64_t br_case_seed(const char *suite_name, const int64_t *values, size_t n_values) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *p = suite_name; p && *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
    for (size_t i = 0; i < n_values; i++)
        for (int b = 0; b < 8; b++)
            h = (h ^ (((uint64_t)values[i] >> (8 * b)) & 0xff)) * 0x100000001b3ull;
    return h;
}

/* ---- one case ---------------------------------------------------------------------- */

static void set_failed(br_case_result *r, br_stage stage, const case_impl *ci) {
    r->status = BR_STATUS_FAILED;
    r->stage = stage;
    const char *msg = ci && ci->message[0] ? ci->message : br_error_get();
    r->message = br_strdup(msg && msg[0] ? msg : "failed without a message");
}

/* Stats of a measurement; a measurement whose every sample was throttled
 * gets none, and an error saying so. */
static int finish_timing(br_timing *t, const char *what, double limit_mhz) {
    if (t->n_samples == 0 && t->n_incomplete > 0)
        return br_error_set("no %s sample was kept: CUPTI lost records in %zu and %zu were "
                            "throttled; use --clock events",
                            what, t->n_incomplete, t->n_throttled);
    if (t->n_samples == 0)
        return br_error_set("every %s sample (%zu) was taken below the throttle threshold: SM "
                            "clock down to %.0f MHz, threshold %.0f MHz",
                            what, t->n_throttled, t->throttled_min_mhz, limit_mhz);
    return br_timing_stats(t);
}

/* Setup, the verify function's presence, one execution checked before
 * anything is timed. Returns 0, or -1 with *r failed. */
static int case_check_once(br_case_result *r, const br_case_ctx *ctx, case_impl *ci) {
    const br_kernel *k = ci->k;
    br_sample smp;
    const br_sample_opts once = {.flush = BR_FLUSH_NONE, .reps = 1};
    br_error_clear();
    br_stage_set(BR_STAGE_SETUP);
    double t0 = br_now_ns();
    int setup_rc = k->setup ? k->setup(&ci->c) : 0;
    r->wall.setup_ns = br_now_ns() - t0;
    if (setup_rc != 0) {
        set_failed(r, BR_STAGE_SETUP, ci);
        return -1;
    }
    if (!k->verify) {
        br_error_set("kernel '%s' has no verify function; benchrun reports only verified kernels",
                     k->name);
        set_failed(r, BR_STAGE_VERIFY, NULL);
        return -1;
    }
    br_error_clear();
    br_stage_set(BR_STAGE_RUN);
    t0 = br_now_ns();
    int run_rc = ctx->ops->sample(ctx->state, &once, exec_run, ci, &smp);
    r->wall.first_run_ns = br_now_ns() - t0;
    if (run_rc != 0) {
        set_failed(r, BR_STAGE_RUN, ci);
        return -1;
    }
    br_stage_set(BR_STAGE_VERIFY);
    t0 = br_now_ns();
    int verify_rc = k->verify(&ci->c);
    r->wall.verify_ns += br_now_ns() - t0;
    if (verify_rc != 0) {
        if (!ci->message[0])
            api_fail(&ci->c, "verify returned an error without a message");
        set_failed(r, BR_STAGE_VERIFY, ci);
        return -1;
    }
    return 0;
}

/* One measurement (cold or batch, as mp->batch says) of the case into *t,
 * inside the NVTX range "<label> cold" or "<label> batch" when the case has
 * a label. Returns br_measure's value. */
static int measure_one(br_timing *t, const br_case_ctx *ctx, case_impl *ci,
                       const br_measure_params *mp) {
    const char *label = ci->spec->nvtx_label;
    char range[512];
    if (label) {
        snprintf(range, sizeof range, "%s %s", label, mp->batch ? "batch" : "cold");
        br_nvtx_push(range);
    }
    int rc = br_measure(t, ctx->ops, ctx->state, mp, exec_run, ci);
    if (label)
        br_nvtx_pop();
    return rc;
}

/* The timed measurements the mode asks for (cold, then batch) into
 * r->cold and r->batch. Returns 0, or -1 with *r failed. */
static int case_measure(br_case_result *r, const br_case_ctx *ctx, case_impl *ci,
                        br_measure_params *mp) {
    const br_measure_cfg *cfg = ci->spec->cfg;
    /* The host flush evicts the case's own host memory (timer.h). */
    br_mem_range *ranges = calloc(ci->n_allocs ? ci->n_allocs : 1, sizeof *ranges);
    if (!ranges) {
        br_error_nomem();
        set_failed(r, BR_STAGE_SETUP, NULL);
        return -1;
    }
    for (size_t i = 0; i < ci->n_allocs; i++)
        if (ci->allocs[i].kind == BR_MEM_HOST || ci->allocs[i].kind == BR_MEM_PINNED)
            ranges[mp->n_ranges++] = (br_mem_range){ci->allocs[i].p, ci->allocs[i].bytes};
    mp->ranges = ranges;
    int rc = 0;
    br_stage_set(BR_STAGE_RUN);
    if (cfg->mode & BR_MODE_COLD) {
        br_error_clear();
        if (measure_one(&r->cold, ctx, ci, mp) != 0) {
            set_failed(r, BR_STAGE_RUN, ci);
            rc = -1;
        }
        /* The clock is warm now: the batch needs only its own first batch. */
        mp->warmup_ns = 0;
        mp->prewarm_ns = 0;
        if (rc == 0 && r->cold.n_samples > 0)
            mp->exec_ns = br_stats_finite_median(r->cold.samples, r->cold.n_samples);
    }
    /* A kernel of BR_BATCH_SKIP_NS or more would be timed by the batch as
     * by the cold samples, less a flush that is lost in its time: with the
     * headline cold, the batch is not taken (measure.h). */
    int batch_adds = !(cfg->mode & BR_MODE_COLD) || cfg->headline == BR_MODE_BATCH ||
                     !(mp->exec_ns >= BR_BATCH_SKIP_NS);
    if (rc == 0 && (cfg->mode & BR_MODE_BATCH) && batch_adds) {
        mp->batch = 1;
        br_error_clear();
        if (measure_one(&r->batch, ctx, ci, mp) != 0) {
            set_failed(r, BR_STAGE_RUN, ci);
            rc = -1;
        }
    }
    free(ranges);
    mp->ranges = NULL;
    return rc;
}

/* The bursts of an energy window (energy.h): samples of `reps` executions
 * without flush or hold, deferred (their CUPTI records resolved and
 * discarded in groups, so none is left for a later sample). */
typedef struct energy_ctx {
    const br_case_ctx *ctx;
    case_impl *ci;
    size_t reps;
    uint64_t tags[BR_GROUP_MAX];
    size_t n_tags;
    void *nvml;
} energy_ctx;

static int energy_drain(energy_ctx *e) {
    const br_sample_ops *outs[BR_GROUP_MAX];
    const char *const *names;
    size_t n_names;
    int rc = e->n_tags && e->ctx->ops->resolve
                 ? e->ctx->ops->resolve(e->ctx->state, e->tags, e->n_tags, outs, &names, &n_names)
                 : 0;
    e->n_tags = 0;
    return rc;
}

static int energy_burst(void *p, double *executions) {
    energy_ctx *e = p;
    const br_sample_opts o = {
        .flush = BR_FLUSH_NONE, .reps = e->reps, .graph = e->reps > 1, .defer = 1};
    br_sample smp;
    if (e->ctx->ops->sample(e->ctx->state, &o, exec_run, e->ci, &smp) != 0)
        return -1;
    *executions += (double)e->reps;
    if (smp.tag) {
        e->tags[e->n_tags++] = smp.tag;
        if (e->n_tags == BR_GROUP_MAX)
            return energy_drain(e);
    }
    return 0;
}

static int energy_read(void *p, unsigned long long *mj) {
    return br_energy_read_nvml(((energy_ctx *)p)->nvml, mj);
}

static double energy_now(void *p) {
    (void)p;
    return br_now_ns();
}

/* Energy per execution of case r into r->energy (energy.h), after its timed
 * samples: bursts of about BR_ENERGY_STEP_NS by the headline median. A
 * failure leaves r->energy absent and is said on the log (NVML's once per
 * process); the case stays OK. */
static void case_energy(br_case_result *r, const br_case_ctx *ctx, case_impl *ci) {
    static int nvml_said;
    const br_timing *t = r->batch.present ? &r->batch : &r->cold;
    double exec_ns = t->n_samples ? br_stats_finite_median(t->samples, t->n_samples) : NAN;
    energy_ctx e = {.ctx = ctx, .ci = ci};
    if (!(exec_ns > 0.0))
        return;
    if (!(e.nvml = br_energy_nvml(ctx->energy_uuid))) {
        if (!nvml_said++)
            br_log(BR_LOG_WARN, "benchrun: energy: %s: no energy figures\n", br_error_get());
        br_error_clear();
        return;
    }
    double reps = floor(BR_ENERGY_STEP_NS / exec_ns);
    e.reps = reps < 1 ? 1 : reps > BR_BATCH_MAX_REPS ? BR_BATCH_MAX_REPS : (size_t)reps;
    br_energy_probe probe = {energy_read, energy_now, energy_burst, &e};
    br_stage_set(BR_STAGE_ENERGY);
    int rc = br_energy_windows(&r->energy, &probe, BR_ENERGY_WINDOWS, BR_ENERGY_WINDOW_NS,
                               BR_ENERGY_MAX_WAIT_NS);
    if (energy_drain(&e) != 0 || rc != 0) {
        br_log(BR_LOG_WARN, "benchrun: energy not measured: %s\n", br_error_get());
        memset(&r->energy, 0, sizeof r->energy);
        br_error_clear();
    }
}

/* Check again after the last sample, so a kernel whose later executions
 * went wrong (state carried between runs) gets no figure either; then the
 * stats. Returns 0, or -1 with *r failed. */
static int case_finish(br_case_result *r, case_impl *ci, double limit_mhz) {
    br_stage_set(BR_STAGE_VERIFY);
    double t0 = br_now_ns();
    int verify_rc = ci->k->verify(&ci->c);
    r->wall.verify_ns += br_now_ns() - t0;
    if (verify_rc != 0) {
        char first[sizeof ci->message];
        snprintf(first, sizeof first, "%s", ci->message[0] ? ci->message : "verify failed");
        snprintf(ci->message, sizeof ci->message, "after %zu timed executions: %.900s",
                 r->cold.warmup_runs + r->cold.n_samples * r->cold.reps + r->batch.warmup_runs +
                     r->batch.n_samples * r->batch.reps,
                 first);
        set_failed(r, BR_STAGE_VERIFY, ci);
        return -1;
    }
    if ((r->cold.present && finish_timing(&r->cold, "cold", limit_mhz) != 0) ||
        (r->batch.present && finish_timing(&r->batch, "batch", limit_mhz) != 0)) {
        set_failed(r, BR_STAGE_RUN, NULL);
        return -1;
    }
    return 0;
}

void br_case_run(br_case_result *r, const br_case_ctx *ctx, const br_kernel *k,
                 const br_case_spec *spec) {
    if (!ctx->state) {
        set_failed(r, BR_STAGE_SETUP, NULL);
        return;
    }
    const br_measure_cfg *cfg = spec->cfg;
    case_impl ci = {0};
    ci.c.api = &case_api;
    ci.c.runner = &ci;
    ci.k = k;
    ci.spec = spec;
    ci.ctx = ctx;
    ci.stream = ctx->ops->stream(ctx->state);
    ci.seed = spec->seed;
    int gpu = spec->backend == BR_BACKEND_GPU;
    br_measure_params mp = {
        .cfg = *cfg,
        .warmup_ns = spec->warmup_ns,
        .flush = spec->cache == BR_CACHE_FLUSH          ? BR_FLUSH_READ
                 : spec->cache == BR_CACHE_FLUSH_MEMSET ? BR_FLUSH_MEMSET
                                                        : BR_FLUSH_NONE,
        .probe = gpu,
        .max_mhz = ctx->max_mhz,
        .clock = ctx->clock,
        .nvtx = gpu && spec->nvtx_label,
        .tick_ns = ctx->ops->tick ? ctx->ops->tick(ctx->state) : 0,
    };
    mp.cfg.hold = gpu && cfg->hold;
    double limit_mhz = mp.max_mhz * cfg->throttle;
    r->wall.present = 1;
    if (case_check_once(r, ctx, &ci) == 0) {
        mp.prewarm_ns = r->wall.first_run_ns;
        if (case_measure(r, ctx, &ci, &mp) == 0) {
            if (gpu && ctx->energy_uuid)
                case_energy(r, ctx, &ci); /* after the samples: in the wall's `other` */
            if (case_finish(r, &ci, limit_mhz) == 0)
                r->status = BR_STATUS_OK;
        }
    }
    const br_timing *t[] = {&r->cold, &r->batch};
    for (size_t m = 0; m < 2; m++) {
        if (t[m]->present) {
            r->wall.warmup_ns += t[m]->warmup_ns;
            *(m ? &r->wall.batch_ns : &r->wall.cold_ns) += t[m]->measure_ns;
        }
    }
    if (r->status != BR_STATUS_OK) {
        br_timing_dispose(&r->cold);
        br_timing_dispose(&r->batch);
    }
    br_stage_set(BR_STAGE_TEARDOWN);
    double t0 = br_now_ns();
    if (ctx->ops->end_case)
        ctx->ops->end_case(ctx->state);
    if (k->teardown)
        k->teardown(&ci.c);
    free_allocs(&ci);
    if (ctx->ops->clear_error)
        ctx->ops->clear_error(ctx->state); /* so the next case starts clean */
    r->wall.teardown_ns = br_now_ns() - t0;
}
