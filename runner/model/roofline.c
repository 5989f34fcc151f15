/* SPDX-License-Identifier: Apache-2.0 */
/* The roofline arithmetic (roofline.h). */
#include "roofline.h"

#include <math.h>

static int positive(double x) {
    return isfinite(x) && x > 0.0;
}

br_roofline_point br_roofline_place(double flops, double bytes, double gflops, double peak_gflops,
                                    double bandwidth_gbps) {
    br_roofline_point p = {NAN, NAN, NAN, BR_BOUND_NONE};
    if (!isfinite(flops) || flops < 0.0 || !positive(bytes))
        return p;
    p.intensity = flops / bytes;
    if (!positive(p.intensity) || !positive(peak_gflops) || !positive(bandwidth_gbps))
        return p;
    double memory = p.intensity * bandwidth_gbps;
    p.bound = memory < peak_gflops ? BR_BOUND_MEMORY : BR_BOUND_COMPUTE;
    p.attainable = p.bound == BR_BOUND_MEMORY ? memory : peak_gflops;
    if (isfinite(gflops))
        p.pct = 100.0 * gflops / p.attainable;
    return p;
}

double br_roofline_ridge(double peak_gflops, double bandwidth_gbps) {
    return positive(peak_gflops) && positive(bandwidth_gbps) ? peak_gflops / bandwidth_gbps : NAN;
}

int br_roofline_applies(const br_run *r, const br_case_result *c) {
    return r && c && r->has_device && c->status == BR_STATUS_OK && c->kernel < r->n_kernels &&
           r->kernels[c->kernel].backend == BR_BACKEND_GPU && isfinite(c->bytes) &&
           isfinite(c->flops);
}

double br_roofline_case_peak(const br_run *r, const br_case_result *c) {
    if (!r || !c)
        return NAN;
    double peak = br_run_case_peak(r, c, NULL); /* its precision's, at the clock it held */
    if (!positive(peak) && (c->precision == BR_PRECISION_NONE || c->precision == BR_PRECISION_FP32))
        peak = r->device.peak_gflops;
    return peak;
}

br_roofline_point br_roofline_case(const br_run *r, const br_case_result *c) {
    if (!br_roofline_applies(r, c))
        return (br_roofline_point){NAN, NAN, NAN, BR_BOUND_NONE};
    return br_roofline_place(c->flops, c->bytes, c->gflops, br_roofline_case_peak(r, c),
                             r->peak_gbps);
}

int br_roofline_run_has(const br_run *r) {
    for (size_t i = 0; r && i < r->n_cases; i++)
        if (br_roofline_applies(r, &r->cases[i]))
            return 1;
    return 0;
}

const char *br_bound_name(br_bound b) {
    return b == BR_BOUND_MEMORY ? "memory" : b == BR_BOUND_COMPUTE ? "compute" : NULL;
}
