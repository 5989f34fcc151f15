/* SPDX-License-Identifier: Apache-2.0 */
/* One suite's loop (execute.h): the run's header, then every
 * case of a built job in plan order with its progress line, measured or
 * settled as the drivers' shared policies say (driver.h). */
#include "execute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "driver.h"
#include "model/metric.h"
#include "plan/job.h"
#include "platform/flops.h"
#include "results/gitinfo.h"
#include "worker/proto.h"

/* The git blob id of the file at path into out ("" when it cannot be read). */
static void source_sha(char out[41], const char *path) {
    char *text = NULL;
    size_t len = 0;
    out[0] = '\0';
    if (path[0] && br_read_file(&text, &len, path, (size_t)1 << 30) == 0 &&
        br_hash_blob(out, text, len) != 0)
        out[0] = '\0';
    free(text);
}

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
    out->host = *br_session_host(s);
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
    for (int p = 0; p < BR_PRECISION_COUNT; p++)
        out->measured_gops[p] = NAN;
    for (size_t i = 0; br_session_gpu_ok(s) && i < b->n_mods; i++) {
        if (b->mods[i].is_gpu) {
            out->has_device = 1;
            out->device = *br_session_device(s);
        }
    }
    if (out->has_device) {
        out->peak_gbps = out->device.peak_gbps;
        out->peak_gflops = out->device.peak_gflops; /* FP32; `peak: measured` is GB/s only */
        br_flops_record(out, BR_PRECISION_FP32);    /* the peak of every undeclared case */
        for (size_t k = 0; k < suite->n_kernels; k++)
            br_flops_record(out, br_suite_precision(suite, k));
    }
    for (size_t i = 0; i < suite->n_kernels; i++) {
        br_run_kernel *rk = &out->kernels[i];
        const br_kernel_ref *ref = &b->refs[i];
        rk->name = br_strdup(suite->kernels[i].text);
        rk->source = br_strdup(ref->mh ? ref->mh->source : "");
        rk->backend = br_kernel_ref_backend(ref);
        if (!rk->name || !rk->source)
            return -1;
        source_sha(rk->source_sha, rk->source);
    }
    out->gpu_clock = br_session_gpu_clock(s);
    return 0;
}

void br_job_progress(const br_driver_ledger *l, const br_run_opts *o, const br_run *run,
                     const br_case_result *r, size_t total) {
    if (!o->progress || total < l->cases_done + 1)
        return;
    char line[512], elapsed[32], eta[32];
    double spent = br_now_ns() - l->start_ns;
    br_format_clock(elapsed, sizeof elapsed, spent);
    if (l->cases_done > 0) {
        double rest = spent / (double)l->cases_done * (double)(total - l->cases_done);
        if (o->budget_ns > 0 && rest > o->budget_ns - spent)
            rest = o->budget_ns - spent;
        br_format_clock(eta, sizeof eta, rest > 0 ? rest : 0);
    } else {
        snprintf(eta, sizeof eta, "?");
    }
    int n = snprintf(line, sizeof line, "[%zu/%zu] ", l->cases_done + 1, total);
    if (n > 0 && (size_t)n < sizeof line)
        br_run_case_label(line + n, sizeof line - (size_t)n, run, r);
    /* One terminal line: cut the case description to leave room for the times. */
    if (strlen(line) > 70)
        snprintf(line + 67, sizeof line - 67, "...");
    br_log(BR_LOG_PROGRESS, "\r\033[K%s  %s elapsed, ETA %s", line, elapsed, eta);
}

/* `peak: measured`: the compute peaks of the precisions the run's % of
 * peak is relative to, measured once per session (cached per device) into
 * out->measured_gops: for a metric whose peak is a compute one (TFLOP/s,
 * GFLOP/s, TOP/s), the precision of each GPU kernel (FP32 where none is
 * declared), each once. A precision the GPU lacks is left NAN (its cases
 * are skipped; the datasheet, or no, peak applies). */
