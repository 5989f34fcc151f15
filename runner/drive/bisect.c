/* SPDX-License-Identifier: Apache-2.0 */
/* The driver of `benchrun bisect` (bisect.h): the ends, step
 * 0, the search, the answer and the outputs. */
#include "bisect.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/files.h"
#include "base/log.h"
#include "base/util.h"
#include "bisect_commit.h"
#include "bisect_measure.h"
#include "bisect_report.h"
#include "compile/build.h"
#include "worker/proto.h"

/* The invocation. */
typedef struct bisect {
    const br_bisect_opts *o;
    br_bisect_result *r;
    br_bisect_outcome *out;
    char *scratch_root;        /* <cache>/bisect */
    br_bisect_commit *commits; /* per commit of the line; ready[i]: prepared */
    unsigned char *ready;
    char **keys; /* the searched cases (br_bisect_case_key), owned */
    size_t n_keys;
    br_session *session;
    br_driver_ledger ledger; /* the invocation's, beside the session */
} bisect;

/* The error on stderr, "benchrun bisect: WHAT: <last error>". Returns -1. */
static int fail(const char *what) {
    br_log(BR_LOG_ERROR, "benchrun bisect: %s%s%s\n", what ? what : "", what ? ": " : "",
           br_error_get());
    return -1;
}

/* ---- the commits ------------------------------------------------------------------ */

/* Check out and prepare commit i, labelled `label` in messages. Returns 0,
 * or -1 with the error set. */
static int prepare_commit(bisect *b, size_t i, const char *label) {
    if (b->ready[i])
        return 0;
    const br_gitlog_commit *gc = &b->r->log.commits[i];
    int rc = br_bisect_commit_prepare(&b->commits[i], b->o->suite, gc->sha, label, b->scratch_root,
                                      &b->o->run);
    b->ready[i] = 1; /* disposed in any case */
    return rc;
}

/* Build commit i in the session (once). Returns 0, or -1 with the error set. */
static int build_commit(bisect *b, size_t i) {
    br_bisect_commit *c = &b->commits[i];
    if (c->built)
        return 0;
    if (br_session_build_job(b->session, &c->job, BR_BUILD_RUN) != 0)
        return -1;
    c->built = 1;
    return 0;
}

/* Remove every prepared commit but the range's ends g and e, and but those
 * built: a built commit's module stays loaded until the search ends, since
 * the CUDA runtime does not survive a module unloaded (dlclose) and another
 * loaded in its place in one process (seen on an H100: "launch of fill:
 * invalid argument", then a worker hung in setup, from the third step on). */
static void release(bisect *b, size_t g, size_t e) {
    for (size_t i = 0; i < b->r->log.n; i++)
        if (b->ready[i] && i != g && i != e && !b->commits[i].built) {
            br_bisect_commit_dispose(&b->commits[i]);
            b->ready[i] = 0;
        }
}

/* The cases searched: BAD's cases that GOOD plans too. Returns 0, or -1
 * after a message. */
static int choose_cases(bisect *b) {
    size_t n = b->r->log.n;
    const br_job *good = &b->commits[0].job, *bad = &b->commits[n - 1].job;
    b->keys = calloc(bad->plan.n_cases + 1, sizeof *b->keys);
    b->r->cases = calloc(bad->plan.n_cases + 1, sizeof *b->r->cases);
    if (!b->keys || !b->r->cases)
        return br_error_nomem(), fail(NULL);
    size_t bad_only = 0;
    for (size_t i = 0; i < bad->plan.n_cases; i++) {
        char *key = br_bisect_case_key(bad, i);
        if (!key)
            return fail(NULL);
        int found = 0;
        for (size_t j = 0; j < good->plan.n_cases && !found; j++) {
            char *other = br_bisect_case_key(good, j);
            if (!other) {
                free(key);
                return fail(NULL);
            }
            found = strcmp(key, other) == 0;
            free(other);
        }
        if (!found) {
            free(key);
            bad_only++;
            continue;
        }
        b->keys[b->n_keys] = key;
        b->r->cases[b->n_keys] = br_bisect_case_label(bad, i);
        b->r->n_cases = ++b->n_keys;
        if (!b->r->cases[b->n_keys - 1])
            return fail(NULL);
    }
    if (b->n_keys == 0) {
        br_log(BR_LOG_ERROR,
               "benchrun bisect: %s: no case selected: no case (kernel and parameter values) is "
               "planned at both GOOD and BAD (see -k and -p)\n",
               b->o->suite);
        return -1;
    }
    if (bad_only)
        br_log_note(b->o->run.quiet, "benchrun bisect",
                    "%zu case%s planned at BAD only %s not searched", bad_only,
                    bad_only == 1 ? "" : "s", bad_only == 1 ? "is" : "are");
    if (b->n_keys > 1)
        br_log_note(b->o->run.quiet, "benchrun bisect",
                    "%zu cases: the search follows the geometric mean of their times", b->n_keys);
    if (br_bisect_commit_match(&b->commits[0], b->keys, b->n_keys) != 0 ||
        br_bisect_commit_match(&b->commits[n - 1], b->keys, b->n_keys) != 0)
        return fail(NULL);
    return 0;
}

