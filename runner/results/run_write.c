/* SPDX-License-Identifier: Apache-2.0 */
/* The versioned results document (schema BR_SCHEMA_VERSION), built
 * with jansson. Not-a-number and absent values are null; times are ns,
 * clocks MHz, throughput GB/s and GFLOP/s (1e9 units per second).
 *
 * {"schema_version": 4, "benchrun_version", "runs": [{
 *    "benchrun_version", "gpu_clock": "events" | "kernel", "clock_note", "date",
 *    "suite": {"name", "description", "path", "hash", "metric"},
 *    "measure": {"cache", "warmup_ns", "mode", "headline", "hold", "throttle",
 *                "min_samples", "min_time_ns", "max_noise", "timeout_ns", "max_samples"},
 *    "peak": {"kind": "theoretical" | "measured", "gbps", "gflops", "compute"},
 *    "regression": {"threshold", "alpha", "keep"},
 *    "git": {...}, "device": {...} | null, "gpu_skip_reason", "host": {...},
 *    "interrupted": "SIGINT" | "SIGTERM" | null (the signal that stopped the run; its
 *                   unfinished cases are "skipped" with stage "interrupted"),
 *    "params": [names], "kernels": [{"name", "source", "backend"}],
 *    "shard": shard (only in a part of a sharded plan or their merge: shardinfo.h),
 *    "cases": [{"kernel", "params": {name: value}, "backend", "status", "stage",
 *               "message", "bytes", "flops", "precision", "gbps", "gflops",
 *               "tflops" | "tops", "pct_peak", "compute_peak", "speedup", "roofline",
 *               "energy", "verified", "commit", "date",
 *               "cold": timing | null, "batch": timing | null, "wall": wall | null,
 *               "device": {"index", "uuid"} (only in a run over several devices,
 *               --devices: the one that measured the case)}]
 *              ("stage": a name of types.h's br_stage_names, null for a case measured),
 *    "comparison": comparison (only when the run was compared with a baseline)}]}
 *
 * wall (where the case's wall time went, ns; model/run.h br_case_wall; left
 * out when the case never reached a worker; added within schema 4, optional
 * to readers): {"start_ns", "setup_ns", "first_run_ns", "verify_ns",
 * "warmup_ns", "cold_ns", "batch_ns", "teardown_ns", "other_ns",
 * "total_ns", "began_ns"} ("began_ns": when the case began, after the
 * invocation's first case; added within schema 4, left out when unknown).
 * The run's "compile_ns" (next to "clock_note") is the wall
 * time of building its kernels, ns (left out when unknown).
 *
 * A case's "gbps" and "gflops" are its bytes and flops per ns (GB/s and
 * GFLOP/s) whatever the metric; a run whose metric is TFLOP/s or TOP/s adds
 * the case's value in that unit under "tflops" or "tops" (types.h's
 * br_metric_value_keys; gflops / 1000; added within schema 4, derived like
 * "gbps": readers recompute it and accept files without it).
 *
 * "peak" says what "pct_peak" is relative to: "gbps" (GB/s; the theoretical
 * or measured DRAM bandwidth, as "kind" says) for the GB/s metric, "gflops"
 * (GFLOP/s; always the FP32 theoretical peak, whatever "kind" says) for
 * GFLOP/s, TFLOP/s and TOP/s; null when unknown or without a device. The device's
 * "peak_gflops_fp32" is its FP32 theoretical peak, GFLOP/s (device.h). Both
 * were added within schema 4 and are optional to readers. "measured_gops"
 * (only when some were measured: `peak: measured`) holds the compute peaks
 * benchrun measured, by precision name: {"fp32": 61234.5, "fp16-tensor":
 * 612345.6}, 1e9 operations/s (GFLOP/s; GOP/s for int8-tensor); optional
 * to readers.
 *
 * Precisions (added within schema 4, optional to readers): a case's
 * "precision" is its kernel's declared precision (a name of types.h's
 * br_precision_names; absent when not declared, read as "none": FP32 on
 * the CUDA cores). "peak"'s "compute" (absent when none is recorded) maps
 * each precision the run's GPU cases used to its peak from the table
 * (platform/flops.h): {"gflops" (GFLOP/s, GOP/s for INT8, at the maximum SM
 * clock), "ops_per_sm_clock", "clock_mhz" (that clock), "source": "table"}.
 * A GPU case's "compute_peak" (absent without one) is the peak its
 * "pct_peak" and roofline ceiling are relative to: {"gflops", "clock_mhz"},
 * its precision's rate at the SM clock the GPU held while it ran (the
 * median of its headline timing's sm_mhz samples; the maximum clock when
 * not sampled). Derived: readers recompute it.
 *
 * "roofline" (null unless the case is a verified GPU case with both "bytes"
 * and "flops", in a run with a device; roofline.h): {"intensity_flop_per_byte"
 * (flops / bytes), "bound": "memory" | "compute" | null, "attainable_gflops"
 * (min(peak_gflops, intensity x bandwidth_gbps)), "roofline_pct" (100 gflops /
 * attainable_gflops), "peak_gflops" (the compute ceiling it is placed against: its
 * precision's, br_roofline_case_peak),
 * "bandwidth_gbps" (the run's peak bandwidth, theoretical or measured as
 * "peak" says)}. Derived, like "gbps": readers recompute it.
 *
 * "energy" (null unless measured: --energy on a GPU case; platform/energy.h):
 * {"j_per_exec" (J), "watts" (W), "spread" (fraction), "windows",
 * "window_ns", "executions" (per window), "gflop_per_j", "gb_per_j" (derived
 * from flops and bytes; null without them)}.
 *
 * "host": {"cpu_model", "logical_cores", "governor" (of the host cases' CPU),
 * "hostname", "cpu" (the CPU host cases were pinned to; null when not
 * pinned), "freq_scaling" (true: some CPU's governor is not "performance"),
 * "turbo" (true / false; both null when unknown)}. A host timing also
 * carries "cpu_mhz" (median effective CPU frequency, MHz),
 * "cpu_mhz_samples": [...] | null, "switches": [involuntary context switches
 * during each kept sample] | null, "n_switched" and "n_slow" (samples
 * discarded as disturbed: an involuntary context switch; the CPU far below
 * its median frequency), "slow_min_mhz" and "disturbed_kept" (true: every
 * sample was disturbed and they were kept; platform/disturb.h). These were
 * added within schema 4 and are optional to readers.
 *
 * "gpu_clock" is the clock of the GPU cases' headline samples (a run whose
 * gpu_clock is unset reads as "events"); "clock_note" (string or null) says
 * why the kernel clock was asked for but not used. "verified" is true for an
 * OK case, false when verification failed, null when it was not reached;
 * "commit" (full SHA or null) and "date" say when the case was measured (in a
 * baseline updated by a partial run they differ between cases).
 *
 * timing (null unless the case is OK and the timing was taken; ns per
 * execution): {"clock": "monotonic" | "events" | "kernel" (what the samples
 * measure), "n", "min", "max", "mean", "median", "stddev", "noise", "q1",
 * "q3", "iqr", "ci_low", "ci_high", "ci_level", "ci_method" ("order-statistics":
 * the distribution-free interval; "log-t": Student's t on the log times, for
 * a timing that stopped on "ci_t", measure.h; null without an interval),
 * "outliers", "n_throttled",
 * "throttled_min_mhz", "reps", "graph" (null on the host), "warmup_runs",
 * "warmup_ns", "measure_ns", "stop_reason", "tick_ns" (the clock's resolution
 * per execution; null when unknown), "sm_mhz" (median),
 * "samples_ns": [every kept sample], "sm_mhz_samples": [...] | null,
 * "event_median_ns", "kernel_median_ns", "span_median_ns", "ops_median"
 * (medians of the finite entries of the arrays below; null when the array is
 * null or has none), "incomplete" (samples discarded because CUPTI lost
 * records in them), "other_stream_ops", "other_context_ops" (operations of
 * the kept samples on another stream or context than the case's: work the
 * CUDA events do not see; null without CUPTI), "escaped_op" (the first such
 * operation's name, or null), "event_ns", "kernel_ns", "span_ns", "ops": [one per kept
 * sample, per execution; null for a sample CUPTI lost records of] | null
 * (CUDA event time, kernel time, first start to last end, GPU operations;
 * see model/run.h), "breakdown": [{"name", "kind": "kernel" | "memcpy" |
 * "memset", "count", "per_execution", "median_ns", "share"}] | null (each
 * distinct GPU operation, by share; see activity.h), "run_medians": [ns, ...]
 * (baselines only: the median of each of the last regression.keep saves,
 * oldest first)}.
 *
 * comparison: {"baseline", "baseline_commit", "baseline_date",
 * "baseline_device", "device_forced", "threshold", "alpha", "case_alpha" and
 * "cases_tested" (baseline comparisons: the level each case was judged at and over how
 * many cases, gate/family.h), "clock",
 * "counts": {status: n}, "cases": [{"kernel", "params", "status", "why",
 * "baseline_median", "median", "baseline_n", "n", "change", "p_value",
 * "p_exact", "p_runs", "spread", "spread_runs", "spread_df" (null: infinite
 * or none), "spread_from", "mde", "decided_by", "baseline_sm_mhz",
 * "sm_mhz", "cycles_change", "not_compared"}], "not_compared": {"no_gpu", "left_out_k",
 * "left_out_p"}}; medians ns; change, spread, mde and cycles_change fractions
 * (compare.h, drift.h); "counts" leaves out the cases not compared. Readers of results and
 * baselines ignore it. A comparison made by `benchrun ab` (abcompare.h) also has
 * "ab": {"old": side, "new": side, "blocks" (of each side per case), "order": "ABBA",
 * "ci_level", "method"}, side = {"rev" (as given; null: the work tree), "commit" (full
 * SHA or null), "dirty", "modules": [{"source", "key" (the compile cache's)}]}, and
 * each case "ratio" (NEW/OLD), "ratio_low", "ratio_high" (its interval), "pairs",
 * "old_block_medians", "new_block_medians" (ns, per pair); "baseline" is then OLD's
 * revision as given and "p_value" the paired t test's. */
