#include "run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchrun_kernel.h"
#include "build.h"
#include "device.h"
#include "error.h"
#include "expr.h"
#include "gitinfo.h"
#include "measure.h"
#include "peak.h"
#include "stats.h"
#include "timer.h"
#include "util.h"

#if BR_HAVE_CUDA
#include "cuda_check.h"
#endif

struct br_job_build;
static void job_build_free(struct br_job_build *b);

/* ---- preparing ------------------------------------------------------------------ */

static int eval_per_combo(double *out, const br_job *j, const br_located *e, const char *what) {
    const br_suite *s = &j->suite;
    br_binding *vars = calloc(s->n_params ? s->n_params : 1, sizeof *vars);
    if (!vars)
        return br_error_set("out of memory");
    int rc = 0;
    for (size_t c = 0; c < j->plan.n_combos && rc == 0; c++) {
        if (!e->text) {
            out[c] = NAN;
            continue;
        }
        const int64_t *v = br_plan_params(&j->plan, c);
        for (size_t p = 0; p < s->n_params; p++)
            vars[p] = (br_binding){s->params[p].name, v[p]};
        int64_t value;
        if (br_expr_eval(&value, e->text, e->pos, vars, s->n_params) != 0) {
            rc = -1;
        } else if (value < 0) {
            rc = br_error_at(e->pos, "'%s' is negative (%lld)", what, (long long)value);
        } else {
            out[c] = (double)value;
            continue;
        }
        /* Say at which parameters the expression failed. */
        char where[512] = "";
        size_t off = 0;
        for (size_t p = 0; p < s->n_params && off < sizeof where; p++)
            off += (size_t)snprintf(where + off, sizeof where - off, "%s%s=%lld", p ? ", " : "",
                                    s->params[p].name, (long long)v[p]);
        if (s->n_params) {
            char *msg = br_strdup(br_error_get());
            if (msg) {
                br_error_set("%s (with %s)", msg, where);
                free(msg);
            }
        }
    }
    free(vars);
    return rc;
}

void br_measure_overrides_init(br_measure_overrides *o) {
    memset(o, 0, sizeof *o);
    o->min_time_ns = o->max_noise = o->timeout_ns = o->throttle = o->warmup_ns = -1;
    o->hold = o->cache = -1;
}

/* The suite's measurement settings with the command line's on top. */
static int apply_overrides(br_suite *s, const br_measure_overrides *o) {
    br_measure_cfg *m = &s->measure;
    br_pos at = {s->path, 0, 0};
    if (o->min_samples)
        m->min_samples = o->min_samples;
    if (o->min_time_ns >= 0)
        m->min_time_ns = o->min_time_ns;
    if (o->max_noise >= 0)
        m->max_noise = o->max_noise;
    if (o->timeout_ns >= 0)
        m->timeout_ns = o->timeout_ns;
    if (o->max_samples)
        m->max_samples = o->max_samples;
    if (o->throttle >= 0)
        m->throttle = o->throttle;
    if (o->hold >= 0)
        m->hold = o->hold;
    if (o->warmup_ns >= 0)
        s->warmup_ns = o->warmup_ns;
    if (o->cache >= 0)
        s->cache = (br_cache_policy)o->cache;
    if (o->mode) {
        m->mode = o->mode;
        if (!o->headline && !(m->mode & m->headline))
            m->headline = m->mode == BR_MODE_BATCH ? BR_MODE_BATCH : BR_MODE_COLD;
    }
    if (o->headline)
        m->headline = o->headline;
    if (!(m->mode & m->headline))
        return br_error_at(at, "headline '%s' is not measured: mode is '%s' (--headline, --mode)",
                           br_mode_name(m->headline), br_mode_name(m->mode));
    if (m->min_time_ns > m->timeout_ns)
        return br_error_at(at,
                           "min_time (%g ms) is longer than timeout (%g ms) (--min-time, "
                           "--timeout)",
                           m->min_time_ns / 1e6, m->timeout_ns / 1e6);
    if (m->min_samples > m->max_samples)
        return br_error_at(at,
                           "min_samples (%zu) is larger than max_samples (%zu) "
                           "(--min-samples, --max-samples)",
                           m->min_samples, m->max_samples);
    return 0;
}