static void measure_compute_peaks(br_run *out, const br_job *job, br_session *s) {
    if (br_metric_peak_of(job->suite.metric) != BR_METRIC_PEAK_COMPUTE)
        return;
    int asked[BR_PRECISION_COUNT] = {0};
    for (size_t k = 0; k < out->n_kernels && k < job->suite.n_kernels && !br_stop_signal(); k++) {
        br_precision p = br_precision_effective(br_suite_precision(&job->suite, k));
        if (out->kernels[k].backend != BR_BACKEND_GPU || (int)p >= BR_PRECISION_COUNT || asked[p])
            continue;
        asked[p] = 1;
        br_compute_measure cp;
        br_session_measured_compute(s, p, &cp);
        out->measured_gops[p] = cp.gops;
    }
}

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
        measure_compute_peaks(out, job, s);
    }
    return 0;
}

/* Case i of job into out->cases[i] (prepared by br_case_init) under the
 * time budgets (the suite's over this job's run, which started at
 * job_start): settled without a worker or measured in one. Returns 0, 1
 * when interrupted, -1 with the error set. */
static int execute_case(br_run *out, br_driver_tally *tally, const br_job *job, br_session *s,
                        br_driver_ledger *l, size_t i, double job_start, size_t total) {
    br_case_result *r = &out->cases[i];
    const br_run_opts *o = br_session_opts(s);
    br_stage why = br_driver_unrunnable(job, i);
    if (why != BR_STAGE_NONE) /* no worker: neither counted nor shown as a step */
        return br_driver_settle(r, why, job, i, s) != 0 ? -1 : 0;
    br_job_progress(l, o, out, r, total);
    br_budget_case bc;
    int budgeted = br_driver_plan(
        &bc, l, o, job, 1, job->suite.budget_ns - (br_now_ns() - job_start), job->plan.n_cases - i);
    br_worker_result how;
    if (br_driver_measure(r, &how, s, l, job, i, budgeted ? &bc : NULL) != 0)
        return -1;
    if (how == BR_WORKER_STOPPED)
        return 1; /* interrupted: this case did not finish */
    br_driver_count(tally, l, r, budgeted ? &bc : NULL);
    return 0;
}

int br_job_execute(br_run *out, const br_job *job, br_session *s, br_driver_ledger *l) {
    const br_suite *suite = &job->suite;
    memset(out, 0, sizeof *out);
    if (!job->built)
        return br_error_set("%s: the suite's kernels were not built (br_job_build)", suite->path);
    if (br_job_run_begin(out, job, s) != 0)
        return -1;
    br_driver_tally tally = BR_DRIVER_TALLY_INIT;
    const br_run_opts *o = br_session_opts(s);
    double job_start = br_now_ns();
    size_t total = br_driver_total(l, o, job);
    if (l->start_ns == 0)
        l->start_ns = job_start;
    for (size_t i = 0; i < job->plan.n_cases; i++) /* every case's identity, for the watcher */
        if (br_case_init(&out->cases[i], job, i) != 0)
            return -1;
    br_driver_tell_begun(l, out);
    size_t i = 0;
    for (; i < job->plan.n_cases && !br_stop_signal(); i++) {
        int rc = execute_case(out, &tally, job, s, l, i, job_start, total);
        if (rc < 0)
            return -1;
        if (rc > 0)
            break;
        br_driver_tell_case(l, out, i);
    }
    if (o->progress)
        br_log(BR_LOG_PROGRESS, "\r\033[K");
    for (; br_stop_signal() && i < job->plan.n_cases; i++)
        if (br_driver_interrupted(out, job, i) != 0)
            return -1;
    if (!o->quiet)
        br_driver_budget_note(&tally, suite->path,
                              suite->budget_ns > 0 &&
                                      (o->budget_ns <= 0 || suite->budget_ns < o->budget_ns)
                                  ? suite->budget_ns
                                  : o->budget_ns,
                              suite->measure.timeout_ns);
    if (br_driver_close(out, s, s) != 0)
        return -1;
    br_driver_tell_ended(l, out);
    return 0;
}