#include "run_write.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "base/error.h"
#include "case_json.h"
#include "json_string.h"
#include "model/metric.h"
#include "model/roofline.h"
#include "shardinfo.h"
#include "model/regression.h"

static void put(br_json_builder *b, json_t *obj, const char *key, json_t *value) {
    if (!value || json_object_set_new(obj, key, value) != 0)
        b->failed = 1;
}

static void append(br_json_builder *b, json_t *arr, json_t *value) {
    if (!value || json_array_append_new(arr, value) != 0)
        b->failed = 1;
}

/* A JSON string, null for NULL. Bytes that are not valid UTF-8 (a compiler's
 * output may hold some) are replaced by '?' rather than failing. */
static json_t *str(const char *s) {
    return s ? br_json_text(s) : json_null();
}

/* A JSON string, null for NULL or "". */
static json_t *str_or_null(const char *s) {
    return s && s[0] ? str(s) : json_null();
}

/* A JSON real, null when not finite. */
static json_t *real(double v) {
    return isfinite(v) ? json_real(v) : json_null();
}

/* A JSON real, null unless finite and positive. */
static json_t *positive(double v) {
    return isfinite(v) && v > 0.0 ? json_real(v) : json_null();
}

/* A clock in kHz as whole MHz (rounded). */
static json_t *khz_as_mhz(int khz) {
    return json_integer((json_int_t)((khz + 500) / 1000));
}

