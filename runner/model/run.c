/* SPDX-License-Identifier: Apache-2.0 */
/* Counting, derived figures and disposal of a run's results. */
#include "run.h"

#include "base/error.h"
#include "base/util.h"
#include "metric.h"
#include "shard_record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "2^k" for powers of two >= 1024, else the decimal integer. */
void br_format_param(char *buf, size_t len, int64_t v) {
    if (v >= 1024 && (v & (v - 1)) == 0)
        snprintf(buf, len, "2^%d", __builtin_ctzll((unsigned long long)v));
    else
        snprintf(buf, len, "%lld", (long long)v);
}

/* Append s at buf[used..len) as far as it fits; the length with all of s. */
static size_t label_append(char *buf, size_t len, size_t used, const char *s) {
    size_t n = strlen(s);
    if (used < len) {
        size_t k = n < len - used - 1 ? n : len - used - 1;
        memcpy(buf + used, s, k);
        buf[used + k] = '\0';
    }
    return used + n;
}

size_t br_case_label(char *buf, size_t len, const char *kernel, const char *const *names,
                     const int64_t *values, size_t n_params) {
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    if (kernel)
        used = label_append(buf, len, used, kernel);
    for (size_t p = 0; p < n_params; p++) {
        char v[32];
        br_format_param(v, sizeof v, values[p]);
        if (kernel || p)
            used = label_append(buf, len, used, " ");
        used = label_append(buf, len, used, names[p]);
        used = label_append(buf, len, used, "=");
        used = label_append(buf, len, used, v);
    }
    return used;
}

size_t br_run_case_label(char *buf, size_t len, const br_run *r, const br_case_result *c) {
    const char *k =
        c->kernel < r->n_kernels && r->kernels[c->kernel].name ? r->kernels[c->kernel].name : "?";
    return br_case_label(buf, len, k, (const char *const *)r->param_names, c->params,
                         c->params ? r->n_params : 0);
}

/* Counts of r's cases by status; any out pointer may be NULL; a NULL run
 * counts as empty. */
void br_run_count(const br_run *r, size_t *n_ok, size_t *n_failed, size_t *n_skipped) {
    size_t ok = 0, failed = 0, skipped = 0;
    for (size_t i = 0; r && i < r->n_cases; i++) {
        switch (r->cases[i].status) {
        case BR_STATUS_OK:
            ok++;
            break;
        case BR_STATUS_FAILED:
            failed++;
            break;
        case BR_STATUS_SKIPPED:
            skipped++;
            break;
        }
    }
    if (n_ok)
        *n_ok = ok;
    if (n_failed)
        *n_failed = failed;
    if (n_skipped)
        *n_skipped = skipped;
}

/* &c->batch when r's headline is batch, else &c->cold; NULL when c is NULL. */
const char *const br_wall_phase_names[BR_WALL_PHASES] = {
    "start", "setup", "first_run", "verify", "warmup", "cold", "batch", "teardown", "other"};

double *br_wall_phase_ptr(br_case_wall *w, size_t i) {
    double *f[BR_WALL_PHASES] = {&w->start_ns,  &w->setup_ns,    &w->first_run_ns,
                                 &w->verify_ns, &w->warmup_ns,   &w->cold_ns,
                                 &w->batch_ns,  &w->teardown_ns, &w->other_ns};
    return i < BR_WALL_PHASES ? f[i] : NULL;
}

double br_wall_phase(const br_case_wall *w, size_t i) {
    return i < BR_WALL_PHASES ? *br_wall_phase_ptr((br_case_wall *)w, i) : 0.0;
}

const br_timing *br_case_headline(const br_run *r, const br_case_result *c) {
    if (!c)
        return NULL;
    return r && r->measure.headline == BR_MODE_BATCH ? &c->batch : &c->cold;
}

/* The headline median time (ns) of an OK case whose headline timing is
 * present with at least one sample, else NAN. */
static double case_median(const br_run *r, const br_case_result *c) {
    const br_timing *t = br_case_headline(r, c);
    if (c->status != BR_STATUS_OK || !t->present || t->stats.n == 0)
        return NAN;
    double m = t->stats.median;
    return isfinite(m) && m > 0.0 ? m : NAN;
}

