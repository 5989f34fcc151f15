/* SPDX-License-Identifier: Apache-2.0 */
/* The driver of `benchrun ab` (ab.h). */
#include "ab.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "compile/build.h"
#include "ab_measure.h"
#include "execute.h"
#include "driver.h"
#include "worker/proto.h"
#include "gate/abcompare.h"
#include "gate/abstats.h"
#include "gate/baseline.h"
#include "gate/compare.h"
#include "reporters/timing_notes.h"
#include "results/gittree.h"

enum { OLD = 0, NEW = 1 };

/* Most distinct (repository, revision) checkouts of one invocation. */
#define MAX_TREES 16

/* One suite on both sides. */
typedef struct ab_suite {
    const char *path;    /* as given */
    br_gittree *tree[2]; /* the checkout of each side (borrowed); tree[NEW] NULL: the work tree */
    char *file[2];       /* the suite file loaded on each side (owned) */
    br_job job[2];
    br_run run[2];
    int begun;         /* the runs were begun (dispose them) */
    br_ab_case *cases; /* owned, n_cases; their medians too */
    size_t n_cases;
} ab_suite;

/* The invocation. */
typedef struct ab {
    const br_ab_opts *o;
    char *scratch_root; /* <cache>/ab */
    br_gittree trees[MAX_TREES];
    size_t n_trees;
    ab_suite *suites;
    size_t n_suites;
    br_session *session;
    br_driver_ledger ledger; /* the invocation's, beside the session */
    double threshold, alpha;
} ab;

/* Say the error on stderr, with side k's scratch directory written as
 * REV: (git's notation), and return -1. */
static int fail_side(const ab_suite *su, int k) {
    const br_gittree *t = su ? su->tree[k] : NULL;
    char *msg = t ? br_gittree_relabel(t, br_error_get(), t->rev) : NULL;
    br_log(BR_LOG_ERROR, "benchrun ab: %s\n", msg ? msg : br_error_get());
    free(msg);
    return -1;
}

/* The checkout of rev in the repository holding path: one already made, or
 * a new one. NULL after a message. */
static br_gittree *tree_for(ab *a, const char *path, const char *rev) {
    br_gitinfo g;
    char *dir = br_path_dir(path); /* the suite itself may be missing from the work tree */
    int rc = dir ? br_gitinfo_read(&g, dir) : -1;
    free(dir);
    if (rc != 0) {
        br_log(BR_LOG_ERROR, "benchrun ab: %s\n", br_error_get());
        return NULL;
    }
    for (size_t i = 0; i < a->n_trees; i++)
        if (strcmp(a->trees[i].rev, rev) == 0 && g.present &&
            strcmp(a->trees[i].workdir, g.workdir) == 0)
            return &a->trees[i];
    if (a->n_trees == MAX_TREES) {
        br_log(BR_LOG_ERROR, "benchrun ab: more than %d repositories\n", MAX_TREES / 2);
        return NULL;
    }
    br_gittree *t = &a->trees[a->n_trees];
    if (br_gittree_checkout(t, path, rev, a->scratch_root) != 0) {
        br_log(BR_LOG_ERROR, "benchrun ab: %s\n", br_error_get());
        return NULL;
    }
    a->n_trees++;
    return t;
}

/* Side k's suite file of su (tree[k] set): its place in the checkout, which
 * must be a file there. Returns 0, or -1 after a message. */
static int locate_suite(ab_suite *su, int k) {
    const br_gittree *t = su->tree[k];
    su->file[k] = br_gittree_map(t, su->path);
    if (!su->file[k])
        return fail_side(NULL, k);
    struct stat st;
    if (stat(su->file[k], &st) != 0 || !S_ISREG(st.st_mode)) {
        char *where = br_gittree_relabel(t, su->file[k], t->rev);
        br_log(BR_LOG_ERROR, "benchrun ab: %s: no such file at %s (commit %s)\n",
               where ? where : su->path, t->rev, t->git.short_sha);
        free(where);
        return -1;
    }
    return 0;
}