static json_t *integer(long long v) {
    return json_integer((json_int_t)v);
}

static json_t *suite_json(br_json_builder *b, const br_run *r) {
    json_t *s = json_object();
    if (!s)
        return NULL;
    put(b, s, "name", str(r->suite_name));
    put(b, s, "description", str(r->suite_description));
    put(b, s, "path", str(r->suite_path));
    put(b, s, "hash", str_or_null(r->suite_hash));
    put(b, s, "metric", str(br_metric_name(r->metric)));
    return s;
}

/* The measurement settings the run used. */
static json_t *measure_json(br_json_builder *b, const br_run *r) {
    const br_measure_cfg *m = &r->measure;
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "cache", str(br_cache_name(r->cache)));
    put(b, o, "warmup_ns", real(r->warmup_ns));
    put(b, o, "mode", str(br_mode_name(m->mode)));
    put(b, o, "headline", str(br_mode_name(m->headline)));
    put(b, o, "hold", json_boolean(m->hold));
    put(b, o, "throttle", real(m->throttle));
    put(b, o, "min_samples", integer((long long)m->min_samples));
    put(b, o, "min_time_ns", real(m->min_time_ns));
    put(b, o, "max_noise", real(m->max_noise));
    put(b, o, "timeout_ns", real(m->timeout_ns));
    put(b, o, "max_samples", integer((long long)m->max_samples));
    return o;
}

/* The run's compute peaks by precision name, or NULL when none is recorded. */
static json_t *compute_peaks_json(br_json_builder *b, const br_run *r) {
    json_t *all = NULL;
    for (int p = 0; p < BR_PRECISION_COUNT; p++) {
        const br_compute_peak *k = &r->compute_peaks[p];
        if (!k->present)
            continue;
        json_t *o = json_object();
        if (!all)
            all = json_object();
        if (!o || !all) {
            json_decref(o);
            return all;
        }
        put(b, o, "gflops", positive(k->gflops));
        put(b, o, "ops_per_sm_clock", positive(k->ops_per_sm_clock));
        put(b, o, "clock_mhz", positive(k->clock_mhz));
        put(b, o, "source", str(k->source));
        put(b, all, br_precision_name((br_precision)p), o);
    }
    return all;
}

static json_t *peak_json(br_json_builder *b, const br_run *r) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "kind", str(br_peak_kind_name(r->peak_kind)));
    put(b, o, "gbps", positive(r->peak_gbps));
    put(b, o, "gflops", positive(r->peak_gflops));
    json_t *m = NULL;
    for (int p = BR_PRECISION_NONE + 1; p < BR_PRECISION_COUNT; p++) {
        double v = r->measured_gops[p];
        if (!isfinite(v) || v <= 0.0)
            continue;
        if (!m && !(m = json_object())) {
            b->failed = 1;
            break;
        }
        put(b, m, br_precision_name((br_precision)p), json_real(v));
    }
    if (m)
        put(b, o, "measured_gops", m);
    json_t *compute = compute_peaks_json(b, r);
    if (compute) /* absent, not null, when none is recorded: older files stay */
        put(b, o, "compute", compute);
    return o;
}

static json_t *git_json(br_json_builder *b, const br_gitinfo *g) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    int commit = g->present && !g->unborn;
    char when[32] = "";
    if (commit) {
        time_t t = (time_t)g->commit_time;
        struct tm tm;
        if (gmtime_r(&t, &tm))
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    put(b, o, "present", json_boolean(g->present));
    put(b, o, "unborn", json_boolean(g->present && g->unborn));
    put(b, o, "sha", commit ? str_or_null(g->sha) : json_null());
    put(b, o, "short_sha", commit ? str_or_null(g->short_sha) : json_null());
    put(b, o, "branch", g->present && !g->detached ? str_or_null(g->branch) : json_null());
    put(b, o, "detached", json_boolean(g->present && g->detached));
    put(b, o, "dirty", json_boolean(g->present && g->dirty));
    put(b, o, "commit_time", str_or_null(when));
    return o;
}

static json_t *device_json(br_json_builder *b, const br_device *d) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    char cc[32];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    put(b, o, "index", integer(d->index));
    put(b, o, "name", str(d->name));
    put(b, o, "uuid", str_or_null(d->uuid));
    put(b, o, "cc", str(cc));
    put(b, o, "sm_count", integer(d->sm_count));
    put(b, o, "sm_clock_max_mhz", khz_as_mhz(d->sm_clock_khz));
    put(b, o, "sm_clock_now_mhz",
        d->sm_clock_now_mhz > 0 ? integer(d->sm_clock_now_mhz) : json_null());
    put(b, o, "mem_clock_mhz", khz_as_mhz(d->mem_clock_khz));
    put(b, o, "bus_width_bits", integer(d->bus_width_bits));
    put(b, o, "peak_gbps", positive(d->peak_gbps));
    put(b, o, "measured_peak_gbps", positive(d->measured_peak_gbps));
    put(b, o, "peak_gflops_fp32", positive(d->peak_gflops));
    put(b, o, "l2_bytes", integer((long long)d->l2_bytes));
    put(b, o, "global_mem_bytes", integer((long long)d->global_mem_bytes));
    put(b, o, "ecc", d->ecc == 1 ? json_true() : d->ecc == 0 ? json_false() : json_null());
    put(b, o, "driver_version", integer(d->driver_version));
    put(b, o, "runtime_version", integer(d->runtime_version));
    return o;
}

