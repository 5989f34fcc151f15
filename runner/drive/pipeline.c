/* SPDX-License-Identifier: Apache-2.0 */
/* The driver of one invocation (pipeline.h). */
#include "pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "confirm.h"
#include "devices.h"
#include "plan/plan.h"
#include "gate/baseline.h"
#include "gate/compare.h"
#include "history/lookback.h"
#include "model/settings.h"
#include "reporters/table_live.h"
#include "reporters/timing_report.h"

enum { EXIT_OK = 0, EXIT_CASE_FAILED = 1, EXIT_BAD_INPUT = 2, EXIT_SLOWER = 3 };

/* The jobs of an invocation and what they came to. */
typedef struct pipeline {
    const br_pipeline_opts *o;
    br_run_opts ro; /* o->run with the total case count */
    br_job *jobs;
    br_run *runs;
    const br_run **run_ptrs;
    size_t n_jobs, n_runs;
    br_session *session;
    br_driver_ledger ledger; /* the invocation's progress and budget, beside the session */
    br_table_live *live;     /* a terminal's table, its rows as the cases finish; or NULL */
    br_driver_watch watch;   /* live's callbacks, the ledger's watcher */
    br_devset *devices;      /* --devices, or one GPU's host lane: the devices of the run;
                                NULL: the cases one after another */
    double devices_ns;       /* --devices: the time br_devices_open took, ns; 0 without */
} pipeline;

void br_pipeline_opts_init(br_pipeline_opts *o) {
    memset(o, 0, sizeof *o);
    br_measure_layer_init(&o->run.measure);
    br_gate_opts_init(&o->gate);
}

int br_exit_status(const br_outcome *o) {
    if (o->error)
        return EXIT_BAD_INPUT;
    if (o->listed)
        return EXIT_OK;
    if (o->stopped) /* a run's or a check's: what failed then was the interrupt's doing */
        return 128 + o->stopped;
    if (o->checked)
        return o->failed || o->modules_failed ? EXIT_BAD_INPUT : EXIT_OK;
    if (o->failed || o->write_failed)
        return EXIT_CASE_FAILED;
    if (o->bad_baseline)
        return EXIT_BAD_INPUT;
    return o->slower ? EXIT_SLOWER : EXIT_OK;
}

/* A -p that no suite has is a typo, not a no-op. */
static int check_params(const pipeline *p) {
    for (size_t k = 0; k < p->ro.n_params; k++) {
        const char *name = p->ro.params[k].name;
        int found = 0;
        for (size_t i = 0; i < p->n_jobs && !found; i++)
            for (size_t q = 0; q < p->jobs[i].suite.n_params && !found; q++)
                found = strcmp(p->jobs[i].suite.params[q].name, name) == 0;
        if (!found) {
            br_log(BR_LOG_ERROR, "benchrun: -p %s: no suite given has a parameter '%s'\n", name,
                   name);
            return -1;
        }
    }
    return 0;
}

/* Check every suite before running any. */
static int prepare_all(pipeline *p) {
    p->n_jobs = p->o->n_suites;
    p->jobs = calloc(p->n_jobs, sizeof *p->jobs);
    p->runs = calloc(p->n_jobs, sizeof *p->runs);
    p->run_ptrs = calloc(p->n_jobs, sizeof *p->run_ptrs);
    if (!p->jobs || !p->runs || !p->run_ptrs) {
        br_log(BR_LOG_ERROR, "benchrun: out of memory\n");
        return -1;
    }
    for (size_t i = 0; i < p->n_jobs; i++) {
        if (br_job_prepare(&p->jobs[i], p->o->suites[i], &p->ro) != 0) {
            br_log(BR_LOG_ERROR, "%s\n", br_error_get());
            return -1;
        }
    }
    if (check_params(p) != 0)
        return -1;
    if (br_shard_select(p->jobs, p->n_jobs, &p->o->shard, &p->ro) != 0) {
        br_log(BR_LOG_ERROR, "benchrun: %s\n", br_error_get());
        return -1;
    }
    for (size_t i = 0; i < p->n_jobs; i++)
        p->ro.total_cases += p->jobs[i].plan.n_cases;
    return 0;
}

