/* SPDX-License-Identifier: Apache-2.0 */
/* execute.c - one suite's loop (execute.h): for every case of a built job,
 * the time budget, the progress line, skips and failures that need no
 * worker, and the case itself run in the worker (case_proto.c). */
#include "execute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "measure/budget.h"
#include "compile/resolve.h"
#include "plan/job.h"
#include "worker/proto.h"
#include "results/gitinfo.h"
#include "worker/session_impl.h"

/* The run's header from the job and the session: everything but the
 * cases, the git information and a measured peak. Returns 0, or -1 (out
 * of memory). */
static int run_header_fill(br_run *out, const br_job *job, const br_session *s) {
    const br_suite *suite = &job->suite;
    const struct br_job_build *b = job->built;
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out->date, sizeof out->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    out->benchrun_version = br_strdup(BR_VERSION);
    out->suite_name = br_strdup(suite->name.text);
    out->suite_description = suite->description.text ? br_strdup(suite->description.text) : NULL;
    out->suite_path = br_strdup(suite->path);
    memcpy(out->suite_hash, suite->hash, sizeof out->suite_hash);
    out->metric = suite->metric;
    out->cache = suite->cache;
    out->warmup_ns = suite->warmup_ns;
    out->measure = suite->measure;
    out->regression = suite->regression;
    out->host = s->host;
    out->n_params = suite->n_params;
    out->param_names = calloc(suite->n_params ? suite->n_params : 1, sizeof *out->param_names);
    out->n_kernels = suite->n_kernels;
    out->kernels = calloc(suite->n_kernels ? suite->n_kernels : 1, sizeof *out->kernels);
    if (!out->benchrun_version || !out->suite_name || !out->suite_path || !out->param_names ||
        !out->kernels)
        return br_error_nomem();
    for (size_t p = 0; p < suite->n_params; p++)
        if (!(out->param_names[p] = br_strdup(suite->params[p].name)))
            return -1;
    out->peak_kind = suite->peak;
    out->peak_gbps = NAN;
    out->peak_gflops = NAN;
    for (size_t i = 0; s->gpu_ok && i < b->n_mods; i++) {
        if (b->mods[i].is_gpu) {
            out->has_device = 1;
            out->device = s->device;
        }
    }
    if (out->has_device) {
        out->peak_gbps = out->device.peak_gbps;
        out->peak_gflops = out->device.peak_gflops; /* FP32; `peak: measured` is GB/s only */
    }
    for (size_t i = 0; i < suite->n_kernels; i++) {
        br_run_kernel *rk = &out->kernels[i];
        const br_kernel_ref *ref = &b->refs[i];
        rk->name = br_strdup(suite->kernels[i].text);
        rk->source = br_strdup(ref->mh ? ref->mh->source : "");
        rk->backend = br_kernel_ref_backend(ref);
        if (!rk->name || !rk->source)
            return -1;
    }
    out->gpu_clock = s->gpu_clock;
    return 0;
}

/* Plan case i of job under the time budget(s): --budget over the whole
 * invocation (cases left: of every job) and the suite's `budget` over its
 * own run (cases left: of this job); the tighter allowance wins. Returns 1
 * when a budget applies (*out filled), 0 when none does. */
static int plan_budget(br_budget_case *out, const br_session *s, const br_job *job, size_t i,
                       double job_elapsed_ns, size_t total) {
    const br_suite *suite = &job->suite;
    double left = INFINITY;
    size_t cases_left = 1;
    int any = 0;
    if (s->opts.budget_ns > 0) {
        left = s->opts.budget_ns - (br_now_ns() - s->start_ns);
        cases_left = total > s->cases_done ? total - s->cases_done : 1;
        any = 1;
    }
    if (suite->budget_ns > 0) {
        double l = suite->budget_ns - job_elapsed_ns;
        size_t c = job->plan.n_cases - i;
        if (!any || l / (double)c < left / (double)cases_left) {
            left = l;
            cases_left = c;
        }
        any = 1;
    }
    if (!any)
        return 0;
    int modes = (suite->measure.mode & BR_MODE_COLD ? 1 : 0) +
                (suite->measure.mode & BR_MODE_BATCH ? 1 : 0);
    double overhead = s->n_overhead ? s->overhead_ns / (double)s->n_overhead : 0;
    br_budget_plan(out, &suite->measure, suite->warmup_ns, modes, left, cases_left, overhead);
    return 1;
}

/* The progress line: on a terminal (opts.progress), one line on stderr
 * rewritten before each case: case i of N, kernel and params, elapsed time
 * and the time left at the mean pace so far. */
