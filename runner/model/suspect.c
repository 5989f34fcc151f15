/* SPDX-License-Identifier: Apache-2.0 */
/* Flags N, S and P (suspect.h). */
#include "suspect.h"

#include <math.h>

static int positive(double x) {
    return isfinite(x) && x > 0.0;
}

int br_timing_converged(const br_timing *t) {
    if (!t || !t->present)
        return 1;
    switch (t->stop) {
    case BR_STOP_NONE:
    case BR_STOP_CI:
    case BR_STOP_CI_T:
    case BR_STOP_NOISE:
        return 1;
    case BR_STOP_PLATEAU:
    case BR_STOP_TIMEOUT:
    case BR_STOP_MAX_SAMPLES:
        return 0;
    }
    return 0; /* a value outside the enum: never trusted */
}

int br_suspect_escaped(const br_timing *t) {
    return t && t->present && t->kernel_ns && t->n_other_stream + t->n_other_context > 0;
}

double br_suspect_l2_gbps(const br_device *d) {
    if (!d || d->sm_count <= 0 || d->sm_clock_khz <= 0)
        return NAN;
    return d->sm_count * BR_L2_BYTES_PER_CLK_PER_SM * (d->sm_clock_khz * 1e3) / 1e9;
}

br_physics br_suspect_physics(double bytes, double gbps, double gflops, const br_device *d) {
    br_physics p = {BR_PHYSICS_OK, NAN, NAN, NAN, 0};
    if (!d)
        return p;
    if (positive(d->peak_gbps) && isfinite(gbps) && gbps > d->peak_gbps) {
        double l2 = br_suspect_l2_gbps(d);
        int fits = isfinite(bytes) && d->l2_bytes > 0 && bytes <= (double)d->l2_bytes;
        if (!(fits && isfinite(l2) && gbps <= l2))
            return (br_physics){BR_PHYSICS_BANDWIDTH, gbps, d->peak_gbps, l2, fits};
    }
    if (positive(d->peak_gflops) && isfinite(gflops) && gflops > d->peak_gflops)
        return (br_physics){BR_PHYSICS_COMPUTE, gflops, d->peak_gflops, NAN, 0};
    return p;
}

br_physics br_suspect_case_physics(const br_run *r, const br_case_result *c) {
    if (!r || !c || !r->has_device || c->status != BR_STATUS_OK || c->kernel >= r->n_kernels ||
        r->kernels[c->kernel].backend != BR_BACKEND_GPU)
        return (br_physics){BR_PHYSICS_OK, NAN, NAN, NAN, 0};
    br_device d = r->device; /* the compute check against c's precision's peak, max clock */
    d.peak_gflops = br_run_case_peak_max(r, c);
    if (!positive(d.peak_gflops) &&
        (c->precision == BR_PRECISION_NONE || c->precision == BR_PRECISION_FP32))
        d.peak_gflops = r->device.peak_gflops;
    return br_suspect_physics(c->bytes, c->gbps, c->gflops, &d);
}
