/* SPDX-License-Identifier: Apache-2.0 */
/* results_fixture.h - four runs built by hand with deterministic values, for
 * the tests of everything that reads results (reporters, the results loader,
 * baselines):
 *   1. "reduction" on a GPU (GB/s, mode both, headline cold, theoretical
 *      peak, the kernel clock): cold and batch timings per case; a throttled
 *      case (T), a host case that stopped on plateau (N, cold), a batch
 *      timing that stopped on timeout (N, batch), a FAILED verify (its
 *      message holds a comma and double quotes, for CSV quoting). Every GPU
 *      timing is on the kernel clock with CUPTI's data (event, kernel and
 *      span times, operations, a breakdown); reduce_cub's timings have two
 *      operations per execution (a CUB kernel, whose demangled name holds
 *      commas and angle brackets, and a memset) and its cold timing at n=2^20
 *      discarded 2 incomplete samples;
 *   2. "bandwidth" on a GPU (GB/s, mode cold, measured peak, flush-memset,
 *      unknown ECC and current clock, the events clock with CUPTI's data
 *      kept): a case with 25% outliers (O), one of whose samples lost its
 *      CUPTI records (NAN kernel, span and operations);
 *   3. "sgemm" on a host without a GPU (GFLOP/s, mode cold, the events
 *      clock with a note on why the kernel clock is unavailable): host cases
 *      OK, GPU cases SKIPPED, git detached and dirty, no flags;
 *   4. "latency" (metric none, mode batch, no params, no git, no device,
 *      unknown CPU): no bytes (NaN figures), a FAILED compile with a
 *      multi-line message, times below 1 us and 10 us.
 * fixtures_setup() fills fixture[] and fixture_ptrs[]; fixtures_teardown()
 * disposes them. build_sgemm_h100() builds a fifth run, outside fixture[] (so
 * the goldens stay as they are), for the FP32 peak: "sgemm" on the H100
 * (GFLOP/s, mode cold, theoretical peak, the events clock), host and GPU
 * cases OK and a GPU case FAILED. Include it once per test program (it
 * defines statics). */
#ifndef BR_RESULTS_FIXTURE_H
#define BR_RESULTS_FIXTURE_H

#include <criterion/criterion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/run.h"

#define N_RUNS 4

/* --- building runs by hand --------------------------------------------------- */

static inline char *dup_or_null(const char *s) {
    if (!s)
        return NULL;
    char *d = strdup(s);
    cr_assert_not_null(d);
    return d;
}

static inline void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    cr_assert_not_null(p);
    return p;
}

static inline void run_init(br_run *r, const char *name, const char *description, br_metric metric,
                            br_mode mode, const char *const *params, size_t n_params,
                            size_t max_cases) {
    memset(r, 0, sizeof *r);
    r->benchrun_version = dup_or_null("0.1.0");
    snprintf(r->date, sizeof r->date, "2026-11-22T10:00:00Z");
    r->suite_name = dup_or_null(name);
    r->suite_description = dup_or_null(description);
    char path[256];
    snprintf(path, sizeof path, "suites/%s.yaml", name);
    r->suite_path = dup_or_null(path);
    snprintf(r->suite_hash, sizeof r->suite_hash, "%s", "3b18e512dba79e4c8300dd08aeb37f8e728b8dad");
    r->metric = metric;
    r->cache = BR_CACHE_FLUSH;
    r->warmup_ns = BR_DEFAULT_WARMUP_NS;
    r->measure = (br_measure_cfg){
        .min_samples = 10,
        .min_time_ns = 50e6,
        .max_noise = 0.005,
        .timeout_ns = 10e9,
        .max_samples = BR_DEFAULT_MAX_SAMPLES,
        .throttle = BR_DEFAULT_THROTTLE,
        .hold = 1,
        .mode = mode,
        .headline = mode == BR_MODE_BATCH ? BR_MODE_BATCH : BR_MODE_COLD,
    };
    r->peak_kind = BR_PEAK_THEORETICAL;
    r->peak_gbps = NAN;
    r->peak_gflops = NAN; /* br_run_derive gives it the device's */
    r->gpu_clock = BR_CLOCK_EVENTS;
    r->regression = (br_regression_cfg){0.02, 0.01, 0};
    r->n_params = n_params;
    r->param_names = xcalloc(n_params, sizeof *r->param_names);
    for (size_t i = 0; i < n_params; i++)
        r->param_names[i] = dup_or_null(params[i]);
    r->cases = xcalloc(max_cases, sizeof *r->cases);
}

