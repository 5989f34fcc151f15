/* SPDX-License-Identifier: Apache-2.0 */
/* What a case costs to measure (cost.h). */
#include "cost.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "model/stats.h"

double br_cost_measured(const br_case_result *c) {
    if (c->status != BR_STATUS_OK)
        return NAN;
    if (c->wall.present && isfinite(c->wall.total_ns) && c->wall.total_ns > 0)
        return c->wall.total_ns;
    const br_timing *t[2] = {&c->cold, &c->batch};
    double wall = 0, sampled = 0;
    int have_wall = 0, have_samples = 0;
    for (int k = 0; k < 2; k++) {
        if (!t[k]->present)
            continue;
        double w = (isfinite(t[k]->warmup_ns) ? t[k]->warmup_ns : 0) +
                   (isfinite(t[k]->measure_ns) ? t[k]->measure_ns : 0);
        if (w > 0)
            wall += w, have_wall = 1;
        for (size_t s = 0; s < t[k]->n_samples; s++)
            sampled += t[k]->samples[s] * (double)(t[k]->reps ? t[k]->reps : 1);
        have_samples |= t[k]->n_samples > 0;
    }
    return have_wall ? wall : have_samples && sampled > 0 ? sampled : NAN;
}

double br_cost_declared(const br_job *job, size_t i) {
    double b = job->bytes[i], f = job->flops[i];
    double w = (isfinite(b) && b > 0 ? b : 0) + (isfinite(f) && f > 0 ? f : 0);
    return w > 0 ? w : 1;
}

long br_cost_fill(double *cost, const double *work, size_t n) {
    double *rate = malloc((n ? n : 1) * sizeof *rate), *known = malloc((n ? n : 1) * sizeof *known);
    if (!rate || !known) {
        free(rate);
        free(known);
        return br_error_nomem();
    }
    size_t n_known = 0, n_rate = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(cost[i]) || cost[i] < 0)
            continue;
        known[n_known++] = cost[i];
        if (work[i] > 1)
            rate[n_rate++] = cost[i] / work[i];
    }
    double per_work = n_rate ? br_stats_finite_median(rate, n_rate) : NAN;
    double med = n_known ? br_stats_finite_median(known, n_known) : NAN;
    for (size_t i = 0; i < n; i++) {
        if (isfinite(cost[i]) && cost[i] >= 0)
            continue;
        cost[i] = !n_known ? work[i] : n_rate && work[i] > 1 ? work[i] * per_work : med;
    }
    free(rate);
    free(known);
    return (long)n_known;
}