/* The case of kernel 0 (the suite's first, the speedup reference) in
 * combination `combo`, or NULL. `ref` (may be NULL: then a linear search)
 * maps each combo below n_ref to that case's index + 1 (0: none). */
static const br_case_result *reference_case(const br_run *r, size_t combo, const size_t *ref,
                                            size_t n_ref) {
    if (ref)
        return combo < n_ref && ref[combo] ? &r->cases[ref[combo] - 1] : NULL;
    for (size_t i = 0; i < r->n_cases; i++) {
        if (r->cases[i].kernel == 0 && r->cases[i].combo == combo)
            return &r->cases[i];
    }
    return NULL;
}

/* x is a usable peak: finite and positive. */
static int positive_peak(double x) {
    return isfinite(x) && x > 0.0;
}

/* r->peak_gflops when set; else the device's FP32 peak (has_device) or NAN. */
static void fill_peak_gflops(br_run *r) {
    if (positive_peak(r->peak_gflops))
        return;
    r->peak_gflops =
        r->has_device && positive_peak(r->device.peak_gflops) ? r->device.peak_gflops : NAN;
}

double br_case_metric_rate(const br_case_result *c, br_metric m) {
    return br_metric_pick(m, c->gbps, c->gflops);
}

double br_case_metric_value(const br_case_result *c, br_metric m) {
    return br_metric_in_unit(m, br_case_metric_rate(c, m));
}

double br_case_metric_amount(const br_case_result *c, br_metric m) {
    return br_metric_pick(m, c->bytes, c->flops);
}

double br_case_per_joule(const br_case_result *c, br_metric m) {
    if (br_metric_amount_of(m) == BR_AMOUNT_NONE)
        m = BR_METRIC_GBPS; /* a run of times alone: bytes per joule, as GB/J */
    return br_metric_in_unit(m, br_energy_per_joule(br_case_metric_amount(c, m), &c->energy));
}

double br_run_metric_peak(const br_run *r, const br_case_result *c) {
    switch (br_metric_peak_of(r->metric)) {
    case BR_METRIC_PEAK_BANDWIDTH:
        return r->peak_gbps;
    case BR_METRIC_PEAK_COMPUTE:
        return br_run_case_peak(r, c, NULL);
    default:
        return NAN;
    }
}

/* Per OK case, with median = the headline timing's median (ns): gbps =
 * bytes / median (bytes per ns is GB/s with 1 GB = 1e9 B), gflops = flops /
 * median (FLOP per ns is GFLOP/s), pct_peak = 100 x the rate of the metric's
 * amount (gbps or gflops) / br_run_metric_peak (r->peak_gbps for a bandwidth
 * metric; for a compute one the case's precision's peak, br_run_case_peak,
 * with r->peak_gflops first filled by fill_peak_gflops), for a GPU-backend kernel with
 * has_device and a finite peak > 0; speedup = headline median of the first
 * kernel at the same combo / this median. Everything not applicable is NAN.
 * Accepts NULL. */
/* The derived figures of case c of r (its speedup against the reference
 * case of its combination, found through ref[0..n_ref) when given, else by
 * searching). */
static void derive_case(br_run *r, br_case_result *c, const size_t *ref, size_t n_ref) {
    c->gbps = NAN;
    c->gflops = NAN;
    c->pct_peak = NAN;
    c->speedup = NAN;

    double median = case_median(r, c);
    if (isnan(median))
        return;
    if (isfinite(c->bytes))
        c->gbps = c->bytes / median;
    if (isfinite(c->flops))
        c->gflops = c->flops / median;

    int gpu = c->kernel < r->n_kernels && r->kernels[c->kernel].backend == BR_BACKEND_GPU;
    double peak = br_run_metric_peak(r, c), rate = br_case_metric_rate(c, r->metric);
    if (gpu && r->has_device && positive_peak(peak) && isfinite(rate))
        c->pct_peak = 100.0 * rate / peak;

    const br_case_result *rc = reference_case(r, c->combo, ref, n_ref);
    double ref_median = rc ? case_median(r, rc) : NAN;
    if (!isnan(ref_median))
        c->speedup = ref_median / median;
}