/* The kernels with cases in job's plan: 1 for kernel name `name`. */
static int plan_has_kernel(const br_job *job, const char *name) {
    for (size_t i = 0; i < job->plan.n_cases; i++)
        if (strcmp(job->suite.kernels[job->plan.cases[i].kernel].text, name) == 0)
            return 1;
    return 0;
}

/* Side k's name for messages: "HEAD~1 (1a2b3c4)" or "the work tree". */
static void side_name(char *buf, size_t len, const ab_suite *su, int k) {
    if (su->tree[k])
        snprintf(buf, len, "%s (%s)", su->tree[k]->rev, su->tree[k]->git.short_sha);
    else
        snprintf(buf, len, "the work tree");
}

/* Every kernel in one side's plan is in the other's. Returns 0, or -1
 * after a message. */
static int check_kernels(const ab_suite *su) {
    for (int k = 0; k < 2; k++) {
        const br_job *j = &su->job[k], *other = &su->job[1 - k];
        for (size_t i = 0; i < j->plan.n_cases; i++) {
            const char *name = j->suite.kernels[j->plan.cases[i].kernel].text;
            if (plan_has_kernel(other, name))
                continue;
            char here[128], there[128];
            side_name(here, sizeof here, su, k);
            side_name(there, sizeof there, su, 1 - k);
            br_log(BR_LOG_ERROR,
                   "benchrun ab: %s: kernel '%s' is in the suite of %s but not in that of %s: "
                   "give the kernels both sides have with -k\n",
                   su->path, name, here, there);
            return -1;
        }
    }
    return 0;
}

/* Check out, locate and load suite su on both sides. Returns 0 or -1. */
static int prepare_suite(ab *a, ab_suite *su) {
    struct stat st;
    if (!a->o->new_rev && (stat(su->path, &st) != 0 || !S_ISREG(st.st_mode))) {
        br_log(BR_LOG_ERROR, "benchrun ab: %s: no such file in the work tree\n", su->path);
        return -1;
    }
    if (!(su->tree[OLD] = tree_for(a, su->path, a->o->old_rev)))
        return -1;
    if (a->o->new_rev && !(su->tree[NEW] = tree_for(a, su->path, a->o->new_rev)))
        return -1;
    if (locate_suite(su, OLD) != 0 || (su->tree[NEW] && locate_suite(su, NEW) != 0))
        return -1;
    if (!su->tree[NEW] && !(su->file[NEW] = br_strdup(su->path)))
        return fail_side(NULL, NEW);
    for (int k = 0; k < 2; k++)
        if (br_job_prepare(&su->job[k], su->file[k], &a->o->run) != 0)
            return fail_side(su, k);
    return check_kernels(su);
}

/* Whether o asks for the case with key `key` (br_ab_opts.keys). */
static int wanted(const br_ab_opts *o, const char *key) {
    for (size_t i = 0; o->keys && i < o->n_keys; i++)
        if (strcmp(o->keys[i], key) == 0)
            return 1;
    return !o->keys;
}

/* Pair NEW's cases with OLD's by kernel and parameter values (those o
 * asks for: br_ab_opts.keys); the others
 * are skipped, saying so. Both runs' cases are initialised. Returns 0, or
 * -1 after a message (none in common, out of memory). */
static int pair_cases(ab_suite *su, const br_ab_opts *opts) {
    br_case_keys keys = {0};
    unsigned char *used = NULL;
    int rc = -1;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < su->run[k].n_cases; i++)
            if (br_case_init(&su->run[k].cases[i], &su->job[k], i) != 0)
                goto done;
    if (br_case_keys_build(&keys, &su->run[OLD]) != 0)
        goto done;
    su->cases = calloc(su->run[NEW].n_cases + 1, sizeof *su->cases);
    used = calloc(su->run[OLD].n_cases + 1, 1);
    if (!su->cases || !used)
        goto done;
    for (size_t i = 0; i < su->run[NEW].n_cases; i++) {
        char *key = br_baseline_case_key(&su->run[NEW], &su->run[NEW].cases[i]);
        if (!key)
            goto done;
        size_t j = wanted(opts, key) ? br_case_keys_find(&keys, key, used) : SIZE_MAX;
        free(key);
        if (j == SIZE_MAX)
            continue;
        used[j] = 1;
        su->cases[su->n_cases++] = (br_ab_case){.old_case = j, .new_case = i};
    }
    rc = 0;