static inline void add_kernel(br_run *r, const char *name, const char *source, br_backend backend) {
    br_run_kernel *k = realloc(r->kernels, (r->n_kernels + 1) * sizeof *k);
    cr_assert_not_null(k);
    r->kernels = k;
    k[r->n_kernels++] = (br_run_kernel){dup_or_null(name), dup_or_null(source), backend, ""};
}

/* Append a case without timings. */
static inline br_case_result *add_case(br_run *r, size_t kernel, size_t combo,
                                       const int64_t *params, br_case_status status,
                                       const char *stage, const char *message, double bytes,
                                       double flops) {
    br_case_result *c = &r->cases[r->n_cases++];
    c->kernel = kernel;
    c->combo = combo;
    c->params = xcalloc(r->n_params, sizeof *c->params);
    memcpy(c->params, params, r->n_params * sizeof *c->params);
    c->status = status;
    int st = BR_STAGE_NONE;
    if (stage)
        cr_assert_eq(br_name_find(&st, br_stage_names, stage), 0, "no stage '%s'", stage);
    c->stage = (br_stage)st;
    c->message = dup_or_null(message);
    c->bytes = bytes;
    c->flops = flops;
    return c;
}

/* Fill timing *t from n samples (copied, each times `scale`) of `reps`
 * executions each, summarised with br_stats_compute. mhz: the SM clock of
 * every sample (a GPU case: the events clock), or NAN (a host case: the
 * monotonic clock, no clocks). */
static inline void set_timing(br_timing *t, const double *samples, size_t n, double scale,
                              size_t reps, br_stop stop, double mhz) {
    t->present = 1;
    t->samples = xcalloc(n, sizeof *t->samples);
    for (size_t i = 0; i < n; i++)
        t->samples[i] = samples[i] * scale;
    t->n_samples = n;
    cr_assert_eq(br_stats_compute(&t->stats, t->samples, n), 0, "%s", br_error_get());
    if (!isnan(mhz)) {
        t->sm_mhz = xcalloc(n, sizeof *t->sm_mhz);
        for (size_t i = 0; i < n; i++)
            t->sm_mhz[i] = mhz;
    }
    t->sm_mhz_median = mhz;
    t->clock = isnan(mhz) ? BR_CLOCK_MONOTONIC : BR_CLOCK_EVENTS;
    t->event_median_ns = t->kernel_median_ns = t->span_median_ns = t->ops_median = NAN;
    t->n_throttled = 0;
    t->throttled_min_mhz = NAN;
    t->cpu_mhz_median = NAN;
    t->slow_min_mhz = NAN;
    t->reps = reps;
    t->graph = reps > 1 && !isnan(mhz);
    t->warmup_runs = 40 * reps;
    t->warmup_ns = 25.5e6;
    t->measure_ns = 50.25e6;
    t->stop = stop;
    t->tick_ns = isnan(mhz) ? 1.0 : 32.0 / (double)reps; /* clock_getres; %globaltimer on an H100 */
}

/* A new array of t->n_samples values: base[i] + add (base NULL: add alone);
 * NAN at index `lost` (SIZE_MAX: none). */
static inline double *per_sample(const br_timing *t, const double *base, double add, size_t lost) {
    double *v = xcalloc(t->n_samples, sizeof *v);
    for (size_t i = 0; i < t->n_samples; i++)
        v[i] = i == lost ? NAN : (base ? base[i] : 0.0) + add;
    return v;
}