static void list_job(FILE *f, const br_job *j) {
    const br_suite *s = &j->suite;
    fprintf(f, "%s (%s): %zu case(s)", s->name.text, s->path, j->plan.n_cases);
    if (j->plan.n_swept != j->plan.n_combos)
        fprintf(f, ", %zu of %zu parameter combinations kept by 'where'", j->plan.n_combos,
                j->plan.n_swept);
    if (j->n_variants > 1)
        fprintf(f, ", %zu compile-time variants", j->n_variants);
    if (s->budget_ns > 0) {
        char b[64];
        br_format_duration(b, sizeof b, s->budget_ns);
        fprintf(f, ", budget %s", b);
    }
    fputc('\n', f);
    for (size_t i = 0; i < j->plan.n_cases; i++) {
        char params[512];
        br_job_case_label(params, sizeof params, j, i, 0);
        fprintf(f, "  %-20s%s%s", s->kernels[j->plan.cases[i].kernel].text, s->n_params ? " " : "",
                params);
        fputc('\n', f);
    }
}

/* --list: the plan of every suite on stdout. */
static void list_all(const pipeline *p) {
    size_t cases = 0, modules = 0;
    for (size_t i = 0; i < p->n_jobs; i++) {
        list_job(stdout, &p->jobs[i]);
        cases += p->jobs[i].plan.n_cases;
        modules += p->jobs[i].n_variants * p->jobs[i].suite.n_sources;
    }
    if (p->n_jobs > 1)
        printf("%zu case(s) in %zu suites, %zu kernel module(s) to build\n", cases, p->n_jobs,
               modules);
    if (p->o->shard.index)
        br_shard_list_summary(stdout, p->jobs, p->n_jobs);
}

/* On a terminal that the table goes to, its rows as the cases finish
 * (reporters/table_live.h): the runs one after another, or one run over
 * the devices (several runs' cases would finish interleaved). */
static void watch_live(pipeline *p, size_t n_built) {
    if (!isatty(STDOUT_FILENO) || !br_outputs_table_on_stdout(&p->o->outputs) ||
        (p->devices && n_built > 1) || br_stop_signal())
        return;
    if (!(p->live = br_table_live_new(stdout, p->o->outputs.ascii)))
        return; /* out of memory: the whole table at the end, as piped */
    p->watch =
        (br_driver_watch){p->live, br_table_live_begun, br_table_live_case, br_table_live_ended};
    p->ledger.watch = &p->watch;
}

/* Build every suite's kernels and resolve their names before measuring
 * anything (a bad kernel name in the last suite runs nothing), then
 * execute. After an interrupt the suites built list their cases as
 * interrupted; the others are left out. */
static int build_and_execute(pipeline *p) {
    if (br_session_open(&p->session, &p->ro) != 0) {
        br_log(BR_LOG_ERROR, "benchrun: %s\n", br_error_get());
        return -1;
    }
    /* The timing report's "devices": their sessions and queries (a plain
     * run's one device is the invocation's session, asked in its build). */
    if (p->ro.devices) {
        double t_open = br_now_ns();
        if (br_devices_open(&p->devices, p->session) != 0) {
            br_log(BR_LOG_ERROR, "benchrun: %s\n", br_error_get());
            return -1;
        }
        p->devices_ns = br_now_ns() - t_open;
    }
    size_t n_built = 0;
    double *build_ns = calloc(p->n_jobs ? p->n_jobs : 1, sizeof *build_ns);
    if (!build_ns) {
        br_log(BR_LOG_ERROR, "benchrun: out of memory\n");
        return -1;
    }
    for (; n_built < p->n_jobs && !br_stop_signal(); n_built++) {
        double t0 = br_now_ns();
        if (br_session_build_job(p->session, &p->jobs[n_built], BR_BUILD_RUN) != 0) {
            br_log(BR_LOG_ERROR, "%s\n", br_error_get());
            free(build_ns);
            return -1;
        }
        build_ns[n_built] = br_now_ns() - t0;
    }
    /* The progress line counts the cases that will be measured, not those
     * settled without a worker (no usable GPU, a module that did not build). */
    p->ledger.total = br_driver_count_runnable(p->jobs, n_built);
    /* One GPU: the host cases beside the GPU cases where they fit (devices.h). */
    if (!p->devices && !br_stop_signal() &&
        br_devices_open_plain(&p->devices, p->session, p->jobs, n_built) != 0) {
        br_log(BR_LOG_ERROR, "benchrun: %s\n", br_error_get());
        free(build_ns);
        return -1;
    }
    watch_live(p, n_built);
    br_devices_sources src = {p->o->gate.dir, p->o->outputs.results_dir};
    if (p->devices && br_devices_execute(p->runs, p->jobs, n_built, p->session, &p->ledger,
                                         p->devices, &src) != 0) {
        br_log(BR_LOG_ERROR, "benchrun: %s\n", br_error_get());
        free(build_ns);
        return -1;
    }
    for (size_t i = 0; i < n_built; i++) {
        if (!p->devices && br_job_execute(&p->runs[i], &p->jobs[i], p->session, &p->ledger) != 0) {
            br_log(BR_LOG_ERROR, "%s\n", br_error_get());
            free(build_ns);
            return -1;
        }
        p->runs[i].compile_ns = build_ns[i];
        p->runs[i].shard = p->jobs[i].shard; /* --shard: the part's record moves to its run */
        p->jobs[i].shard = NULL;
        p->run_ptrs[p->n_runs++] = &p->runs[i];
    }
    free(build_ns);
    return 0;
}

