/* SPDX-License-Identifier: Apache-2.0 */
/* The interleaved measurement of `benchrun ab`. */
#include "ab_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "driver.h"
#include "gate/timingpool.h"
#include "plan/job.h"
#include "worker/proto.h"

enum { OLD = 0, NEW = 1 };

/* One side of the measurement. */
typedef struct side {
    const br_job *job;
    br_run *run;
    br_case_result *blocks; /* the current case's blocks on this side */
    size_t n_blocks;
} side;

/* Everything the blocks of one invocation share. */
typedef struct ab_ctx {
    side sides[2];
    br_session *s;
    br_driver_ledger *l; /* the invocation's */
    size_t blocks;       /* per side */
    size_t total;        /* cases */
    br_mode headline;
} ab_ctx;

/* The side measured in block b: A B B A A B B A ... */
static int side_of_block(size_t b) {
    size_t pair = b / 2;
    int first = pair % 2 == 0 ? OLD : NEW;
    return b % 2 == 0 ? first : 1 - first;
}

/* Whether case c can be measured on both sides; when not, both results say
 * why. Returns 1 measurable, 0 not, -1 out of memory. */
static int check_case(ab_ctx *x, const br_ab_case *c) {
    const br_kernel_ref *ref[2] = {br_job_case_ref(x->sides[OLD].job, c->old_case),
                                   br_job_case_ref(x->sides[NEW].job, c->new_case)};
    br_case_result *r[2] = {&x->sides[OLD].run->cases[c->old_case],
                            &x->sides[NEW].run->cases[c->new_case]};
    if (ref[OLD]->status == BR_STATUS_OK && ref[NEW]->status == BR_STATUS_OK)
        return 1;
    for (int k = 0; k < 2; k++) {
        const side *sd = &x->sides[k];
        size_t idx = k == OLD ? c->old_case : c->new_case;
        br_stage why = br_driver_unrunnable(sd->job, idx);
        if (why != BR_STAGE_NONE ? br_driver_settle(r[k], why, sd->job, idx, x->s) != 0
                                 : br_driver_set(r[k], BR_STATUS_SKIPPED, BR_STAGE_AB,
                                                 br_strfmt("not measured: the case cannot run on "
                                                           "the %s side",
                                                           k == OLD ? "NEW" : "OLD")) != 0)
            return -1;
    }
    return 0;
}

/* The progress line of block b of case i (a terminal only). */
static void show_progress(const ab_ctx *x, const br_ab_case *c, size_t i, size_t b) {
    if (!br_session_opts(x->s)->progress)
        return;
    const side *sd = &x->sides[NEW];
    char line[512], elapsed[32];
    br_format_clock(elapsed, sizeof elapsed, br_now_ns() - x->l->start_ns);
    int n = snprintf(line, sizeof line, "[%zu/%zu] ", i + 1, x->total);
    if (n > 0 && (size_t)n < sizeof line)
        br_run_case_label(line + n, sizeof line - (size_t)n, sd->run, &sd->run->cases[c->new_case]);
    if (strlen(line) > 60)
        snprintf(line + 57, sizeof line - 57, "...");
    br_log(BR_LOG_PROGRESS, "\r\033[K%s  block %zu/%zu (%s)  %s elapsed", line, b + 1,
           2 * x->blocks, side_of_block(b) == OLD ? "OLD" : "NEW", elapsed);
}

/* The blocks of case c, alternating. Returns 0 (all ran, or a block failed:
 * *failed = its side + 1), 1 when interrupted, -1 out of memory. */
static int run_blocks(ab_ctx *x, const br_ab_case *c, size_t i, int *failed) {
    *failed = 0;
    for (size_t b = 0; b < 2 * x->blocks; b++) {
        int k = side_of_block(b);
        side *sd = &x->sides[k];
        size_t idx = k == OLD ? c->old_case : c->new_case;
        br_case_result *r = &sd->blocks[sd->n_blocks];
        if (br_case_init(r, sd->job, idx) != 0)
            return -1;
        sd->n_blocks++;
        show_progress(x, c, i, b);
        br_worker_result how;
        if (br_driver_measure(r, &how, x->s, x->l, sd->job, idx, NULL) != 0)
            return -1;
        if (how == BR_WORKER_STOPPED) { /* this block did not finish: only the others count */
            br_case_dispose(r);
            sd->n_blocks--;
            return 1;
        }
        if (r->status != BR_STATUS_OK) {
            *failed = k + 1;
            return 0;
        }
    }
    return 0;
}