/* true / false / null for 1 / 0 / anything else. */
static json_t *tristate(int v) {
    return v == 1 ? json_true() : v == 0 ? json_false() : json_null();
}

static json_t *host_json(br_json_builder *b, const br_host *h) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "cpu_model", str_or_null(h->cpu_model));
    put(b, o, "logical_cores", h->logical_cores > 0 ? integer(h->logical_cores) : json_null());
    put(b, o, "governor", str_or_null(h->governor));
    put(b, o, "hostname", str_or_null(h->hostname));
    put(b, o, "cpu", h->pinned ? integer(h->cpu) : json_null());
    put(b, o, "freq_scaling", tristate(h->freq_scaling));
    put(b, o, "turbo", tristate(h->turbo));
    return o;
}

/* An array of reals (null for a non-finite one), or NULL when out of memory. */
static json_t *reals(br_json_builder *b, const double *v, size_t n) {
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        append(b, a, real(v[i]));
    return a;
}

/* An array of n reals (null for a non-finite one), or null when v is NULL. */
static json_t *reals_or_null(br_json_builder *b, const double *v, size_t n) {
    return v ? reals(b, v, n) : json_null();
}

/* A median of the array v: null when v is NULL or the median is not finite. */
static json_t *median_or_null(const double *v, double median) {
    return v ? real(median) : json_null();
}

/* The per-operation statistics of a timing, or null without them. */
static json_t *breakdown_json(br_json_builder *b, const br_op_stat *ops, size_t n) {
    if (!ops)
        return json_null();
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        json_t *x = json_object();
        if (x) {
            put(b, x, "name", str(ops[i].name));
            put(b, x, "kind", str(br_op_kind_name(ops[i].kind)));
            put(b, x, "count", integer((long long)ops[i].count));
            put(b, x, "per_execution", real(ops[i].per_exec));
            put(b, x, "median_ns", real(ops[i].median_ns));
            put(b, x, "share", real(ops[i].share));
        }
        append(b, a, x);
    }
    return a;
}

/* One timing of a case (see the layout at the top of the file). */
static json_t *timing_json(br_json_builder *b, const br_timing *t, int gpu) {
    const br_stats *s = &t->stats;
    json_t *o = json_object();
    if (!o)
        return NULL;
    int have = s->n > 0;
    size_t n = t->n_samples;
    put(b, o, "clock", str(br_clock_name(t->clock)));
    put(b, o, "n", integer((long long)s->n));
    put(b, o, "min", have ? real(s->min) : json_null());
    put(b, o, "max", have ? real(s->max) : json_null());
    put(b, o, "mean", have ? real(s->mean) : json_null());
    put(b, o, "median", have ? real(s->median) : json_null());
    put(b, o, "stddev", have ? real(s->stddev) : json_null());
    put(b, o, "noise", have ? real(s->noise) : json_null());
    put(b, o, "q1", have ? real(s->q1) : json_null());
    put(b, o, "q3", have ? real(s->q3) : json_null());
    put(b, o, "iqr", have ? real(s->iqr) : json_null());
    put(b, o, "ci_low", have ? real(s->ci_low) : json_null());
    put(b, o, "ci_high", have ? real(s->ci_high) : json_null());
    put(b, o, "ci_level", have ? real(s->ci_level) : json_null());
    put(b, o, "ci_method",
        have && isfinite(s->ci_low) ? str(br_ci_method_name(s->ci_method)) : json_null());
    put(b, o, "outliers", integer((long long)s->n_outliers));
    put(b, o, "n_throttled", integer((long long)t->n_throttled));
    put(b, o, "throttled_min_mhz", real(t->throttled_min_mhz));
    put(b, o, "reps", integer((long long)t->reps));
    put(b, o, "graph", gpu ? json_boolean(t->graph) : json_null());
    put(b, o, "warmup_runs", integer((long long)t->warmup_runs));
    put(b, o, "warmup_ns", real(t->warmup_ns));
    put(b, o, "measure_ns", real(t->measure_ns));
    put(b, o, "stop_reason", str(br_stop_name(t->stop)));
    put(b, o, "tick_ns", t->tick_ns > 0 ? real(t->tick_ns) : json_null());
    put(b, o, "sm_mhz", real(t->sm_mhz_median));
    put(b, o, "samples_ns", reals(b, t->samples, t->samples ? t->n_samples : 0));
    put(b, o, "sm_mhz_samples", reals_or_null(b, t->sm_mhz, n));
    put(b, o, "event_median_ns", median_or_null(t->event_ns, t->event_median_ns));
    put(b, o, "kernel_median_ns", median_or_null(t->kernel_ns, t->kernel_median_ns));
    put(b, o, "span_median_ns", median_or_null(t->span_ns, t->span_median_ns));
    put(b, o, "ops_median", median_or_null(t->ops, t->ops_median));
    put(b, o, "incomplete", integer((long long)t->n_incomplete));
    put(b, o, "other_stream_ops",
        t->kernel_ns ? integer((long long)t->n_other_stream) : json_null());
    put(b, o, "other_context_ops",
        t->kernel_ns ? integer((long long)t->n_other_context) : json_null());
    put(b, o, "escaped_op", str_or_null(t->escaped_op));
    put(b, o, "event_ns", reals_or_null(b, t->event_ns, n));
    put(b, o, "kernel_ns", reals_or_null(b, t->kernel_ns, n));
    put(b, o, "span_ns", reals_or_null(b, t->span_ns, n));
    put(b, o, "ops", reals_or_null(b, t->ops, n));
    put(b, o, "breakdown", breakdown_json(b, t->breakdown, t->n_breakdown));
    if (t->run_medians && t->n_run_medians)
        put(b, o, "run_medians", reals(b, t->run_medians, t->n_run_medians));
    if (!gpu) {
        put(b, o, "cpu_mhz", real(t->cpu_mhz_median));
        put(b, o, "cpu_mhz_samples", reals_or_null(b, t->cpu_mhz, n));
        put(b, o, "switches", reals_or_null(b, t->switches, n));
        put(b, o, "n_switched", integer((long long)t->n_switched));
        put(b, o, "n_slow", integer((long long)t->n_slow));
        put(b, o, "slow_min_mhz", real(t->slow_min_mhz));
        put(b, o, "disturbed_kept", json_boolean(t->disturbed_kept));
    }
    return o;
}

