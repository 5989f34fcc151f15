/* SPDX-License-Identifier: Apache-2.0 */
/* One commit of `benchrun run-range` measured (range_commit.h). */
#include "range_commit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/resolve.h"
#include "execute.h"
#include "gate/gate.h"
#include "outputs.h"
#include "plan/job.h"
#include "results/gittree.h"
#include "worker/session.h"

/* The commit being measured. */
typedef struct work {
    const br_range_commit *c;
    br_gittree tree;
    br_job *jobs;
    br_run *runs;
    size_t n_prepared, n_run;
    br_session *session;
    br_driver_ledger ledger;
    br_range_end *end;
    char **why;
} work;

/* The log sink while a commit is measured: its checkout's paths written as
 * SHORT:PATH, as bisect writes them. */
typedef struct relabel_sink {
    br_log_fn fn;
    void *ctx;
    const work *w;
} relabel_sink;

static void relabel_log(void *ctx, br_log_level level, const char *msg) {
    const relabel_sink *s = ctx;
    char *text = s->w->tree.dir ? br_gittree_relabel(&s->w->tree, msg, s->w->c->label) : NULL;
    s->fn(s->ctx, level, text ? text : msg);
    free(text);
}

/* Skip the commit for `text` (its first line, relabelled). Returns 1, or
 * -1 out of memory. */
static int skip(work *w, const char *text) {
    char *why = w->tree.dir ? br_gittree_relabel(&w->tree, text, w->c->label) : br_strdup(text);
    if (!why)
        return -1;
    char *nl = strchr(why, '\n');
    if (nl)
        *nl = '\0';
    *w->why = why;
    *w->end = BR_RANGE_SKIPPED;
    return 1;
}