/* CUPTI's data for GPU timing *t (set_timing first), `ops` operations per
 * execution: on the kernel clock (`kernel` 1) the samples are the kernel
 * times, CUDA events `launch_ns` above them and the span `gap_ns` above them;
 * on the events clock (`kernel` 0) the samples are the event times, the
 * kernel times `launch_ns` below them and the span `gap_ns` above those, the
 * sample at index `lost` (SIZE_MAX: none) without kernel data. The medians
 * are br_stats_finite_median's, as the reader recomputes them. */
static inline void set_cupti(br_timing *t, int kernel, double launch_ns, double gap_ns, double ops,
                             size_t lost) {
    t->clock = kernel ? BR_CLOCK_KERNEL : BR_CLOCK_EVENTS;
    if (kernel) {
        t->event_ns = per_sample(t, t->samples, launch_ns, SIZE_MAX);
        t->kernel_ns = per_sample(t, t->samples, 0.0, SIZE_MAX);
    } else {
        t->event_ns = per_sample(t, t->samples, 0.0, SIZE_MAX);
        t->kernel_ns = per_sample(t, t->samples, -launch_ns, lost);
    }
    t->span_ns = per_sample(t, t->kernel_ns, gap_ns, lost);
    t->ops = per_sample(t, NULL, ops, lost);
    size_t n = t->n_samples;
    t->event_median_ns = br_stats_finite_median(t->event_ns, n);
    t->kernel_median_ns = br_stats_finite_median(t->kernel_ns, n);
    t->span_median_ns = br_stats_finite_median(t->span_ns, n);
    t->ops_median = br_stats_finite_median(t->ops, n);
}

/* Append one operation to t's breakdown. */
static inline void add_op(br_timing *t, const char *name, br_op_kind kind, size_t count,
                          double per_exec, double median_ns, double share) {
    br_op_stat *v = realloc(t->breakdown, (t->n_breakdown + 1) * sizeof *v);
    cr_assert_not_null(v);
    t->breakdown = v;
    v[t->n_breakdown++] = (br_op_stat){dup_or_null(name), kind, count, per_exec, median_ns, share};
}

/* A demangled CUB kernel name: commas, angle brackets, parentheses. */
#define CUB_KERNEL                                                                                 \
    "void cub::CUB_200700_900_NS::DeviceReduceSingleTileKernel<cub::CUB_200700_900_NS::"           \
    "DeviceReducePolicy<float, int, cub::CUB_200700_900_NS::Sum>::Policy600, float *, float *, "   \
    "int, cub::CUB_200700_900_NS::Sum, float>(float *, float *, int, "                             \
    "cub::CUB_200700_900_NS::Sum, float)"

/* Both timings of a reduce_cub case on the kernel clock: the CUB kernel and
 * a memset per execution (the memset `memset_ns` of the median). */
static inline void cub_cupti(br_case_result *c, double memset_ns) {
    br_timing *both[] = {&c->cold, &c->batch};
    for (size_t k = 0; k < 2; k++) {
        br_timing *t = both[k];
        if (!t->present)
            continue;
        set_cupti(t, 1, k == 0 ? 1650.5 : 180.25, 36.0, 2.0, SIZE_MAX);
        size_t count = t->n_samples * t->reps;
        double memset_share = memset_ns / t->kernel_median_ns;
        add_op(t, CUB_KERNEL, BR_OP_KERNEL, count, 1.0, t->kernel_median_ns - memset_ns,
               1.0 - memset_share);
        add_op(t, "memset", BR_OP_MEMSET, count, 1.0, memset_ns, memset_share);
    }
}

/* Both timings of a one-kernel GPU case on the kernel clock. */
static inline void kernel_cupti(br_case_result *c, const char *name) {
    br_timing *both[] = {&c->cold, &c->batch};
    for (size_t k = 0; k < 2; k++) {
        br_timing *t = both[k];
        if (!t->present)
            continue;
        set_cupti(t, 1, k == 0 ? 1510.0 : 95.5, 0.0, 1.0, SIZE_MAX);
        add_op(t, name, BR_OP_KERNEL, t->n_samples * t->reps, 1.0, t->kernel_median_ns, 1.0);
    }
}