/* Every -p names a parameter of the suite at both ends (a typo is not a
 * no-op). Returns 0, or -1 after a message. */
static int check_params(const bisect *b) {
    const br_run_opts *run = &b->o->run;
    size_t ends[2] = {0, b->r->log.n - 1};
    for (size_t k = 0; k < run->n_params; k++)
        for (int e = 0; e < 2; e++) {
            const br_suite *s = &b->commits[ends[e]].job.suite;
            int found = 0;
            for (size_t q = 0; q < s->n_params && !found; q++)
                found = strcmp(s->params[q].name, run->params[k].name) == 0;
            if (!found) {
                br_log(BR_LOG_ERROR,
                       "benchrun bisect: -p %s: the suite at %s has no parameter "
                       "'%s'\n",
                       run->params[k].name, e == 0 ? "GOOD" : "BAD", run->params[k].name);
                return -1;
            }
        }
    return 0;
}

/* Prepare GOOD and BAD, choose the cases, open the session, build both.
 * Bad input says why and returns -1. */
static int prepare_ends(bisect *b) {
    const br_bisect_opts *o = b->o;
    size_t n = b->r->log.n;
    const char *revs[2] = {o->good_rev, o->bad_rev}, *which[2] = {"GOOD", "BAD"};
    size_t idx[2] = {0, n - 1};
    for (int k = 0; k < 2; k++)
        if (prepare_commit(b, idx[k], revs[k]) != 0) {
            char what[256];
            snprintf(what, sizeof what, "%s %s (%s)", which[k], revs[k],
                     b->r->log.commits[idx[k]].short_sha);
            return fail(what);
        }
    if (check_params(b) != 0 || choose_cases(b) != 0)
        return -1;
    if (o->before_measure)
        o->before_measure();
    if (br_session_open(&b->session, &o->run) != 0)
        return fail(NULL);
    for (int k = 0; k < 2; k++)
        if (build_commit(b, idx[k]) != 0) {
            char what[256];
            snprintf(what, sizeof what, "%s %s (%s)", which[k], revs[k],
                     b->r->log.commits[idx[k]].short_sha);
            const br_gittree *t = &b->commits[idx[k]].tree;
            char *msg = t->dir ? br_gittree_relabel(t, br_error_get(), revs[k]) : NULL;
            if (msg)
                br_error_set("%s", msg);
            free(msg);
            return fail(what);
        }
    return 0;
}

/* ---- the steps -------------------------------------------------------------------- */

/* A new step of the result, zeroed but for its commits. */
static br_bisect_step *add_step(bisect *b, size_t g, size_t m, size_t e) {
    br_bisect_step *s = &b->r->steps[b->r->n_steps++];
    memset(s, 0, sizeof *s);
    s->good = g;
    s->mid = m;
    s->bad = e;
    s->cls = BR_BISECT_UNTESTED;
    return s;
}

/* The blocks of builds ids[0..k) (the good end first). */
static br_bisect_blocks blocks_of(const bisect *b, const size_t *ids, size_t k, const char *title) {
    br_bisect_blocks bl = {.k = k, .n_cases = b->n_keys, .title = title};
    for (size_t i = 0; i < k; i++) {
        bl.job[i] = &b->commits[ids[i]].job;
        bl.case_of[i] = b->commits[ids[i]].case_of;
        bl.label[i] = b->r->log.commits[ids[i]].short_sha;
    }
    return bl;
}

