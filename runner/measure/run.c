#define _GNU_SOURCE /* open_memstream */
#include "results/settings.h"
#include "run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchrun_kernel.h"
#include "budget.h"
#include "build/build.h"
#include "device.h"
#include "base/error.h"
#include "suite/expr.h"
#include "results/gitinfo.h"
#include "measure.h"
#include "peak.h"
#include "reporters/reporter.h"
#include "results/resultsfile.h"
#include "results/stats.h"
#include "timer.h"
#include "base/util.h"
#include "worker.h"

#if BR_HAVE_CUDA
#include "cuda_check.h"
#endif

struct br_job_build;
static void job_build_free(struct br_job_build *b);

/* ---- preparing ------------------------------------------------------------------ */

/* Evaluate the `bytes` or `flops` expression(s) w for every case of the
 * job into out[case]: NAN when absent; an error names the case's kernel
 * and parameters. */
static int eval_per_case(double *out, const br_job *j, const br_work *w, const char *what) {
    const br_suite *s = &j->suite;
    br_binding vars[BR_SUITE_MAX_PARAMS];
    for (size_t i = 0; i < j->plan.n_cases; i++) {
        const br_plan_case *pc = &j->plan.cases[i];
        const br_located *e = br_work_expr(w, pc->kernel);
        if (!e) {
            out[i] = NAN;
            continue;
        }
        const int64_t *v = br_plan_params(&j->plan, pc->combo);
        for (size_t p = 0; p < s->n_params; p++)
            vars[p] = (br_binding){s->params[p].name, v[p]};
        int64_t value;
        int rc;
        if (br_expr_eval(&value, e->text, e->pos, vars, s->n_params) != 0) {
            rc = -1;
        } else if (value < 0) {
            rc = br_error_at(e->pos, "'%s' is negative: %lld", what, (long long)value);
        } else {
            out[i] = (double)value;
            continue;
        }
        /* Say at which parameters the expression failed. */
        char where[512];
        br_plan_describe(where, sizeof where, s, v);
        char *msg = br_strdup(br_error_get());
        if (msg) {
            br_error_set("%s (in '%s', for %s%s%s)", msg, what, s->kernels[pc->kernel].text,
                         s->n_params ? ", " : "", where);
            free(msg);
        }
        return rc;
    }
    return 0;
}

/* Find the compile-time variants: combinations with the same values of
 * every `defines` param share one. */
static int find_variants(br_job *j) {
    const br_suite *s = &j->suite;
    size_t n = j->plan.n_combos;
    j->variant_of = calloc(n ? n : 1, sizeof *j->variant_of);
    j->variant_combo = calloc(n ? n : 1, sizeof *j->variant_combo);
    if (!j->variant_of || !j->variant_combo)
        return br_error_set("out of memory");
    j->n_variants = n ? 0 : 1;
    for (size_t c = 0; c < n; c++) {
        const int64_t *v = br_plan_params(&j->plan, c);
        size_t found = j->n_variants;
        /* Plans are small (at most BR_PLAN_MAX_CASES) and variants few:
         * a linear search over the variants so far. */
        for (size_t x = 0; x < j->n_variants && found == j->n_variants; x++) {
            const int64_t *w = br_plan_params(&j->plan, j->variant_combo[x]);
            size_t same = 1;
            for (size_t p = 0; p < s->n_params && same; p++)
                same = !s->params[p].define || v[p] == w[p];
            if (same)
                found = x;
        }
        if (found == j->n_variants) {
            if (j->n_variants == BR_MAX_VARIANTS)
                return br_error_at(s->defines_pos,
                                   "the defines give more than %d compile-time variants (each is "
                                   "a compile): sweep fewer values, or make some plain params",
                                   BR_MAX_VARIANTS);
            j->variant_combo[j->n_variants++] = c;
        }
        j->variant_of[c] = found;
    }
    return 0;
}

void br_measure_overrides_init(br_measure_overrides *o) {
    memset(o, 0, sizeof *o);
    o->min_time_ns = o->max_noise = o->timeout_ns = o->throttle = o->warmup_ns = -1;
    o->watchdog_ns = -1;
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
    if (o->watchdog_ns > 0)
        s->watchdog_ns = o->watchdog_ns;
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
    if (br_plan_apply_overrides(&out->suite, opts->params, opts->n_params, NULL) != 0)
        return -1;
    if (br_plan_build(&out->plan, &out->suite, opts->patterns, opts->n_patterns) != 0)
        return -1;
    if (out->plan.n_cases == 0) {
        if (out->plan.n_combos == 0)
            br_error_at(out->suite.where.pos,
                        out->plan.n_swept == 1
                            ? "the plan is empty: 'where' rejects the only parameter combination"
                            : "the plan is empty: 'where' rejects all %zu parameter combinations",
                        out->plan.n_swept);
        else
            br_error_at((br_pos){out->suite.path, 0, 0},
                        "no kernel of the suite matches the -k pattern(s) given");
        return -1;
    }
    size_t n = out->plan.n_cases;
    out->bytes = calloc(n, sizeof *out->bytes);
    out->flops = calloc(n, sizeof *out->flops);
    out->memory = calloc(n, sizeof *out->memory);
    if (!out->bytes || !out->flops || !out->memory)
        return br_error_set("out of memory");
    if (eval_per_case(out->bytes, out, &out->suite.bytes, "bytes") != 0 ||
        eval_per_case(out->flops, out, &out->suite.flops, "flops") != 0 ||
        eval_per_case(out->memory, out, &out->suite.memory, "memory") != 0)
        return -1;
    return find_variants(out);
}

