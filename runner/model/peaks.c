/* SPDX-License-Identifier: Apache-2.0 */
/* The compute peak a case is measured against (run.h, br_run_case_peak). */
#include "run.h"

#include <math.h>

static int positive(double x) {
    return isfinite(x) && x > 0.0;
}

/* r's recorded peak of c's precision (NONE reads as FP32), or NULL. */
static const br_compute_peak *recorded(const br_run *r, const br_case_result *c) {
    br_precision p = br_precision_effective(c->precision);
    if ((int)p < 0 || (int)p >= BR_PRECISION_COUNT || !r->compute_peaks[p].present)
        return NULL;
    return &r->compute_peaks[p];
}

/* An FP32 case of a run without compute peaks: the run's one FP32 peak. */
static double legacy(const br_run *r, const br_case_result *c) {
    int fp32 = c->precision == BR_PRECISION_NONE || c->precision == BR_PRECISION_FP32;
    return fp32 && positive(r->peak_gflops) ? r->peak_gflops : NAN;
}

double br_run_case_peak(const br_run *r, const br_case_result *c, double *clock_mhz) {
    if (clock_mhz)
        *clock_mhz = NAN;
    if (!r || !c || !r->has_device)
        return NAN;
    double measured = NAN;
    if (br_run_measured_compute(r, br_precision_effective(c->precision), &measured))
        return measured; /* `peak: measured`: what the device reached, at the clock it held */
    const br_compute_peak *k = recorded(r, c);
    if (!k)
        return legacy(r, c);
    const br_timing *t = br_case_headline(r, c);
    double held = t && t->present ? t->sm_mhz_median : NAN;
    int use_held = positive(held) && r->device.sm_count > 0 && positive(k->ops_per_sm_clock);
    double mhz = use_held ? held : k->clock_mhz;
    if (clock_mhz)
        *clock_mhz = positive(mhz) ? mhz : NAN;
    if (!use_held)
        return positive(k->gflops) ? k->gflops : NAN;
    return k->ops_per_sm_clock * (double)r->device.sm_count * held * 1e6 / 1e9;
}

double br_run_case_peak_max(const br_run *r, const br_case_result *c) {
    if (!r || !c || !r->has_device)
        return NAN;
    const br_compute_peak *k = recorded(r, c);
    if (!k)
        return legacy(r, c);
    return positive(k->gflops) ? k->gflops : NAN;
}
