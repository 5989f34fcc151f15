/* SPDX-License-Identifier: Apache-2.0 */
/* The interleaved blocks of one step of `benchrun
 * bisect` (bisect_measure.h). */
#include "bisect_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "plan/job.h"
#include "worker/proto.h"

/* Stop measuring: build i failed in `stage` with `message` (a copy is
 * kept). Returns 0, or -1 (out of memory). */
static int fail_build(br_bisect_blocks *b, size_t i, br_stage stage, const char *message) {
    b->failed = (int)i + 1;
    b->stage = stage;
    free(b->why);
    b->why = br_strfmt("%s: %s", br_stage_name(stage), message ? message : "failed");
    return b->why ? 0 : br_error_nomem();
}

/* Every case can be measured on every build (br_driver_unrunnable); the
 * first that cannot fails its build with the message br_driver_settle
 * gives. Returns 0 (b->failed set when one cannot), -1 out of memory. */
static int check_builds(br_bisect_blocks *b, const br_session *s) {
    for (size_t i = 0; i < b->k; i++)
        for (size_t c = 0; c < b->n_cases; c++) {
            const br_job *job = b->job[i];
            size_t idx = b->case_of[i][c];
            br_stage why = br_driver_unrunnable(job, idx);
            if (why == BR_STAGE_NONE)
                continue;
            br_case_result r = {0};
            int rc =
                br_driver_settle(&r, why, job, idx, s) != 0 ? -1 : fail_build(b, i, why, r.message);
            br_case_dispose(&r);
            return rc;
        }
    return 0;
}

/* The progress line before a block (a terminal only). */
static void show_progress(const br_bisect_blocks *b, const br_session *s, const br_driver_ledger *l,
                          size_t round, size_t last, size_t build) {
    if (!br_session_opts(s)->progress)
        return;
    char elapsed[32];
    br_format_clock(elapsed, sizeof elapsed, br_now_ns() - l->start_ns);
    br_log(BR_LOG_PROGRESS, "\r\033[K%s: round %zu/%zu, %s  %s elapsed", b->title ? b->title : "",
           round + 1, last, b->label[build] ? b->label[build] : "", elapsed);
}

/* One block: case c on build i. *ln: the log of its headline median.
 * Returns 0 (b->failed set when it failed), 1 interrupted, -1 error. */
static int run_block(br_bisect_blocks *b, br_session *s, const br_driver_ledger *l, size_t i,
                     size_t c, br_mode headline, double *ln) {
    const br_job *job = b->job[i];
    size_t idx = b->case_of[i][c];
    br_case_result r = {0};
    br_worker_result how;
    if (br_case_init(&r, job, idx) != 0 || br_driver_measure(&r, &how, s, l, job, idx, NULL) != 0) {
        br_case_dispose(&r);
        return -1;
    }
    /* A worker that died or timed out leaves r failed, as a failing case does. */
    int rc = how == BR_WORKER_STOPPED;
    if (rc == 0 && r.status != BR_STATUS_OK) {
        rc = fail_build(b, i, r.stage != BR_STAGE_NONE ? r.stage : BR_STAGE_RUN, r.message);
    } else if (rc == 0) {
        const br_timing *t = headline == BR_MODE_BATCH ? &r.batch : &r.cold;
        char why[128];
        snprintf(why, sizeof why,
                 "no %s timing (the suite's mode does not measure the headline of the bad end)",
                 headline == BR_MODE_BATCH ? "batch" : "cold");
        if (t->present && t->n_samples > 0 && t->stats.median > 0)
            *ln = log(t->stats.median);
        else
            rc = fail_build(b, i, BR_STAGE_RUN, why);
    }
    br_case_dispose(&r);
    return rc;
}

/* Grow every med to hold `cap` rounds. Returns 0 or -1. */
static int reserve(br_bisect_blocks *b, size_t cap) {
    for (size_t i = 0; i < b->k; i++) {
        double *m = realloc(b->med[i], cap * sizeof *m);
        if (!m)
            return br_error_nomem();
        b->med[i] = m;
    }
    return 0;
}

int br_bisect_blocks_add(br_bisect_blocks *b, br_session *s, br_driver_ledger *l, size_t rounds) {
    if (b->k < 2 || b->k > 3 || b->n_cases == 0)
        return br_error_set("bisect: %zu builds and %zu cases (expected 2 or 3, and 1 or more)",
                            b->k, b->n_cases);
    if (b->failed)
        return 0;
    if (check_builds(b, s) != 0)
        return -1;
    if (b->failed || reserve(b, b->n_rounds + rounds) != 0)
        return b->failed ? 0 : -1;
    br_driver_start(l);
    br_mode headline = b->job[b->k - 1]->suite.measure.headline;
    size_t last = b->n_rounds + rounds;
    int rc = 0;
    for (size_t round = b->n_rounds; round < last && rc == 0; round++) {
        double sum[3] = {0, 0, 0};
        for (size_t c = 0; c < b->n_cases && rc == 0 && !b->failed; c++)
            for (size_t j = 0; j < b->k && rc == 0 && !b->failed; j++) {
                size_t i = round % 2 == 0 ? j : b->k - 1 - j;
                double ln = 0;
                if (br_stop_signal())
                    rc = 1;
                else {
                    show_progress(b, s, l, round, last, i);
                    rc = run_block(b, s, l, i, c, headline, &ln);
                }
                sum[i] += ln;
            }
        if (rc != 0 || b->failed)
            break;
        for (size_t i = 0; i < b->k; i++)
            b->med[i][b->n_rounds] = exp(sum[i] / (double)b->n_cases);
        b->n_rounds++;
    }
    if (br_session_opts(s)->progress)
        br_log(BR_LOG_PROGRESS, "\r\033[K");
    return rc;
}

void br_bisect_blocks_dispose(br_bisect_blocks *b) {
    if (!b)
        return;
    for (size_t i = 0; i < 3; i++) {
        free(b->med[i]);
        b->med[i] = NULL;
    }
    free(b->why);
    b->why = NULL;
    b->n_rounds = 0;
    b->failed = 0;
    b->stage = BR_STAGE_NONE;
}