/* Cold and batch timings of a well-behaved case (both stopped on noise); the
 * batch samples are the cold ones times 0.95, 64 executions per sample. */
static inline void set_both(br_case_result *c, const double *samples, size_t n, double mhz) {
    set_timing(&c->cold, samples, n, 1.0, 1, BR_STOP_NOISE, mhz);
    set_timing(&c->batch, samples, n, 0.95, 64, BR_STOP_NOISE, mhz);
}

static inline void git_commit(br_gitinfo *g, const char *sha, const char *branch, int dirty) {
    memset(g, 0, sizeof *g);
    g->present = 1;
    snprintf(g->sha, sizeof g->sha, "%s", sha);
    snprintf(g->short_sha, sizeof g->short_sha, "%.7s", sha);
    snprintf(g->branch, sizeof g->branch, "%s", branch ? branch : "");
    g->detached = branch == NULL;
    g->dirty = dirty;
    g->commit_time = 1795000000; /* 2026-11-18T11:06:40Z */
    snprintf(g->workdir, sizeof g->workdir, "/home/ci/benchrun");
}

static inline void h100(br_run *r) {
    r->has_device = 1;
    br_device *d = &r->device;
    d->index = 0;
    snprintf(d->name, sizeof d->name, "NVIDIA H100 80GB HBM3");
    snprintf(d->uuid, sizeof d->uuid, "GPU-5c1a2b3d-4e5f-6071-8293-a4b5c6d7e8f9");
    d->cc_major = 9;
    d->cc_minor = 0;
    d->sm_count = 132;
    d->sm_clock_khz = 1980000;
    d->sm_clock_now_mhz = 1755;
    d->ecc = 1;
    d->mem_clock_khz = 2619000;
    d->bus_width_bits = 5120;
    d->l2_bytes = 52428800;
    d->global_mem_bytes = 85022736384;
    d->peak_gbps = 3352.32;
    d->measured_peak_gbps = NAN;
    d->peak_gflops = 66908.16; /* FP32: 132 SMs x 128 lanes x 2 x 1.98 GHz */
    d->driver_version = 13000;
    d->runtime_version = 12080;
    snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "Intel(R) Xeon(R) Platinum 8480+");
    r->host.logical_cores = 224;
    snprintf(r->host.governor, sizeof r->host.governor, "performance");
    snprintf(r->host.hostname, sizeof r->host.hostname, "gpu-node-07");
}

/* reduce_cpu n=2^24, cold: 8 samples with about 1.3% noise (stopped on plateau). */
static const double cpu24_plateau[] __attribute__((unused)) = {4210000, 4150000, 4290000, 4205000,
                                                               4260000, 4180000, 4230000, 4120000};

/* reduce_cpu n=2^24, batch: within 0.1%, stopped on noise. */
static const double cpu24_batch[] __attribute__((unused)) = {4185000, 4181000, 4189000, 4184000,
                                                             4186500, 4183000, 4187000, 4182500};

