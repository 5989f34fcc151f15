/* SPDX-License-Identifier: Apache-2.0 */
/* What the suites of one invocation share (session.h): the
 * device, the timers, the GPU clock choice and the measured peak. */
#include "session_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/util.h"
#include "compile/build.h"
#include "compile/resolve.h"
#include "platform/cpufreq.h"
#include "platform/energy.h"
#include "platform/device.h"
#include "platform/flops.h"
#include "measure/measure.h"
#include "platform/compute_peak.h"
#include "platform/peak.h"
#include "plan/job.h"
#include "model/settings.h"
#include "model/stats.h"

#if BR_HAVE_CUDA
#include "measure/gpu_kernels.h"
#include "platform/cuda_check.h"
#endif

/* ---- session ------------------------------------------------------------------- */

int br_session_open(br_session **out, const br_run_opts *opts) {
    br_session *s = calloc(1, sizeof *s);
    if (!s)
        return br_error_nomem();
    s->opts = *opts;
    s->cache_dir = opts->cache_dir ? br_strdup(opts->cache_dir) : br_build_default_cache_dir();
    if (!s->cache_dir) {
        free(s);
        return -1;
    }
    int want = opts->cpu > 0 ? opts->cpu - 1 : opts->cpu < 0 ? -2 : -1;
    if (br_cpu_choose(&s->cpu, NULL, NULL, want) != 0) {
        free(s->cache_dir);
        free(s);
        return -1;
    }
    br_host_query(&s->host);
    br_cpufreq_state fs;
    br_cpufreq_state_read(&fs, NULL, s->cpu.cpu);
    if (fs.governor[0])
        snprintf(s->host.governor, sizeof s->host.governor, "%s", fs.governor);
    s->host.freq_scaling = fs.scaling;
    s->host.turbo = fs.turbo;
    s->host.pinned = s->cpu.cpu >= 0;
    s->host.cpu = s->cpu.cpu;
    s->gpu_clock = BR_CLOCK_EVENTS;
    char why[512];
    if (s->opts.energy && !br_energy_available(why, sizeof why)) {
        /* Said once here, before any worker exists, and never asked again. */
        br_log(BR_LOG_WARN, "benchrun: energy: NVML not available (%s): no energy figures\n", why);
        s->opts.energy = 0;
    }
    *out = s;
    return 0;
}

const br_timer_ops *br_session_timer_ops(br_backend b) {
    return br_timer_find(b == BR_BACKEND_GPU ? "cuda-events" : "monotonic");
}

void br_session_close(br_session *s) {
    if (!s)
        return;
    br_worker_stop(s->worker);
    for (int b = 0; b < 2; b++)
        if (s->timer_state[b])
            br_session_timer_ops((br_backend)b)->close(s->timer_state[b]);
    free(s->cache_dir);
    free(s);
}

void br_session_bind(br_session *s, const char *visible) {
    snprintf(s->visible, sizeof s->visible, "%s", visible ? visible : "");
}

/* Find out whether a GPU is usable, in this process (a worker: this
 * initialises CUDA). */
void br_session_query_gpu_here(br_session *s) {
    s->gpu_ok = 0;
    s->device_count = 0;
    if (!br_device_available(s->gpu_why, sizeof s->gpu_why))
        return;
#if BR_HAVE_CUDA
    if (cudaGetDeviceCount(&s->device_count) != cudaSuccess)
        s->device_count = 0;
#endif
    if (br_device_query(&s->device, 0) != 0) {
        snprintf(s->gpu_why, sizeof s->gpu_why, "%s", br_error_get());
        return;
    }
    snprintf(s->gpu_arch, sizeof s->gpu_arch, "sm_%d%d", s->device.cc_major, s->device.cc_minor);
    s->gpu_ok = 1;
}

void br_session_drop_worker(br_session *s) {
    br_worker_stop(s->worker);
    s->worker = NULL;
}

