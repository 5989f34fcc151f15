/* SPDX-License-Identifier: Apache-2.0 */
/* The gate, the outputs and the baselines of a results
 * file (report_file.h). */
#include "report_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "gate/baseline.h"
#include "gate/compare.h"
#include "results/gitinfo.h"
#include "results/merge.h"
#include "results/run_read.h"

#define PROG "benchrun report"

/* A results file does not keep the machine's path of the work tree it ran in,
 * so a run measured in git finds its baselines again as a run does: at the
 * top of the git work tree that holds its suite (the suite path it records,
 * read from the current directory), when that file is still in one. */
static void find_work_tree(br_run *r) {
    if (!r->git.present || r->git.workdir[0] || !r->suite_path || access(r->suite_path, R_OK) != 0)
        return;
    br_gitinfo gi;
    if (br_gitinfo_read(&gi, r->suite_path) == 0 && gi.present && gi.workdir[0])
        snprintf(r->git.workdir, sizeof r->git.workdir, "%s", gi.workdir);
}

/* The baseline the run was compared with when it was measured (the
 * results file records its path), for a gate without --baseline: *g as
 * given, with that baseline when it is still there. A recorded baseline
 * that is gone is said, and under --fail-on slower or any fails the
 * report (exit 2): it should exist, and finding none is no pass. Returns 0,
 * or -1 when it is gone. */
static int recorded_baseline(br_gate_opts *g, const char *recorded, const char *path) {
    if (g->baseline || !recorded || !recorded[0])
        return 0;
    if (access(recorded, R_OK) == 0) {
        g->baseline = recorded;
        return 0;
    }
    br_log(g->fail_on == BR_FAIL_ON_NEVER ? BR_LOG_WARN : BR_LOG_ERROR,
           PROG ": %s: the run was compared with %s, which is not there now (moved, or another "
                "machine's path): name it with --baseline FILE%s\n",
           path, recorded, g->fail_on == BR_FAIL_ON_NEVER ? "" : "; not compared, exit 2");
    return -1;
}

/* The gate for every run, as the pipeline does it: rules, comparison; the
 * baseline the results file recorded, else the one beside the suite's work
 * tree. path: the results file's. */
static void report_gate(br_outcome *out, br_run *runs, size_t n, const br_pipeline_opts *p,
                        const char *path) {
    for (size_t i = 0; i < n; i++) {
        br_gate_opts gate = p->gate, *g = &gate;
        br_run *r = &runs[i];
        size_t a, b, c;
        br_run_count(r, &a, &b, &c);
        out->ok += a, out->failed += b, out->skipped += c;
        const char *recorded = r->compared_with;
        br_comparison_dispose(r->comparison); /* made again below */
        free(r->comparison);
        r->comparison = NULL;
        r->regression = br_gate_rules(r, g);
        find_work_tree(r);
        int gone = !g->no_compare && !g->save && recorded_baseline(g, recorded, path) != 0;
        out->bad_baseline |= gone && g->fail_on != BR_FAIL_ON_NEVER;
        if (g->no_compare || gone)
            continue;
        if (br_gate_attach(r, g, p->run.quiet) < 0) {
            br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
            out->bad_baseline = 1;
        }
        if (!g->save)
            out->slower |= br_baseline_fails(r->comparison, g->fail_on);
    }
}

/* --save-baseline for every run; not from an interrupted run. */
static void report_save(br_outcome *out, const br_run *runs, size_t n, const br_pipeline_opts *p) {
    for (size_t i = 0; p->gate.save && i < n; i++) {
        if (runs[i].interrupted) {
            br_log(BR_LOG_ERROR,
                   PROG ": suite '%s' was interrupted (%s): its baseline is not saved\n",
                   runs[i].suite_name, runs[i].interrupted);
            continue;
        }
        int sr = br_gate_save(&runs[i], &p->gate, p->run.quiet);
        if (sr != 0 && br_error_kind_get() == BR_E_INPUT)
            out->bad_baseline = 1;
        else if (sr != 0)
            out->write_failed = 1;
    }
}

/* Cases a merge marked missing, said once. */
static void say_missing(const br_run *runs, size_t n) {
    size_t missing = 0;
    for (size_t r = 0; r < n; r++)
        for (size_t i = 0; i < runs[r].n_cases; i++)
            missing += br_merge_case_missing(&runs[r].cases[i]);
    if (missing)
        br_log(BR_LOG_NOTE,
               PROG ": %zu case(s) are missing (a shard gave no results): shown as skipped\n",
               missing);
}

/* Gate, write, save the loaded runs[0..n) (n > 0). */
static void report_runs(br_outcome *out, br_run *runs, size_t n, const br_pipeline_opts *p,
                        const char *path) {
    const br_run **ptrs = calloc(n, sizeof *ptrs);
    if (!ptrs) {
        br_log(BR_LOG_ERROR, PROG ": out of memory\n");
        out->error = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        ptrs[i] = &runs[i];
    report_gate(out, runs, n, p, path);
    if (br_outputs_write(&p->outputs, ptrs, n, p->run.quiet) != 0)
        out->write_failed = 1;
    report_save(out, runs, n, p);
    if (!p->run.quiet)
        say_missing(runs, n);
    free(ptrs);
}

int br_report_file(br_outcome *out, const char *path, const br_pipeline_opts *p) {
    memset(out, 0, sizeof *out);
    br_run *runs = NULL;
    size_t n = 0;
    if (br_results_load(&runs, &n, path) != 0) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
        out->error = 1;
        return -1;
    }
    if (n == 0) {
        br_log(BR_LOG_ERROR, PROG ": %s: holds no run\n", path);
        out->error = 1;
    } else if (p->gate.baseline && n > 1) {
        br_log(BR_LOG_ERROR, PROG ": --baseline names one file, and %s holds %zu runs\n", path, n);
        out->error = 1;
    } else {
        report_runs(out, runs, n, p, path);
    }
    br_results_free(runs, n);
    return out->error ? -1 : 0;
}
