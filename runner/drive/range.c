/* SPDX-License-Identifier: Apache-2.0 */
/* The driver of `benchrun run-range` (range.h): the line of
 * commits, the step, what the results directory holds, each commit in
 * turn, the totals. */
#include "range.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/build.h"
#include "range_commit.h"
#include "range_done.h"
#include "results/gitlog.h"

#define PROG "benchrun run-range"

int br_range_split(char *buf, size_t len, const char *spec, const char **from, const char **to) {
    const char *dots = strstr(spec, "..");
    if (!dots || strstr(spec, "...") || strcmp(spec, "..") == 0 || strlen(spec) + 1 > len) {
        br_error_set("'%s': expected a range A..B (A excluded, as in git log A..B; "
                     "A.. is A..HEAD)%s",
                     spec, dots && strstr(spec, "...") ? ": A...B names no line of commits" : "");
        br_error_set_kind(BR_E_INPUT);
        return -1;
    }
    memcpy(buf, spec, strlen(spec) + 1);
    size_t at = (size_t)(dots - spec);
    buf[at] = '\0';
    *from = at ? buf : "HEAD";
    *to = buf[at + 2] ? buf + at + 2 : "HEAD";
    return 0;
}

/* What the range is doing. */
typedef struct range {
    const br_range_opts *o;
    br_outcome *out;
    br_gitlog log;
    size_t *pick; /* the commits to measure (indices into log), oldest first */
    size_t n_pick;
    br_range_done done;
    char *scratch_root; /* <cache>/run-range */
    size_t measured, before, skipped, failed, cases;
} range;

/* The error on stderr, "benchrun run-range: <last error>". Returns -1. */
static int fail(void) {
    br_log(BR_LOG_ERROR, PROG ": %s\n", br_error_get());
    return -1;
}

/* The commits of the line after A: every step-th counted back from B,
 * oldest first. Returns 0 or -1. */
static int choose(range *g) {
    size_t n = g->log.n, step = g->o->step ? g->o->step : 1;
    g->pick = calloc(n, sizeof *g->pick);
    if (!g->pick)
        return br_error_nomem();
    size_t k = 0;
    for (size_t i = n - 1; i >= 1; i -= step) {
        g->pick[k++] = i;
        if (i < 1 + step)
            break;
    }
    for (size_t a = 0, z = k; a + 1 < z; a++, z--) { /* newest first -> oldest first */
        size_t t = g->pick[a];
        g->pick[a] = g->pick[z - 1];
        g->pick[z - 1] = t;
    }
    g->n_pick = k;
    return 0;
}

/* The line, the commits, what the directory holds. Returns 0 or -1 (said). */
static int begin(range *g) {
    const br_range_opts *o = g->o;
    if (br_gitlog_first_parents(&g->log, o->suites[0], o->from, o->to) != 0 || choose(g) != 0)
        return fail();
    if (br_mkdir_p(o->results_dir) != 0 || br_range_done_read(&g->done, o->results_dir) != 0) {
        br_log(BR_LOG_ERROR, PROG ": --results-dir %s: %s\n", o->results_dir, br_error_get());
        return -1;
    }
    char *cache = o->run.cache_dir ? br_strdup(o->run.cache_dir) : br_build_default_cache_dir();
    g->scratch_root = cache ? br_strfmt("%s/run-range", cache) : NULL;
    free(cache);
    if (!g->scratch_root)
        return br_error_nomem(), fail();
    size_t left = 0;
    for (size_t k = 0; k < g->n_pick; k++)
        left +=
            !br_range_done_has(&g->done, g->log.commits[g->pick[k]].sha, o->suites, o->n_suites);
    char every[64] = "";
    if (o->step > 1)
        snprintf(every, sizeof every, " (every %zuth, back from %s)", o->step, o->to);
    br_log_note(g->o->run.quiet, PROG,
                "%zu commit%s of %s..%s's first-parent line%s, %zu to measure", g->n_pick,
                g->n_pick == 1 ? "" : "s", o->from, o->to, every, left);
    return 0;
}