/* The headline median of block r, ns; NAN when it has no such timing. */
static double block_median(const ab_ctx *x, const br_case_result *r) {
    const br_timing *t = x->headline == BR_MODE_BATCH ? &r->batch : &r->cold;
    return t->present && t->n_samples ? t->stats.median : NAN;
}

/* Pool side sd's blocks into its case result r (status OK). Returns 0 or -1. */
static int pool_side(side *sd, br_case_result *r) {
    br_timing *pick[2] = {&r->cold, &r->batch};
    for (int m = 0; m < 2; m++) {
        br_timing *v = calloc(sd->n_blocks, sizeof *v);
        if (!v)
            return br_error_nomem();
        int all = 1;
        for (size_t b = 0; b < sd->n_blocks; b++) {
            v[b] = m == 0 ? sd->blocks[b].cold : sd->blocks[b].batch;
            all &= v[b].present && v[b].n_samples > 0;
        }
        int rc = all ? br_timing_pool(pick[m], v, sd->n_blocks) : 0;
        free(v);
        if (rc != 0)
            return -1;
    }
    r->status = BR_STATUS_OK;
    return 0;
}

/* The block pairs whose both blocks finished: all of them, or fewer after
 * an interrupt. */
static size_t finished_pairs(const ab_ctx *x) {
    size_t o = x->sides[OLD].n_blocks, n = x->sides[NEW].n_blocks;
    return o < n ? o : n;
}

/* What the blocks of case c came to: medians, pooled timings, or the
 * failure. Returns 0 or -1. */
static int finish_case(ab_ctx *x, br_ab_case *c, int failed) {
    br_case_result *r[2] = {&x->sides[OLD].run->cases[c->old_case],
                            &x->sides[NEW].run->cases[c->new_case]};
    if (failed) {
        int k = failed - 1;
        const br_case_result *bad = &x->sides[k].blocks[x->sides[k].n_blocks - 1];
        br_stage stage = bad->stage != BR_STAGE_NONE ? bad->stage : BR_STAGE_RUN;
        if (br_driver_set(r[k], bad->status, stage,
                          br_strdup(bad->message ? bad->message : "failed")) != 0 ||
            br_driver_set(r[1 - k], BR_STATUS_SKIPPED, BR_STAGE_AB,
                          br_strfmt("not compared: the case failed on the %s side (%s)",
                                    k == OLD ? "OLD" : "NEW", br_stage_name(stage))) != 0)
            return -1;
        return 0;
    }
    size_t pairs = finished_pairs(x);
    c->old_med = calloc(pairs ? pairs : 1, sizeof *c->old_med);
    c->new_med = calloc(pairs ? pairs : 1, sizeof *c->new_med);
    if (!c->old_med || !c->new_med)
        return br_error_nomem();
    /* Pair k holds block k of each side (one OLD and one NEW block per pair). */
    for (size_t k = 0; k < pairs; k++) {
        double o = block_median(x, &x->sides[OLD].blocks[k]);
        double n = block_median(x, &x->sides[NEW].blocks[k]);
        if (isnan(o) || isnan(n))
            break;
        c->old_med[c->n_pairs] = o;
        c->new_med[c->n_pairs++] = n;
    }
    return pool_side(&x->sides[OLD], r[OLD]) != 0 || pool_side(&x->sides[NEW], r[NEW]) != 0 ? -1
                                                                                            : 0;
}

/* Dispose the blocks of both sides and reset their counts. */
static void drop_blocks(ab_ctx *x) {
    for (int k = 0; k < 2; k++) {
        for (size_t b = 0; b < x->sides[k].n_blocks; b++)
            br_case_dispose(&x->sides[k].blocks[b]);
        x->sides[k].n_blocks = 0;
    }
}