static void show_progress(const br_session *s, const br_job *job, const br_plan_case *pc,
                          size_t total, double now) {
    if (!s->opts.progress)
        return;
    const br_suite *suite = &job->suite;
    char line[512], elapsed[32], eta[32];
    double spent = now - s->start_ns;
    br_format_clock(elapsed, sizeof elapsed, spent);
    if (s->cases_done > 0) {
        double rest = spent / (double)s->cases_done * (double)(total - s->cases_done);
        if (s->opts.budget_ns > 0 && rest > s->opts.budget_ns - spent)
            rest = s->opts.budget_ns - spent;
        br_format_clock(eta, sizeof eta, rest > 0 ? rest : 0);
    } else {
        snprintf(eta, sizeof eta, "?");
    }
    int n = snprintf(line, sizeof line, "[%zu/%zu] %s", s->cases_done + 1, total,
                     suite->kernels[pc->kernel].text);
    const int64_t *v = br_plan_params(&job->plan, pc->combo);
    for (size_t p = 0; p < suite->n_params && n > 0 && (size_t)n < sizeof line; p++) {
        char val[32];
        br_format_param(val, sizeof val, v[p]);
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%s", suite->params[p].name, val);
    }
    /* One terminal line: cut the case description to leave room for the times. */
    if (n > 70)
        snprintf(line + 67, sizeof line - 67, "...");
    br_log(BR_LOG_PROGRESS, "\r\033[K%s  %s elapsed, ETA %s", line, elapsed, eta);
}

/* Counts of one job's cases for the closing budget note. */
typedef struct exec_tally {
    size_t n_skipped, n_budget_skipped, n_shortened;
    double min_timeout; /* ns: the shortest shortened timeout */
} exec_tally;

int br_job_run_begin(br_run *out, const br_job *job, br_session *s) {
    const br_suite *suite = &job->suite;
    memset(out, 0, sizeof *out);
    if (run_header_fill(out, job, s) != 0)
        return -1;
    out->n_cases = job->plan.n_cases;
    out->cases = calloc(out->n_cases ? out->n_cases : 1, sizeof *out->cases);
    if (!out->cases)
        return br_error_nomem();
    if (br_gitinfo_read(&out->git, suite->path) != 0) {
        br_log(BR_LOG_WARN, "benchrun: warning: %s: cannot read git information: %s\n", suite->path,
               br_error_get());
        memset(&out->git, 0, sizeof out->git);
    }
    if (out->has_device && suite->peak == BR_PEAK_MEASURED && !br_stop_signal()) {
        out->device.measured_peak_gbps = br_session_measured_peak(s);
        out->peak_gbps = out->device.measured_peak_gbps;
    }
    return 0;
}

void br_case_wall_close(br_case_wall *w, double total_ns) {
    w->present = 1;
    w->total_ns = total_ns;
    double sum = 0;
    w->other_ns = 0;
    for (size_t i = 0; i < BR_WALL_PHASES; i++)
        sum += br_wall_phase(w, i);
    w->other_ns = total_ns > sum ? total_ns - sum : 0;
}

/* Case i of job (its result r prepared by br_case_init) under the budget:
 * skipped (budget, no GPU), failed (compile) or run in the worker. Returns
 * 0, 1 when interrupted, -1 with the error set. */
static int execute_case(br_case_result *r, exec_tally *tally, const br_job *job, br_session *s,
                        size_t i, double job_start, size_t total) {
    const br_suite *suite = &job->suite;
    const br_kernel_ref *ref = br_job_case_ref(job, i);
    double t0 = br_now_ns();
    br_measure_cfg cfg = suite->measure;
    double warmup_ns = suite->warmup_ns;
    br_budget_case bc = {0};
    int budgeted = plan_budget(&bc, s, job, i, t0 - job_start, total);
    if (budgeted) {
        cfg.min_time_ns = bc.min_time_ns;
        cfg.timeout_ns = bc.timeout_ns;
        warmup_ns = bc.warmup_ns;
    }
    show_progress(s, job, &job->plan.cases[i], total, t0);
    s->cases_done++;
    if (budgeted && bc.skip) {
        r->status = BR_STATUS_SKIPPED;
        r->stage = br_strdup("budget");
        r->message = br_strdup("the time budget was spent before this case");
        tally->n_budget_skipped++;
    } else if (ref->status == BR_STATUS_SKIPPED) {
        r->status = BR_STATUS_SKIPPED;
        r->stage = br_strdup("no-gpu");
        r->message = br_strdup(s->gpu_why[0] ? s->gpu_why : "no usable GPU");
        tally->n_skipped++;
    } else if (ref->status == BR_STATUS_FAILED) {
        r->status = BR_STATUS_FAILED;
        r->stage = br_strdup("compile");
        r->message = br_strfmt("%s: %s", ref->mh->source, ref->mh->message);
    } else {
        if (br_case_exec(r, job, s, i, &cfg, warmup_ns) != 0)
            return 1; /* interrupted: this case did not finish */
        double inside = 0;
        const br_timing *t[] = {&r->cold, &r->batch};
        for (size_t m = 0; m < 2; m++)
            if (t[m]->present)
                inside += t[m]->warmup_ns + t[m]->measure_ns;
        double outside = br_now_ns() - t0 - inside;
        s->overhead_ns += outside > 0 ? outside : 0;
        s->n_overhead++;
        br_case_wall_close(&r->wall, br_now_ns() - t0);
        if (budgeted && bc.shortened) {
            tally->n_shortened++;
            if (bc.timeout_ns < tally->min_timeout)
                tally->min_timeout = bc.timeout_ns;
        }
    }
    return 0;
}