void br_job_dispose(br_job *j) {
    if (!j)
        return;
    br_suite_dispose(&j->suite);
    br_plan_dispose(&j->plan);
    free(j->bytes);
    free(j->flops);
    free(j->memory);
    free(j->variant_of);
    free(j->variant_combo);
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
    size_t cases_done;    /* cases of the invocation run (or skipped) so far */
    double start_ns;      /* when the invocation's first case started; 0 before */
    double overhead_ns;   /* summed time of cases outside warmup and sampling */
    size_t n_overhead;    /* cases in overhead_ns */
    char clock_note[600]; /* why the kernel clock is not used although wanted; "" otherwise */
    /* The worker process that makes every CUDA call and runs the cases
     * (worker.h); NULL when none runs. The session's fields above that the
     * worker sets (device, gpu_clock, clock_note, peak_gbps) come back in
     * its replies; its timers live in its own copy of the session. */
    br_worker *worker;
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
    br_worker_stop(s->worker);
    for (int b = 0; b < 2; b++)
        if (s->timer_state[b])
            timer_ops((br_backend)b)->close(s->timer_state[b]);
    free(s->cache_dir);
    free(s);
}

/* Find out whether a GPU is usable, in this process (a worker: this
 * initialises CUDA). */
static void query_gpu_here(br_session *s) {
    s->gpu_ok = 0;
    if (!br_device_available(s->gpu_why, sizeof s->gpu_why))
        return;
    if (br_device_query(&s->device, 0) != 0) {
        snprintf(s->gpu_why, sizeof s->gpu_why, "%s", br_error_get());
        return;
    }
    snprintf(s->gpu_arch, sizeof s->gpu_arch, "sm_%d%d", s->device.cc_major, s->device.cc_minor);
    s->gpu_ok = 1;
}

/* What a worker is asked (worker_request.kind). */
enum { BR_REQ_DEVICE = 1, BR_REQ_PEAK = 2, BR_REQ_CASE = 3 };
static int ask_worker(br_session *s, int kind);

/* End the session's worker (one that ended, or that must not serve on). */
static void drop_worker(br_session *s) {
    br_worker_stop(s->worker);
    s->worker = NULL;
}

/* Find out once whether a GPU is usable: in a worker when benchrun has
 * CUDA, so the parent never initialises it. */
static int session_gpu(br_session *s) {
    if (s->gpu_checked)
        return s->gpu_ok;
    s->gpu_checked = 1;
#if BR_HAVE_CUDA
    if (ask_worker(s, BR_REQ_DEVICE) != 0) {
        s->gpu_ok = 0;
        snprintf(s->gpu_why, sizeof s->gpu_why, "cannot query the GPU: %s", br_error_get());
    }
    /* The modules are loaded after this: a worker for the cases is forked then. */
    drop_worker(s);
#else
    query_gpu_here(s);
#endif
    return s->gpu_ok;
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
            char said[sizeof s->clock_note]; /* a worker before this one said it already */
            memcpy(said, s->clock_note, sizeof said);
            s->gpu_clock = br_run_resolve_clock(s->opts.gpu_clock, s->opts.no_cupti, kernel, why,
                                                s->clock_note, sizeof s->clock_note);
            if (s->clock_note[0] && strcmp(said, s->clock_note) != 0)
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
 * stopping rules) and cached in the compile cache directory (peak.h), in
 * this process (a worker). Returns NAN with a warning on standard error
 * when it cannot be measured. */
static double measure_peak_here(br_session *s) {
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

/* The measured peak (measure_peak_here), GB/s, once per session, from the
 * worker; NAN with a warning when it cannot be had. */
static double session_measured_peak(br_session *s) {
    if (s->peak_tried)
        return s->peak_gbps;
    s->peak_tried = 1;
    if (ask_worker(s, BR_REQ_PEAK) != 0) { /* else the reply set peak_gbps */
        s->peak_gbps = NAN;
        fprintf(stderr, "benchrun: warning: cannot measure the peak bandwidth: %s\n",
                br_error_get());
    }
    return s->peak_gbps;
}

/* The host's physical memory, bytes; INFINITY when it cannot be read. */
static double host_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : INFINITY;
}

