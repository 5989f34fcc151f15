/* SPDX-License-Identifier: Apache-2.0 */
/* The clock lines and the N/T/O flags with their warnings,
 * shared by the terminal table and the Markdown report (timing_notes.h). */
#include "timing_notes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "gate/drift.h"
#include "model/suspect.h"

/* Sampling stopped before the precision asked for was reached
 * (model/suspect.h, br_timing_converged). */
static int flag_noise(const br_timing *t) {
    return !br_timing_converged(t);
}

static int flag_throttled(const br_timing *t) {
    return t->n_throttled > 0;
}

static int flag_disturbed(const br_timing *t) {
    if (t->disturbed_kept)
        return 1;
    size_t gone = t->n_switched + t->n_slow;
    return gone > 0 && gone * 100 > t->n_samples + gone;
}

static int flag_outliers(const br_timing *t) {
    return t->stats.n >= 20 && t->stats.n_outliers * 5 > t->stats.n;
}

unsigned br_report_timing_flags(const br_case_result *c, const br_timing *t) {
    if (c->status != BR_STATUS_OK || !t->present)
        return 0;
    return (flag_noise(t) ? BR_FLAG_N : 0u) | (flag_throttled(t) ? BR_FLAG_T : 0u) |
           (flag_outliers(t) ? BR_FLAG_O : 0u) | (flag_disturbed(t) ? BR_FLAG_D : 0u) |
           (br_suspect_escaped(t) ? BR_FLAG_S : 0u);
}

unsigned br_report_case_flags(const br_run *r, const br_case_result *c) {
    unsigned f = br_report_timing_flags(c, &c->cold) | br_report_timing_flags(c, &c->batch);
    return f | (br_suspect_case_physics(r, c).kind != BR_PHYSICS_OK ? BR_FLAG_P : 0u);
}

void br_report_flag_letters(char *buf, size_t len, unsigned flags) {
    snprintf(buf, len, "%s%s%s%s%s%s", flags & BR_FLAG_N ? "N" : "", flags & BR_FLAG_T ? "T" : "",
             flags & BR_FLAG_O ? "O" : "", flags & BR_FLAG_D ? "D" : "",
             flags & BR_FLAG_S ? "S" : "", flags & BR_FLAG_P ? "P" : "");
}

void br_report_flags_legend(char *buf, size_t len, unsigned used) {
    static const struct {
        unsigned flag;
        const char *text;
    } legend[] = {
        {BR_FLAG_N, "N = noise above max_noise when sampling stopped"},
        {BR_FLAG_T, "T = throttled samples discarded"},
        {BR_FLAG_O, "O = over 20% of samples are outliers"},
        {BR_FLAG_D, "D = disturbed host samples discarded"},
        {BR_FLAG_S, "S = work ran outside the case's stream: its event time is not to be trusted"},
        {BR_FLAG_P, "P = faster than the hardware can go"},
    };
    size_t used_len = 0;
    if (len > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) {
        if (!(used & legend[i].flag) || used_len >= len)
            continue;
        int n =
            snprintf(buf + used_len, len - used_len, "%s%s", used_len ? ", " : "", legend[i].text);
        used_len += n > 0 ? (size_t)n : 0;
    }
}

/* "512 MiB"-style size for the P warning. */
static void format_size(char *buf, size_t len, double bytes) {
    br_format_bytes(buf, len, bytes);
}

void br_report_physics_warning(char *buf, size_t len, const br_run *r, const br_case_result *c) {
    br_physics p = br_suspect_case_physics(r, c);
    if (p.kind == BR_PHYSICS_COMPUTE) {
        int fp32 = c->precision == BR_PRECISION_NONE || c->precision == BR_PRECISION_FP32;
        snprintf(buf, len,
                 "%.1f GFLOP/s is above the %.0f GFLOP/s %s peak: no cache explains it "
                 "(wrong `flops` or `precision`, skipped work, tensor cores, or work outside "
                 "the clock)",
                 p.achieved, p.peak, fp32 ? "FP32" : br_precision_name(c->precision));
    } else if (p.kind == BR_PHYSICS_BANDWIDTH) {
        char bytes[32], l2[32], why[160];
        format_size(bytes, sizeof bytes, c->bytes);
        format_size(l2, sizeof l2, (double)r->device.l2_bytes);
        if (!p.fits_l2)
            snprintf(why, sizeof why, "%s per execution %s the %s L2",
                     isfinite(c->bytes) ? bytes : "?",
                     r->device.l2_bytes ? "does not fit" : "cannot be checked against",
                     r->device.l2_bytes ? l2 : "unknown");
        else
            snprintf(why, sizeof why, "above the %.0f GB/s L2 can deliver", p.l2_gbps);
        snprintf(buf, len,
                 "%.1f GB/s is above the %.0f GB/s DRAM peak and %s (wrong `bytes`, skipped work, "
                 "or work outside the clock)",
                 p.achieved, p.peak, why);
    } else if (len > 0) {
        buf[0] = '\0';
    }
}