done:
    br_case_keys_dispose(&keys);
    free(used);
    if (rc != 0)
        return fail_side(NULL, NEW);
    if (su->n_cases == 0) {
        br_log(BR_LOG_ERROR,
               "benchrun ab: %s: no case (kernel and parameter values) is planned on both "
               "sides\n",
               su->path);
        return -1;
    }
    return 0;
}

/* Skip, saying why, the cases of side k that have no partner. Returns 0 or -1. */
static int skip_unpaired(ab_suite *su, int k) {
    char other[128];
    side_name(other, sizeof other, su, 1 - k);
    for (size_t i = 0; i < su->run[k].n_cases; i++) {
        int paired = 0;
        for (size_t c = 0; c < su->n_cases && !paired; c++)
            paired = (k == OLD ? su->cases[c].old_case : su->cases[c].new_case) == i;
        if (paired)
            continue;
        if (br_driver_set(&su->run[k].cases[i], BR_STATUS_SKIPPED, BR_STAGE_AB,
                          br_strfmt("not compared: the suite at %s has no such case", other)) != 0)
            return -1;
    }
    return 0;
}

/* Open the session and build every suite's two jobs. Returns 0 or -1. */
static int build_all(ab *a) {
    if (br_session_open(&a->session, &a->o->run) != 0)
        return fail_side(NULL, NEW);
    for (size_t i = 0; i < a->n_suites; i++)
        for (int k = 0; k < 2; k++)
            if (br_session_build_job(a->session, &a->suites[i].job[k], BR_BUILD_RUN) != 0)
                return fail_side(&a->suites[i], k);
    return 0;
}

/* `path` of OLD's side (in its scratch directory) as "<short sha>:PATH"
 * (PATH normalised); others unchanged. Caller frees; NULL out of memory. */
static char *commit_label(const br_gittree *t, const char *path) {
    size_t n = strlen(t->dir);
    if (!path || strncmp(path, t->dir, n) != 0 || path[n] != '/')
        return br_strdup(path ? path : "");
    char *rel = br_path_normalize(path + n + 1);
    char *out = rel ? br_strfmt("%s:%s", t->git.short_sha, rel) : NULL;
    free(rel);
    return out;
}

/* Rename side k's run (checked out from a commit): its suite and sources
 * as "<short sha>:PATH", its git record the commit's. Returns 0 or -1. */
static int label_run(ab_suite *su, int k) {
    const br_gittree *t = su->tree[k];
    br_run *r = &su->run[k];
    if (!t)
        return 0;
    char *p = commit_label(t, r->suite_path);
    if (!p)
        return -1;
    free(r->suite_path);
    r->suite_path = p;
    for (size_t i = 0; i < r->n_kernels; i++) {
        if (!(p = commit_label(t, r->kernels[i].source)))
            return -1;
        free(r->kernels[i].source);
        r->kernels[i].source = p;
    }
    r->git = t->git;
    return 0;
}

/* The modules of side k into *s: source (labelled) and cache key. */
static int side_modules(br_ab_side *s, const ab_suite *su, int k) {
    const struct br_job_build *b = su->job[k].built;
    s->modules = calloc(b->n_mods + 1, sizeof *s->modules);
    if (!s->modules)
        return br_error_nomem();
    for (size_t m = 0; m < b->n_mods; m++) {
        br_ab_module *mod = &s->modules[s->n_modules++];
        const char *src = b->mods[m].source;
        mod->source = su->tree[k] ? commit_label(su->tree[k], src) : br_strdup(src);
        snprintf(mod->key, sizeof mod->key, "%s", b->mods[m].key);
        if (!mod->source)
            return -1;
    }
    return 0;
}

/* What the comparison of su says about its sides. NULL with the error set
 * (out of memory). */