/* The energy of case c (br_energy), or null when it was not measured. */
static json_t *energy_json(br_json_builder *b, const br_case_result *c) {
    const br_energy *e = &c->energy;
    if (c->status != BR_STATUS_OK || !e->present)
        return json_null();
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "j_per_exec", real(e->j_per_exec));
    put(b, o, "watts", real(e->watts));
    put(b, o, "spread", real(e->spread));
    put(b, o, "windows", integer((long long)e->windows));
    put(b, o, "window_ns", real(e->window_ns));
    put(b, o, "executions", real(e->executions));
    put(b, o, "gflop_per_j", real(br_energy_per_joule(c->flops, e)));
    put(b, o, "gb_per_j", real(br_energy_per_joule(c->bytes, e)));
    return o;
}

/* Where case c sits under run r's roofline (roofline.h), or null when it
 * has no point (not a verified GPU case with both bytes and flops). */
static json_t *roofline_json(br_json_builder *b, const br_run *r, const br_case_result *c) {
    if (!br_roofline_applies(r, c))
        return json_null();
    br_roofline_point p = br_roofline_case(r, c);
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "intensity_flop_per_byte", real(p.intensity));
    put(b, o, "bound", str_or_null(br_bound_name(p.bound)));
    put(b, o, "attainable_gflops", real(p.attainable));
    put(b, o, "roofline_pct", real(p.pct));
    put(b, o, "peak_gflops", real(br_roofline_case_peak(r, c)));
    put(b, o, "bandwidth_gbps", real(r->peak_gbps));
    return o;
}

/* The compute peak a case's % of peak is relative to: {"gflops", "clock_mhz"}. */
static json_t *compute_peak_json(br_json_builder *b, double gflops, double clock_mhz) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "gflops", real(gflops));
    put(b, o, "clock_mhz", real(clock_mhz));
    return o;
}

/* The device that measured the case in a run over several: {"index", "uuid"}. */
static json_t *case_device_json(br_json_builder *b, const br_case_result *c) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "index", integer(c->device_index));
    put(b, o, "uuid", str(c->device_uuid));
    return o;
}

/* Where the case's wall time went, or null when not measured. */
static json_t *wall_json(br_json_builder *b, const br_case_wall *w) {
    if (!w->present)
        return json_null();
    json_t *o = json_object();
    if (!o)
        return NULL;
    char key[32];
    for (size_t i = 0; i < BR_WALL_PHASES; i++) {
        snprintf(key, sizeof key, "%s_ns", br_wall_phase_names[i]);
        put(b, o, key, real(br_wall_phase(w, i)));
    }
    put(b, o, "total_ns", real(w->total_ns));
    if (isfinite(w->began_ns))
        put(b, o, "began_ns", real(w->began_ns));
    return o;
}