/* Load and plan every suite at the commit. Returns 0, 1 skipped, -1 error. */
static int prepare(work *w) {
    const br_range_commit *c = w->c;
    w->jobs = calloc(c->n_suites, sizeof *w->jobs);
    w->runs = calloc(c->n_suites, sizeof *w->runs);
    if (!w->jobs || !w->runs)
        return br_error_nomem();
    for (size_t k = 0; k < c->n_suites; k++) {
        char *file = br_gittree_map(&w->tree, c->suites[k]);
        if (!file)
            return br_error_kind_get() == BR_E_INPUT ? skip(w, br_error_get()) : -1;
        struct stat st;
        int rc = 0;
        if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
            char *msg = br_strfmt("%s: no such file at this commit", file);
            rc = msg ? skip(w, msg) : br_error_nomem();
            free(msg);
        } else {
            w->n_prepared++;
            if (br_job_prepare(&w->jobs[k], file, c->run) != 0)
                rc = br_error_kind_get() == BR_E_NOMEM ? -1 : skip(w, br_error_get());
        }
        free(file);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* The first module of job j that did not build, or NULL. */
static const br_module_handle *failed_module(const br_job *j) {
    for (size_t m = 0; j->built && m < j->built->n_mods; m++)
        if (j->built->mods[m].state == BR_MODULE_FAILED)
            return &j->built->mods[m];
    return NULL;
}

/* Open the session and build every suite. Returns 0, 1 skipped or
 * stopped, -1 error. */
static int build(work *w) {
    br_run_opts ro = *w->c->run;
    ro.total_cases = 0;
    for (size_t k = 0; k < w->c->n_suites; k++)
        ro.total_cases += w->jobs[k].plan.n_cases;
    if (br_session_open(&w->session, &ro) != 0)
        return -1;
    for (size_t k = 0; k < w->c->n_suites; k++) {
        int rc = br_session_build_job(w->session, &w->jobs[k], BR_BUILD_RUN);
        if (br_stop_signal()) {
            *w->end = BR_RANGE_STOPPED;
            return 1;
        }
        if (rc != 0)
            return br_error_kind_get() == BR_E_NOMEM ? -1 : skip(w, br_error_get());
        const br_module_handle *m = failed_module(&w->jobs[k]);
        if (m) {
            char *msg =
                br_strfmt("%s does not build: %s", m->source, m->message ? m->message : "failed");
            int sk = msg ? skip(w, msg) : br_error_nomem();
            free(msg);
            return sk;
        }
    }
    return 0;
}

/* *p (owned, may be NULL) with the checkout written as the work tree.
 * Returns 0 or -1. */
static int unmap(const br_gittree *t, char **p) {
    if (!*p)
        return 0;
    char *next = br_gittree_unmap(t, *p);
    if (!next)
        return -1;
    free(*p);
    *p = next;
    return 0;
}

/* Run k as if made at the commit in the work tree: the commit's git
 * record, the suite path as given, the work tree's paths, the rules.
 * Returns 0 or -1. */
static int label_run(work *w, size_t k) {
    br_run *r = &w->runs[k];
    char *path = br_strdup(w->c->suites[k]);
    if (!path)
        return -1;
    free(r->suite_path);
    r->suite_path = path;
    for (size_t i = 0; i < r->n_kernels; i++)
        if (unmap(&w->tree, &r->kernels[i].source) != 0)
            return -1;
    for (size_t i = 0; i < r->n_cases; i++)
        if (unmap(&w->tree, &r->cases[i].message) != 0)
            return -1;
    r->git = w->tree.git;
    br_gate_opts g;
    br_gate_opts_init(&g);
    r->regression = br_gate_rules(r, &g);
    return 0;
}

/* Execute every suite and write the runs. Returns 0 or -1. */
static int execute(work *w, size_t *n_cases) {
    const br_range_commit *c = w->c;
    for (size_t k = 0; k < c->n_suites; k++) {
        w->n_run++;
        if (br_job_execute(&w->runs[k], &w->jobs[k], w->session, &w->ledger) != 0)
            return -1;
        if (br_stop_signal()) {
            *w->end = BR_RANGE_STOPPED;
            return 0;
        }
    }
    const br_run **ptrs = calloc(c->n_suites, sizeof *ptrs);
    if (!ptrs)
        return br_error_nomem();
    size_t failed = 0;
    int rc = 0;
    for (size_t k = 0; k < c->n_suites && rc == 0; k++) {
        size_t a, b, s;
        br_run_count(&w->runs[k], &a, &b, &s);
        failed += b;
        *n_cases += a + b + s;
        ptrs[k] = &w->runs[k];
        rc = label_run(w, k);
    }
    br_report_opts opts = {0};
    if (rc == 0)
        *w->end = br_output_save_results(c->results_dir, ptrs, c->n_suites, &opts, c->run->quiet)
                      ? BR_RANGE_WRITE_FAILED
                  : failed ? BR_RANGE_CASE_FAILED
                           : BR_RANGE_MEASURED;
    free(ptrs);
    return rc;
}

int br_range_commit_measure(br_range_end *end, char **why, size_t *n_cases,
                            const br_range_commit *c) {
    work w = {.c = c, .end = end, .why = why, .ledger = BR_DRIVER_LEDGER_INIT};
    w.tree.lock_fd = -1;
    *end = BR_RANGE_SKIPPED;
    *why = NULL;
    *n_cases = 0;
    relabel_sink sink = {.w = &w};
    br_log_get_sink(&sink.fn, &sink.ctx);
    br_log_set_sink(relabel_log, &sink);
    int rc = br_gittree_checkout(&w.tree, c->suites[0], c->sha, c->scratch_root);
    if (rc == 0)
        rc = prepare(&w);
    if (rc == 0)
        rc = build(&w);
    if (rc == 0)
        rc = execute(&w, n_cases);
    br_log_set_sink(sink.fn, sink.ctx);
    for (size_t k = 0; k < w.n_run; k++)
        br_run_dispose(&w.runs[k]);
    for (size_t k = 0; k < w.n_prepared; k++)
        br_job_dispose(&w.jobs[k]);
    br_session_close(w.session);
    free(w.runs);
    free(w.jobs);
    br_gittree_remove(&w.tree);
    return rc < 0 ? -1 : 0;
}