static br_ab_info *make_info(const ab *a, const ab_suite *su) {
    br_ab_info *info = calloc(1, sizeof *info);
    if (!info) {
        br_error_nomem();
        return NULL;
    }
    info->blocks = a->o->blocks;
    info->ci_level = 1.0 - a->alpha;
    br_ab_side *s[2] = {&info->old_side, &info->new_side};
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        const br_gitinfo *g = &su->run[k].git;
        if (su->tree[k] && !(s[k]->rev = br_strdup(su->tree[k]->rev)))
            ok = 0;
        snprintf(s[k]->sha, sizeof s[k]->sha, "%s", g->present ? g->sha : "");
        s[k]->dirty = g->present && g->dirty;
        if (ok && side_modules(s[k], su, k) != 0)
            ok = 0;
    }
    if (!ok) {
        br_comparison tmp = {.ab = info};
        br_comparison_dispose(&tmp);
        return NULL;
    }
    return info;
}

/* Measure suite su and compare. Returns 0, or -1 with the error set. */
static int measure_suite(ab *a, ab_suite *su) {
    for (int k = 0; k < 2; k++)
        if (br_job_run_begin(&su->run[k], &su->job[k], a->session) != 0)
            return -1;
    su->begun = 1;
    if (pair_cases(su, a->o) != 0)
        return -2;
    if (skip_unpaired(su, OLD) != 0 || skip_unpaired(su, NEW) != 0)
        return -1;
    if (br_ab_measure(&su->run[OLD], &su->run[NEW], su->cases, su->n_cases, &su->job[OLD],
                      &su->job[NEW], a->session, &a->ledger, a->o->blocks, a->o->deadline_ns) != 0)
        return -1;
    if (label_run(su, OLD) != 0 || label_run(su, NEW) != 0)
        return -1;
    br_ab_info *info = make_info(a, su);
    if (!info)
        return -1;
    br_comparison *cmp = calloc(1, sizeof *cmp);
    if (!cmp) {
        br_comparison tmp = {.ab = info}; /* frees info */
        br_comparison_dispose(&tmp);
        return br_error_nomem();
    }
    su->run[NEW].comparison = cmp;
    su->run[NEW].regression = (br_regression_cfg){.threshold = a->threshold, .alpha = a->alpha};
    return br_ab_compare(cmp, &su->run[OLD], &su->run[NEW], su->cases, su->n_cases, a->threshold,
                         a->alpha, a->o->old_rev, info);
}

/* Write runs[0..n) with reporter `name` to path unless path is NULL.
 * Returns 0, or 1 when it failed (said on stderr). */
static int emit(const char *name, const char *path, const br_run *const *runs, size_t n,
                const br_report_opts *opts) {
    if (!path)
        return 0;
    return br_output_emit(name, path, runs, n, opts) == 0 ? 0 : 1; /* a failed write is said */
}

/* The outputs: NEW's table with the comparison on stdout (unless an output
 * takes it), --json and --gbench with both runs, --markdown with NEW's.
 * Returns the number that failed. */
static int write_outputs(const br_outputs *o, const br_run *const *both, size_t n_both,
                         const br_run *const *news, size_t n_new) {
    br_report_opts opts = {.ascii = o->ascii, .color = o->color};
    int taken = br_path_is_stdout(o->json) || br_path_is_stdout(o->markdown) ||
                br_path_is_stdout(o->gbench);
    int failed = taken ? 0 : emit("table", "-", news, n_new, &opts);
    opts.color = 0;
    failed += emit("json", o->json, both, n_both, &opts);
    failed += emit("markdown", o->markdown, news, n_new, &opts);
    failed += emit("gbench", o->gbench, both, n_both, &opts);
    return failed;
}

/* The summary line on stderr, from the suites' comparisons summed in tot
 * (counts and the entries not compared). */