/* The D warning: how many were discarded, and why. */
static void disturbed_warning(char *buf, size_t len, const br_run *r, const br_timing *t) {
    size_t gone = t->n_switched + t->n_slow;
    if (t->disturbed_kept) {
        snprintf(buf, len,
                 "every sample (%zu) was disturbed (%zu by another thread on the CPU, %zu with "
                 "the CPU slowed down): kept all the same, so this time includes the "
                 "disturbance; the CPU is busy (see --cpu)",
                 t->n_samples, t->n_switched, t->n_slow);
        return;
    }
    char slow[160] = "";
    if (t->n_slow)
        snprintf(slow, sizeof slow, "%s%zu with the CPU below %.3g%% of its median frequency",
                 t->n_switched ? ", " : "", t->n_slow, 100.0 * r->measure.throttle);
    if (t->n_slow && isfinite(t->slow_min_mhz) && isfinite(t->cpu_mhz_median))
        snprintf(slow + strlen(slow), sizeof slow - strlen(slow), " (down to %.0f of %.0f MHz)",
                 t->slow_min_mhz, t->cpu_mhz_median);
    char sw[96] = "";
    if (t->n_switched)
        snprintf(sw, sizeof sw, "%zu with an involuntary context switch", t->n_switched);
    snprintf(buf, len, "%zu of %zu samples (%.1f%%) disturbed and discarded: %s%s", gone,
             gone + t->n_samples, 100.0 * (double)gone / (double)(gone + t->n_samples), sw, slow);
}

void br_report_flag_warning(char *buf, size_t len, const br_run *r, const br_timing *t,
                            unsigned flag) {
    if (flag == BR_FLAG_N) {
        snprintf(buf, len,
                 "noise %.1f%% did not reach max_noise %.3g%% (stopped on %s after %zu %s)",
                 100.0 * t->stats.noise, 100.0 * r->measure.max_noise,
                 br_stop_name(t->stop) ? br_stop_name(t->stop) : "?", t->stats.n,
                 t->stats.n == 1 ? "sample" : "samples");
    } else if (flag == BR_FLAG_T) {
        char low[64] = "", of[64] = "";
        if (isfinite(t->throttled_min_mhz))
            snprintf(low, sizeof low, "SM clock down to %.0f MHz, ", t->throttled_min_mhz);
        if (r->has_device && r->device.sm_clock_khz > 0)
            snprintf(of, sizeof of, " of %.0f MHz", r->device.sm_clock_khz / 1000.0);
        snprintf(buf, len, "%zu throttled %s discarded (%sthreshold %.3g%%%s)", t->n_throttled,
                 t->n_throttled == 1 ? "sample" : "samples", low, 100.0 * r->measure.throttle, of);
    } else if (flag == BR_FLAG_S) {
        snprintf(buf, len,
                 "%zu operation(s) on another stream and %zu in another context over %zu "
                 "samples (first: %s): CUDA events see only the case's stream, so the event "
                 "time is not to be trusted (event median %.3f us, kernel time median %.3f us)",
                 t->n_other_stream, t->n_other_context, t->stats.n,
                 t->escaped_op ? t->escaped_op : "?", t->event_median_ns / 1e3,
                 t->kernel_median_ns / 1e3);
    } else if (flag == BR_FLAG_D) {
        disturbed_warning(buf, len, r, t);
    } else if (flag == BR_FLAG_O) {
        snprintf(buf, len, "%zu of %zu samples (%.1f%%) are outliers (outside Tukey's fences)",
                 t->stats.n_outliers, t->stats.n,
                 t->stats.n ? 100.0 * (double)t->stats.n_outliers / (double)t->stats.n : 0.0);
    } else if (len > 0) {
        buf[0] = '\0';
    }
}

/* Which kinds of case of run r were measured: *host (a host kernel's case
 * is OK), *gpu (a GPU kernel's). */
static void measured_kinds(int *host, int *gpu, const br_run *r) {
    *host = *gpu = 0;
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        if (c->status != BR_STATUS_OK || c->kernel >= r->n_kernels)
            continue;
        if (r->kernels[c->kernel].backend == BR_BACKEND_GPU)
            *gpu = 1;
        else
            *host = 1;
    }
}

int br_report_clock_lines(char *lines[2], const br_run *r) {
    int host, gpu, n = 0;
    measured_kinds(&host, &gpu, r);
    lines[0] = lines[1] = NULL;
    if (host &&
        !(lines[n++] = r->host.pinned ? br_strfmt("Host times: host clock "
                                                  "(CLOCK_MONOTONIC), pinned to CPU %d",
                                                  r->host.cpu)
                                      : br_strfmt("Host times: host clock (CLOCK_MONOTONIC)")))
        goto oom;
    if (gpu) {
        if (r->gpu_clock == BR_CLOCK_KERNEL)
            lines[n] = br_strfmt("GPU times: kernel clock (CUPTI activity records)");
        else if (r->clock_note)
            lines[n] =
                br_strfmt("GPU times: CUDA events (kernel clock unavailable: %s)", r->clock_note);
        else
            lines[n] = br_strfmt("GPU times: CUDA events");
        if (!lines[n++])
            goto oom;
        for (char *p = lines[n - 1]; *p; p++) {
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = ' ';
        }
    }
    return n;
oom:
    free(lines[0]);
    free(lines[1]);
    lines[0] = lines[1] = NULL;
    return br_error_set("out of memory formatting the clock lines");
}