json_t *br_json_case_write(br_json_builder *b, const br_run *r, const br_case_result *c) {
    json_t *o = json_object();
    json_t *params = json_object();
    if (!o || !params) {
        json_decref(o);
        json_decref(params);
        return NULL;
    }
    const br_run_kernel *k = c->kernel < r->n_kernels ? &r->kernels[c->kernel] : NULL;
    int ok = c->status == BR_STATUS_OK;
    int gpu = k && k->backend == BR_BACKEND_GPU;

    put(b, o, "kernel", str(k ? k->name : NULL));
    for (size_t p = 0; p < r->n_params; p++)
        put(b, params, r->param_names[p], integer((long long)c->params[p]));
    put(b, o, "params", params);
    put(b, o, "backend", k ? str(br_backend_name(k->backend)) : json_null());
    put(b, o, "status", str(br_status_name(c->status)));
    put(b, o, "stage", str(br_stage_name(c->stage)));
    put(b, o, "message", str(c->message));
    put(b, o, "bytes", real(c->bytes));
    put(b, o, "flops", real(c->flops));
    if (c->precision != BR_PRECISION_NONE) /* absent when not declared: older files stay */
        put(b, o, "precision", str(br_precision_name(c->precision)));
    put(b, o, "gbps", real(c->gbps));
    put(b, o, "gflops", real(c->gflops));
    const char *value_key = br_name_of(br_metric_value_keys, (int)r->metric, NULL);
    if (value_key) /* left out for GB/s and GFLOP/s: their values are gbps and gflops */
        put(b, o, value_key, real(br_case_metric_value(c, r->metric)));
    put(b, o, "pct_peak", real(c->pct_peak));
    br_precision eff = br_precision_effective(c->precision);
    int recorded = (int)eff < BR_PRECISION_COUNT && r->compute_peaks[eff].present;
    double clock_mhz = NAN, peak = ok && gpu && recorded ? br_run_case_peak(r, c, &clock_mhz) : NAN;
    if (isfinite(peak)) /* absent without a recorded peak: older files and host cases stay */
        put(b, o, "compute_peak", compute_peak_json(b, peak, clock_mhz));
    put(b, o, "speedup", real(c->speedup));
    put(b, o, "roofline", roofline_json(b, r, c));
    put(b, o, "energy", energy_json(b, c));
    put(b, o, "verified",
        ok                            ? json_true()
        : c->stage == BR_STAGE_VERIFY ? json_false()
                                      : json_null());
    const char *commit = c->commit                          ? c->commit
                         : r->git.present && !r->git.unborn ? r->git.sha
                                                            : NULL;
    put(b, o, "commit", str_or_null(commit));
    put(b, o, "date", str_or_null(c->date[0] ? c->date : r->date));
    put(b, o, "cold", ok && c->cold.present ? timing_json(b, &c->cold, gpu) : json_null());
    put(b, o, "batch", ok && c->batch.present ? timing_json(b, &c->batch, gpu) : json_null());
    if (c->wall.present) /* absent, not null, when not measured: older readers' files stay */
        put(b, o, "wall", wall_json(b, &c->wall));
    if (c->device_present) /* absent in a one-device run: its files stay as they were */
        put(b, o, "device", case_device_json(b, c));
    return o;
}

static json_t *regression_json(br_json_builder *b, const br_regression_cfg *g) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "threshold", real(g->threshold));
    put(b, o, "alpha", real(g->alpha));
    br_regression_cfg filled = *g;
    br_regression_fill(&filled);
    put(b, o, "keep", integer((long long)filled.keep));
    return o;
}

/* One side of `benchrun ab`. */
static json_t *ab_side_json(br_json_builder *b, const br_ab_side *s) {
    json_t *o = json_object(), *mods = json_array();
    if (!o || !mods) {
        json_decref(o);
        json_decref(mods);
        return NULL;
    }
    put(b, o, "rev", str(s->rev));
    put(b, o, "commit", str(s->sha[0] ? s->sha : NULL));
    put(b, o, "dirty", json_boolean(s->dirty));
    for (size_t m = 0; m < s->n_modules; m++) {
        json_t *x = json_object();
        if (x) {
            put(b, x, "source", str(s->modules[m].source));
            put(b, x, "key", str(s->modules[m].key[0] ? s->modules[m].key : NULL));
        }
        append(b, mods, x);
    }
    put(b, o, "modules", mods);
    return o;
}

static json_t *ab_json(br_json_builder *b, const br_ab_info *ab) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "old", ab_side_json(b, &ab->old_side));
    put(b, o, "new", ab_side_json(b, &ab->new_side));
    put(b, o, "blocks", integer((long long)ab->blocks));
    put(b, o, "order", str("ABBA"));
    put(b, o, "ci_level", real(ab->ci_level));
    put(b, o, "method", str("paired t test on the log-ratios of the blocks' medians"));
    return o;
}

/* A baseline comparison's A/B confirmation (gate/confirm.h). */
static json_t *confirm_json(br_json_builder *b, const br_confirm_info *ci) {
    json_t *o = json_object();
    if (!o)
        return NULL;
    put(b, o, "mode", str(br_name_of(br_confirm_mode_names, (int)ci->mode, "auto")));
    put(b, o, "ran", json_boolean(ci->ran));
    put(b, o, "commit", str(ci->commit[0] ? ci->commit : NULL));
    put(b, o, "alpha", real(ci->alpha));
    put(b, o, "level", real(ci->level));
    put(b, o, "threshold", real(ci->threshold));
    put(b, o, "blocks", integer((long long)ci->blocks));
    put(b, o, "flagged", integer((long long)ci->flagged));
    put(b, o, "measured", integer((long long)ci->measured));
    put(b, o, "confirmed", integer((long long)ci->confirmed));
    put(b, o, "wall_ns", real(ci->ns));
    put(b, o, "timeout_ns", real(ci->timeout_ns));
    put(b, o, "note", str(ci->note));
    return o;
}