static void summarize(const br_outcome *out, const ab *a, const br_comparison *tot) {
    if (a->o->run.quiet)
        return;
    const size_t *count = tot->count;
    char line[512], omitted[200];
    size_t k = 0;
    static const br_change order[] = {BR_CHANGE_SLOWER,  BR_CHANGE_FASTER, BR_CHANGE_SAME,
                                      BR_CHANGE_UNKNOWN, BR_CHANGE_NEW,    BR_CHANGE_MISSING};
    line[0] = '\0';
    for (size_t i = 0; i < sizeof order / sizeof *order && k < sizeof line; i++)
        if (count[order[i]] || order[i] == BR_CHANGE_SLOWER)
            k += (size_t)snprintf(line + k, sizeof line - k, "%s%zu %s", k ? ", " : "",
                                  count[order[i]], br_change_name(order[i]));
    int some_left_out = br_report_not_compared(omitted, sizeof omitted, tot);
    br_log(BR_LOG_NOTE, "benchrun ab: NEW vs OLD (%s): %s%s%s%s\n", a->o->old_rev, line,
           some_left_out ? "; " : "", some_left_out ? omitted : "",
           out->stopped ? " (interrupted)" : "");
    if (out->slower)
        br_log(BR_LOG_NOTE, "benchrun ab: %s (exit status 3; --fail-on never only reports)\n",
               a->o->gate.fail_on == BR_FAIL_ON_ANY ? "a case is slower or faster"
                                                    : "a case is slower");
}

/* Counts, the gate, the outputs and the summary. Returns 0 or -1. */
static int ab_finish(br_outcome *out, ab *a) {
    const br_run **both = calloc(2 * a->n_suites + 1, sizeof *both);
    const br_run **news = calloc(a->n_suites + 1, sizeof *news);
    size_t nb = 0, nn = 0;
    br_comparison tot = {0}; /* the counts alone */
    if (!both || !news) {
        free(both);
        free(news);
        br_error_nomem();
        return fail_side(NULL, NEW);
    }
    for (size_t i = 0; i < a->n_suites; i++) {
        const ab_suite *su = &a->suites[i];
        if (!su->begun || !su->run[NEW].comparison)
            continue;
        both[nb++] = &su->run[OLD];
        both[nb++] = &su->run[NEW];
        news[nn++] = &su->run[NEW];
        size_t ok, failed, skipped, ok_old, failed_old, skipped_old;
        br_run_count(&su->run[NEW], &ok, &failed, &skipped);
        br_run_count(&su->run[OLD], &ok_old, &failed_old, &skipped_old);
        out->ok += ok;
        out->failed += failed + failed_old;
        out->skipped += skipped;
        const br_comparison *cmp = su->run[NEW].comparison;
        for (int s = 0; s < BR_CHANGE_COUNT; s++)
            tot.count[s] += cmp->count[s];
        tot.n_no_gpu += cmp->n_no_gpu;
        tot.n_left_out_k += cmp->n_left_out_k;
        tot.n_left_out_p += cmp->n_left_out_p;
        if (!out->stopped)
            out->slower |= br_baseline_fails(cmp, a->o->gate.fail_on);
    }
    if (write_outputs(&a->o->outputs, both, nb, news, nn) != 0)
        out->write_failed = 1;
    summarize(out, a, &tot);
    free(both);
    free(news);
    return 0;
}

/* Each measured suite's runs to o->done. Returns 0, or -1 after a message. */
static int hand_over(ab *a) {
    for (size_t i = 0; a->o->done && i < a->n_suites; i++) {
        const ab_suite *su = &a->suites[i];
        if (su->begun && su->run[NEW].comparison &&
            a->o->done(a->o->done_ctx, &su->run[OLD], &su->run[NEW]) != 0)
            return fail_side(NULL, NEW);
    }
    return 0;
}

/* The note of what is compared, before measuring. */
static void say_sides(const ab *a) {
    if (a->o->run.quiet || a->o->silent || a->n_suites == 0)
        return;
    const ab_suite *su = &a->suites[0];
    char old[128], cur[160];
    side_name(old, sizeof old, su, OLD);
    if (su->tree[NEW]) {
        side_name(cur, sizeof cur, su, NEW);
    } else {
        br_gitinfo g;
        if (br_gitinfo_read(&g, su->path) == 0 && g.present && !g.unborn)
            snprintf(cur, sizeof cur, "the work tree (%s%s)", g.short_sha,
                     g.dirty ? ", modified" : "");
        else
            snprintf(cur, sizeof cur, "the work tree");
    }
    br_log(BR_LOG_NOTE,
           "benchrun ab: OLD = %s, NEW = %s; %zu blocks of each per case, in the order "
           "A B B A ...\n",
           old, cur, a->o->blocks);
}