void br_run_derive(br_run *r) {
    if (!r)
        return;
    fill_peak_gflops(r);
    /* Index the reference cases by combo, so that a run of many cases is
     * linear (without memory, fall back to searching). */
    size_t n_ref = 0;
    for (size_t i = 0; i < r->n_cases; i++)
        if (r->cases[i].combo >= n_ref && r->cases[i].combo < SIZE_MAX / sizeof(size_t) - 1)
            n_ref = r->cases[i].combo + 1;
    size_t *ref = n_ref <= 4 * r->n_cases + 16 ? calloc(n_ref ? n_ref : 1, sizeof *ref) : NULL;
    for (size_t i = r->n_cases; ref && i-- > 0;)
        if (r->cases[i].kernel == 0 && r->cases[i].combo < n_ref)
            ref[r->cases[i].combo] = i + 1; /* backwards: the first one wins */
    for (size_t i = 0; i < r->n_cases; i++)
        derive_case(r, &r->cases[i], ref, n_ref);
    free(ref);
}

void br_run_derive_case(br_run *r, size_t i) {
    if (!r || i >= r->n_cases)
        return;
    fill_peak_gflops(r);
    derive_case(r, &r->cases[i], NULL, 0);
}

double br_energy_per_joule(double amount, const br_energy *e) {
    if (!e || !e->present || !isfinite(amount) || amount <= 0.0 || !isfinite(e->j_per_exec) ||
        e->j_per_exec <= 0.0)
        return NAN;
    return amount / e->j_per_exec / 1e9;
}

/* Free t's samples and SM clocks and zero it; accepts NULL. */
void br_timing_dispose(br_timing *t) {
    if (!t)
        return;
    free(t->samples);
    free(t->sm_mhz);
    free(t->cpu_mhz);
    free(t->switches);
    free(t->run_medians);
    free(t->event_ns);
    free(t->kernel_ns);
    free(t->span_ns);
    free(t->ops);
    free(t->escaped_op);
    br_op_stats_free(t->breakdown, t->n_breakdown);
    memset(t, 0, sizeof *t);
}

/* A copy of v[0..n) in *out (NULL when v is NULL or n is 0). */
static int dup_doubles(double **out, const double *v, size_t n) {
    *out = NULL;
    if (!v || n == 0)
        return 0;
    if (!(*out = malloc(n * sizeof **out)))
        return br_error_nomem();
    memcpy(*out, v, n * sizeof **out);
    return 0;
}

int br_timing_stats(br_timing *t) {
    if (br_stats_compute(&t->stats, t->samples, t->n_samples) != 0)
        return -1;
    if (t->stop == BR_STOP_CI_T)
        return br_stats_set_log_t_ci(&t->stats, t->samples, t->n_samples);
    return 0;
}

int br_timing_copy(br_timing *out, const br_timing *t) {
    *out = *t;
    out->samples = out->sm_mhz = out->event_ns = out->kernel_ns = out->span_ns = out->ops = NULL;
    out->run_medians = out->cpu_mhz = out->switches = NULL;
    out->breakdown = NULL;
    out->n_breakdown = 0;
    out->escaped_op = NULL;
    size_t n = t->n_samples;
    if (t->escaped_op && !(out->escaped_op = br_strdup(t->escaped_op)))
        goto fail;
    if (dup_doubles(&out->samples, t->samples, n) || dup_doubles(&out->sm_mhz, t->sm_mhz, n) ||
        dup_doubles(&out->event_ns, t->event_ns, n) ||
        dup_doubles(&out->kernel_ns, t->kernel_ns, n) ||
        dup_doubles(&out->span_ns, t->span_ns, n) || dup_doubles(&out->ops, t->ops, n) ||
        dup_doubles(&out->cpu_mhz, t->cpu_mhz, n) || dup_doubles(&out->switches, t->switches, n) ||
        dup_doubles(&out->run_medians, t->run_medians, t->n_run_medians))
        goto fail;
    if (!out->run_medians)
        out->n_run_medians = 0;
    if (t->breakdown && t->n_breakdown) {
        if (!(out->breakdown = calloc(t->n_breakdown, sizeof *out->breakdown)))
            goto fail;
        out->n_breakdown = t->n_breakdown;
        for (size_t i = 0; i < t->n_breakdown; i++) {
            out->breakdown[i] = t->breakdown[i];
            out->breakdown[i].name = NULL;
            if (!(out->breakdown[i].name =
                      br_strdup(t->breakdown[i].name ? t->breakdown[i].name : "?")))
                goto fail;
        }
    }
    return 0;
fail:
    br_error_nomem();
    br_timing_dispose(out);
    return -1;
}

