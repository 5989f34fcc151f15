/* SPDX-License-Identifier: Apache-2.0 */
/* What the three drivers share (driver.h). */
#include "driver.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "model/settings.h"
#include "platform/flops.h"
#include "plan/job.h"
#include "worker/proto.h"

br_stage br_driver_unrunnable(const br_job *job, size_t i) {
    const br_kernel_ref *ref = br_job_case_ref(job, i);
    if (ref->status == BR_STATUS_SKIPPED)
        return ref->skip == BR_STAGE_PRECISION ? BR_STAGE_PRECISION : BR_STAGE_NO_GPU;
    return ref->status == BR_STATUS_FAILED ? BR_STAGE_COMPILE : BR_STAGE_NONE;
}

/* Why the session's GPU cannot run case r's precision (malloc'd). */
static char *lacks_message(const br_case_result *r, const br_session *s) {
    char why[512];
    if (s && br_session_gpu_ok(s) &&
        br_flops_lacks(br_session_device(s), r->precision, why, sizeof why))
        return br_strdup(why);
    return br_strfmt("%s: the GPU lacks it", br_precision_name(r->precision));
}

int br_driver_set(br_case_result *r, br_case_status status, br_stage stage, char *message) {
    r->status = status;
    r->stage = stage;
    free(r->message);
    r->message = message;
    return message ? 0 : br_error_nomem();
}

int br_driver_settle(br_case_result *r, br_stage why, const br_job *job, size_t i,
                     const br_session *s) {
    br_case_dispose(r);
    if (br_case_init(r, job, i) != 0)
        return -1;
    const br_kernel_ref *ref;
    char sig[32];
    switch (why) {
    case BR_STAGE_COMPILE:
        ref = br_job_case_ref(job, i);
        return br_driver_set(r, BR_STATUS_FAILED, why,
                             br_strfmt("%s: %s", ref->mh->source, ref->mh->message));
    case BR_STAGE_NO_GPU:
        return br_driver_set(
            r, BR_STATUS_SKIPPED, why,
            br_strdup(s && br_session_gpu_why(s)[0] ? br_session_gpu_why(s) : "no usable GPU"));
    case BR_STAGE_PRECISION:
        return br_driver_set(r, BR_STATUS_SKIPPED, why, lacks_message(r, s));
    case BR_STAGE_BUDGET:
        return br_driver_set(r, BR_STATUS_SKIPPED, why,
                             br_strdup("the time budget was spent before this case"));
    case BR_STAGE_INTERRUPTED:
        br_signal_name(sig, sizeof sig, br_stop_signal());
        return br_driver_set(r, BR_STATUS_SKIPPED, why,
                             br_strfmt("not run: benchrun was interrupted (%s)", sig));
    default:
        return br_error_set("a case is not settled without a worker in stage %d", (int)why);
    }
}

int br_driver_note_interrupt(br_run *run) {
    char sig[32];
    br_signal_name(sig, sizeof sig, br_stop_signal());
    return !run->interrupted && !(run->interrupted = br_strdup(sig)) ? -1 : 0;
}

int br_driver_interrupted(br_run *run, const br_job *job, size_t i) {
    if (br_driver_note_interrupt(run) != 0)
        return -1;
    return br_driver_settle(&run->cases[i], BR_STAGE_INTERRUPTED, job, i, NULL);
}

void br_driver_start(br_driver_ledger *l) {
    if (l->start_ns == 0)
        l->start_ns = br_now_ns();
}

void br_driver_tell_begun(const br_driver_ledger *l, br_run *run) {
    if (l->watch && l->watch->begun)
        l->watch->begun(l->watch->ctx, run);
}

void br_driver_tell_case(const br_driver_ledger *l, br_run *run, size_t i) {
    if (l->watch && l->watch->case_done)
        l->watch->case_done(l->watch->ctx, run, i);
}

void br_driver_tell_ended(const br_driver_ledger *l, br_run *run) {
    if (l->watch && l->watch->ended)
        l->watch->ended(l->watch->ctx, run);
}

size_t br_driver_count_runnable(const br_job *jobs, size_t n) {
    size_t runnable = 0;
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; jobs[j].built && i < jobs[j].plan.n_cases; i++)
            runnable += br_driver_unrunnable(&jobs[j], i) == BR_STAGE_NONE;
    return runnable;
}

size_t br_driver_total(const br_driver_ledger *l, const br_run_opts *o, const br_job *job) {
    return l->total > 0 ? l->total : o->total_cases > 0 ? o->total_cases : job->plan.n_cases;
}

int br_driver_plan(br_budget_case *bc, br_driver_ledger *l, const br_run_opts *o, const br_job *job,
                   unsigned devices, double suite_left_ns, size_t suite_cases_left) {
    const br_suite *suite = &job->suite;
    size_t total = br_driver_total(l, o, job);
    double left = INFINITY;
    size_t cases_left = 1;
    int any = 0;
    if (o->budget_ns > 0) {
        left = (o->budget_ns - (br_now_ns() - l->start_ns)) * (devices ? devices : 1);
        cases_left = total > l->cases_done ? total - l->cases_done : 1;
        any = 1;
    }
    if (suite->budget_ns > 0 && suite_cases_left > 0) {
        if (!any || suite_left_ns / (double)suite_cases_left < left / (double)cases_left) {
            left = suite_left_ns;
            cases_left = suite_cases_left;
        }
        any = 1;
    }
    l->cases_done++;
    if (!any)
        return 0;
    double overhead = l->n_overhead ? l->overhead_ns / (double)l->n_overhead : 0;
    br_budget_plan(bc, &suite->measure, suite->warmup_ns, br_measure_modes(&suite->measure), left,
                   cases_left, overhead);
    return 1;
}