/* The log sink while `benchrun ab` runs: the stages' messages (compiler
 * diagnostics, build notes) with each scratch directory written as REV:,
 * then on to the sink that was installed. */
typedef struct relabel_sink {
    br_log_fn fn;
    void *ctx;
    const ab *a;
} relabel_sink;

static void relabel_log(void *ctx, br_log_level level, const char *msg) {
    const relabel_sink *r = ctx;
    char *text = br_strdup(msg);
    for (size_t i = 0; text && i < r->a->n_trees; i++) {
        const br_gittree *t = &r->a->trees[i];
        char *next = strstr(text, t->dir) ? br_gittree_relabel(t, text, t->rev) : text;
        if (next != text)
            free(text);
        text = next;
    }
    r->fn(r->ctx, level, text ? text : msg);
    free(text);
}

static void ab_dispose(ab *a) {
    for (size_t i = 0; i < a->n_suites; i++) {
        ab_suite *su = &a->suites[i];
        for (size_t c = 0; c < su->n_cases; c++) {
            free(su->cases[c].old_med);
            free(su->cases[c].new_med);
        }
        free(su->cases);
        for (int k = 0; k < 2; k++) {
            if (su->begun)
                br_run_dispose(&su->run[k]);
            br_job_dispose(&su->job[k]);
            free(su->file[k]);
        }
    }
    free(a->suites);
    br_session_close(a->session);
    for (size_t i = 0; i < a->n_trees; i++)
        br_gittree_remove(&a->trees[i]);
    free(a->scratch_root);
}

/* Prepare every suite on both sides, then build them all. Returns 0 or -1. */
static int prepare_all(ab *a) {
    const br_ab_opts *o = a->o;
    char *cache = o->run.cache_dir ? br_strdup(o->run.cache_dir) : br_build_default_cache_dir();
    a->scratch_root = cache ? br_strfmt("%s/ab", cache) : NULL;
    free(cache);
    a->suites = calloc(o->n_suites + 1, sizeof *a->suites);
    if (!a->scratch_root || !a->suites)
        return fail_side(NULL, NEW);
    for (size_t i = 0; i < o->n_suites; i++) {
        a->suites[i].path = o->suites[i];
        a->n_suites++;
        if (prepare_suite(a, &a->suites[i]) != 0)
            return -1;
    }
    return 0;
}

int br_ab_run(br_outcome *out, const br_ab_opts *o) {
    memset(out, 0, sizeof *out);
    ab a = {.o = o,
            .threshold = isnan(o->gate.threshold) ? BR_AB_DEFAULT_THRESHOLD : o->gate.threshold,
            .alpha = isnan(o->gate.alpha) ? BR_AB_DEFAULT_ALPHA : o->gate.alpha};
    int rc = -1;
    relabel_sink sink = {.a = &a};
    br_log_get_sink(&sink.fn, &sink.ctx);
    br_log_set_sink(relabel_log, &sink);
    if (prepare_all(&a) != 0)
        goto done;
    if (o->before_measure)
        o->before_measure();
    if (build_all(&a) != 0)
        goto done;
    say_sides(&a);
    for (size_t i = 0; i < a.n_suites && !br_stop_signal(); i++) {
        int r = measure_suite(&a, &a.suites[i]);
        if (r == -2)
            goto done; /* bad input, said */
        if (r != 0) {
            fail_side(NULL, NEW);
            goto done;
        }
    }
    out->stopped = br_stop_signal();
    rc = hand_over(&a) != 0 ? -1 : o->silent ? 0 : ab_finish(out, &a);
done:
    out->error = rc != 0;
    ab_dispose(&a);
    br_log_set_sink(sink.fn, sink.ctx);
    return rc;
}