/* benchrun check: build every suite as a run would (kernels compiled and
 * resolved, diagnostics on stderr), GPU sources too when no GPU is usable
 * (BR_BUILD_CHECK), then count its modules and what its cases would come
 * to; nothing is measured. */
static int check_all(br_outcome *out, pipeline *p) {
    if (br_session_open(&p->session, &p->ro) != 0) {
        br_log(BR_LOG_ERROR, "benchrun: %s\n", br_error_get());
        return -1;
    }
    for (size_t i = 0; i < p->n_jobs && !br_stop_signal(); i++) {
        const br_job *j = &p->jobs[i];
        if (br_session_build_job(p->session, &p->jobs[i], BR_BUILD_CHECK) != 0) {
            br_log(BR_LOG_ERROR, "%s\n", br_error_get());
            return -1;
        }
        for (size_t m = 0; m < j->built->n_mods; m++) {
            br_module_state st = j->built->mods[m].state;
            out->modules++;
            out->modules_failed += st == BR_MODULE_FAILED;
            out->modules_skipped += st == BR_MODULE_SKIPPED;
        }
        for (size_t c = 0; c < j->plan.n_cases; c++) {
            br_case_status st = br_job_case_ref(j, c)->status;
            out->ok += st == BR_STATUS_OK;
            out->failed += st == BR_STATUS_FAILED;
            out->skipped += st == BR_STATUS_SKIPPED;
        }
    }
    out->checked = 1;
    out->stopped = br_stop_signal(); /* a compile the interrupt killed is no failure */
    return 0;
}

/* --history DIR for run r: compare with the last regression.keep runs of
 * its suite and device at other commits in DIR (history/lookback.h).
 * Returns 0 (also when DIR has none yet, said unless quiet), or -1 with the
 * error set. */
static int attach_history(br_run *r, const br_gate_opts *g, int quiet) {
    if (g->baseline)
        return br_error_set("--history and --baseline name two baselines: give one");
    br_run base;
    size_t n = 0;
    int rc = br_history_baseline(&base, &n, g->history, r, r->regression.keep);
    if (rc == 1 && !quiet)
        br_log(BR_LOG_NOTE,
               "benchrun: --history %s: no run of suite '%s' on this device at another commit "
               "yet: nothing to compare with\n",
               g->history, r->suite_name ? r->suite_name : "?");
    if (rc == 0) {
        char *label =
            br_strfmt("%s (last %zu run%s at other commits)", g->history, n, n == 1 ? "" : "s");
        rc = label ? br_gate_attach_base(r, g, &base, label) : -1;
        free(label);
    }
    br_run_dispose(&base);
    return rc < 0 ? -1 : 0;
}

/* Counts, rules and comparisons of every run. */
static void gate_all(br_outcome *out, pipeline *p) {
    br_gate_opts scoped = p->o->gate;
    scoped.patterns = p->o->run.patterns;
    scoped.n_patterns = p->o->run.n_patterns;
    scoped.params = p->o->run.params;
    scoped.n_params = p->o->run.n_params;
    const br_gate_opts *g = &scoped;
    for (size_t i = 0; i < p->n_runs; i++) {
        size_t a, b, c;
        br_run_count(&p->runs[i], &a, &b, &c);
        out->ok += a;
        out->failed += b;
        out->skipped += c;
    }
    for (size_t i = 0; i < p->n_runs; i++) {
        br_run *r = &p->runs[i];
        r->regression = br_gate_rules(r, g);
        if (g->no_compare)
            continue;
        if (br_confirm_attach(r, g, &p->ro, p->ro.quiet,
                              g->history ? attach_history : br_gate_attach) < 0) {
            br_log(BR_LOG_ERROR, "benchrun: %s\n", br_error_get());
            out->bad_baseline = 1;
        }
        /* Saving accepts the run as the new reference: the comparison is
         * shown, but it does not fail the run. */
        if (!g->save)
            out->slower |= br_baseline_fails(r->comparison, g->fail_on);
    }
}