static inline void build_reduction(br_run *r) {
    const char *params[] = {"n"};
    run_init(r, "reduction", "sum of n float32", BR_METRIC_GBPS, BR_MODE_BOTH, params, 1, 8);
    add_kernel(r, "reduce_cpu", "kernels/reduce_cpu.c", BR_BACKEND_HOST);
    add_kernel(r, "reduce_naive", "kernels/reduce_naive.cu", BR_BACKEND_GPU);
    add_kernel(r, "reduce_warp", "kernels/reduce_warp.cu", BR_BACKEND_GPU);
    add_kernel(r, "reduce_cub", "kernels/reduce_cub.cu", BR_BACKEND_GPU);
    git_commit(&r->git, "1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5", "main", 0);
    h100(r);
    r->peak_kind = BR_PEAK_THEORETICAL;
    r->peak_gbps = r->device.peak_gbps;
    r->gpu_clock = BR_CLOCK_KERNEL;

    const int64_t n20[] = {1 << 20}, n24[] = {1 << 24};
    const double b20 = 4.0 * (1 << 20), b24 = 4.0 * (1 << 24);
    const double cpu20[] = {262000, 261500, 263250, 262750, 261875};
    const double naive20[] = {34000, 34125, 33950, 34050, 33990};
    const double warp20[] = {4100, 4096, 4112, 4104, 4090.1234, 4098, 4102, 4094};
    const double cub20[] = {3200, 3196, 3208, 3204, 3190};
    const double warp24[] = {41700, 41650, 41760, 41725.5, 41690};
    const double cub24[] = {26100, 26080, 26125, 26110, 26095};
    const double cub24_batch[] = {24700, 24100, 25300, 24650, 25050, 24300};
    br_case_result *c;
    c = add_case(r, 0, 0, n20, BR_STATUS_OK, NULL, NULL, b20, NAN);
    set_both(c, cpu20, 5, NAN);
    c = add_case(r, 1, 0, n20, BR_STATUS_OK, NULL, NULL, b20, NAN);
    set_both(c, naive20, 5, 1980);
    kernel_cupti(c, "reduce_naive_kernel(const float *, float *, unsigned long)");
    c = add_case(r, 2, 0, n20, BR_STATUS_OK, NULL, NULL, b20, NAN);
    set_both(c, warp20, 8, 1965);
    kernel_cupti(c, "void reduce_warp_kernel<256>(const float *, float *, unsigned long)");
    c->cold.n_throttled = 12; /* T, cold only */
    c->cold.throttled_min_mhz = 1020;
    c = add_case(r, 3, 0, n20, BR_STATUS_OK, NULL, NULL, b20, NAN);
    set_both(c, cub20, 5, 1980);
    cub_cupti(c, 310.0);
    c->cold.n_incomplete = 2; /* samples whose CUPTI records were lost */
    c = add_case(r, 0, 1, n24, BR_STATUS_OK, NULL, NULL, b24, NAN);
    set_timing(&c->cold, cpu24_plateau, 8, 1.0, 1, BR_STOP_PLATEAU, NAN); /* N, cold */
    set_timing(&c->batch, cpu24_batch, 8, 1.0, 4, BR_STOP_NOISE, NAN);
    add_case(r, 1, 1, n24, BR_STATUS_FAILED, "verify",
             "element 1017, block 3: got \"nan\", expected 16777216 (tolerance 1e-3)", b24, NAN);
    c = add_case(r, 2, 1, n24, BR_STATUS_OK, NULL, NULL, b24, NAN);
    set_both(c, warp24, 5, 1980);
    kernel_cupti(c, "void reduce_warp_kernel<256>(const float *, float *, unsigned long)");
    c = add_case(r, 3, 1, n24, BR_STATUS_OK, NULL, NULL, b24, NAN);
    set_timing(&c->cold, cub24, 5, 1.0, 1, BR_STOP_NOISE, 1980);
    set_timing(&c->batch, cub24_batch, 6, 1.0, 256, BR_STOP_TIMEOUT, 1980); /* N, batch */
    cub_cupti(c, 1250.0);
    br_run_derive(r);
}

/* copy n=2^28: 15 samples within 0.02% of 1 ms and 5 far above them, 25%
 * outliers by Tukey's fences (more than the 20% that flags O), yet a low
 * noise. */
static const double copy28[] __attribute__((unused)) = {
    1000000, 1000050, 999960,  1000120, 999920,  1000030, 999990,  1000090, 999940,  1000020,
    1000070, 999970,  1000010, 999900,  1000060, 1001300, 1001400, 1001500, 1001600, 1001700};