/* One line on stdout for commit c: "[k/n] SHORT  SUBJECT  what". */
static void say(size_t k, size_t n, const br_gitlog_commit *c, const char *what) {
    int w = snprintf(NULL, 0, "%zu", n);
    printf("[%*zu/%zu] %s  %-30.30s  %s\n", w, k + 1, n, c->short_sha, c->subject, what);
    fflush(stdout);
}

/* Measure pick k (unless the directory has it). Returns 0, 1 stopped, -1
 * error (said). */
static int one(range *g, size_t k) {
    const br_range_opts *o = g->o;
    const br_gitlog_commit *gc = &g->log.commits[g->pick[k]];
    if (br_range_done_has(&g->done, gc->sha, o->suites, o->n_suites)) {
        g->before++;
        say(k, g->n_pick, gc, "measured before (a results file in the directory has it)");
        return 0;
    }
    br_log_note(g->o->run.quiet, PROG, "[%zu/%zu] %s \"%s\": checking out, building, measuring",
                k + 1, g->n_pick, gc->short_sha, gc->subject);
    br_range_commit c = {gc->sha,         gc->short_sha,  o->suites, o->n_suites,
                         g->scratch_root, o->results_dir, &o->run};
    br_range_end end;
    char *why = NULL, line[1200];
    size_t n_cases = 0;
    if (br_range_commit_measure(&end, &why, &n_cases, &c) != 0)
        return fail();
    switch (end) {
    case BR_RANGE_MEASURED:
    case BR_RANGE_CASE_FAILED:
        g->measured++;
        g->cases += n_cases;
        g->failed += end == BR_RANGE_CASE_FAILED;
        snprintf(line, sizeof line, "measured: %zu case%s%s", n_cases, n_cases == 1 ? "" : "s",
                 end == BR_RANGE_CASE_FAILED ? ", a case failed" : "");
        break;
    case BR_RANGE_SKIPPED:
        g->skipped++;
        snprintf(line, sizeof line, "skipped: %s", why ? why : "?");
        break;
    case BR_RANGE_STOPPED:
        snprintf(line, sizeof line, "interrupted: not measured (run the range again to resume)");
        break;
    case BR_RANGE_WRITE_FAILED:
        g->out->write_failed = 1;
        snprintf(line, sizeof line, "measured, but its results file could not be written");
        break;
    }
    free(why);
    say(k, g->n_pick, gc, line);
    if (end == BR_RANGE_CASE_FAILED)
        g->out->failed = 1;
    if (br_range_done_add(&g->done, gc->sha, o->suites, o->n_suites) != 0)
        return fail();
    return end == BR_RANGE_STOPPED ? 1 : 0;
}

/* The totals on stdout, and the next command. */
static void totals(const range *g) {
    const br_range_opts *o = g->o;
    printf("%zu commit%s: %zu measured (%zu case%s), %zu measured before, %zu skipped%s\n",
           g->n_pick, g->n_pick == 1 ? "" : "s", g->measured, g->cases, g->cases == 1 ? "" : "s",
           g->before, g->skipped, g->out->stopped ? "; interrupted" : "");
    if (g->out->stopped)
        printf("resume: the same command measures only the commits left\n");
    else
        printf("next: benchrun history %s --changes, benchrun publish %s\n", o->results_dir,
               o->results_dir);
}

int br_range_run(br_outcome *out, const br_range_opts *o) {
    memset(out, 0, sizeof *out);
    range g = {.o = o, .out = out};
    int rc = begin(&g);
    if (rc == 0 && o->before_measure)
        o->before_measure();
    for (size_t k = 0; rc == 0 && k < g.n_pick && !br_stop_signal(); k++)
        rc = one(&g, k);
    if (rc >= 0) {
        out->stopped = br_stop_signal();
        totals(&g);
        rc = 0;
    }
    out->error = rc != 0;
    br_range_done_dispose(&g.done);
    br_gitlog_dispose(&g.log);
    free(g.pick);
    free(g.scratch_root);
    return rc == 0 ? 0 : -1;
}