/* Bytes for a message in decimal units: "512 B", "4.29 GB", "4.5 PB". */
static void format_bytes(char *buf, size_t len, double bytes) {
    static const char *const units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    size_t u = 0;
    while (bytes >= 1000 && u + 1 < sizeof units / sizeof *units) {
        bytes /= 1000;
        u++;
    }
    snprintf(buf, len, u ? "%.3g %s" : "%.0f %s", bytes, units[u]);
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
    case BR_MEM_HOST: {
        /* More than the machine has would be granted by overcommit and then
         * killed when touched: refuse it with a reason instead. */
        if ((double)size > host_memory()) {
            char a[32], b[32];
            format_bytes(a, sizeof a, (double)bytes);
            format_bytes(b, sizeof b, host_memory());
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
                     br_backend backend, const int64_t *values, const br_measure_cfg *cfg,
                     double warmup_ns) {
    const br_suite *suite = &job->suite;
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
        .warmup_ns = warmup_ns,
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
    br_worker_set_stage("setup");
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
    br_worker_set_stage("run");
    if (ops->sample(state, &once, exec_run, &ci, &smp) != 0) {
        set_failed(r, "run", &ci);
        goto done;
    }
    br_worker_set_stage("verify");
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
    br_worker_set_stage("run");
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
    br_worker_set_stage("verify");
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
    br_worker_set_stage("teardown");
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
    br_module_handle *mods; /* variant-major: n_variants x n_sources, sources in suite order */
    size_t n_mods;
    kernel_ref *refs; /* variant-major: n_variants x n_kernels */
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

/* The extra compiler flags of variant x: -DNAME=VALUE per `defines` param,
 * then -lNAME per `link` library, into flags[] (owned strings, freed by the
 * caller). Returns the count, or -1 (out of memory). */
static int variant_flags(char **flags, const br_job *job, size_t x) {
    const br_suite *s = &job->suite;
    const int64_t *v = br_plan_params(&job->plan, job->variant_combo[x]);
    int n = 0;
    for (size_t p = 0; p < s->n_params; p++)
        if (s->params[p].define &&
            !(flags[n++] = br_strfmt("-D%s=%lld", s->params[p].name, (long long)v[p])))
            return -1;
    for (size_t l = 0; l < s->n_libs; l++)
        if (!(flags[n++] = br_strfmt("-l%s", s->libs[l].text)))
            return -1;
    return n;
}

/* The kernel of case i of a built job. */
static const kernel_ref *case_ref(const br_job *job, size_t i) {
    const br_plan_case *pc = &job->plan.cases[i];
    return &job->built->refs[job->variant_of[pc->combo] * job->suite.n_kernels + pc->kernel];
}

static br_backend ref_backend(const kernel_ref *ref) {
    return ref->mh && ref->mh->is_gpu ? BR_BACKEND_GPU : BR_BACKEND_HOST;
}

/* Refuse, before anything runs, a case whose footprint (`memory`) is more
 * than the memory where it would run: the device's for a GPU kernel (when a
 * GPU is usable), the host's physical memory for a host kernel. Returns 0,
 * or -1 with a file:line:column error naming the case. */
static int check_memory(const br_job *job, const br_session *s) {
    const br_suite *suite = &job->suite;
    if (!br_work_present(&suite->memory))
        return 0;
    double host = host_memory();
    for (size_t i = 0; i < job->plan.n_cases; i++) {
        const br_plan_case *pc = &job->plan.cases[i];
        int gpu = ref_backend(case_ref(job, i)) == BR_BACKEND_GPU;
        double need = job->memory[i], have = gpu ? (double)s->device.global_mem_bytes : host;
        if (isnan(need) || (gpu && !s->gpu_ok) || need <= have)
            continue;
        char where[512], a[32], b[32];
        br_plan_describe(where, sizeof where, suite, br_plan_params(&job->plan, pc->combo));
        format_bytes(a, sizeof a, need);
        format_bytes(b, sizeof b, have);
        return br_error_at(br_work_expr(&suite->memory, pc->kernel)->pos,
                           "'memory' is %s for %s%s%s: more than the %s of %s", a,
                           suite->kernels[pc->kernel].text, suite->n_params ? " at " : "", where, b,
                           gpu ? s->device.name : "host memory");
    }
    return 0;
}

int br_job_build(br_job *job, br_session *s) {
    const br_suite *suite = &job->suite;
    size_t n_src = suite->n_sources, n_var = job->n_variants ? job->n_variants : 1;
    /* The suite keeps defines + link within BR_BUILD_MAX_EXTRA_FLAGS. */
    size_t n_mods = n_src * n_var, n_flags_each = BR_BUILD_MAX_EXTRA_FLAGS;
    int rc = -1;
    br_build_src *srcs = calloc(n_mods ? n_mods : 1, sizeof *srcs);
    char **flags = calloc(n_var * n_flags_each, sizeof *flags);
    struct br_job_build *b = calloc(1, sizeof *b);
    if (b) {
        b->mods = calloc(n_mods ? n_mods : 1, sizeof *b->mods);
        b->refs = calloc(suite->n_kernels ? suite->n_kernels * n_var : 1, sizeof *b->refs);
        b->n_mods = n_mods;
    }
    if (!srcs || !flags || !b || !b->mods || !b->refs) {
        br_error_set("out of memory");
        goto done;
    }
    int needs_gpu = 0;
    for (size_t x = 0; x < n_var; x++) {
        char **f = flags + x * n_flags_each;
        int nf = job->variant_combo ? variant_flags(f, job, x) : 0;
        if (nf < 0) {
            br_error_set("out of memory");
            goto done;
        }
        for (size_t i = 0; i < n_src; i++) {
            srcs[x * n_src + i] =
                (br_build_src){suite->sources[i].text, (const char *const *)f, (size_t)nf};
            needs_gpu |= br_has_suffix(suite->sources[i].text, ".cu");
        }
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
    if (!s->opts.quiet) {
        if (n_var > 1)
            fprintf(stderr,
                    "benchrun: %s: building %zu kernel module(s): %zu source(s) x %zu "
                    "compile-time variants (cache %s)\n",
                    suite->path, n_mods, n_src, n_var, s->cache_dir);
        else
            fprintf(stderr, "benchrun: %s: building %zu kernel module(s) (cache %s)\n", suite->path,
                    n_mods, s->cache_dir);
    }
    if (br_build_modules(b->mods, srcs, n_mods, &bo) < 0)
        goto done;
    report_modules(b->mods, n_mods, s->opts.quiet);
    for (size_t x = 0; x < n_var; x++)
        if (resolve_kernels(b->refs + x * suite->n_kernels, suite, b->mods + x * n_src, n_src,
                            s->gpu_ok) != 0)
            goto done;
    job_build_free(job->built);
    job->built = b;
    b = NULL;
    if (check_memory(job, s) != 0)
        goto done;
    rc = 0;
done:
    /* A worker forked before these modules were loaded does not have them. */
    drop_worker(s);
    job_build_free(b);
    for (size_t i = 0; flags && i < n_var * n_flags_each; i++)
        free(flags[i]);
    free(flags);
    free(srcs);
    return rc;
}

/* ---- the worker process: every CUDA call and every case runs in it ---------------- */

/* A request, sent as its bytes. The worker is a fork of this process made
 * after the builds (br_job_build ends the session's worker), so `job` and
 * what it points to are valid in it. */
typedef struct worker_request {
    int kind;           /* BR_REQ_* */
    const br_job *job;  /* BR_REQ_CASE */
    size_t index;       /* BR_REQ_CASE: the case, in job->plan */
    br_measure_cfg cfg; /* BR_REQ_CASE: its measurement settings (budget applied) */
    double warmup_ns;   /* BR_REQ_CASE */
} worker_request;

/* A reply: the session fields the worker found out, then (BR_REQ_CASE) the
 * case's result as a results document of one run with one case (the json
 * reporter's), text_len bytes. */
typedef struct worker_reply {
    int gpu_ok;
    char gpu_why[512];
    br_device device;
    char gpu_arch[16];
    br_clock gpu_clock;
    char clock_note[600];
    double peak_gbps; /* BR_REQ_PEAK */
    size_t text_len;
} worker_reply;

_Static_assert(sizeof(((worker_reply *)0)->gpu_why) == sizeof(((br_session *)0)->gpu_why) &&
                   sizeof(((worker_reply *)0)->gpu_arch) == sizeof(((br_session *)0)->gpu_arch) &&
                   sizeof(((worker_reply *)0)->clock_note) == sizeof(((br_session *)0)->clock_note),
               "worker_reply carries the session's fields whole");

/* What case i is, before it runs: kernel, combination, a copy of its
 * parameter values, bytes and flops. Returns 0, or -1 (out of memory). */
static int case_init(br_case_result *r, const br_job *job, size_t i) {
    const br_plan_case *pc = &job->plan.cases[i];
    size_t np = job->suite.n_params;
    r->kernel = pc->kernel;
    r->combo = pc->combo;
    r->params = malloc((np ? np : 1) * sizeof *r->params);
    if (!r->params)
        return br_error_set("out of memory");
    if (np)
        memcpy(r->params, br_plan_params(&job->plan, pc->combo), np * sizeof *r->params);
    r->bytes = job->bytes[i];
    r->flops = job->flops[i];
    return 0;
}

static int fill_header(br_run *out, const br_job *job, const br_session *s);

/* In the worker: the results document of case i with result *r (whose
 * contents it takes), into a malloc'd text of *len bytes; NULL with the
 * error set on failure. */
static char *case_document(size_t *len, const br_job *job, const br_session *s, br_case_result *r) {
    br_run run = {0};
    char *text = NULL;
    size_t size = 0;
    int ok = fill_header(&run, job, s) == 0 && (run.cases = malloc(sizeof *r)) != NULL;
    if (run.cases) {
        run.cases[0] = *r;
        run.n_cases = 1;
        memset(r, 0, sizeof *r);
    }
    br_run_derive(&run);
    FILE *f = ok ? open_memstream(&text, &size) : NULL;
    const br_reporter *rep = br_reporter_find("json");
    const br_run *runs[] = {&run};
    br_report_opts opts = {0};
    ok = f && rep && rep->write(f, runs, 1, &opts) == 0;
    if (f && fclose(f) != 0)
        ok = 0;
    br_run_dispose(&run); /* and what *r held */
    if (!ok) {
        free(text);
        br_error_set("cannot write a case's result");
        return NULL;
    }
    *len = size;
    return text;
}

/* The worker's request handler (br_worker_serve_fn); ctx is the session
 * (the worker's copy). */
static int worker_serve(void *ctx, const void *req, size_t len, void **reply, size_t *reply_len) {
    br_session *s = ctx;
    if (!req) { /* the parent is done with this worker: flush CUPTI, release the GPU */
        for (int b = 0; b < 2; b++)
            if (s->timer_state[b])
                timer_ops((br_backend)b)->close(s->timer_state[b]);
        memset(s->timer_state, 0, sizeof s->timer_state);
        return 0;
    }
    worker_request q;
    worker_reply h;
    if (len != sizeof q)
        return -1;
    memcpy(&q, req, sizeof q);
    memset(&h, 0, sizeof h);
    char *text = NULL;
    int rc = 0;
    switch (q.kind) {
    case BR_REQ_DEVICE:
        query_gpu_here(s);
        break;
    case BR_REQ_PEAK:
        h.peak_gbps = measure_peak_here(s);
        rc = isnan(h.peak_gbps); /* it failed: a fresh worker runs the cases */
        break;
    case BR_REQ_CASE: {
        br_worker_set_stage("init"); /* a fresh worker starts CUDA and CUPTI first */
        br_case_result r = {0};
        const kernel_ref *ref = case_ref(q.job, q.index);
        if (case_init(&r, q.job, q.index) != 0)
            return -1;
        run_case(&r, q.job, s, ref->k, ref_backend(ref), r.params, &q.cfg, q.warmup_ns);
        /* After a failure the process may be poisoned (a sticky CUDA error):
         * a fresh worker takes the next case. */
        rc = r.status == BR_STATUS_OK ? 0 : 1;
        if (!(text = case_document(&h.text_len, q.job, s, &r)))
            return -1;
        break;
    }
    default:
        return -1;
    }
    h.gpu_ok = s->gpu_ok;
    memcpy(h.gpu_why, s->gpu_why, sizeof h.gpu_why);
    h.device = s->device;
    memcpy(h.gpu_arch, s->gpu_arch, sizeof h.gpu_arch);
    h.gpu_clock = s->gpu_clock;
    memcpy(h.clock_note, s->clock_note, sizeof h.clock_note);
    char *buf = malloc(sizeof h + h.text_len);
    if (!buf) {
        free(text);
        return -1;
    }
    memcpy(buf, &h, sizeof h);
    if (h.text_len)
        memcpy(buf + sizeof h, text, h.text_len);
    free(text);
    *reply = buf;
    *reply_len = sizeof h + h.text_len;
    return rc;
}

/* The session's worker, started when none runs. Returns 0, or -1 with the
 * error set. */
static int session_worker(br_session *s) {
    if (br_worker_alive(s->worker))
        return 0;
    drop_worker(s);
    return br_worker_start(&s->worker, worker_serve, s);
}

/* Send q to the worker and take the session fields of its reply; *text
 * (may be NULL) gets the text that follows (malloc'd, NUL-terminated, *len
 * bytes). Returns BR_WORKER_OK, or another br_worker_result (the worker is
 * gone; the error is set for BR_WORKER_DIED and BR_WORKER_ERROR). */
static br_worker_result call_worker(br_session *s, const worker_request *q, double timeout_ns,
                                    char **text, size_t *len) {
    void *reply = NULL;
    size_t n = 0;
    if (session_worker(s) != 0)
        return BR_WORKER_ERROR;
    br_worker_result wr = br_worker_call(s->worker, q, sizeof *q, timeout_ns, &reply, &n);
    if (wr != BR_WORKER_OK)
        return wr;
    worker_reply h;
    if (n < sizeof h || (memcpy(&h, reply, sizeof h), h.text_len != n - sizeof h)) {
        free(reply);
        drop_worker(s);
        br_error_set("the worker process sent a malformed reply");
        return BR_WORKER_ERROR;
    }
    s->gpu_ok = h.gpu_ok;
    memcpy(s->gpu_why, h.gpu_why, sizeof s->gpu_why);
    s->gpu_why[sizeof s->gpu_why - 1] = '\0';
    s->device = h.device;
    memcpy(s->gpu_arch, h.gpu_arch, sizeof s->gpu_arch);
    s->gpu_arch[sizeof s->gpu_arch - 1] = '\0';
    s->gpu_clock = h.gpu_clock;
    memcpy(s->clock_note, h.clock_note, sizeof s->clock_note);
    s->clock_note[sizeof s->clock_note - 1] = '\0';
    if (q->kind == BR_REQ_PEAK)
        s->peak_gbps = h.peak_gbps;
    if (text) {
        /* The text moves to the front of the reply's buffer. */
        memmove(reply, (char *)reply + sizeof h, h.text_len);
        ((char *)reply)[h.text_len] = '\0'; /* the header was longer than one byte */
        *text = reply;
        *len = h.text_len;
    } else {
        free(reply);
    }
    return BR_WORKER_OK;
}

/* Ask the worker for the device (BR_REQ_DEVICE: fills s->gpu_ok, gpu_why,
 * device, gpu_arch) or the measured peak (BR_REQ_PEAK: fills s->peak_gbps,
 * GB/s). Returns 0, or -1 with the error set. */
static int ask_worker(br_session *s, int kind) {
    worker_request q = {.kind = kind};
    /* Both take seconds at most; a minute is a driver that hangs. */
    br_worker_result wr = call_worker(s, &q, 60e9, NULL, NULL);
    if (wr == BR_WORKER_TIMED_OUT)
        return br_error_set("the worker process gave no answer in 1 min");
    if (wr == BR_WORKER_STOPPED)
        return br_error_set("interrupted");
    return wr == BR_WORKER_OK ? 0 : -1;
}

/* Run case i of job in the worker and fill *r (prepared by case_init)
 * with its outcome: measured, failed, or failed because the worker died
 * (the signal or exit status) or ran past the watchdog's limit (then it
 * is killed). After a failure the worker is replaced. Returns 0, or 1 when
 * an interrupt stopped the case (*r untouched; the worker is killed). */
static int exec_case(br_case_result *r, const br_job *job, br_session *s, size_t i,
                     const br_measure_cfg *cfg, double warmup_ns) {
    const br_suite *suite = &job->suite;
    worker_request q = {
        .kind = BR_REQ_CASE, .job = job, .index = i, .cfg = *cfg, .warmup_ns = warmup_ns};
    int modes = (cfg->mode & BR_MODE_COLD ? 1 : 0) + (cfg->mode & BR_MODE_BATCH ? 1 : 0);
    double limit = modes * (warmup_ns + cfg->timeout_ns) + suite->watchdog_ns;
    char *text = NULL;
    size_t len = 0;
    br_worker_result wr = call_worker(s, &q, limit, &text, &len);
    if (wr == BR_WORKER_STOPPED) {
        drop_worker(s);
        return 1;
    }
    if (wr == BR_WORKER_OK) {
        br_run *runs = NULL;
        size_t n = 0;
        if (br_results_parse(&runs, &n, text, len, "the worker's result") == 0 && n == 1 &&
            runs[0].n_cases == 1) {
            br_case_result *c = &runs[0].cases[0];
            r->status = c->status;
            r->stage = c->stage;
            r->message = c->message;
            r->cold = c->cold;
            r->batch = c->batch;
            c->stage = c->message = NULL;
            memset(&c->cold, 0, sizeof c->cold);
            memset(&c->batch, 0, sizeof c->batch);
        } else {
            if (n == 1)
                br_error_set("it holds %zu cases", runs[0].n_cases);
            r->status = BR_STATUS_FAILED;
            r->stage = br_strdup("run");
            r->message = br_strfmt("cannot read the worker process's result: %s", br_error_get());
        }
        br_results_free(runs, n);
        free(text);
        if (r->status != BR_STATUS_OK)
            drop_worker(s); /* it exits after a failure */
        return 0;
    }
    const char *stage = br_worker_stage(s->worker);
    r->status = BR_STATUS_FAILED;
    r->stage = br_strdup(stage[0] ? stage : "run");
    if (wr == BR_WORKER_TIMED_OUT) {
        char total[32], w[32], t[32], d[32];
        br_format_duration(total, sizeof total, limit);
        br_format_duration(w, sizeof w, warmup_ns);
        br_format_duration(t, sizeof t, cfg->timeout_ns);
        br_format_duration(d, sizeof d, suite->watchdog_ns);
        r->message = br_strfmt("timed out after %s (%swarmup %s + timeout %s%s + watchdog %s): "
                               "its worker process was killed",
                               total, modes > 1 ? "(" : "", w, t, modes > 1 ? ") x 2" : "", d);
    } else if (wr == BR_WORKER_ERROR) {
        free(r->stage);
        r->stage = br_strdup("setup");
        r->message = br_strfmt("could not run the case in a worker process: %s", br_error_get());
    } else {
        r->message = br_strfmt("crashed: %s", br_error_get());
    }
    drop_worker(s);
    return 0;
}

/* ---- measuring one suite ------------------------------------------------------------- */

/* Plan case i of job under the time budget(s): --budget over the whole
 * invocation (cases left: of every job) and the suite's `budget` over its
 * own run (cases left: of this job); the tighter allowance wins. Returns 1
 * when a budget applies (*out filled), 0 when none does. */
static int plan_budget(br_budget_case *out, const br_session *s, const br_job *job, size_t i,
                       double job_elapsed_ns, size_t total) {
    const br_suite *suite = &job->suite;
    double left = INFINITY;
    size_t cases_left = 1;
    int any = 0;
    if (s->opts.budget_ns > 0) {
        left = s->opts.budget_ns - (br_now_ns() - s->start_ns);
        cases_left = total > s->cases_done ? total - s->cases_done : 1;
        any = 1;
    }
    if (suite->budget_ns > 0) {
        double l = suite->budget_ns - job_elapsed_ns;
        size_t c = job->plan.n_cases - i;
        if (!any || l / (double)c < left / (double)cases_left) {
            left = l;
            cases_left = c;
        }
        any = 1;
    }
    if (!any)
        return 0;
    int modes = (suite->measure.mode & BR_MODE_COLD ? 1 : 0) +
                (suite->measure.mode & BR_MODE_BATCH ? 1 : 0);
    double overhead = s->n_overhead ? s->overhead_ns / (double)s->n_overhead : 0;
    br_budget_plan(out, &suite->measure, suite->warmup_ns, modes, left, cases_left, overhead);
    return 1;
}

/* The progress line: on a terminal (opts.progress), one line on stderr
 * rewritten before each case: case i of N, kernel and params, elapsed time
 * and the time left at the mean pace so far. */
static void show_progress(const br_session *s, const br_job *job, const br_plan_case *pc,
                          size_t total, double now) {
    if (!s->opts.progress)
        return;
    const br_suite *suite = &job->suite;
    char line[512], elapsed[32], eta[32];
    double spent = now - s->start_ns;
    br_format_clock(elapsed, sizeof elapsed, spent);
    if (s->cases_done > 0) {
        double rest = spent / (double)s->cases_done * (double)(total - s->cases_done);
        if (s->opts.budget_ns > 0 && rest > s->opts.budget_ns - spent)
            rest = s->opts.budget_ns - spent;
        br_format_clock(eta, sizeof eta, rest > 0 ? rest : 0);
    } else {
        snprintf(eta, sizeof eta, "?");
    }
    int n = snprintf(line, sizeof line, "[%zu/%zu] %s", s->cases_done + 1, total,
                     suite->kernels[pc->kernel].text);
    const int64_t *v = br_plan_params(&job->plan, pc->combo);
    for (size_t p = 0; p < suite->n_params && n > 0 && (size_t)n < sizeof line; p++) {
        char val[32];
        br_format_param(val, sizeof val, v[p]);
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%s", suite->params[p].name, val);
    }
    /* One terminal line: cut the case description to leave room for the times. */
    if (n > 70)
        snprintf(line + 67, sizeof line - 67, "...");
    fprintf(stderr, "\r\033[K%s  %s elapsed, ETA %s", line, elapsed, eta);
    fflush(stderr);
}

/* The run's header from the job and the session: everything but the
 * cases, the git information and a measured peak. Returns 0, or -1 (out
 * of memory). */
static int fill_header(br_run *out, const br_job *job, const br_session *s) {
    const br_suite *suite = &job->suite;
    const struct br_job_build *b = job->built;
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
    if (!out->benchrun_version || !out->suite_name || !out->suite_path || !out->param_names ||
        !out->kernels)
        return br_error_set("out of memory");
    for (size_t p = 0; p < suite->n_params; p++)
        if (!(out->param_names[p] = br_strdup(suite->params[p].name)))
            return -1;
    out->peak_kind = suite->peak;
    out->peak_gbps = NAN;
    out->peak_gflops = NAN;
    for (size_t i = 0; s->gpu_ok && i < b->n_mods; i++) {
        if (b->mods[i].is_gpu) {
            out->has_device = 1;
            out->device = s->device;
        }
    }
    if (out->has_device) {
        out->peak_gbps = out->device.peak_gbps;
        out->peak_gflops = out->device.peak_gflops; /* FP32; `peak: measured` is GB/s only */
    }
    for (size_t i = 0; i < suite->n_kernels; i++) {
        br_run_kernel *rk = &out->kernels[i];
        const kernel_ref *ref = &b->refs[i];
        rk->name = br_strdup(suite->kernels[i].text);
        rk->source = br_strdup(ref->mh ? ref->mh->source : "");
        rk->backend = ref_backend(ref);
        if (!rk->name || !rk->source)
            return -1;
    }
    out->gpu_clock = s->gpu_clock;
    return 0;
}

int br_job_execute(br_run *out, const br_job *job, br_session *s) {
    const br_suite *suite = &job->suite;
    const struct br_job_build *b = job->built;
    memset(out, 0, sizeof *out);
    if (!b)
        return br_error_set("%s: the suite's kernels were not built (br_job_build)", suite->path);
    if (fill_header(out, job, s) != 0)
        return -1;
    out->n_cases = job->plan.n_cases;
    out->cases = calloc(out->n_cases ? out->n_cases : 1, sizeof *out->cases);
    if (!out->cases)
        return br_error_set("out of memory");
    if (br_gitinfo_read(&out->git, suite->path) != 0) {
        fprintf(stderr, "benchrun: warning: %s: cannot read git information: %s\n", suite->path,
                br_error_get());
        memset(&out->git, 0, sizeof out->git);
    }
    if (out->has_device && suite->peak == BR_PEAK_MEASURED && !br_stop_signal()) {
        out->device.measured_peak_gbps = session_measured_peak(s);
        out->peak_gbps = out->device.measured_peak_gbps;
    }

    size_t n_skipped = 0, n_budget_skipped = 0, n_shortened = 0;
    double min_timeout = INFINITY, job_start = br_now_ns();
    size_t total = s->opts.total_cases > 0 ? s->opts.total_cases : job->plan.n_cases;
    if (s->start_ns == 0)
        s->start_ns = job_start;
    size_t i = 0;
    for (; i < job->plan.n_cases && !br_stop_signal(); i++) {
        const br_plan_case *pc = &job->plan.cases[i];
        br_case_result *r = &out->cases[i];
        if (case_init(r, job, i) != 0)
            return -1;
        const kernel_ref *ref = case_ref(job, i);
        double t0 = br_now_ns();
        br_measure_cfg cfg = suite->measure;
        double warmup_ns = suite->warmup_ns;
        br_budget_case bc = {0};
        int budgeted = plan_budget(&bc, s, job, i, t0 - job_start, total);
        if (budgeted) {
            cfg.min_time_ns = bc.min_time_ns;
            cfg.timeout_ns = bc.timeout_ns;
            warmup_ns = bc.warmup_ns;
        }
        show_progress(s, job, pc, total, t0);
        s->cases_done++;
        if (budgeted && bc.skip) {
            r->status = BR_STATUS_SKIPPED;
            r->stage = br_strdup("budget");
            r->message = br_strdup("the time budget was spent before this case");
            n_budget_skipped++;
        } else if (ref->status == BR_STATUS_SKIPPED) {
            r->status = BR_STATUS_SKIPPED;
            r->stage = br_strdup("no-gpu");
            r->message = br_strdup(s->gpu_why[0] ? s->gpu_why : "no usable GPU");
            n_skipped++;
        } else if (ref->status == BR_STATUS_FAILED) {
            r->status = BR_STATUS_FAILED;
            r->stage = br_strdup("compile");
            r->message = br_strfmt("%s: %s", ref->mh->source, ref->mh->message);
        } else {
            if (exec_case(r, job, s, i, &cfg, warmup_ns) != 0)
                break; /* interrupted: this case did not finish */
            double inside = 0;
            const br_timing *t[] = {&r->cold, &r->batch};
            for (size_t m = 0; m < 2; m++)
                if (t[m]->present)
                    inside += t[m]->warmup_ns + t[m]->measure_ns;
            double outside = br_now_ns() - t0 - inside;
            s->overhead_ns += outside > 0 ? outside : 0;
            s->n_overhead++;
            if (budgeted && bc.shortened) {
                n_shortened++;
                if (bc.timeout_ns < min_timeout)
                    min_timeout = bc.timeout_ns;
            }
        }
    }
    if (s->opts.progress)
        fputs("\r\033[K", stderr);
    int sig = br_stop_signal();
    if (sig && i < job->plan.n_cases) {
        /* What was not run is listed as such, so every output holds the whole plan. */
        char name[32];
        br_signal_name(name, sizeof name, sig);
        out->interrupted = br_strdup(name);
        if (!out->interrupted)
            return -1;
        for (; i < job->plan.n_cases; i++) {
            br_case_result *r = &out->cases[i];
            free(r->params);
            memset(r, 0, sizeof *r);
            if (case_init(r, job, i) != 0)
                return -1;
            r->status = BR_STATUS_SKIPPED;
            r->stage = br_strdup("interrupted");
            r->message = br_strfmt("not run: benchrun was interrupted (%s)", out->interrupted);
            if (!r->stage || !r->message)
                return -1;
        }
    }
    if (!s->opts.quiet && (n_shortened || n_budget_skipped)) {
        char budget[64];
        br_format_duration(budget, sizeof budget,
                           suite->budget_ns > 0 &&
                                   (s->opts.budget_ns <= 0 || suite->budget_ns < s->opts.budget_ns)
                               ? suite->budget_ns
                               : s->opts.budget_ns);
        fprintf(stderr, "benchrun: %s: to fit the time budget of %s:", suite->path, budget);
        if (n_shortened) {
            char to[64], from[64];
            br_format_duration(to, sizeof to, min_timeout);
            br_format_duration(from, sizeof from, suite->measure.timeout_ns);
            fprintf(stderr,
                    " %zu case(s) measured with a shorter timeout (%s instead of %s at "
                    "the least) and warmup",
                    n_shortened, to, from);
        }
        if (n_budget_skipped)
            fprintf(stderr, "%s %zu case(s) skipped, the budget being spent",
                    n_shortened ? ";" : "", n_budget_skipped);
        fputs("\n", stderr);
    }
    if (n_skipped)
        out->gpu_skip_reason = br_strdup(s->gpu_why[0] ? s->gpu_why : "no usable GPU");
    out->gpu_clock = s->gpu_clock;
    if (s->clock_note[0] && !(out->clock_note = br_strdup(s->clock_note)))
        return -1;
    br_run_derive(out);
    return 0;
}