int br_job_prepare(br_job *out, const char *path, const br_run_opts *opts) {
    memset(out, 0, sizeof *out);
    if (br_suite_load(&out->suite, path) != 0)
        return -1;
    if (apply_overrides(&out->suite, &opts->measure) != 0)
        return -1;
    if (br_plan_build(&out->plan, &out->suite, opts->patterns, opts->n_patterns) != 0)
        return -1;
    if (out->plan.n_cases == 0) {
        br_error_at((br_pos){out->suite.path, 0, 0},
                    "no kernel of the suite matches the -k pattern(s) given");
        return -1;
    }
    size_t n = out->plan.n_combos;
    out->bytes = calloc(n, sizeof *out->bytes);
    out->flops = calloc(n, sizeof *out->flops);
    if (!out->bytes || !out->flops)
        return br_error_set("out of memory");
    if (eval_per_combo(out->bytes, out, &out->suite.bytes, "bytes") != 0 ||
        eval_per_combo(out->flops, out, &out->suite.flops, "flops") != 0)
        return -1;
    return 0;
}

void br_job_dispose(br_job *j) {
    if (!j)
        return;
    br_suite_dispose(&j->suite);
    br_plan_dispose(&j->plan);
    free(j->bytes);
    free(j->flops);
    job_build_free(j->built);
    memset(j, 0, sizeof *j);
}

/* ---- session ------------------------------------------------------------------- */

struct br_session {
    br_run_opts opts;
    char *cache_dir;
    int gpu_checked;
    int gpu_ok;
    char gpu_why[512];
    br_device device;
    char gpu_arch[16];
    br_host host;
    int peak_tried;       /* the measured peak was looked up or measured */
    double peak_gbps;     /* measured peak, GB/s; NAN when it could not be had */
    void *timer_state[2]; /* indexed by br_backend */
    int timer_failed[2];
    char timer_error[2][BR_ERROR_MAX];
    br_clock gpu_clock;   /* GPU headline clock, resolved when the GPU timer opens */
    char clock_note[600]; /* why the kernel clock is not used although wanted; "" otherwise */
};

int br_session_open(br_session **out, const br_run_opts *opts) {
    br_session *s = calloc(1, sizeof *s);
    if (!s)
        return br_error_set("out of memory");
    s->opts = *opts;
    s->cache_dir = opts->cache_dir ? br_strdup(opts->cache_dir) : br_build_default_cache_dir();
    if (!s->cache_dir) {
        free(s);
        return -1;
    }
    br_host_query(&s->host);
    s->gpu_clock = BR_CLOCK_EVENTS;
    *out = s;
    return 0;
}

static const br_timer_ops *timer_ops(br_backend b) {
    return br_timer_find(b == BR_BACKEND_GPU ? "cuda-events" : "monotonic");
}

void br_session_close(br_session *s) {
    if (!s)
        return;
    for (int b = 0; b < 2; b++)
        if (s->timer_state[b])
            timer_ops((br_backend)b)->close(s->timer_state[b]);
    free(s->cache_dir);
    free(s);
}

/* Find out once whether a GPU is usable. */
static int session_gpu(br_session *s) {
    if (s->gpu_checked)
        return s->gpu_ok;
    s->gpu_checked = 1;
    if (!br_device_available(s->gpu_why, sizeof s->gpu_why))
        return 0;
    if (br_device_query(&s->device, 0) != 0) {
        snprintf(s->gpu_why, sizeof s->gpu_why, "%s", br_error_get());
        return 0;
    }
    snprintf(s->gpu_arch, sizeof s->gpu_arch, "sm_%d%d", s->device.cc_major, s->device.cc_minor);
    s->gpu_ok = 1;
    return 1;
}

br_clock br_run_resolve_clock(int asked, int no_cupti, int kernel, const char *why, char *note,
                              size_t len) {
    if (len)
        note[0] = '\0';
    if (asked == BR_CLOCK_EVENTS || no_cupti)
        return BR_CLOCK_EVENTS;
    if (kernel)
        return BR_CLOCK_KERNEL;
    if (len)
        snprintf(note, len, "%s", why && why[0] ? why : "the GPU timer does not collect it");
    return BR_CLOCK_EVENTS;
}