static inline void build_bandwidth(br_run *r) {
    const char *params[] = {"n"};
    run_init(r, "bandwidth", "device-to-device copies", BR_METRIC_GBPS, BR_MODE_COLD, params, 1, 2);
    add_kernel(r, "copy", "kernels/copy.cu", BR_BACKEND_GPU);
    add_kernel(r, "copy_vec4", "kernels/copy_vec4.cu", BR_BACKEND_GPU);
    git_commit(&r->git, "1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5", "main", 0);
    h100(r);
    r->device.sm_clock_now_mhz = 0; /* NVML not readable */
    r->device.ecc = -1;
    r->device.measured_peak_gbps = 2910.4;
    r->peak_kind = BR_PEAK_MEASURED;
    r->peak_gbps = r->device.measured_peak_gbps;
    r->cache = BR_CACHE_FLUSH_MEMSET;
    r->measure.max_noise = 0.01;

    const int64_t n28[] = {1 << 28};
    const double b28 = 2.0 * 4.0 * (1 << 28);
    const double vec28[] = {760000, 760200, 759900, 760100, 760050, 759950, 760150, 759850};
    br_case_result *c;
    c = add_case(r, 0, 0, n28, BR_STATUS_OK, NULL, NULL, b28, NAN);
    set_timing(&c->cold, copy28, 20, 1.0, 1, BR_STOP_NOISE, 1980); /* O */
    set_cupti(&c->cold, 0, 1480.0, 0.0, 1.0, 17); /* sample 17 lost its CUPTI records */
    add_op(&c->cold, "void copy_kernel<float>(const float *, float *, unsigned long)", BR_OP_KERNEL,
           19, 1.0, c->cold.kernel_median_ns, 1.0);
    c = add_case(r, 1, 0, n28, BR_STATUS_OK, NULL, NULL, b28, NAN);
    set_timing(&c->cold, vec28, 8, 1.0, 1, BR_STOP_NOISE, 1980);
    set_cupti(&c->cold, 0, 1480.0, 0.0, 1.0, SIZE_MAX);
    add_op(&c->cold, "void copy_vec4_kernel<float4, 256>(const float4 *, float4 *, unsigned long)",
           BR_OP_KERNEL, 8, 1.0, c->cold.kernel_median_ns, 1.0);
    br_run_derive(r);
}

static inline void build_sgemm(br_run *r) {
    const char *params[] = {"n", "tile"};
    run_init(r, "sgemm", NULL, BR_METRIC_GFLOPS, BR_MODE_COLD, params, 2, 4);
    add_kernel(r, "sgemm_host", "kernels/sgemm_host.c", BR_BACKEND_HOST);
    add_kernel(r, "sgemm_tiled", "kernels/sgemm_tiled.cu", BR_BACKEND_GPU);
    git_commit(&r->git, "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432", NULL, 1);
    r->has_device = 0;
    r->gpu_skip_reason =
        dup_or_null("no CUDA device: cudaGetDeviceCount: no CUDA-capable device is detected");
    r->clock_note = dup_or_null("libcupti.so: cannot open shared object file");
    snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "AMD EPYC 9654 96-Core Processor");
    r->host.logical_cores = 192;
    snprintf(r->host.governor, sizeof r->host.governor, "performance");

    const int64_t p0[] = {1000, 16}, p1[] = {2048, 16};
    const double s0[] = {152000000, 151500000, 152250000};
    const double s1[] = {1340000000, 1338000000, 1342500000};
    const char *why = "no CUDA device";
    br_case_result *c;
    c = add_case(r, 0, 0, p0, BR_STATUS_OK, NULL, NULL, NAN, 2e9);
    set_timing(&c->cold, s0, 3, 1.0, 1, BR_STOP_NOISE, NAN);
    add_case(r, 1, 0, p0, BR_STATUS_SKIPPED, "no-gpu", why, NAN, 2e9);
    c = add_case(r, 0, 1, p1, BR_STATUS_OK, NULL, NULL, NAN, 2.0 * 2048 * 2048 * 2048);
    set_timing(&c->cold, s1, 3, 1.0, 1, BR_STOP_NOISE, NAN);
    add_case(r, 1, 1, p1, BR_STATUS_SKIPPED, "no-gpu", why, NAN, 2.0 * 2048 * 2048 * 2048);
    br_run_derive(r);
}

/* sgemm_tiled at n=2^11: 2 x 2048^3 FLOP in a median of 640 us. */
static const double sgemm_tiled11[]
    __attribute__((unused)) = {640000, 639500, 641000, 640250, 639750};

