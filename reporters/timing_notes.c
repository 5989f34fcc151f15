/* timing_notes.c - the clock lines and the N/T/O flags with their warnings,
 * shared by the terminal table and the Markdown report (timing_notes.h). */
#include "timing_notes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"

static int flag_noise(const br_timing *t) {
    return t->stop_reason && strcmp(t->stop_reason, "noise") != 0;
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
           (flag_outliers(t) ? BR_FLAG_O : 0u) | (flag_disturbed(t) ? BR_FLAG_D : 0u);
}

unsigned br_report_case_flags(const br_case_result *c) {
    return br_report_timing_flags(c, &c->cold) | br_report_timing_flags(c, &c->batch);
}

void br_report_flag_letters(char *buf, size_t len, unsigned flags) {
    snprintf(buf, len, "%s%s%s%s", flags & BR_FLAG_N ? "N" : "", flags & BR_FLAG_T ? "T" : "",
             flags & BR_FLAG_O ? "O" : "", flags & BR_FLAG_D ? "D" : "");
}

void br_report_flags_legend(char *buf, size_t len, unsigned used) {
    snprintf(buf, len, "%s%s%s%s%s%s%s",
             used & BR_FLAG_N ? "N = noise above max_noise when sampling stopped" : "",
             used & BR_FLAG_N && used & (BR_FLAG_T | BR_FLAG_O | BR_FLAG_D) ? ", " : "",
             used & BR_FLAG_T ? "T = throttled samples discarded" : "",
             used & BR_FLAG_T && used & (BR_FLAG_O | BR_FLAG_D) ? ", " : "",
             used & BR_FLAG_O ? "O = over 20% of samples are outliers" : "",
             used & BR_FLAG_O && used & BR_FLAG_D ? ", " : "",
             used & BR_FLAG_D ? "D = disturbed host samples discarded" : "");
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
                 t->stop_reason ? t->stop_reason : "?", t->stats.n,
                 t->stats.n == 1 ? "sample" : "samples");
    } else if (flag == BR_FLAG_T) {
        char low[64] = "", of[64] = "";
        if (isfinite(t->throttled_min_mhz))
            snprintf(low, sizeof low, "SM clock down to %.0f MHz, ", t->throttled_min_mhz);
        if (r->has_device && r->device.sm_clock_khz > 0)
            snprintf(of, sizeof of, " of %.0f MHz", r->device.sm_clock_khz / 1000.0);
        snprintf(buf, len, "%zu throttled %s discarded (%sthreshold %.3g%%%s)", t->n_throttled,
                 t->n_throttled == 1 ? "sample" : "samples", low, 100.0 * r->measure.throttle, of);
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