/* Free the entries and strings of *c and zero it; accepts NULL. */
void br_comparison_dispose(br_comparison *c) {
    if (!c)
        return;
    for (size_t i = 0; c->entries && i < c->n_entries; i++) {
        free(c->entries[i].kernel);
        free(c->entries[i].params);
        free(c->entries[i].old_blocks);
        free(c->entries[i].new_blocks);
        free(c->entries[i].why_owned);
    }
    free(c->entries);
    if (c->ab) {
        br_ab_side *sides[] = {&c->ab->old_side, &c->ab->new_side};
        for (int s = 0; s < 2; s++) {
            free(sides[s]->rev);
            for (size_t m = 0; m < sides[s]->n_modules; m++)
                free(sides[s]->modules[m].source);
            free(sides[s]->modules);
        }
        free(c->ab);
    }
    if (c->confirm)
        free(c->confirm->note);
    free(c->confirm);
    free(c->baseline_path);
    free(c->baseline_commit);
    free(c->baseline_device);
    memset(c, 0, sizeof *c);
}

/* Free each name and the array; accepts NULL. */
void br_op_stats_free(br_op_stat *v, size_t n) {
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        free(v[i].name);
    free(v);
}

/* Free what *c owns and zero it (run.h). */
void br_case_dispose(br_case_result *c) {
    if (!c)
        return;
    free(c->params);
    free(c->message);
    free(c->commit);
    br_timing_dispose(&c->cold);
    br_timing_dispose(&c->batch);
    memset(c, 0, sizeof *c);
}

void br_case_take_outcome(br_case_result *to, br_case_result *from) {
    to->status = from->status;
    to->stage = from->stage;
    to->message = from->message;
    to->cold = from->cold;
    to->batch = from->batch;
    to->wall = from->wall;
    to->energy = from->energy;
    from->stage = BR_STAGE_NONE;
    from->message = NULL;
    memset(&from->cold, 0, sizeof from->cold);
    memset(&from->batch, 0, sizeof from->batch);
}

/* Free everything *r owns and zero it; accepts NULL and a zeroed run. */
void br_run_dispose(br_run *r) {
    if (!r)
        return;
    free(r->benchrun_version);
    free(r->suite_name);
    free(r->suite_description);
    free(r->suite_path);
    for (size_t i = 0; r->param_names && i < r->n_params; i++)
        free(r->param_names[i]);
    free(r->param_names);
    for (size_t i = 0; r->kernels && i < r->n_kernels; i++) {
        free(r->kernels[i].name);
        free(r->kernels[i].source);
    }
    free(r->kernels);
    free(r->gpu_skip_reason);
    free(r->clock_note);
    free(r->interrupted);
    free(r->compared_with);
    for (size_t i = 0; r->cases && i < r->n_cases; i++)
        br_case_dispose(&r->cases[i]);
    free(r->cases);
    br_comparison_dispose(r->comparison);
    free(r->comparison);
    br_run_shard_free(r->shard);
    memset(r, 0, sizeof *r);
}

int br_run_measured_compute(const br_run *r, br_precision p, double *gops) {
    *gops = NAN;
    if (p <= BR_PRECISION_NONE || p >= BR_PRECISION_COUNT || r->peak_kind != BR_PEAK_MEASURED)
        return 0;
    double v = r->measured_gops[p];
    if (!isfinite(v) || v <= 0.0)
        return 0;
    *gops = v;
    return 1;
}