void br_session_adopt_query(br_session *dst, const br_session *src) {
    dst->gpu_checked = 1;
    dst->gpu_ok = src->gpu_ok;
    memcpy(dst->gpu_why, src->gpu_why, sizeof dst->gpu_why);
    dst->device = src->device;
    memcpy(dst->gpu_arch, src->gpu_arch, sizeof dst->gpu_arch);
    dst->device_count = dst->visible[0] && src->gpu_ok ? 1 : src->device_count;
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
void *br_session_timer(br_session *s, br_backend b) {
    if (s->timer_state[b])
        return s->timer_state[b];
    if (s->timer_failed[b]) {
        br_error_set("%s", s->timer_error[b]);
        return NULL;
    }
    const br_timer_ops *ops = br_session_timer_ops(b);
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
                br_log(BR_LOG_NOTE,
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

/* ---- what the drivers read ----------------------------------------------------------- */

const br_run_opts *br_session_opts(const br_session *s) {
    return &s->opts;
}

int br_session_gpu_ok(const br_session *s) {
    return s->gpu_ok;
}

const char *br_session_gpu_why(const br_session *s) {
    return s->gpu_why;
}

const br_device *br_session_device(const br_session *s) {
    return &s->device;
}

const br_host *br_session_host(const br_session *s) {
    return &s->host;
}

const br_cpu_choice *br_session_cpu(const br_session *s) {
    return &s->cpu;
}

br_clock br_session_gpu_clock(const br_session *s) {
    return s->gpu_clock;
}

const char *br_session_clock_note(const br_session *s) {
    return s->clock_note;
}

const char *br_session_visible(const br_session *s) {
    return s->visible;
}

int br_session_device_count(const br_session *s) {
    return s->device_count;
}

/* ---- what the drivers ask ------------------------------------------------------------ */

/* Find out once whether a GPU is usable: in a worker when benchrun has
 * CUDA, so the parent never initialises it. */
int br_session_gpu(br_session *s) {
    if (s->gpu_checked)
        return s->gpu_ok;
    s->gpu_checked = 1;
#if BR_HAVE_CUDA
    if (br_session_ask(s, BR_REQ_DEVICE) != 0) {
        s->gpu_ok = 0;
        snprintf(s->gpu_why, sizeof s->gpu_why, "cannot query the GPU: %s", br_error_get());
    }
    /* The modules are loaded after this: a worker for the cases is forked then. */
    br_session_drop_worker(s);
#else
    br_session_query_gpu_here(s);
#endif
    return s->gpu_ok;
}

/* The measured peak (measure_peak_here), GB/s, once per session, from the
 * worker; NAN with a warning when it cannot be had. */
double br_session_measured_peak(br_session *s) {
    if (s->peak_tried)
        return s->peak_gbps;
    s->peak_tried = 1;
    if (br_session_ask(s, BR_REQ_PEAK) != 0) { /* else the reply set peak_gbps */
        s->peak_gbps = NAN;
        br_log(BR_LOG_WARN, "benchrun: warning: cannot measure the peak bandwidth: %s\n",
               br_error_get());
    }
    return s->peak_gbps;
}

void br_session_measured_compute(br_session *s, br_precision p, br_compute_measure *out) {
    memset(out, 0, sizeof *out);
    out->precision = p;
    out->gops = NAN;
    if (p <= BR_PRECISION_NONE || p >= BR_PRECISION_COUNT) {
        out->status = BR_COMPUTE_PEAK_UNAVAILABLE;
        snprintf(out->why, sizeof out->why, "no precision %d", (int)p);
        return;
    }
    if (!s->compute_tried[p]) {
        s->compute_tried[p] = 1;
        if (br_session_ask_compute(s, p, &s->compute[p]) != 0) {
            s->compute[p].precision = p;
            s->compute[p].status = BR_COMPUTE_PEAK_FAILED;
            s->compute[p].gops = NAN;
            snprintf(s->compute[p].why, sizeof s->compute[p].why, "%s", br_error_get());
        }
        if (s->compute[p].status == BR_COMPUTE_PEAK_FAILED)
            br_log(BR_LOG_WARN, "benchrun: warning: cannot measure the %s peak: %s\n",
                   br_precision_name(p), s->compute[p].why);
    }
    *out = s->compute[p];
}

/* Once per session, unless quiet: the GPU sources of a run without a
 * usable GPU were not compiled (br_session_build_job), naming those of
 * job's first variant and what compiles them. */
static void gpu_build_note(br_session *s, const br_job *job) {
    const struct br_job_build *b = job->built;
    size_t n_src = job->suite.n_sources, n = 0;
    char names[256] = "";
    if (s->gpu_build_noted || s->opts.quiet || !b)
        return;
    for (size_t i = 0; i < n_src && i < b->n_mods; i++) {
        const br_module_handle *h = &b->mods[i];
        if (!h->is_gpu || h->state != BR_MODULE_SKIPPED)
            continue;
        size_t used = strlen(names);
        if (used < sizeof names)
            snprintf(names + used, sizeof names - used, "%s%s", n ? ", " : "", h->source);
        n++;
    }
    if (!n)
        return;
    s->gpu_build_noted = 1;
    /* The cases' skip is said once, under the table (its notes). */
    br_log(BR_LOG_NOTE, "benchrun: no usable GPU: %s not compiled (benchrun check compiles %s)\n",
           names, n == 1 ? "it" : "them");
}

void br_session_skip_lacking(br_job *job, const br_device *d) {
    for (size_t k = 0; job->suite.precision && k < job->suite.n_kernels; k++)
        if (br_flops_lacks(d, job->suite.precision[k], NULL, 0))
            br_job_skip_kernel(job, k, BR_STAGE_PRECISION);
}

int br_session_build_job(br_session *s, br_job *job, br_build_purpose purpose) {
    if (br_job_needs_gpu(job))
        br_session_gpu(s);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    br_build_target t = {
        .cache_dir = s->cache_dir,
        .gpu_arch = s->gpu_ok ? s->gpu_arch : NULL,
        .compile_without_gpu = purpose == BR_BUILD_CHECK,
        .gpu_why = s->gpu_why,
        .jobs = s->opts.jobs > 0 ? s->opts.jobs : (ncpu > 0 ? (int)ncpu : 1),
        .quiet = s->opts.quiet,
        .progress = s->opts.progress,
        .gpu_mem_bytes = s->gpu_ok ? (double)s->device.global_mem_bytes : 0,
        .gpu_name = s->gpu_ok ? s->device.name : "",
    };
    int rc = br_job_build(job, &t);
    br_session_drop_worker(s);
    if (rc == 0 && purpose == BR_BUILD_RUN && s->gpu_ok)
        br_session_skip_lacking(job, &s->device);
    if (rc == 0 && purpose == BR_BUILD_RUN && !s->gpu_ok)
        gpu_build_note(s, job);
    return rc;
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

#if BR_HAVE_CUDA
/* The timing core's parameters for a peak (bandwidth or compute) on the GPU
 * timer `state`: the default warmup, a probe, the session's clock and the
 * device's maximum SM clock, a 5 s timeout; flush as given. */
static void peak_params(br_measure_params *mp, const br_session *s, void *state,
                        br_flush_kind flush) {
    *mp = (br_measure_params){.warmup_ns = BR_DEFAULT_WARMUP_NS,
                              .flush = flush,
                              .probe = 1,
                              .max_mhz = s->device.sm_clock_khz / 1e3,
                              .clock = s->gpu_clock,
                              .tick_ns = br_timer_cuda_events.tick(state)};
    br_measure_cfg_defaults(&mp->cfg);
    mp->cfg.timeout_ns = 5e9;
}
#endif

/* The device-to-device copy bandwidth of the session's GPU, GB/s (reading
 * and writing a buffer of `bytes` counts 2 x bytes), measured with the same
 * timing core as every case (cold samples, read flush, launch hold, default
 * stopping rules) and cached in the compile cache directory (peak.h), in
 * this process (a worker). Returns NAN with a warning on standard error
 * when it cannot be measured. */
double br_session_measure_peak_here(br_session *s) {
    s->peak_gbps = NAN;
#if BR_HAVE_CUDA
    double gbps = NAN;
    void *state = br_session_timer(s, BR_BACKEND_GPU);
    /* The peak is timed on the clock the cases are, and cached per clock. */
    char method[96];
    snprintf(method, sizeof method, "cudaMemcpyAsync device to device, cold median, %s clock",
             br_clock_name(s->gpu_clock));
    int cached = br_peak_cache_load(&gbps, s->cache_dir, &s->device, method);
    if (cached == 1) {
        s->peak_gbps = gbps;
        if (!s->opts.quiet)
            br_log(BR_LOG_NOTE,
                   "benchrun: measured peak %.0f GB/s (device-to-device copy, cached)\n", gbps);
        return gbps;
    }
    if (cached < 0)
        br_log(BR_LOG_WARN, "benchrun: warning: %s\n", br_error_get());
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
        br_measure_params mp;
        peak_params(&mp, s, state, BR_FLUSH_READ);
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
        br_log(BR_LOG_WARN, "benchrun: warning: cannot measure the peak bandwidth: %s\n",
               br_error_get());
        return NAN;
    }
    s->peak_gbps = gbps;
    if (!s->opts.quiet)
        br_log(BR_LOG_NOTE,
               "benchrun: measured peak %.0f GB/s (device-to-device copy of %zu MiB)\n", gbps,
               bytes >> 20);
    if (br_peak_cache_store(s->cache_dir, &s->device, gbps, 2.0 * (double)bytes, method) != 0)
        br_log(BR_LOG_WARN, "benchrun: warning: cannot cache the measured peak: %s\n",
               br_error_get());
#endif
    return s->peak_gbps;
}

/* ---- the measured compute peak ----------------------------------------------------- */

#if BR_HAVE_CUDA
typedef struct compute_ctx {
    int precision;
    int wgmma; /* 1: the wgmma kernel (BR_COMPUTE_WGMMA) */
    int blocks;
    long iters;
    void *sink;
    cudaStream_t stream;
} compute_ctx;

static int exec_compute(void *ctx) {
    compute_ctx *c = ctx;
    return BR_CUDA(br_gpu_compute_peak_launch(c->stream, c->precision, c->wgmma, c->blocks,
                                              c->iters, c->sink));
}

/* Iterations for one launch of about BR_COMPUTE_TARGET_NS: one launch of
 * 1024 to warm up (module load, clocks), one timed, scaled. Returns 0, or
 * -1 with the error set. */
#define BR_COMPUTE_TARGET_NS 2e6
static int size_launch(compute_ctx *c) {
    c->iters = 1024;
    if (exec_compute(c) != 0 || BR_CUDA(cudaStreamSynchronize(c->stream)))
        return -1;
    double t0 = br_now_ns();
    if (exec_compute(c) != 0 || BR_CUDA(cudaStreamSynchronize(c->stream)))
        return -1;
    double t = br_now_ns() - t0;
    double scale = BR_COMPUTE_TARGET_NS / (t > 1e3 ? t : 1e3);
    double iters = (double)c->iters * (scale > 1 ? scale : 1);
    c->iters = iters < (double)(1L << 26) ? ((long)iters + 15) & ~15L : 1L << 26;
    return 0;
}

/* Time c's kernel with the timing core (as the bandwidth peak: cold median,
 * no flush, the session's clock) into *median_ns. Returns 0, or -1 with the
 * error set. */
static int time_compute(br_session *s, void *state, compute_ctx *c, double *median_ns) {
    br_timing t = {0};
    br_measure_params mp;
    peak_params(&mp, s, state, BR_FLUSH_NONE);
    int rc = -1;
    if (br_measure(&t, &br_timer_cuda_events, state, &mp, exec_compute, c) == 0 &&
        br_stats_compute(&t.stats, t.samples, t.n_samples) == 0 && t.stats.median > 0) {
        *median_ns = t.stats.median;
        rc = 0;
    }
    br_timing_dispose(&t);
    return rc;
}

/* Measure precision p's peak on the session's GPU into *out (status
 * MEASURED), or say why not (FAILED); k is p's kernel. */
static void measure_compute(br_session *s, void *state, const br_compute_kernel *k,
                            const char *method, br_compute_measure *out) {
    compute_ctx c = {.precision = (int)k->precision,
                     .wgmma = k->unit == BR_COMPUTE_WGMMA,
                     .blocks = (s->device.sm_count > 0 ? s->device.sm_count : 1) * k->blocks_per_sm,
                     .stream = br_timer_cuda_events.stream(state)};
    double median = NAN;
    size_t sink_bytes = (size_t)c.blocks * (size_t)k->threads * sizeof(double);
    if (!BR_CUDA(cudaMalloc(&c.sink, sink_bytes)) && size_launch(&c) == 0 &&
        time_compute(s, state, &c, &median) == 0) {
        double ops = br_compute_launch_ops(k, c.blocks, k->threads, c.iters);
        out->gops = ops / median;
        out->status = BR_COMPUTE_PEAK_MEASURED;
        if (!s->opts.quiet)
            br_log(BR_LOG_NOTE, "benchrun: measured %s peak %.0f %s (%s, %ld iterations)\n",
                   br_precision_name(k->precision), out->gops, br_compute_unit_label(k->precision),
                   k->instr, c.iters);
        if (br_peak_compute_cache_store(s->cache_dir, &s->device, k->precision, out->gops, ops,
                                        method) != 0)
            br_log(BR_LOG_WARN, "benchrun: warning: cannot cache the measured peak: %s\n",
                   br_error_get());
    } else {
        snprintf(out->why, sizeof out->why, "%s", br_error_get());
    }
    cudaFree(c.sink);
    cudaGetLastError();
}
#endif

#if BR_HAVE_CUDA
/* 1 when the session's GPU is compute capability 9.0 and the driver loaded
 * benchrun's sm_90a code for it (the wgmma kernels), else 0. */
static int has_wgmma(const br_session *s, cudaStream_t stream) {
    int has = 0;
    if (s->device.cc_major != 9 || s->device.cc_minor != 0)
        return 0;
    if (BR_CUDA(br_gpu_compute_peak_wgmma(stream, &has))) {
        br_log(BR_LOG_WARN, "benchrun: warning: cannot tell whether wgmma is built in: %s\n",
               br_error_get());
        return 0;
    }
    if (!has && !s->opts.quiet)
        br_log(BR_LOG_NOTE, "benchrun: no sm_90a code in this build: the Tensor Core peaks are "
                            "measured with mma.sync, below the datasheet's wgmma rate\n");
    return has;
}
#endif

/* Precision p's compute peak of the session's GPU, in this process (a
 * worker): from the cache, or measured with the timing core and cached
 * (platform/peak.h), or UNAVAILABLE (the GPU or the build lacks the
 * instruction), or FAILED with why. */
void br_session_measure_compute_here(br_session *s, br_precision p, br_compute_measure *out) {
    memset(out, 0, sizeof *out);
    out->precision = p;
    out->status = BR_COMPUTE_PEAK_FAILED;
    out->gops = NAN;
    const br_compute_kernel *k = br_compute_kernel_of(p);
    if (!k) { /* no kernel (2:4 sparse): no need to ask the GPU */
        out->status = BR_COMPUTE_PEAK_UNAVAILABLE;
        br_compute_available(p, 0, 0, 0, out->why, sizeof out->why);
        return;
    }
#if BR_HAVE_CUDA
    int code_arch = 0;
    void *state = br_session_timer(s, BR_BACKEND_GPU);
    if (!state) {
        snprintf(out->why, sizeof out->why, "%s", br_error_get());
        return;
    }
    if (BR_CUDA(br_gpu_compute_peak_arch((int)p, &code_arch)))
        code_arch = 0; /* not known: the device's capability decides */
    if (!br_compute_available(p, s->device.cc_major, s->device.cc_minor, code_arch, out->why,
                              sizeof out->why)) {
        out->status = BR_COMPUTE_PEAK_UNAVAILABLE;
        return;
    }
    if (br_compute_kernel_pick(p, 9, 0, 1)->unit == BR_COMPUTE_WGMMA) /* a wgmma precision */
        k = br_compute_kernel_pick(p, s->device.cc_major, s->device.cc_minor,
                                   has_wgmma(s, br_timer_cuda_events.stream(state)));
    char method[256];
    br_compute_method(k, br_clock_name(s->gpu_clock), method, sizeof method);
    double gops = NAN;
    int cached = br_peak_compute_cache_load(&gops, s->cache_dir, &s->device, p, method);
    if (cached == 1) {
        out->status = BR_COMPUTE_PEAK_CACHED;
        out->gops = gops;
        if (!s->opts.quiet)
            br_log(BR_LOG_NOTE, "benchrun: measured %s peak %.0f %s (cached)\n",
                   br_precision_name(p), gops, br_compute_unit_label(p));
        br_timer_cuda_events.end_case(state);
        return;
    }
    if (cached < 0)
        br_log(BR_LOG_WARN, "benchrun: warning: %s\n", br_error_get());
    measure_compute(s, state, k, method, out);
    br_timer_cuda_events.end_case(state);
#else
    (void)s;
    snprintf(out->why, sizeof out->why, "benchrun was built without CUDA");
#endif
}