int br_report_not_compared(char *buf, size_t len, const br_comparison *c) {
    size_t n[3] = {c->n_no_gpu, c->n_left_out_k, c->n_left_out_p};
    static const char *const what[3] = {"skipped (no GPU)", "left out by -k", "left out by -p"};
    size_t parts = (n[0] > 0) + (n[1] > 0) + (n[2] > 0), done = 0, used = 0;
    if (len)
        buf[0] = '\0';
    if (parts == 0)
        return 0;
    for (int i = 0; i < 3 && used < len; i++) {
        if (!n[i])
            continue;
        const char *sep = done == 0 ? "" : done + 1 == parts ? " and " : ", ";
        used += (size_t)snprintf(buf + used, len - used, "%s%zu %s%s", sep, n[i],
                                 done == 0 ? (n[i] == 1 ? "case " : "cases ") : "", what[i]);
        done++;
    }
    if (used < len)
        snprintf(buf + used, len - used, ": not compared");
    return 1;
}

void br_report_change_status(char *buf, size_t len, const br_compare_entry *e) {
    const char *by = e->decided_by && strcmp(e->decided_by, "time") != 0 ? e->decided_by : NULL;
    snprintf(buf, len, "%s%s%s%s%s%s", br_change_name(e->status), e->why ? ": " : "",
             e->why ? e->why : "", by ? " (" : "", by ? by : "", by ? ")" : "");
}

void br_report_mde(char *buf, size_t len, const br_compare_entry *e, const char *dash) {
    if (!isfinite(e->mde))
        snprintf(buf, len, "%s", dash);
    else if (e->mde < 0.1)
        snprintf(buf, len, "%.1f%%", 100.0 * e->mde);
    else
        snprintf(buf, len, "%.0f%%", 100.0 * e->mde);
}

void br_report_one_save(char *buf, size_t len, const br_comparison *c, const char *pm) {
    int pooled = 0;
    double lo = INFINITY, hi = -INFINITY; /* the assumed drifts used (host and GPU differ) */
    for (size_t i = 0; i < c->n_entries; i++) {
        const br_compare_entry *e = &c->entries[i];
        const char *from = e->not_compared ? NULL : e->spread_from;
        pooled |= from && strcmp(from, "pooled") == 0;
        if (from && strcmp(from, "assumed") == 0 && isfinite(e->spread)) {
            lo = fmin(lo, e->spread);
            hi = fmax(hi, e->spread);
        }
    }
    int assumed = isfinite(lo);
    char drift[96] = "", range[32];
    if (lo == hi)
        snprintf(range, sizeof range, "%.3g%%", 100.0 * lo);
    else
        snprintf(range, sizeof range, "%.3g-%.3g%%", 100.0 * lo, 100.0 * hi);
    if (assumed)
        snprintf(drift, sizeof drift, "%s%s%s drift between runs assumed", pooled ? "; else " : "",
                 pm, range);
    snprintf(buf, len, "%s%s%s", pooled || assumed ? "one save: " : "",
             pooled ? "spread pooled from the suite's other cases" : "", drift);
}

void br_report_confirm(char *buf, size_t len, const br_comparison *c) {
    const br_confirm_info *ci = c->confirm;
    size_t k = 0;
    buf[0] = '\0';
    if (!ci || len == 0)
        return;
    if (ci->commit[0])
        k = (size_t)snprintf(buf, len, "screened at p < %g; %zu flagged", c->rules.alpha,
                             ci->flagged);
    if (ci->ran && k < len)
        k += (size_t)snprintf(buf + k, len - k,
                              ", %zu confirmed by A/B against %.7s (%zu block pairs each, judged "
                              "at p < %.3g, %.1f s)",
                              ci->confirmed, ci->commit, ci->blocks, ci->level, ci->ns / 1e9);
    if (ci->note && k < len)
        snprintf(buf + k, len - k, "%s%s", k ? "; " : "", ci->note);
}

void br_report_level(char *buf, size_t len, const br_comparison *c) {
    if (c->case_alpha > 0 && c->case_alpha < c->rules.alpha)
        snprintf(buf, len, "p < %.3g (%g over %zu cases)", c->case_alpha, c->rules.alpha,
                 c->cases_tested);
    else
        snprintf(buf, len, "p < %g", c->rules.alpha);
}

double br_report_change_p(const br_compare_entry *e) {
    return isfinite(e->p_runs) ? e->p_runs : e->p_value;
}