/* After an interrupt: the pairs cases[from..n) listed as not run on both sides. */
static int mark_interrupted(ab_ctx *x, const br_ab_case *cases, size_t from, size_t n) {
    for (size_t i = from; i < n; i++)
        if (br_driver_interrupted(x->sides[OLD].run, x->sides[OLD].job, cases[i].old_case) != 0 ||
            br_driver_interrupted(x->sides[NEW].run, x->sides[NEW].job, cases[i].new_case) != 0)
            return -1;
    return 0;
}

/* After the time bound: the pairs cases[from..n) skipped on both sides. */
static int mark_out_of_time(ab_ctx *x, const br_ab_case *cases, size_t from, size_t n) {
    for (size_t i = from; i < n; i++)
        for (int k = 0; k < 2; k++) {
            size_t idx = k == OLD ? cases[i].old_case : cases[i].new_case;
            char *why = br_strdup("not measured: the time bound ran out");
            if (!why || br_driver_set(&x->sides[k].run->cases[idx], BR_STATUS_SKIPPED, BR_STAGE_AB,
                                      why) != 0)
                return -1;
        }
    return 0;
}

/* Case i: check, blocks, outcome. Returns 0, 1 interrupted before a block
 * pair finished, 2 interrupted after (the case kept, partial), -1 error. */
static int measure_case(ab_ctx *x, br_ab_case *c, size_t i) {
    for (int k = 0; k < 2; k++) {
        br_run *run = x->sides[k].run;
        size_t idx = k == OLD ? c->old_case : c->new_case;
        br_case_dispose(&run->cases[idx]);
        if (br_case_init(&run->cases[idx], x->sides[k].job, idx) != 0)
            return -1;
    }
    int ok = check_case(x, c);
    if (ok <= 0)
        return ok;
    int failed = 0;
    int rc = run_blocks(x, c, i, &failed);
    if (rc == 0) {
        rc = finish_case(x, c, failed);
    } else if (rc == 1 && finished_pairs(x) > 0) {
        /* Interrupted: the pairs finished are kept and compared, marked partial. */
        c->partial_of = x->blocks;
        rc = finish_case(x, c, 0) == 0 ? 2 : -1;
    }
    drop_blocks(x);
    return rc;
}

int br_ab_measure(br_run *old_run, br_run *new_run, br_ab_case *cases, size_t n,
                  const br_job *old_job, const br_job *new_job, br_session *s, br_driver_ledger *l,
                  size_t blocks, double deadline_ns) {
    ab_ctx x = {.sides = {{old_job, old_run, NULL, 0}, {new_job, new_run, NULL, 0}},
                .s = s,
                .l = l,
                .blocks = blocks,
                .total = n,
                .headline = new_job->suite.measure.headline};
    int rc = -1;
    x.sides[OLD].blocks = calloc(blocks ? blocks : 1, sizeof *x.sides[OLD].blocks);
    x.sides[NEW].blocks = calloc(blocks ? blocks : 1, sizeof *x.sides[NEW].blocks);
    if (!x.sides[OLD].blocks || !x.sides[NEW].blocks || blocks == 0) {
        if (blocks == 0)
            br_error_set("benchrun ab needs at least one block per side");
        else
            br_error_nomem();
        goto done;
    }
    br_driver_start(l);
    size_t i = 0;
    for (; i < n && !br_stop_signal(); i++) {
        if (deadline_ns > 0 && br_now_ns() > deadline_ns)
            break;
        int r = measure_case(&x, &cases[i], i);
        if (r < 0)
            goto done;
        if (r > 0) {
            i += r == 2; /* a partial case is kept */
            break;
        }
    }
    if (br_session_opts(s)->progress)
        br_log(BR_LOG_PROGRESS, "\r\033[K");
    if (br_stop_signal() &&
        (br_driver_note_interrupt(old_run) != 0 || br_driver_note_interrupt(new_run) != 0 ||
         mark_interrupted(&x, cases, i, n) != 0))
        goto done;
    if (!br_stop_signal() && i < n && mark_out_of_time(&x, cases, i, n) != 0)
        goto done;
    rc = br_driver_close(old_run, s, s) != 0 || br_driver_close(new_run, s, s) != 0 ? -1 : 0;
done:
    drop_blocks(&x);
    free(x.sides[OLD].blocks);
    free(x.sides[NEW].blocks);
    return rc;
}