/* --save-baseline for every run, unless interrupted. */
static void save_all(br_outcome *out, const pipeline *p) {
    if (!p->o->gate.save)
        return;
    if (out->stopped) {
        br_log(BR_LOG_ERROR, "benchrun: the run was interrupted: the baseline is not saved\n");
        return;
    }
    for (size_t i = 0; i < p->n_runs; i++) {
        int sr = br_gate_save(&p->runs[i], &p->o->gate, p->ro.quiet);
        if (sr != 0 && br_error_kind_get() == BR_E_INPUT)
            out->bad_baseline = 1; /* an existing file refused: bad input */
        else if (sr != 0)
            out->write_failed = 1;
    }
}

/* The summary line and, when a comparison fails the run, why. */
static void summarize(const br_outcome *out, const pipeline *p) {
    if (p->ro.quiet)
        return;
    br_log(BR_LOG_NOTE, "benchrun: %zu case(s): %zu ok, %zu failed, %zu skipped%s\n",
           out->ok + out->failed + out->skipped, out->ok, out->failed, out->skipped,
           out->stopped ? " (interrupted)" : "");
    if (out->slower)
        br_log(BR_LOG_NOTE,
               "benchrun: %s than the baseline (exit status %d; --fail-on never only reports)\n",
               p->o->gate.fail_on == BR_FAIL_ON_ANY ? "a case is slower or faster"
                                                    : "a case is slower",
               br_exit_status(out));
}

static void pipeline_dispose(pipeline *p) {
    for (size_t i = 0; i < p->n_jobs && p->runs; i++)
        br_run_dispose(&p->runs[i]);
    for (size_t i = 0; i < p->n_jobs && p->jobs; i++)
        br_job_dispose(&p->jobs[i]);
    br_devices_close(p->devices);
    br_session_close(p->session);
    br_table_live_free(p->live);
    free(p->runs);
    free(p->run_ptrs);
    free(p->jobs);
}

/* --timing-report: rendered into memory, said through the log. */
static void timing_report(const pipeline *p, const br_timing_invocation *inv) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    int rc = br_timing_report_write(f, p->run_ptrs, p->n_runs, inv);
    if (fclose(f) == 0 && rc == 0)
        br_log(BR_LOG_NOTE, "%s", text);
    else
        br_log(BR_LOG_ERROR, "benchrun: cannot write the timing report: %s\n", br_error_get());
    free(text);
}

int br_pipeline_run(br_outcome *out, const br_pipeline_opts *o) {
    memset(out, 0, sizeof *out);
    pipeline p = {.o = o, .ro = o->run};
    int rc = -1;
    br_timing_invocation inv = {0};
    double t_start = br_now_ns();
    if (prepare_all(&p) != 0)
        goto done;
    inv.prepare_ns = br_now_ns() - t_start;
    if (o->list) {
        list_all(&p);
        out->listed = 1;
        rc = 0;
        goto done;
    }
    if (o->check) {
        if (o->before_measure) /* an interrupt during the builds: said as a run says it */
            o->before_measure();
        rc = check_all(out, &p);
        goto done;
    }
    if (o->before_measure)
        o->before_measure();
    if (build_and_execute(&p) != 0)
        goto done;
    out->stopped = br_stop_signal(); /* what the outputs say, and the exit status */
    double t_out = br_now_ns();
    gate_all(out, &p);
    br_outputs outs = o->outputs;
    outs.rows_shown = p.live && p.n_runs && br_table_live_runs(p.live) == p.n_runs;
    if (br_outputs_write(&outs, p.run_ptrs, p.n_runs, p.ro.quiet) != 0)
        out->write_failed = 1;
    save_all(out, &p);
    inv.outputs_ns = br_now_ns() - t_out;
    summarize(out, &p);
    inv.total_ns = br_now_ns() - t_start;
    inv.devices_ns = p.devices_ns;
    if (o->timing_report)
        timing_report(&p, &inv);
    rc = 0;
done:
    out->error = rc != 0;
    pipeline_dispose(&p);
    return rc;
}
