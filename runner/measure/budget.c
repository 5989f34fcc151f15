/* SPDX-License-Identifier: Apache-2.0 */
/* Fitting a run into a time budget (see budget.h). */
#include "budget.h"

void br_budget_plan(br_budget_case *out, const br_measure_cfg *cfg, double warmup_ns, int modes,
                    double left_ns, size_t cases_left, double overhead_ns) {
    out->warmup_ns = warmup_ns;
    out->min_time_ns = cfg->min_time_ns;
    out->timeout_ns = cfg->timeout_ns;
    out->shortened = 0;
    out->skip = 0;
    if (modes < 1)
        modes = 1;
    if (cases_left < 1)
        cases_left = 1;
    if (overhead_ns < 0)
        overhead_ns = 0;
    if (!(left_ns > 0)) {
        out->skip = 1;
        return;
    }
    double allowance = left_ns / (double)cases_left;
    double worst = overhead_ns + warmup_ns + (double)modes * cfg->timeout_ns;
    if (worst <= allowance)
        return;

    double avail = allowance - overhead_ns;
    if (avail < 0)
        avail = 0;
    double warm = warmup_ns < avail / 5 ? warmup_ns : avail / 5;
    double timeout = (avail - warm) / (double)modes;
    if (timeout < BR_BUDGET_MIN_TIMEOUT_NS)
        timeout = BR_BUDGET_MIN_TIMEOUT_NS;
    if (timeout > cfg->timeout_ns)
        timeout = cfg->timeout_ns;
    double min_time = cfg->min_time_ns < timeout / 2 ? cfg->min_time_ns : timeout / 2;
    out->warmup_ns = warm;
    out->timeout_ns = timeout;
    out->min_time_ns = min_time;
    out->shortened = warm < warmup_ns || timeout < cfg->timeout_ns || min_time < cfg->min_time_ns;
}