/* Move the blocks' medians into step s: build i of k goes to med[i], the
 * last to med[2]. */
static void keep_blocks(br_bisect_step *s, br_bisect_blocks *bl) {
    s->med[0] = bl->med[0];
    s->med[2] = bl->med[bl->k - 1];
    s->med[1] = bl->k == 3 ? bl->med[1] : NULL;
    bl->med[0] = bl->med[1] = bl->med[2] = NULL;
    s->blocks = bl->n_rounds;
}

/* An end's block failed in step s: the search cannot go on. Returns -1. */
static int end_failed(bisect *b, const br_bisect_blocks *bl, const size_t *ids) {
    const br_gitlog_commit *c = &b->r->log.commits[ids[bl->failed - 1]];
    br_log(BR_LOG_ERROR, "benchrun bisect: the case fails at %s (%s \"%s\"): %s\n",
           ids[bl->failed - 1] == 0                 ? "GOOD"
           : ids[bl->failed - 1] == b->r->log.n - 1 ? "BAD"
                                                    : "an end",
           c->short_sha, c->subject, bl->why ? bl->why : "failed");
    b->out->failed = 1;
    return -1;
}

/* Step 0: BAD against GOOD, at the threshold, more blocks while unknown.
 * Sets r->change. Returns 0, 1 interrupted, -1 after a message. */
static int step_zero(bisect *b) {
    br_bisect_result *r = b->r;
    size_t ids[2] = {0, r->log.n - 1};
    br_bisect_step *s = add_step(b, 0, SIZE_MAX, r->log.n - 1);
    br_log_note(b->o->run.quiet, "benchrun bisect",
                "step 0: BAD %s against GOOD %s (%zu commit%s after GOOD)",
                r->log.commits[ids[1]].short_sha, r->log.commits[0].short_sha, r->log.n - 1,
                r->log.n == 2 ? "" : "s");
    double t0 = br_now_ns();
    br_bisect_blocks bl = blocks_of(b, ids, 2, "step 0");
    br_ab_stats st = {.status = BR_CHANGE_UNKNOWN};
    int rc = 0;
    while (rc == 0) {
        if ((rc = br_bisect_blocks_add(&bl, b->session, &b->ledger, b->o->blocks)) < 0)
            fail(NULL);
        if (rc != 0 || bl.failed)
            break;
        if (br_ab_stats_compute(&st, bl.med[0], bl.med[1], bl.n_rounds, r->threshold,
                                r->look_alpha) != 0) {
            rc = fail(NULL);
            break;
        }
        if (st.status != BR_CHANGE_UNKNOWN || bl.n_rounds >= r->max_blocks)
            break;
    }
    if (rc == 0 && bl.failed)
        rc = end_failed(b, &bl, ids);
    if (rc == 0 && br_ab_stats_compute(&s->v.span, bl.med[0], bl.med[1], bl.n_rounds, r->threshold,
                                       r->alpha) != 0)
        rc = fail(NULL);
    if (rc == 1 && bl.n_rounds > 0 && /* interrupted: the rounds finished, marked partial */
        br_ab_stats_compute(&s->v.span, bl.med[0], bl.med[1], bl.n_rounds, r->threshold,
                            r->alpha) == 0)
        s->partial = 1;
    r->change = rc == 0 ? st.status : BR_CHANGE_UNKNOWN;
    keep_blocks(s, &bl);
    br_bisect_blocks_dispose(&bl);
    s->left = r->log.n - 1;
    s->wall_ns = br_now_ns() - t0;
    return rc;
}

/* Skip midpoint m of step s for the last error. Returns 0 or -1. */
static int skip(bisect *b, br_bisect_step *s, size_t m, const char *why) {
    const br_gittree *t = &b->commits[m].tree;
    char *text =
        t->dir ? br_gittree_relabel(t, why, b->r->log.commits[m].short_sha) : br_strdup(why);
    if (!text)
        return fail(NULL);
    char *nl = strchr(text, '\n');
    if (nl)
        *nl = '\0';
    free(s->why);
    s->why = text;
    s->cls = BR_BISECT_SKIPPED;
    b->r->state[m] = BR_BISECT_SKIPPED;
    br_log_note(b->o->run.quiet, "benchrun bisect", "  skipped: %s", text);
    return 0;
}

