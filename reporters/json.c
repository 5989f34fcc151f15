/* SPDX-License-Identifier: Apache-2.0 */
/* The "json" reporter: the versioned results document of
 * results/run_write.c (also the format of baselines). */
#include "reporter.h"

#include "results/run_write.h"

static int json_write(FILE *f, const br_run *const *runs, size_t n_runs,
                      const br_report_opts *opts) {
    (void)opts;
    return br_results_write(f, runs, n_runs);
}

/* The "json" reporter: the versioned results document (also baselines). */
const br_reporter br_reporter_json = {"json", json_write};