/* Close a case's wall-time breakdown at its total, ns: what the worker's
 * phases and the start do not account for becomes other_ns (a worker that
 * died reported none); sets w->present. */
static void wall_close(br_case_wall *w, double total_ns) {
    w->present = 1;
    w->total_ns = total_ns;
    double sum = 0;
    w->other_ns = 0;
    for (size_t i = 0; i < BR_WALL_PHASES; i++)
        sum += br_wall_phase(w, i);
    w->other_ns = total_ns > sum ? total_ns - sum : 0;
}

int br_driver_measure(br_case_result *r, br_worker_result *how, br_session *s,
                      const br_driver_ledger *l, const br_job *job, size_t i,
                      const br_budget_case *bc) {
    *how = BR_WORKER_OK;
    br_stage why = br_driver_unrunnable(job, i);
    if (why == BR_STAGE_NONE && bc && bc->skip)
        why = BR_STAGE_BUDGET;
    if (why != BR_STAGE_NONE)
        return br_driver_settle(r, why, job, i, s);
    br_measure_cfg cfg = job->suite.measure;
    double warmup_ns = job->suite.warmup_ns;
    if (bc) {
        cfg.min_time_ns = bc->min_time_ns;
        cfg.timeout_ns = bc->timeout_ns;
        warmup_ns = bc->warmup_ns;
    }
    double t0 = br_now_ns();
    *how = br_case_exec(r, job, s, i, &cfg, warmup_ns);
    if (*how != BR_WORKER_STOPPED) {
        wall_close(&r->wall, br_now_ns() - t0);
        r->wall.began_ns = l->start_ns > 0 ? t0 - l->start_ns : NAN;
    }
    return 0;
}

void br_driver_count(br_driver_tally *t, br_driver_ledger *l, const br_case_result *r,
                     const br_budget_case *bc) {
    if (r->stage == BR_STAGE_BUDGET) {
        t->n_skipped++;
        return;
    }
    if (!r->wall.present)
        return; /* settled without a worker */
    double inside = 0;
    const br_timing *tm[] = {&r->cold, &r->batch};
    for (size_t m = 0; m < 2; m++)
        if (tm[m]->present)
            inside += tm[m]->warmup_ns + tm[m]->measure_ns;
    l->overhead_ns += r->wall.total_ns > inside ? r->wall.total_ns - inside : 0;
    l->n_overhead++;
    if (bc && bc->shortened) {
        t->n_shortened++;
        if (bc->timeout_ns < t->min_timeout_ns)
            t->min_timeout_ns = bc->timeout_ns;
    }
}

void br_driver_budget_note(const br_driver_tally *t, const char *path, double budget_ns,
                           double timeout_ns) {
    if (!t->n_shortened && !t->n_skipped)
        return;
    char budget[64], to[64], from[80] = "", shortened[256] = "", skipped[128] = "";
    br_format_duration(budget, sizeof budget, budget_ns);
    if (t->n_shortened) {
        br_format_duration(to, sizeof to, t->min_timeout_ns);
        if (timeout_ns > 0) {
            char d[48];
            br_format_duration(d, sizeof d, timeout_ns);
            snprintf(from, sizeof from, " instead of %s", d);
        }
        snprintf(shortened, sizeof shortened,
                 " %zu case(s) measured with a shorter timeout (%s%s at the least) and warmup",
                 t->n_shortened, to, from);
    }
    if (t->n_skipped)
        snprintf(skipped, sizeof skipped, "%s %zu case(s) skipped, the budget being spent",
                 t->n_shortened ? ";" : "", t->n_skipped);
    br_log(BR_LOG_NOTE, "benchrun: %s%sto fit the time budget of %s:%s%s\n", path ? path : "",
           path ? ": " : "", budget, shortened, skipped);
}

int br_driver_close(br_run *run, const br_session *main, const br_session *measured) {
    int no_gpu = 0;
    for (size_t i = 0; i < run->n_cases; i++)
        no_gpu |=
            run->cases[i].status == BR_STATUS_SKIPPED && run->cases[i].stage == BR_STAGE_NO_GPU;
    if (no_gpu && !run->gpu_skip_reason &&
        !(run->gpu_skip_reason =
              br_strdup(br_session_gpu_why(main)[0] ? br_session_gpu_why(main) : "no usable GPU")))
        return -1;
    run->gpu_clock = br_session_gpu_clock(measured);
    const char *note = br_session_clock_note(measured);
    if (note[0] && !run->clock_note && !(run->clock_note = br_strdup(note)))
        return -1;
    br_run_derive(run);
    return 0;
}