/* Check out, prepare and build midpoint m. Returns 0, 1 when it is
 * skipped (said), -1 after a message. */
static int ready_mid(bisect *b, br_bisect_step *s, size_t m) {
    const char *label = b->r->log.commits[m].short_sha;
    if (prepare_commit(b, m, label) != 0 ||
        br_bisect_commit_match(&b->commits[m], b->keys, b->n_keys) != 0 ||
        build_commit(b, m) != 0) {
        if (br_error_kind_get() == BR_E_NOMEM)
            return fail(NULL);
        return skip(b, s, m, br_error_get()) == 0 ? 1 : -1;
    }
    return 0;
}

/* The blocks of step s: rounds until its midpoint is classed or the bound.
 * Returns 0, 1 interrupted, -1 after a message. */
static int measure_mid(bisect *b, br_bisect_step *s, char *title) {
    br_bisect_result *r = b->r;
    size_t ids[3] = {s->good, s->mid, s->bad};
    br_bisect_blocks bl = blocks_of(b, ids, 3, title);
    int slower = r->change == BR_CHANGE_SLOWER, rc = 0;
    while (rc == 0) {
        if ((rc = br_bisect_blocks_add(&bl, b->session, &b->ledger, b->o->blocks)) < 0)
            fail(NULL);
        if (rc != 0 || bl.failed)
            break;
        if (br_bisect_classify(&s->v, bl.med[0], bl.med[1], bl.med[2], bl.n_rounds, slower,
                               r->look_alpha, r->alpha) != 0) {
            rc = fail(NULL);
            break;
        }
        if (s->v.cls != BR_BISECT_UNDECIDED || bl.n_rounds >= r->max_blocks)
            break;
    }
    if (rc == 0 && bl.failed == 2) {
        rc = skip(b, s, s->mid, bl.why ? bl.why : "failed");
    } else if (rc == 0 && bl.failed) {
        rc = end_failed(b, &bl, ids);
    } else if (rc == 0) {
        s->cls = s->v.cls;
        r->state[s->mid] = s->cls;
    } else if (rc == 1 && bl.n_rounds > 0) {
        /* Interrupted: the ratios of the rounds finished, marked partial; the
         * commit stays unclassed. */
        s->partial = br_bisect_classify(&s->v, bl.med[0], bl.med[1], bl.med[2], bl.n_rounds, slower,
                                        r->look_alpha, r->alpha) == 0;
    }
    keep_blocks(s, &bl);
    br_bisect_blocks_dispose(&bl);
    return rc;
}