/* The open timer of a backend, or NULL with the error set. */
static void *session_timer(br_session *s, br_backend b) {
    if (s->timer_state[b])
        return s->timer_state[b];
    if (s->timer_failed[b]) {
        br_error_set("%s", s->timer_error[b]);
        return NULL;
    }
    const br_timer_ops *ops = timer_ops(b);
    /* CUPTI is started even for --clock events (unless --no-cupti), so the
     * kernel time is reported beside the event time. */
    br_timer_cfg cfg = {.kernel_clock = b == BR_BACKEND_GPU && !s->opts.no_cupti};
    if (!ops) {
        br_error_set("benchrun was built without the %s timer",
                     b == BR_BACKEND_GPU ? "GPU" : "host");
    } else if (ops->open(&s->timer_state[b], &cfg) == 0) {
        if (b == BR_BACKEND_GPU) {
            const char *why = NULL;
            int kernel = ops->kernel_clock && ops->kernel_clock(s->timer_state[b], &why);
            s->gpu_clock = br_run_resolve_clock(s->opts.gpu_clock, s->opts.no_cupti, kernel, why,
                                                s->clock_note, sizeof s->clock_note);
            if (s->clock_note[0])
                fprintf(stderr,
                        "benchrun: note: the kernel clock is unavailable (%s); GPU times are "
                        "CUDA event times\n",
                        s->clock_note);
        }
        return s->timer_state[b];
    }
    s->timer_failed[b] = 1;
    snprintf(s->timer_error[b], sizeof s->timer_error[b], "%s", br_error_get());
    return NULL;
}

/* ---- the measured peak ------------------------------------------------------------- */

#if BR_HAVE_CUDA
typedef struct copy_ctx {
    void *dst;
    const void *src;
    size_t bytes;
    cudaStream_t stream;
} copy_ctx;

static int exec_copy(void *ctx) {
    copy_ctx *c = ctx;
    return BR_CUDA(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, c->stream));
}
#endif

/* The device-to-device copy bandwidth of the session's GPU, GB/s (reading
 * and writing a buffer of `bytes` counts 2 x bytes), measured with the same
 * timing core as every case (cold samples, read flush, launch hold, default
 * stopping rules) and cached in the compile cache directory (peak.h). Returns
 * NAN with a warning on standard error when it cannot be measured. */
static double session_measured_peak(br_session *s) {
    if (s->peak_tried)
        return s->peak_gbps;
    s->peak_tried = 1;
    s->peak_gbps = NAN;
#if BR_HAVE_CUDA
    double gbps = NAN;
    void *state = session_timer(s, BR_BACKEND_GPU);
    /* The peak is timed on the clock the cases are, and cached per clock. */
    char method[96];
    snprintf(method, sizeof method, "cudaMemcpyAsync device to device, cold median, %s clock",
             br_clock_name(s->gpu_clock));
    int cached = br_peak_cache_load(&gbps, s->cache_dir, &s->device, method);
    if (cached == 1) {
        s->peak_gbps = gbps;
        if (!s->opts.quiet)
            fprintf(stderr, "benchrun: measured peak %.0f GB/s (device-to-device copy, cached)\n",
                    gbps);
        return gbps;
    }
    if (cached < 0)
        fprintf(stderr, "benchrun: warning: %s\n", br_error_get());
    copy_ctx c = {0};
    br_timing t = {0};
    /* Large against L2 (so it measures DRAM), small against memory. */
    size_t bytes = s->device.l2_bytes * 16;
    if (bytes < ((size_t)256 << 20))
        bytes = (size_t)256 << 20;
    if (s->device.global_mem_bytes && bytes > s->device.global_mem_bytes / 8)
        bytes = s->device.global_mem_bytes / 8;
    bytes &= ~(size_t)255;
    int ok = 0;
    if (state && !BR_CUDA(cudaMalloc(&c.dst, bytes)) &&
        !BR_CUDA(cudaMalloc((void **)&c.src, bytes)) &&
        !BR_CUDA(cudaMemset((void *)c.src, 1, bytes)) && !BR_CUDA(cudaDeviceSynchronize())) {
        c.bytes = bytes;
        c.stream = br_timer_cuda_events.stream(state);
        br_measure_params mp = {.warmup_ns = BR_DEFAULT_WARMUP_NS,
                                .flush = BR_FLUSH_READ,
                                .probe = 1,
                                .max_mhz = s->device.sm_clock_khz / 1e3,
                                .clock = s->gpu_clock};
        br_measure_cfg_defaults(&mp.cfg);
        mp.cfg.timeout_ns = 5e9;
        if (br_measure(&t, &br_timer_cuda_events, state, &mp, exec_copy, &c) == 0 &&
            br_stats_compute(&t.stats, t.samples, t.n_samples) == 0) {
            gbps = 2.0 * (double)bytes / t.stats.median;
            ok = 1;
        }
    }
    if (state)
        br_timer_cuda_events.end_case(state);
    cudaFree(c.dst);
    cudaFree((void *)c.src);
    cudaGetLastError();
    br_timing_dispose(&t);
    if (!ok) {
        fprintf(stderr, "benchrun: warning: cannot measure the peak bandwidth: %s\n",
                br_error_get());
        return NAN;
    }
    s->peak_gbps = gbps;
    if (!s->opts.quiet)
        fprintf(stderr, "benchrun: measured peak %.0f GB/s (device-to-device copy of %zu MiB)\n",
                gbps, bytes >> 20);
    if (br_peak_cache_store(s->cache_dir, &s->device, gbps, 2.0 * (double)bytes, method) != 0)
        fprintf(stderr, "benchrun: warning: cannot cache the measured peak: %s\n", br_error_get());
#endif
    return s->peak_gbps;
}