static json_t *comparison_json(br_json_builder *b, const br_comparison *c) {
    json_t *o = json_object();
    json_t *counts = json_object();
    json_t *cases = json_array();
    if (!o || !counts || !cases) {
        json_decref(o);
        json_decref(counts);
        json_decref(cases);
        return NULL;
    }
    put(b, o, "baseline", str(c->baseline_path));
    put(b, o, "baseline_commit", str_or_null(c->baseline_commit));
    put(b, o, "baseline_date", str_or_null(c->baseline_date));
    put(b, o, "baseline_device", str_or_null(c->baseline_device));
    put(b, o, "device_forced", json_boolean(c->device_forced));
    put(b, o, "threshold", real(c->rules.threshold));
    put(b, o, "alpha", real(c->rules.alpha));
    if (!c->ab) {
        put(b, o, "case_alpha", real(c->case_alpha));
        put(b, o, "cases_tested", integer((long long)c->cases_tested));
    }
    put(b, o, "clock", str(br_mode_name(c->clock)));
    for (int s = 0; s < BR_CHANGE_COUNT; s++)
        put(b, counts, br_change_name((br_change)s), integer((long long)c->count[s]));
    put(b, o, "counts", counts);
    json_t *omitted = json_object();
    if (omitted) {
        put(b, omitted, "no_gpu", integer((long long)c->n_no_gpu));
        put(b, omitted, "left_out_k", integer((long long)c->n_left_out_k));
        put(b, omitted, "left_out_p", integer((long long)c->n_left_out_p));
    }
    put(b, o, "not_compared", omitted);
    for (size_t i = 0; i < c->n_entries; i++) {
        const br_compare_entry *e = &c->entries[i];
        json_t *x = json_object();
        if (x) {
            put(b, x, "kernel", str(e->kernel));
            put(b, x, "params", str(e->params));
            put(b, x, "status", str(br_change_name(e->status)));
            put(b, x, "why", str(e->why));
            put(b, x, "baseline_median", real(e->base_median));
            put(b, x, "median", real(e->cur_median));
            put(b, x, "baseline_n", integer((long long)e->base_n));
            put(b, x, "n", integer((long long)e->cur_n));
            put(b, x, "change", real(e->change));
            put(b, x, "p_value", real(e->p_value));
            put(b, x, "p_exact", isnan(e->p_value) ? json_null() : json_boolean(e->p_exact));
            put(b, x, "p_runs", real(e->p_runs));
            put(b, x, "spread", real(e->spread));
            put(b, x, "spread_runs", integer((long long)e->spread_runs));
            put(b, x, "spread_df", e->spread_df > 0 ? real(e->spread_df) : json_null());
            put(b, x, "spread_from", str(e->spread_from));
            put(b, x, "mde", real(e->mde));
            put(b, x, "decided_by", str(e->decided_by));
            put(b, x, "baseline_sm_mhz", real(e->base_mhz));
            put(b, x, "sm_mhz", real(e->cur_mhz));
            put(b, x, "cycles_change", real(e->cycles_change));
            put(b, x, "not_compared", str(e->not_compared));
            if (c->confirm)
                put(b, x, "stage", str(br_gate_stage_name(e->stage)));
            if (c->ab || e->stage != BR_GATE_SCREEN) {
                put(b, x, "ratio", real(e->ratio));
                put(b, x, "ratio_low", real(e->ratio_low));
                put(b, x, "ratio_high", real(e->ratio_high));
                put(b, x, "pairs", integer((long long)e->pairs));
                put(b, x, "old_block_medians", reals(b, e->old_blocks, e->pairs));
                put(b, x, "new_block_medians", reals(b, e->new_blocks, e->pairs));
            }
        }
        append(b, cases, x);
    }
    put(b, o, "cases", cases);
    if (c->ab)
        put(b, o, "ab", ab_json(b, c->ab));
    if (c->confirm)
        put(b, o, "confirm", confirm_json(b, c->confirm));
    return o;
}

/* Stands for a run's "cases" array in the document json_write dumps. It is
 * found there as CASES_MARKER_DUMPED, the key and the value: the quotes
 * around them cannot come from inside a string (a string's quotes are
 * escaped), and only a run has a "cases" key. */
#define CASES_MARKER        "\001cases"
#define CASES_MARKER_DUMPED "\"cases\": \"\\u0001cases\""

static json_t *run_json(br_json_builder *b, const br_run *r) {
    json_t *o = json_object();
    json_t *params = json_array();
    json_t *kernels = json_array();
    if (!o || !params || !kernels) {
        json_decref(o);
        json_decref(params);
        json_decref(kernels);
        return NULL;
    }
    put(b, o, "benchrun_version", str(r->benchrun_version));
    put(b, o, "gpu_clock",
        str(br_clock_name(r->gpu_clock == BR_CLOCK_KERNEL ? BR_CLOCK_KERNEL : BR_CLOCK_EVENTS)));
    put(b, o, "clock_note", str(r->clock_note));
    if (isfinite(r->compile_ns) && r->compile_ns > 0)
        put(b, o, "compile_ns", real(r->compile_ns));
    put(b, o, "date", str_or_null(r->date));
    put(b, o, "suite", suite_json(b, r));
    put(b, o, "measure", measure_json(b, r));
    put(b, o, "peak", peak_json(b, r));
    put(b, o, "regression", regression_json(b, &r->regression));
    put(b, o, "git", git_json(b, &r->git));
    put(b, o, "device", r->has_device ? device_json(b, &r->device) : json_null());
    put(b, o, "gpu_skip_reason", str(r->gpu_skip_reason));
    put(b, o, "interrupted", str(r->interrupted));
    put(b, o, "host", host_json(b, &r->host));
    for (size_t p = 0; p < r->n_params; p++)
        append(b, params, str(r->param_names[p]));
    put(b, o, "params", params);
    for (size_t i = 0; i < r->n_kernels; i++) {
        json_t *k = json_object();
        if (k) {
            put(b, k, "name", str(r->kernels[i].name));
            put(b, k, "source", str(r->kernels[i].source));
            if (r->kernels[i].source_sha[0])
                put(b, k, "source_sha", str(r->kernels[i].source_sha));
            put(b, k, "backend", str(br_backend_name(r->kernels[i].backend)));
        }
        append(b, kernels, k);
    }
    put(b, o, "kernels", kernels);
    if (r->shard) /* a part of a sharded plan, or their merge (shardinfo.h) */
        put(b, o, "shard", br_shard_json_write(b, r));
    /* The cases are streamed in json_write, one at a time, where this marker is. */
    put(b, o, "cases", json_string(CASES_MARKER));
    if (r->comparison)
        put(b, o, "comparison", comparison_json(b, r->comparison));
    return o;
}