/* After an interrupt (signal sig), the cases from i on are listed as not
 * run, so every output holds the whole plan. Returns 0, or -1 (out of memory). */
static int mark_interrupted(br_run *out, const br_job *job, size_t i, int sig) {
    char name[32];
    br_signal_name(name, sizeof name, sig);
    out->interrupted = br_strdup(name);
    if (!out->interrupted)
        return -1;
    for (; i < job->plan.n_cases; i++) {
        br_case_result *r = &out->cases[i];
        free(r->params);
        memset(r, 0, sizeof *r);
        if (br_case_init(r, job, i) != 0)
            return -1;
        r->status = BR_STATUS_SKIPPED;
        r->stage = br_strdup("interrupted");
        r->message = br_strfmt("not run: benchrun was interrupted (%s)", out->interrupted);
        if (!r->stage || !r->message)
            return -1;
    }
    return 0;
}

/* The note of what the time budget cost: cases shortened, cases skipped. */
static void report_budget(const br_session *s, const br_suite *suite, const exec_tally *t) {
    char budget[64], shortened[256] = "", skipped[128] = "";
    br_format_duration(budget, sizeof budget,
                       suite->budget_ns > 0 &&
                               (s->opts.budget_ns <= 0 || suite->budget_ns < s->opts.budget_ns)
                           ? suite->budget_ns
                           : s->opts.budget_ns);
    if (t->n_shortened) {
        char to[64], from[64];
        br_format_duration(to, sizeof to, t->min_timeout);
        br_format_duration(from, sizeof from, suite->measure.timeout_ns);
        snprintf(shortened, sizeof shortened,
                 " %zu case(s) measured with a shorter timeout (%s instead of %s at "
                 "the least) and warmup",
                 t->n_shortened, to, from);
    }
    if (t->n_budget_skipped)
        snprintf(skipped, sizeof skipped, "%s %zu case(s) skipped, the budget being spent",
                 t->n_shortened ? ";" : "", t->n_budget_skipped);
    br_log(BR_LOG_NOTE, "benchrun: %s: to fit the time budget of %s:%s%s\n", suite->path, budget,
           shortened, skipped);
}

int br_job_execute(br_run *out, const br_job *job, br_session *s) {
    const br_suite *suite = &job->suite;
    memset(out, 0, sizeof *out);
    if (!job->built)
        return br_error_set("%s: the suite's kernels were not built (br_job_build)", suite->path);
    if (br_job_run_begin(out, job, s) != 0)
        return -1;
    exec_tally tally = {.min_timeout = INFINITY};
    double job_start = br_now_ns();
    size_t total = s->opts.total_cases > 0 ? s->opts.total_cases : job->plan.n_cases;
    if (s->start_ns == 0)
        s->start_ns = job_start;
    size_t i = 0;
    for (; i < job->plan.n_cases && !br_stop_signal(); i++) {
        if (br_case_init(&out->cases[i], job, i) != 0)
            return -1;
        int rc = execute_case(&out->cases[i], &tally, job, s, i, job_start, total);
        if (rc < 0)
            return -1;
        if (rc > 0)
            break;
    }
    if (s->opts.progress)
        br_log(BR_LOG_PROGRESS, "\r\033[K");
    int sig = br_stop_signal();
    if (sig && i < job->plan.n_cases && mark_interrupted(out, job, i, sig) != 0)
        return -1;
    if (!s->opts.quiet && (tally.n_shortened || tally.n_budget_skipped))
        report_budget(s, suite, &tally);
    if (tally.n_skipped)
        out->gpu_skip_reason = br_strdup(s->gpu_why[0] ? s->gpu_why : "no usable GPU");
    out->gpu_clock = s->gpu_clock;
    if (s->clock_note[0] && !(out->clock_note = br_strdup(s->clock_note)))
        return -1;
    br_run_derive(out);
    return 0;
}