/* Not in fixture[]: sgemm on the H100, for the FP32 peak (see the top). */
static inline void build_sgemm_h100(br_run *r) {
    const char *params[] = {"n", "tile"};
    run_init(r, "sgemm", "C = A B, float32", BR_METRIC_GFLOPS, BR_MODE_COLD, params, 2, 4);
    add_kernel(r, "sgemm_host", "kernels/sgemm_host.c", BR_BACKEND_HOST);
    add_kernel(r, "sgemm_tiled", "kernels/sgemm_tiled.cu", BR_BACKEND_GPU);
    git_commit(&r->git, "1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5", "main", 0);
    h100(r);
    r->peak_kind = BR_PEAK_THEORETICAL;
    r->peak_gbps = r->device.peak_gbps;
    r->peak_gflops = r->device.peak_gflops;

    const int64_t p0[] = {1000, 16}, p1[] = {2048, 16};
    const double s0[] = {152000000, 151500000, 152250000};
    const double t0[] = {250000, 250500, 249750, 250250, 249900};
    const double f0 = 2e9, f1 = 2.0 * 2048 * 2048 * 2048;
    br_case_result *c;
    c = add_case(r, 0, 0, p0, BR_STATUS_OK, NULL, NULL, NAN, f0);
    set_timing(&c->cold, s0, 3, 1.0, 1, BR_STOP_NOISE, NAN);
    c = add_case(r, 1, 0, p0, BR_STATUS_OK, NULL, NULL, NAN, f0);
    set_timing(&c->cold, t0, 5, 1.0, 1, BR_STOP_NOISE, 1980);
    add_case(r, 0, 1, p1, BR_STATUS_FAILED, "run", "timed out", NAN, f1);
    c = add_case(r, 1, 1, p1, BR_STATUS_OK, NULL, NULL, NAN, f1);
    set_timing(&c->cold, sgemm_tiled11, 5, 1.0, 1, BR_STOP_NOISE, 1980);
    br_run_derive(r);
}

static inline void build_latency(br_run *r) {
    run_init(r, "latency", "empty kernels:\n  launch overhead in µs", BR_METRIC_NONE, BR_MODE_BATCH,
             NULL, 0, 3);
    add_kernel(r, "noop_host", "kernels/noop.c", BR_BACKEND_HOST);
    add_kernel(r, "spin_host", "kernels/spin.c", BR_BACKEND_HOST);
    add_kernel(r, "sleep_host", "kernels/sleep.c", BR_BACKEND_HOST);
    r->git.present = 0;
    r->has_device = 0;
    r->cache = BR_CACHE_WARM;

    const int64_t none[1] = {0};
    const double noop[] = {850, 849.5, 851.25, 850.75};
    const double spin[] = {9250, 9240, 9262.5, 9255};
    br_case_result *c;
    c = add_case(r, 0, 0, none, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->batch, noop, 4, 1.0, 1000, BR_STOP_NOISE, NAN);
    c = add_case(r, 1, 0, none, BR_STATUS_OK, NULL, NULL, NAN, NAN);
    set_timing(&c->batch, spin, 4, 1.0, 100, BR_STOP_NOISE, NAN);
    add_case(r, 2, 0, none, BR_STATUS_FAILED, "compile",
             "kernels/sleep.c:3:9: error: expected ';' before '}' token\n"
             "    3 |   int x\n"
             "      |        ^\n",
             NAN, NAN);
    br_run_derive(r);
}

static br_run fixture[N_RUNS] __attribute__((unused));
static const br_run *fixture_ptrs[N_RUNS] __attribute__((unused));

static inline void fixtures_setup(void) {
    build_reduction(&fixture[0]);
    build_bandwidth(&fixture[1]);
    build_sgemm(&fixture[2]);
    build_latency(&fixture[3]);
    for (size_t i = 0; i < N_RUNS; i++)
        fixture_ptrs[i] = &fixture[i];
}

static inline void fixtures_teardown(void) {
    for (size_t i = 0; i < N_RUNS; i++)
        br_run_dispose(&fixture[i]);
}

#endif