/* If p (at a '[' of jansson's indented dump) opens an array of numbers
 * only, write it on one line ("[1.0, 2.5]") and return the end of the
 * array; else return NULL and write nothing. */
static const char *put_number_array(FILE *f, const char *p) {
    const char *q = p + 1;
    size_t n = 0;
    for (;; n++) {
        q += strspn(q, " \n");
        size_t len = strspn(q, "-+.0123456789eE");
        if (len == 0)
            return NULL;
        q += len + strspn(q + len, " \n");
        if (*q == ']')
            break;
        if (*q++ != ',')
            return NULL;
    }
    fputc('[', f);
    for (q = p + 1; *q != ']'; q++) {
        q += strspn(q, " \n");
        size_t len = strspn(q, "-+.0123456789eE");
        fwrite(q, 1, len, f);
        q += len + strspn(q + len, " \n");
        if (*q == ',')
            fputs(", ", f);
        else
            q--;
    }
    fputc(']', f);
    return q;
}

/* Write `text` (a json_dumps with BR_JSON_DUMP_FLAGS) to f with `indent`
 * spaces after each newline, and every array of numbers only (samples_ns,
 * sm_mhz_samples, event_ns, run_medians, ...) on one line: jansson puts each
 * element on a line of its own, which made a 10,000-sample timing 200 KB
 * of mostly indentation that every reader had to scan. */
static int put_indented(FILE *f, const char *text, int indent) {
    int in_string = 0;
    for (const char *p = text; *p; p++) {
        const char *end;
        if (in_string) {
            if (*p == '\\' && p[1])
                fputc(*p++, f);
            else if (*p == '"')
                in_string = 0;
        } else if (*p == '"') {
            in_string = 1;
        } else if (*p == '[' && (end = put_number_array(f, p)) != NULL) {
            p = end;
            continue;
        }
        if (fputc(*p, f) == EOF || (*p == '\n' && fprintf(f, "%*s", indent, "") < 0))
            return -1;
    }
    return ferror(f) ? -1 : 0;
}

/* Run r's "cases" array, as jansson would dump it at a key indented by 6
 * spaces, one case built and dumped at a time: a run of many cases never
 * holds the whole tree in memory. */
static int write_cases(FILE *f, br_json_builder *b, const br_run *r) {
    if (r->n_cases == 0)
        return fputs("[]", f) == EOF ? -1 : 0;
    if (fputs("[\n        ", f) == EOF)
        return -1;
    for (size_t i = 0; i < r->n_cases; i++) {
        json_t *c = br_json_case_write(b, r, &r->cases[i]);
        char *text = c && !b->failed ? json_dumps(c, BR_JSON_DUMP_FLAGS) : NULL;
        json_decref(c);
        int rc = text ? put_indented(f, text, 8) : -1;
        free(text);
        if (rc != 0 || (i + 1 < r->n_cases && fputs(",\n        ", f) == EOF))
            return -1;
    }
    return fputs("\n      ]", f) == EOF ? -1 : 0;
}

/* The document less its cases is dumped first; the cases are streamed into
 * it (run_write.h). */
int br_results_write(FILE *f, const br_run *const *runs, size_t n_runs) {
    int rc = -1;
    br_json_builder b = {0};
    char *text = NULL;
    json_t *doc = json_object();
    json_t *arr = json_array();
    if (!doc || !arr) {
        json_decref(arr);
        br_error_set("out of memory building JSON");
        goto done;
    }
    const char *version = n_runs > 0 ? runs[0]->benchrun_version : NULL;
#ifdef BR_VERSION
    if (!version)
        version = BR_VERSION;
#endif
    put(&b, doc, "schema_version", integer(BR_SCHEMA_VERSION));
    put(&b, doc, "benchrun_version", str(version));
    for (size_t i = 0; i < n_runs; i++)
        append(&b, arr, run_json(&b, runs[i]));
    put(&b, doc, "runs", arr);
    if (b.failed || !(text = json_dumps(doc, BR_JSON_DUMP_FLAGS))) {
        br_error_set("out of memory building JSON");
        goto done;
    }
    const char *p = text;
    for (size_t i = 0; i < n_runs; i++) {
        const char *m = strstr(p, CASES_MARKER_DUMPED);
        if (!m) {
            br_error_set("the JSON document lost a run's cases");
            goto done;
        }
        m += strlen("\"cases\": "); /* the key stays, the array replaces the value */
        if (fwrite(p, 1, (size_t)(m - p), f) != (size_t)(m - p) ||
            write_cases(f, &b, runs[i]) != 0) {
            br_error_set(b.failed ? "out of memory building JSON" : "cannot write JSON: %s",
                         strerror(errno));
            goto done;
        }
        p = m + strlen(CASES_MARKER_DUMPED) - strlen("\"cases\": ");
    }
    if (strstr(p, CASES_MARKER_DUMPED)) {
        br_error_set("the JSON document has more cases markers than runs");
        goto done;
    }
    if (fputs(p, f) == EOF || fputc('\n', f) == EOF || fflush(f) != 0 || ferror(f)) {
        br_error_set("cannot write JSON: %s", strerror(errno));
        goto done;
    }
    rc = 0;
done:
    free(text);
    json_decref(doc);
    return rc;
}