/* ceil(log2(n)) for n >= 1. */
static size_t log2_up(size_t n) {
    size_t k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

/* The untested commit of (g, e) nearest the middle (the lower of two), or
 * SIZE_MAX when none is left. */
static size_t pick(const br_bisect_result *r, size_t g, size_t e) {
    size_t best = SIZE_MAX, best_d = SIZE_MAX;
    for (size_t i = g + 1; i < e; i++) {
        size_t d = 2 * i > g + e ? 2 * i - (g + e) : (g + e) - 2 * i;
        if (r->state[i] == BR_BISECT_UNTESTED && d < best_d) {
            best = i;
            best_d = d;
        }
    }
    return best;
}

/* Say how step s ended. */
static void say_step(const bisect *b, const br_bisect_step *s) {
    if (s->cls != BR_BISECT_GOOD && s->cls != BR_BISECT_BAD && s->cls != BR_BISECT_UNDECIDED)
        return;
    br_log_note(b->o->run.quiet, "benchrun bisect",
                "  %s: %.3fx the good end [%.3f, %.3f], %.3fx the bad end; %zu blocks",
                br_bisect_class_name(s->cls), s->v.to_good.ratio, s->v.to_good.low,
                s->v.to_good.high, s->v.to_bad.ratio, s->blocks);
}

/* The binary search over (0, n - 1). Returns 0, 1 interrupted, -1 after a
 * message. */
static int search(bisect *b) {
    br_bisect_result *r = b->r;
    size_t g = 0, e = r->log.n - 1;
    int rc = 0;
    while (rc == 0 && e - g > 1) {
        size_t m = pick(r, g, e);
        if (m == SIZE_MAX)
            break;
        size_t k = r->n_steps;
        char title[64];
        snprintf(title, sizeof title, "step %zu", k);
        br_log_note(b->o->run.quiet, "benchrun bisect",
                    "step %zu of about %zu: %s \"%s\", %zu commit%s left", k,
                    k - 1 + log2_up(e - g), r->log.commits[m].short_sha, r->log.commits[m].subject,
                    e - g, e - g == 1 ? "" : "s");
        double t0 = br_now_ns();
        br_bisect_step *s = add_step(b, g, m, e);
        rc = ready_mid(b, s, m);
        if (rc == 0)
            rc = measure_mid(b, s, title);
        else if (rc == 1)
            rc = 0; /* skipped */
        if (r->state[m] == BR_BISECT_GOOD)
            g = m;
        else if (r->state[m] == BR_BISECT_BAD)
            e = m;
        s->left = e - g;
        s->wall_ns = br_now_ns() - t0;
        say_step(b, s);
        release(b, g, e);
    }
    r->last_good = g;
    r->first_bad = e;
    return rc;
}

/* Which build of step s commit i was: 0 good end, 1 mid, 2 bad end, -1 none. */
static int side_of(const br_bisect_step *s, size_t i) {
    return s->good == i ? 0 : s->mid == i ? 1 : s->bad == i ? 2 : -1;
}

/* r->answer: first_bad against last_good from the last step that measured
 * both. */
static void find_answer(br_bisect_result *r) {
    r->answer_step = SIZE_MAX;
    for (size_t k = r->n_steps; k-- > 0;) {
        const br_bisect_step *s = &r->steps[k];
        int a = side_of(s, r->last_good), z = side_of(s, r->first_bad);
        if (s->blocks == 0 || a < 0 || z < 0 || !s->med[a] || !s->med[z])
            continue;
        if (br_ab_stats_compute(&r->answer, s->med[a], s->med[z], s->blocks, r->threshold,
                                r->alpha) == 0)
            r->answer_step = k;
        return;
    }
}

/* ---- the outputs and the whole ---------------------------------------------------- */

typedef int (*writer_fn)(FILE *f, const br_bisect_result *r);

typedef struct write_ctx {
    writer_fn fn;
    const br_bisect_result *r;
} write_ctx;

static int write_with(FILE *f, void *ctx) {
    const write_ctx *w = ctx;
    return w->fn(f, w->r);
}

/* Write r with fn to path (NULL: not asked), atomically. Returns 0, or 1
 * after a message. */
static int emit(const char *path, writer_fn fn, const br_bisect_result *r) {
    if (!path)
        return 0;
    write_ctx w = {fn, r};
    if (br_write_atomic(path, write_with, &w) == 0)
        return 0;
    br_log(BR_LOG_ERROR, "benchrun bisect: cannot write %s: %s\n", path, br_error_get());
    return 1;
}

/* The answer and steps on stdout (unless an output takes it), then the files. */
static void write_outputs(bisect *b) {
    const br_bisect_opts *o = b->o;
    int taken = br_path_is_stdout(o->json) || br_path_is_stdout(o->markdown);
    int failed = 0;
    if (!taken && br_bisect_print(stdout, b->r, o->ascii) != 0) {
        br_log(BR_LOG_ERROR, "benchrun bisect: cannot write standard output: %s\n", br_error_get());
        failed = 1;
    }
    fflush(stdout);
    failed += emit(o->json, br_bisect_write_json, b->r);
    failed += emit(o->markdown, br_bisect_write_markdown, b->r);
    b->out->write_failed = failed != 0;
}

/* The log sink while bisect runs: the checkouts' paths written as SHA:. */
static void relabel_log(void *ctx, br_log_level level, const char *msg);

typedef struct relabel_sink {
    br_log_fn fn;
    void *ctx;
    const bisect *b;
} relabel_sink;

static void relabel_log(void *ctx, br_log_level level, const char *msg) {
    const relabel_sink *s = ctx;
    const bisect *b = s->b;
    char *text = br_strdup(msg);
    for (size_t i = 0; text && b->ready && i < b->r->log.n; i++) {
        const br_gittree *t = &b->commits[i].tree;
        if (!b->ready[i] || !t->dir || !strstr(text, t->dir))
            continue;
        char *next = br_gittree_relabel(t, text, b->r->log.commits[i].short_sha);
        free(text);
        text = next;
    }
    s->fn(s->ctx, level, text ? text : msg);
    free(text);
}

/* The line, the scratch root and the commits' slots. Returns 0, or -1
 * after a message. */
static int begin(bisect *b) {
    const br_bisect_opts *o = b->o;
    br_bisect_result *r = b->r;
    if (br_gitlog_first_parents(&r->log, o->suite, o->good_rev, o->bad_rev) != 0)
        return fail(NULL);
    char *cache = o->run.cache_dir ? br_strdup(o->run.cache_dir) : br_build_default_cache_dir();
    b->scratch_root = cache ? br_strfmt("%s/bisect", cache) : NULL;
    free(cache);
    size_t n = r->log.n;
    b->commits = calloc(n, sizeof *b->commits);
    b->ready = calloc(n, 1);
    r->state = calloc(n, sizeof *r->state);
    r->steps = calloc(n + 1, sizeof *r->steps);
    if (!b->scratch_root || !b->commits || !b->ready || !r->state || !r->steps)
        return br_error_nomem(), fail(NULL);
    for (size_t i = 0; i < n; i++)
        br_bisect_commit_init(&b->commits[i]);
    r->state[0] = BR_BISECT_GOOD;
    r->state[n - 1] = BR_BISECT_BAD;
    return 0;
}

/* Search, once the ends are ready. Returns 0, or -1 (said). */
static int run_search(bisect *b) {
    br_bisect_result *r = b->r;
    r->last_good = 0;
    r->first_bad = r->log.n - 1;
    int rc = step_zero(b);
    if (rc == 0 && (r->change == BR_CHANGE_SLOWER || r->change == BR_CHANGE_FASTER)) {
        const br_ab_stats *st = &r->steps[0].v.span;
        br_log_note(b->o->run.quiet, "benchrun bisect",
                    "BAD/GOOD = %.3fx [%.3f, %.3f]: %s; searching %zu commit%s in about %zu steps",
                    st->ratio, st->low, st->high, br_change_name(r->change), r->log.n - 1,
                    r->log.n == 2 ? "" : "s", log2_up(r->log.n - 1));
        rc = search(b);
    }
    if (rc == 1 || br_stop_signal()) {
        r->stopped = br_stop_signal();
        rc = 0;
    }
    return rc;
}

int br_bisect_run(br_bisect_outcome *out, const br_bisect_opts *o) {
    memset(out, 0, sizeof *out);
    br_bisect_result r = {0};
    bisect b = {.o = o, .r = &r, .out = out};
    r.suite = o->suite;
    r.good_rev = o->good_rev;
    r.bad_rev = o->bad_rev;
    r.threshold = isnan(o->threshold) ? BR_AB_DEFAULT_THRESHOLD : o->threshold;
    r.alpha = isnan(o->alpha) ? BR_AB_DEFAULT_ALPHA : o->alpha;
    r.blocks = o->blocks;
    r.max_blocks = o->max_blocks;
    r.look_alpha = br_bisect_look_alpha(r.alpha, o->blocks, o->max_blocks);
    double t0 = br_now_ns();
    relabel_sink sink = {.b = &b};
    br_log_get_sink(&sink.fn, &sink.ctx);
    br_log_set_sink(relabel_log, &sink);
    int rc = -1;
    if (isnan(r.look_alpha)) {
        br_error_set("--blocks %zu and --max-blocks %zu: expected 1 <= blocks <= max-blocks",
                     o->blocks, o->max_blocks);
        fail(NULL);
    } else if (begin(&b) == 0 && prepare_ends(&b) == 0) {
        rc = run_search(&b);
    }
    if (rc == 0) {
        if (r.change == BR_CHANGE_SLOWER || r.change == BR_CHANGE_FASTER)
            find_answer(&r);
        r.wall_ns = br_now_ns() - t0;
        out->stopped = r.stopped;
        write_outputs(&b);
    } else if (!out->failed) {
        out->error = 1;
    }
    br_session_close(b.session);
    for (size_t i = 0; b.commits && i < r.log.n; i++)
        br_bisect_commit_dispose(&b.commits[i]);
    free(b.commits);
    free(b.ready);
    for (size_t i = 0; i < b.n_keys; i++)
        free(b.keys[i]);
    free(b.keys);
    free(b.scratch_root);
    br_log_set_sink(sink.fn, sink.ctx);
    br_bisect_result_dispose(&r);
    return rc == 0 ? 0 : -1;
}