/* ---- the case handle a module sees ------------------------------------------------ */

typedef struct case_alloc {
    void *p;
    size_t bytes;
    br_mem_kind kind;
} case_alloc;

typedef struct case_impl {
    br_case c;
    const br_kernel *k;
    const br_suite *suite;
    const int64_t *values;
    br_backend backend;
    void *stream;
    uint64_t seed;
    case_alloc *allocs;
    size_t n_allocs, cap_allocs;
    char message[1024]; /* the first failure a module reported */
} case_impl;

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
    for (size_t i = 0; name && i < ci->suite->n_params; i++) {
        if (strcmp(ci->suite->params[i].name, name) == 0) {
            *out = ci->values[i];
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
    case BR_MEM_HOST:
        p = aligned_alloc(256, size);
        if (!p)
            api_fail(c, "cannot allocate %zu bytes of host memory", bytes);
        break;
    case BR_MEM_DEVICE:
    case BR_MEM_PINNED:
#if BR_HAVE_CUDA
        if (ci->backend == BR_BACKEND_GPU) {
            cudaError_t e = kind == BR_MEM_DEVICE ? cudaMalloc(&p, size) : cudaMallocHost(&p, size);
            if (e != cudaSuccess) {
                p = NULL;
                api_fail(c, "cannot allocate %zu bytes of %s memory: %s", bytes,
                         kind == BR_MEM_DEVICE ? "device" : "pinned host", cudaGetErrorString(e));
            }
            break;
        }
#endif
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

static const br_case_api case_api = {
    .abi_version = BR_KERNEL_ABI_VERSION,
    .param = api_param,
    .stream = api_stream,
    .alloc = api_alloc,
    .fail = api_fail,
    .seed = api_seed,
};

static void free_allocs(case_impl *ci) {
    for (size_t i = 0; i < ci->n_allocs; i++) {
        case_alloc *a = &ci->allocs[i];
        if (a->kind == BR_MEM_HOST)
            free(a->p);
#if BR_HAVE_CUDA
        else if (a->kind == BR_MEM_DEVICE)
            cudaFree(a->p);
        else
            cudaFreeHost(a->p);
#endif
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

/* FNV-1a over the suite name and the parameter values: the same inputs for
 * every kernel at the same parameters, and in every run. */
static uint64_t case_seed(const br_suite *s, const int64_t *values) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *p = s->name.text; p && *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
    for (size_t i = 0; i < s->n_params; i++)
        for (int b = 0; b < 8; b++)
            h = (h ^ (((uint64_t)values[i] >> (8 * b)) & 0xff)) * 0x100000001b3ull;
    return h;
}

/* ---- one case ---------------------------------------------------------------------- */

static void set_failed(br_case_result *r, const char *stage, const case_impl *ci) {
    r->status = BR_STATUS_FAILED;
    r->stage = br_strdup(stage);
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
    return br_stats_compute(&t->stats, t->samples, t->n_samples);
}

static void run_case(br_case_result *r, const br_job *job, br_session *s, const br_kernel *k,
                     br_backend backend, const int64_t *values) {
    const br_suite *suite = &job->suite;
    const br_measure_cfg *cfg = &suite->measure;
    const br_timer_ops *ops = timer_ops(backend);
    void *state = session_timer(s, backend);
    if (!state) {
        set_failed(r, "setup", NULL);
        return;
    }
    case_impl ci = {0};
    ci.c.api = &case_api;
    ci.c.runner = &ci;
    ci.k = k;
    ci.suite = suite;
    ci.values = values;
    ci.backend = backend;
    ci.stream = ops->stream(state);
    ci.seed = case_seed(suite, values);
    br_sample smp;
    const br_sample_opts once = {.flush = BR_FLUSH_NONE, .reps = 1};
    int gpu = backend == BR_BACKEND_GPU;
    br_measure_params mp = {
        .cfg = *cfg,
        .warmup_ns = suite->warmup_ns,
        .flush = suite->cache == BR_CACHE_FLUSH          ? BR_FLUSH_READ
                 : suite->cache == BR_CACHE_FLUSH_MEMSET ? BR_FLUSH_MEMSET
                                                         : BR_FLUSH_NONE,
        .probe = gpu,
        .max_mhz = gpu ? s->device.sm_clock_khz / 1e3 : 0,
        .clock = gpu ? s->gpu_clock : BR_CLOCK_MONOTONIC,
    };
    mp.cfg.hold = gpu && cfg->hold;
    double limit_mhz = mp.max_mhz * cfg->throttle;
    br_mem_range *ranges = NULL;

    br_error_clear();
    if (k->setup && k->setup(&ci.c) != 0) {
        set_failed(r, "setup", &ci);
        goto done;
    }
    if (!k->verify) {
        br_error_set("kernel '%s' has no verify function; benchrun reports only verified kernels",
                     k->name);
        set_failed(r, "verify", NULL);
        goto done;
    }
    /* One execution, checked before anything is timed. */
    br_error_clear();
    if (ops->sample(state, &once, exec_run, &ci, &smp) != 0) {
        set_failed(r, "run", &ci);
        goto done;
    }
    if (k->verify(&ci.c) != 0) {
        if (!ci.message[0])
            api_fail(&ci.c, "verify returned an error without a message");
        set_failed(r, "verify", &ci);
        goto done;
    }
    /* The host flush evicts the case's own host memory (timer.h). */
    ranges = calloc(ci.n_allocs ? ci.n_allocs : 1, sizeof *ranges);
    if (!ranges) {
        br_error_set("out of memory");
        set_failed(r, "setup", NULL);
        goto done;
    }
    for (size_t i = 0; i < ci.n_allocs; i++)
        if (ci.allocs[i].kind == BR_MEM_HOST || ci.allocs[i].kind == BR_MEM_PINNED)
            ranges[mp.n_ranges++] = (br_mem_range){ci.allocs[i].p, ci.allocs[i].bytes};
    mp.ranges = ranges;
    if (cfg->mode & BR_MODE_COLD) {
        br_error_clear();
        if (br_measure(&r->cold, ops, state, &mp, exec_run, &ci) != 0) {
            set_failed(r, "run", &ci);
            goto done;
        }
        /* The clock is warm now: the batch needs only its own first batch. */
        mp.warmup_ns = 0;
    }
    if (cfg->mode & BR_MODE_BATCH) {
        mp.batch = 1;
        br_error_clear();
        if (br_measure(&r->batch, ops, state, &mp, exec_run, &ci) != 0) {
            set_failed(r, "run", &ci);
            goto done;
        }
    }
    /* Check again after the last sample, so a kernel whose later executions
     * went wrong (state carried between runs) gets no figure either. */
    if (k->verify(&ci.c) != 0) {
        char first[sizeof ci.message];
        snprintf(first, sizeof first, "%s", ci.message[0] ? ci.message : "verify failed");
        snprintf(ci.message, sizeof ci.message, "after %zu timed executions: %.900s",
                 r->cold.warmup_runs + r->cold.n_samples * r->cold.reps + r->batch.warmup_runs +
                     r->batch.n_samples * r->batch.reps,
                 first);
        set_failed(r, "verify", &ci);
        goto done;
    }
    if ((r->cold.present && finish_timing(&r->cold, "cold", limit_mhz) != 0) ||
        (r->batch.present && finish_timing(&r->batch, "batch", limit_mhz) != 0)) {
        set_failed(r, "run", NULL);
        goto done;
    }
    r->status = BR_STATUS_OK;
done:
    if (r->status != BR_STATUS_OK) {
        br_timing_dispose(&r->cold);
        br_timing_dispose(&r->batch);
    }
    free(ranges);
    if (ops->end_case)
        ops->end_case(state);
    if (k->teardown)
        k->teardown(&ci.c);
    free_allocs(&ci);
#if BR_HAVE_CUDA
    if (gpu)
        cudaGetLastError(); /* clear a non-sticky error so the next case starts clean */
#endif
}

/* ---- building: modules and kernel names ---------------------------------------------- */

typedef struct kernel_ref {
    const br_kernel *k;   /* NULL when not resolved */
    br_module_handle *mh; /* module that defines it, or the failed/skipped one */
    br_case_status status;
} kernel_ref;

struct br_job_build {
    br_module_handle *mods; /* one per source, suite order */
    size_t n_mods;
    kernel_ref *refs; /* one per suite kernel */
};

static void job_build_free(struct br_job_build *b) {
    if (!b)
        return;
    for (size_t i = 0; i < b->n_mods && b->mods; i++)
        br_module_handle_dispose(&b->mods[i]);
    free(b->mods);
    free(b->refs);
    free(b);
}

/* Match the suite's kernels to the loaded modules' tables. Kernels of GPU
 * modules are SKIPPED when there is no usable GPU. A name no module defines is
 * bad input, unless a module that could define it failed or was skipped. */
static int resolve_kernels(kernel_ref *refs, const br_suite *suite, br_module_handle *mods,
                           size_t n_mods, int gpu_ok) {
    br_module_handle *failed = NULL, *skipped = NULL;
    for (size_t m = 0; m < n_mods; m++) {
        if (mods[m].state == BR_MODULE_FAILED && !failed)
            failed = &mods[m];
        if (mods[m].state == BR_MODULE_SKIPPED && !skipped)
            skipped = &mods[m];
    }
    for (size_t i = 0; i < suite->n_kernels; i++) {
        const char *name = suite->kernels[i].text;
        kernel_ref *ref = &refs[i];
        for (size_t m = 0; m < n_mods; m++) {
            const br_module *mod = mods[m].module;
            for (uint32_t t = 0; mod && t < mod->n_kernels; t++) {
                if (!mod->kernels[t].name || strcmp(mod->kernels[t].name, name) != 0)
                    continue;
                if (ref->k)
                    return br_error_at(suite->kernels[i].pos,
                                       "kernel '%s' is defined in both %s and %s", name,
                                       ref->mh->source, mods[m].source);
                if (!mod->kernels[t].run)
                    return br_error_at(suite->kernels[i].pos,
                                       "kernel '%s' in %s has no run function", name,
                                       mods[m].source);
                ref->k = &mod->kernels[t];
                ref->mh = &mods[m];
                ref->status = mods[m].is_gpu && !gpu_ok ? BR_STATUS_SKIPPED : BR_STATUS_OK;
            }
        }
        if (ref->k)
            continue;
        if (failed) {
            ref->mh = failed;
            ref->status = BR_STATUS_FAILED;
        } else if (skipped) {
            ref->mh = skipped;
            ref->status = BR_STATUS_SKIPPED;
        } else {
            char have[1024] = "";
            size_t off = 0;
            for (size_t m = 0; m < n_mods; m++)
                for (uint32_t t = 0; mods[m].module && t < mods[m].module->n_kernels; t++)
                    if (off < sizeof have && mods[m].module->kernels[t].name)
                        off += (size_t)snprintf(have + off, sizeof have - off, "%s%s",
                                                off ? ", " : "", mods[m].module->kernels[t].name);
            return br_error_at(suite->kernels[i].pos,
                               "kernel '%s' is not defined in any source of the suite (found: %s)",
                               name, have[0] ? have : "none");
        }
    }
    return 0;
}

static void report_modules(const br_module_handle *mods, size_t n, int quiet) {
    size_t cached = 0, compiled = 0;
    for (size_t i = 0; i < n; i++) {
        const br_module_handle *h = &mods[i];
        if (h->state == BR_MODULE_FAILED) {
            fprintf(stderr, "benchrun: %s: %s\n", h->source, h->message);
            if (h->command)
                fprintf(stderr, "  command: %s\n", h->command);
            if (h->log)
                fprintf(stderr, "%s%s", h->log, h->log[strlen(h->log) - 1] == '\n' ? "" : "\n");
        } else if (h->state == BR_MODULE_LOADED) {
            if (h->from_cache)
                cached++;
            else
                compiled++;
            if (!quiet && !h->from_cache)
                fprintf(stderr, "benchrun: compiled %s in %.1f s\n", h->source,
                        h->compile_ns / 1e9);
        }
    }
    if (!quiet)
        fprintf(stderr, "benchrun: kernel modules: %zu compiled, %zu from cache\n", compiled,
                cached);
}

int br_job_build(br_job *job, br_session *s) {
    const br_suite *suite = &job->suite;
    size_t n_src = suite->n_sources;
    int rc = -1;
    const char **srcs = calloc(n_src ? n_src : 1, sizeof *srcs);
    struct br_job_build *b = calloc(1, sizeof *b);
    if (b) {
        b->mods = calloc(n_src ? n_src : 1, sizeof *b->mods);
        b->refs = calloc(suite->n_kernels ? suite->n_kernels : 1, sizeof *b->refs);
        b->n_mods = n_src;
    }
    if (!srcs || !b || !b->mods || !b->refs) {
        br_error_set("out of memory");
        goto done;
    }
    int needs_gpu = 0;
    for (size_t i = 0; i < n_src; i++) {
        srcs[i] = suite->sources[i].text;
        needs_gpu |= br_has_suffix(srcs[i], ".cu");
    }
    if (needs_gpu)
        session_gpu(s);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    br_build_opts bo = {
        .cache_dir = s->cache_dir,
        .gpu_arch = s->gpu_ok ? s->gpu_arch : NULL,
        .gpu_skip_reason = s->gpu_why,
        .jobs = s->opts.jobs > 0 ? s->opts.jobs : (ncpu > 0 ? (int)ncpu : 1),
    };
    if (!s->opts.quiet)
        fprintf(stderr, "benchrun: %s: building %zu kernel module(s) (cache %s)\n", suite->path,
                n_src, s->cache_dir);
    if (br_build_modules(b->mods, srcs, n_src, &bo) < 0)
        goto done;
    report_modules(b->mods, n_src, s->opts.quiet);
    if (resolve_kernels(b->refs, suite, b->mods, n_src, s->gpu_ok) != 0)
        goto done;
    job_build_free(job->built);
    job->built = b;
    b = NULL;
    rc = 0;
done:
    job_build_free(b);
    free(srcs);
    return rc;
}

/* ---- measuring one suite ------------------------------------------------------------- */

int br_job_execute(br_run *out, const br_job *job, br_session *s) {
    const br_suite *suite = &job->suite;
    const struct br_job_build *b = job->built;
    memset(out, 0, sizeof *out);
    if (!b)
        return br_error_set("%s: the suite's kernels were not built (br_job_build)", suite->path);

    /* The run's header. */
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out->date, sizeof out->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    out->benchrun_version = br_strdup(BR_VERSION);
    out->suite_name = br_strdup(suite->name.text);
    out->suite_description = suite->description.text ? br_strdup(suite->description.text) : NULL;
    out->suite_path = br_strdup(suite->path);
    memcpy(out->suite_hash, suite->hash, sizeof out->suite_hash);
    out->metric = suite->metric;
    out->cache = suite->cache;
    out->warmup_ns = suite->warmup_ns;
    out->measure = suite->measure;
    out->regression = suite->regression;
    out->host = s->host;
    out->n_params = suite->n_params;
    out->param_names = calloc(suite->n_params ? suite->n_params : 1, sizeof *out->param_names);
    out->n_kernels = suite->n_kernels;
    out->kernels = calloc(suite->n_kernels ? suite->n_kernels : 1, sizeof *out->kernels);
    out->n_cases = job->plan.n_cases;
    out->cases = calloc(out->n_cases ? out->n_cases : 1, sizeof *out->cases);
    if (!out->benchrun_version || !out->suite_name || !out->suite_path || !out->param_names ||
        !out->kernels || !out->cases)
        return br_error_set("out of memory");
    for (size_t p = 0; p < suite->n_params; p++)
        if (!(out->param_names[p] = br_strdup(suite->params[p].name)))
            return -1;
    if (br_gitinfo_read(&out->git, suite->path) != 0) {
        fprintf(stderr, "benchrun: warning: %s: cannot read git information: %s\n", suite->path,
                br_error_get());
        memset(&out->git, 0, sizeof out->git);
    }
    out->peak_kind = suite->peak;
    out->peak_gbps = NAN;
    if (s->gpu_ok) {
        for (size_t i = 0; i < b->n_mods; i++) {
            if (b->mods[i].is_gpu) {
                out->has_device = 1;
                out->device = s->device;
            }
        }
    }
    if (out->has_device) {
        out->peak_gbps = out->device.peak_gbps;
        if (suite->peak == BR_PEAK_MEASURED) {
            out->device.measured_peak_gbps = session_measured_peak(s);
            out->peak_gbps = out->device.measured_peak_gbps;
        }
    }
    for (size_t i = 0; i < suite->n_kernels; i++) {
        br_run_kernel *rk = &out->kernels[i];
        const kernel_ref *ref = &b->refs[i];
        rk->name = br_strdup(suite->kernels[i].text);
        rk->source = br_strdup(ref->mh ? ref->mh->source : "");
        rk->backend = ref->mh && ref->mh->is_gpu ? BR_BACKEND_GPU : BR_BACKEND_HOST;
        if (!rk->name || !rk->source)
            return -1;
    }

    size_t n_skipped = 0;
    for (size_t i = 0; i < job->plan.n_cases; i++) {
        const br_plan_case *pc = &job->plan.cases[i];
        br_case_result *r = &out->cases[i];
        const int64_t *values = br_plan_params(&job->plan, pc->combo);
        r->kernel = pc->kernel;
        r->combo = pc->combo;
        r->params = malloc((suite->n_params ? suite->n_params : 1) * sizeof *r->params);
        if (!r->params)
            return br_error_set("out of memory");
        if (suite->n_params)
            memcpy(r->params, values, suite->n_params * sizeof *values);
        r->bytes = job->bytes[pc->combo];
        r->flops = job->flops[pc->combo];
        const kernel_ref *ref = &b->refs[pc->kernel];
        if (ref->status == BR_STATUS_SKIPPED) {
            r->status = BR_STATUS_SKIPPED;
            r->stage = br_strdup("no-gpu");
            r->message = br_strdup(s->gpu_why[0] ? s->gpu_why : "no usable GPU");
            n_skipped++;
        } else if (ref->status == BR_STATUS_FAILED) {
            r->status = BR_STATUS_FAILED;
            r->stage = br_strdup("compile");
            r->message = br_strfmt("%s: %s", ref->mh->source, ref->mh->message);
        } else {
            run_case(r, job, s, ref->k, out->kernels[pc->kernel].backend, values);
        }
    }
    if (n_skipped)
        out->gpu_skip_reason = br_strdup(s->gpu_why[0] ? s->gpu_why : "no usable GPU");
    out->gpu_clock = s->gpu_clock;
    if (s->clock_note[0] && !(out->clock_note = br_strdup(s->clock_note)))
        return -1;
    br_run_derive(out);
    return 0;
}
