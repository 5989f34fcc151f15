/* SPDX-License-Identifier: Apache-2.0 */
/* Two results files compared with the baseline rules
 * (compare_files.h). */
#include "compare_files.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/files.h"
#include "base/log.h"
#include "gate/baseline.h"
#include "gate/compare.h"
#include "results/run_read.h"

#define PROG "benchrun compare"

/* The two files loaded. */
typedef struct compare_files {
    const char *old_path, *new_path;
    br_run *old, *cur;
    size_t n_old, n_cur;
} compare_files;

/* The run of old with r's suite, or NULL. */
static const br_run *match(const compare_files *f, const br_run *r) {
    for (size_t j = 0; j < f->n_old; j++)
        if (f->old[j].suite_name && r->suite_name &&
            strcmp(f->old[j].suite_name, r->suite_name) == 0)
            return &f->old[j];
    return NULL;
}

/* Compare every run of cur with old's run of the same suite. Returns the
 * number matched, or -1 after a message; *slower as br_baseline_fails. */
static int compare_runs(compare_files *f, const br_gate_opts *g, int *slower) {
    int matched = 0;
    for (size_t i = 0; i < f->n_cur; i++) {
        br_run *r = &f->cur[i];
        r->regression = br_gate_rules(r, g);
        br_comparison_dispose(r->comparison); /* a results file may carry one */
        free(r->comparison);
        r->comparison = NULL;
        const br_run *base = match(f, r);
        if (!base) {
            br_log(BR_LOG_ERROR, PROG ": %s holds no run of suite '%s'\n", f->old_path,
                   r->suite_name ? r->suite_name : "?");
            continue;
        }
        br_comparison *cmp = calloc(1, sizeof *cmp);
        if (!cmp) {
            br_log(BR_LOG_ERROR, PROG ": out of memory\n");
            return -1;
        }
        br_regression_cfg rules = r->regression;
        if (br_baseline_compare(cmp, base, f->old_path, r, &rules, g->force_device) != 0) {
            br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
            br_comparison_dispose(cmp);
            free(cmp);
            return -1;
        }
        r->comparison = cmp;
        matched++;
        *slower |= br_baseline_fails(cmp, g->fail_on);
    }
    return matched;
}

/* The table (unless an output takes stdout), Markdown, JSON; stops at the
 * first that fails. Returns 0 or -1. */
static int compare_write(const br_outputs *o, const br_run *const *runs, size_t n) {
    br_report_opts opts = {.ascii = o->ascii, .color = o->color};
    int stdout_taken = br_path_is_stdout(o->markdown) || br_path_is_stdout(o->json);
    if (!stdout_taken && br_output_emit("table", "-", runs, n, &opts) != 0)
        return -1;
    opts.color = 0;
    if (o->markdown && br_output_emit("markdown", o->markdown, runs, n, &opts) != 0)
        return -1;
    if (o->json && br_output_emit("json", o->json, runs, n, &opts) != 0)
        return -1;
    return 0;
}

/* The old file read on a thread of its own: its status and its error. */
typedef struct old_load {
    compare_files *f;
    int rc;
    char error[BR_ERROR_MAX];
    br_error_kind kind;
} old_load;

static void *old_load_main(void *arg) {
    old_load *l = arg;
    l->rc = br_results_load(&l->f->old, &l->f->n_old, l->f->old_path);
    if (l->rc != 0) {
        snprintf(l->error, sizeof l->error, "%s", br_error_get());
        l->kind = br_error_kind_get();
    }
    return NULL;
}

/* Both files loaded, the old one on a second thread while this one reads
 * the new (the wall time of the larger, not of both); without a thread,
 * one after the other. 0, or -1 with the error set: the old file's first,
 * as when they were read in turn. */
static int load_both(compare_files *f) {
    old_load l = {f, 0, "", BR_E_NONE};
    pthread_t th;
    json_object_seed(0); /* before a second thread makes JSON objects (jansson's advice) */
    int threaded = pthread_create(&th, NULL, old_load_main, &l) == 0;
    if (!threaded)
        old_load_main(&l);
    int rc = br_results_load(&f->cur, &f->n_cur, f->new_path);
    if (threaded)
        pthread_join(th, NULL);
    if (l.rc != 0) {
        br_error_set("%s", l.error);
        return br_error_set_kind(l.kind);
    }
    return rc;
}

/* Load, compare, write into *out. */
static void compare_loaded(br_outcome *out, compare_files *f, const br_pipeline_opts *p) {
    out->error = 1;
    if (load_both(f) != 0) {
        br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
        return;
    }
    if (f->n_cur == 0) {
        br_log(BR_LOG_ERROR, PROG ": %s: holds no run\n", f->new_path);
        return;
    }
    const br_run **ptrs = calloc(f->n_cur, sizeof *ptrs);
    if (!ptrs) {
        br_log(BR_LOG_ERROR, PROG ": out of memory\n");
        return;
    }
    for (size_t i = 0; i < f->n_cur; i++)
        ptrs[i] = &f->cur[i];
    int slower = 0, matched = compare_runs(f, &p->gate, &slower);
    if (matched == 0)
        br_log(BR_LOG_ERROR, PROG ": no suite of %s is in %s\n", f->new_path, f->old_path);
    else if (matched > 0 && compare_write(&p->outputs, ptrs, f->n_cur) == 0) {
        out->error = 0;
        out->slower = slower;
    }
    if (out->slower && !p->run.quiet)
        br_log(BR_LOG_ERROR, PROG ": %s (exit status 3)\n",
               p->gate.fail_on == BR_FAIL_ON_ANY ? "a case changed" : "a case is slower");
    free(ptrs);
}

int br_compare_files(br_outcome *out, const char *old_path, const char *new_path,
                     const br_pipeline_opts *p) {
    memset(out, 0, sizeof *out);
    compare_files f = {old_path, new_path, NULL, NULL, 0, 0};
    compare_loaded(out, &f, p);
    br_results_free(f.old, f.n_old);
    br_results_free(f.cur, f.n_cur);
    return out->error ? -1 : 0;
}
