/* SPDX-License-Identifier: Apache-2.0 */
/* The history model: the runs of a directory of results
 * documents read back, ordered and filtered, and one suite's view of them
 * (cases x runs, each cell judged against an earlier run). The table and
 * the plot that show a view are reporters (reporters/history_table.c,
 * reporters/history_plot.c); the choices are described in history.h. */
#include "history.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gate/baseline.h"
#include "gate/compare.h"
#include "base/error.h"
#include "results/gitgraph.h"
#include "results/run_read.h"
#include "base/util.h"
#include "model/metric.h"

/* ---- loading -------------------------------------------------------------------------- */

/* 1 when run r records a commit (git info with a SHA). */
int br_history_has_commit(const br_run *r) {
    return r->git.present && !r->git.unborn && r->git.sha[0];
}

/* Commit order (history.h): suite name, runs with a commit first by
 * committer time, then the run's date, then the file and the position in
 * it. */
static int cmp_runs(const void *pa, const void *pb) {
    const br_history_run *a = pa, *b = pb;
    int c = strcmp(a->run.suite_name ? a->run.suite_name : "",
                   b->run.suite_name ? b->run.suite_name : "");
    if (c)
        return c;
    int ga = br_history_has_commit(&a->run), gb = br_history_has_commit(&b->run);
    if (ga != gb)
        return ga ? -1 : 1;
    if (ga && a->run.git.commit_time != b->run.git.commit_time)
        return a->run.git.commit_time < b->run.git.commit_time ? -1 : 1;
    if ((c = strcmp(a->run.date, b->run.date)) != 0)
        return c;
    if ((c = strcmp(a->path, b->path)) != 0)
        return c;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int is_json_name(const struct dirent *d) {
    return d->d_name[0] != '.' && br_has_suffix(d->d_name, ".json");
}

/* 1 when case c of run r passes the kernel and parameter filters of f. */
static int case_selected(const br_run *r, const br_case_result *c, const br_history_filter *f) {
    const char *kernel = c->kernel < r->n_kernels ? r->kernels[c->kernel].name : NULL;
    if (!br_glob_any(kernel, f->kernels, f->n_kernels))
        return 0;
    for (size_t i = 0; i < f->n_params; i++) {
        const br_param_override *o = &f->params[i];
        size_t p = 0;
        while (p < r->n_params && strcmp(r->param_names[p], o->name) != 0)
            p++;
        if (p == r->n_params)
            return 0;
        int any = 0;
        for (size_t v = 0; v < o->n_values && !any; v++)
            any = c->params[p] == o->values[v];
        if (!any)
            return 0;
    }
    return 1;
}

/* Drop the cases of r that f does not select. */
static void filter_cases(br_run *r, const br_history_filter *f) {
    size_t kept = 0;
    for (size_t i = 0; i < r->n_cases; i++) {
        if (case_selected(r, &r->cases[i], f))
            r->cases[kept++] = r->cases[i];
        else
            br_case_dispose(&r->cases[i]);
    }
    r->n_cases = kept;
}

/* Append the suite names of h's runs ("a, b") to buf (truncated). */
void br_history_suite_list(char *buf, size_t len, const br_history *h) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < h->n_runs && used + 1 < len; i++) {
        const char *name = h->runs[i].run.suite_name ? h->runs[i].run.suite_name : "?";
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = h->runs[j].run.suite_name && strcmp(h->runs[j].run.suite_name, name) == 0;
        if (!seen)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
    }
}

/* 1 when a run of h has a parameter called `name`. */
static int has_param(const br_history *h, const char *name) {
    for (size_t i = 0; i < h->n_runs; i++) {
        const br_run *r = &h->runs[i].run;
        for (size_t k = 0; k < r->n_params; k++) {
            if (strcmp(r->param_names[k], name) == 0)
                return 1;
        }
    }
    return 0;
}

/* The distinct parameter names of h's runs ("n, block") into buf (truncated). */
static void param_list(char *buf, size_t len, const br_history *h) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < h->n_runs; i++) {
        const br_run *r = &h->runs[i].run;
        for (size_t k = 0; k < r->n_params && used + 1 < len; k++) {
            const char *name = r->param_names[k];
            int seen = 0;
            for (size_t j = 0; j <= i && !seen; j++) {
                const br_run *o = &h->runs[j].run;
                for (size_t q = 0; q < o->n_params && !seen && (j < i || q < k); q++)
                    seen = strcmp(o->param_names[q], name) == 0;
            }
            if (!seen)
                used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
        }
    }
}

/* Remove run i of h (disposed). */
static void drop_run(br_history *h, size_t i) {
    br_run_dispose(&h->runs[i].run);
    free(h->runs[i].path);
    memmove(&h->runs[i], &h->runs[i + 1], (h->n_runs - i - 1) * sizeof *h->runs);
    h->n_runs--;
}

/* Note a skipped file: its message (printf-style) appended to h->skipped. */
static int note_skipped(br_history *h, const char *msg) {
    char **g = realloc(h->skipped, (h->n_skipped + 1) * sizeof *g);
    if (!g)
        return br_error_nomem();
    h->skipped = g;
    if (!(h->skipped[h->n_skipped] = br_strdup(msg)))
        return -1;
    h->n_skipped++;
    return 0;
}

/* Grow h->runs to hold `more` runs more. */
static int reserve_runs(br_history *h, size_t *cap, size_t more) {
    if (h->n_runs + more <= *cap)
        return 0;
    size_t want = *cap ? *cap * 2 : 16;
    while (want < h->n_runs + more)
        want *= 2;
    br_history_run *v = realloc(h->runs, want * sizeof *v);
    if (!v)
        return br_error_nomem();
    h->runs = v;
    *cap = want;
    return 0;
}

/* Read the results file `path` and append its runs to h (lenient: a file
 * that is not a results document is noted in h->skipped). */
static int add_file(br_history *h, size_t *cap, const char *path, int lenient) {
    br_run *runs = NULL;
    size_t n = 0;
    if (br_results_load(&runs, &n, path) != 0)
        return lenient ? note_skipped(h, br_error_get()) : -1;
    int rc = -1;
    if (reserve_runs(h, cap, n) != 0)
        goto done;
    for (size_t i = 0; i < n; i++) {
        char *p = br_strdup(path);
        if (!p)
            goto done;
        br_history_run *hr = &h->runs[h->n_runs++];
        memset(hr, 0, sizeof *hr);
        hr->run = runs[i];
        memset(&runs[i], 0, sizeof runs[i]);
        hr->path = p;
        hr->index = i;
    }
    h->n_files++;
    rc = 0;
done:
    br_results_free(runs, n);
    return rc;
}

/* Number the reruns at each commit of each suite (h sorted). */
static void number_reruns(br_history *h) {
    for (size_t i = 0; i < h->n_runs; i++) {
        const br_run *r = &h->runs[i].run;
        size_t k = 1;
        for (size_t j = i; j-- > 0;) {
            const br_run *o = &h->runs[j].run;
            if (strcmp(o->suite_name ? o->suite_name : "", r->suite_name ? r->suite_name : ""))
                break;
            int same = br_history_has_commit(r)
                           ? br_history_has_commit(o) && strcmp(o->git.sha, r->git.sha) == 0
                           : !br_history_has_commit(o);
            k += same;
        }
        h->runs[i].rerun = k;
    }
}

/* Read every results file directly in dir into *out (unsorted). Returns 0,
 * or -1 with the error set. */
static int load_dir(br_history *out, const char *dir, int lenient) {
    struct dirent **names = NULL;
    int n_names = -1, rc = -1;
    size_t cap = 0;
    char *path = NULL;

    n_names = scandir(dir, &names, is_json_name, alphasort);
    if (n_names < 0)
        return br_error_set("%s: cannot open directory: %s", dir, strerror(errno));
    for (int i = 0; i < n_names; i++) {
        if (!(path = br_path_join(dir, names[i]->d_name)))
            goto done;
        struct stat st;
        if (stat(path, &st) != 0) {
            br_error_set("%s: cannot read: %s", path, strerror(errno));
            goto done;
        }
        if (S_ISREG(st.st_mode) && add_file(out, &cap, path, lenient) != 0)
            goto done;
        free(path);
        path = NULL;
    }
    if (out->n_files == 0) {
        br_error_set("%s: holds no results files (*.json)", dir);
        br_error_set_kind(BR_E_NOTFOUND);
        goto done;
    }
    rc = 0;
done:
    free(path);
    for (int i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    return rc;
}

/* Sync the index and read its runs into *runs, *n. The index is never
 * fatal: when it fails on its own account (damage, or trouble such as busy
 * past the wait) it is rebuilt, or moved to memory, with a note, and read
 * again (index.h, br_index_recover). Returns 0, or -1 with the error set
 * (a results file that cannot be read, out of memory). */
static int read_index(br_history *out, br_index_run **runs, size_t *n) {
    for (int attempt = 0;; attempt++) {
        if (br_index_sync(out->index, &out->index_stats) == 0 &&
            br_index_runs(runs, n, out->index, NULL) == 0)
            return 0;
        if (attempt == 2 || br_index_recover(out->index) != 0)
            return -1;
    }
}

/* Read the runs of dir through its index into *out (unsorted). Returns 0,
 * or -1 with the error set. */
static int load_index(br_history *out, const char *dir, int lenient) {
    br_index_run *runs = NULL;
    size_t n = 0, cap = 0;
    if (br_index_open(&out->index, dir) != 0 || read_index(out, &runs, &n) != 0)
        return -1;
    size_t n_bad = 0;
    const char *const *bad = br_index_bad(out->index, &n_bad);
    if (n_bad > 0 && !lenient) {
        br_index_runs_free(runs, n);
        return br_error_set("%s", bad[0]);
    }
    for (size_t i = 0; i < n_bad; i++)
        if (note_skipped(out, bad[i]) != 0) {
            br_index_runs_free(runs, n);
            return -1;
        }
    int rc = reserve_runs(out, &cap, n);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        br_history_run *hr = &out->runs[out->n_runs++];
        memset(hr, 0, sizeof *hr);
        hr->run = runs[i].run;
        hr->path = runs[i].path;
        hr->index = runs[i].index;
        memset(&runs[i], 0, sizeof runs[i]);
    }
    br_index_runs_free(runs, n);
    if (rc != 0)
        return -1;
    out->n_files = out->index_stats.files - out->index_stats.bad;
    if (out->n_files == 0)
        return br_error_set("%s: holds no results files (*.json)", dir);
    return 0;
}

/* Drop the runs of *out (sorted) that f's suite, kernels and parameters do
 * not select. Returns 0, or -1 with the error set. */
static int filter_runs(br_history *out, const char *dir, const br_history_filter *f) {
    if (f->suite) {
        char suites[512];
        br_history_suite_list(suites, sizeof suites, out);
        for (size_t i = out->n_runs; i-- > 0;) {
            const char *name = out->runs[i].run.suite_name;
            if (name && strcmp(name, f->suite) == 0)
                continue;
            if (f->lenient && (i == 0 || strcmp(out->runs[i - 1].path, out->runs[i].path) != 0)) {
                char msg[BR_ERROR_MAX];
                snprintf(msg, sizeof msg, "%s: runs of suite '%s', not '%s'", out->runs[i].path,
                         name ? name : "?", f->suite);
                if (note_skipped(out, msg) != 0)
                    return -1;
            }
            drop_run(out, i);
        }
        if (out->n_runs == 0) {
            br_error_set("%s: holds no run of suite '%s' (suites: %s)", dir, f->suite,
                         suites[0] ? suites : "none");
            return br_error_set_kind(BR_E_NOTFOUND);
        }
    }
    for (size_t p = 0; p < f->n_params; p++) {
        if (!has_param(out, f->params[p].name)) {
            char known[512];
            param_list(known, sizeof known, out);
            return br_error_set(
                "-p %s=...: no run of the history has a parameter '%s' (parameters: %s)",
                f->params[p].name, f->params[p].name, known[0] ? known : "none");
        }
    }
    if (f->n_kernels > 0 || f->n_params > 0) {
        for (size_t i = out->n_runs; i-- > 0;) {
            filter_cases(&out->runs[i].run, f);
            if (out->runs[i].run.n_cases == 0)
                drop_run(out, i);
        }
        if (out->n_runs == 0)
            return br_error_set("%s: no case matches the filters (-k, -p)", dir);
    }
    return 0;
}

/* Keep the newest `last` runs of each suite of h (sorted): drop from the
 * front of each group. */
static void keep_last(br_history *h, size_t last) {
    for (size_t i = h->n_runs; i-- > 0;) {
        size_t newer = 0;
        for (size_t j = i + 1; j < h->n_runs; j++) {
            const char *a = h->runs[i].run.suite_name, *b = h->runs[j].run.suite_name;
            if (strcmp(a ? a : "", b ? b : "") != 0)
                break;
            newer++;
        }
        if (newer >= last)
            drop_run(h, i);
    }
}

/* 1 when runs a and b are of one suite, both with commits of one
 * committer time but different SHAs: their order is the commit graph's. */
static int time_tie(const br_history_run *a, const br_history_run *b) {
    return strcmp(a->run.suite_name ? a->run.suite_name : "",
                  b->run.suite_name ? b->run.suite_name : "") == 0 &&
           br_history_has_commit(&a->run) && br_history_has_commit(&b->run) &&
           a->run.git.commit_time == b->run.git.commit_time;
}

/* The commit graphs asked: the current directory's repository and the one
 * holding the history's directory (either may be NULL). */
typedef struct graphs {
    br_gitgraph *g[2];
    int opened;
} graphs;

/* Whether commit anc is a proper ancestor of desc in the first repository
 * that knows both: 1, 0, or -1 when none does. */
static int ancestor(graphs *gs, const char *anc, const char *desc) {
    for (int k = 0; k < 2; k++) {
        int rc = gs->g[k] ? br_gitgraph_is_ancestor(gs->g[k], anc, desc) : -1;
        if (rc >= 0)
            return rc;
    }
    return -1;
}

/* Order runs[0..n) (one committer time) topologically: each in turn the
 * first, in the order they have, whose commit has no ancestor among those
 * left (a commit in no repository has none). Stable otherwise. */
static void topo_order(br_history_run *runs, size_t n, graphs *gs) {
    for (size_t at = 0; at + 1 < n; at++) {
        size_t pick = at;
        for (size_t i = at; i < n; i++) {
            int has_ancestor = 0;
            for (size_t j = at; j < n && !has_ancestor; j++)
                has_ancestor =
                    j != i && ancestor(gs, runs[j].run.git.sha, runs[i].run.git.sha) == 1;
            if (!has_ancestor) {
                pick = i;
                break;
            }
        }
        br_history_run t = runs[pick];
        memmove(&runs[at + 1], &runs[at], (pick - at) * sizeof *runs);
        runs[at] = t;
    }
}

/* Runs whose commits have one committer time (a rebase, a scripted series)
 * in the commit graph's order, from the repository of the current
 * directory, else of the history's directory; kept as they are outside
 * git. */
static void order_time_ties(br_history *h) {
    graphs gs = {{NULL, NULL}, 0};
    for (size_t i = 0; i < h->n_runs;) {
        size_t e = i + 1, shas = 1;
        for (; e < h->n_runs && time_tie(&h->runs[i], &h->runs[e]); e++)
            shas += strcmp(h->runs[e].run.git.sha, h->runs[e - 1].run.git.sha) != 0;
        if (shas > 1 && !gs.opened) {
            gs.opened = 1;
            br_gitgraph_open(&gs.g[0], ".");
            br_gitgraph_open(&gs.g[1], h->dir);
        }
        if (shas > 1)
            topo_order(&h->runs[i], e - i, &gs);
        i = e;
    }
    br_gitgraph_close(gs.g[0]);
    br_gitgraph_close(gs.g[1]);
}

int br_history_load(br_history *out, const char *dir, const br_history_filter *f) {
    memset(out, 0, sizeof *out);
    static const br_history_filter all = {0};
    if (!f)
        f = &all;
    if (!(out->dir = br_strdup(dir)))
        return -1;
    if (f->use_index ? load_index(out, dir, f->lenient) != 0 : load_dir(out, dir, f->lenient) != 0)
        return -1;
    if (out->n_runs > 1) {
        qsort(out->runs, out->n_runs, sizeof *out->runs, cmp_runs);
        order_time_ties(out);
    }
    if (filter_runs(out, dir, f) != 0)
        return -1;
    if (f->last > 0)
        keep_last(out, f->last);
    number_reruns(out);
    return 0;
}

void br_history_dispose(br_history *h) {
    if (!h)
        return;
    for (size_t i = 0; h->runs && i < h->n_runs; i++) {
        br_run_dispose(&h->runs[i].run);
        free(h->runs[i].path);
    }
    free(h->runs);
    free(h->dir);
    br_index_close(h->index);
    for (size_t i = 0; i < h->n_skipped; i++)
        free(h->skipped[i]);
    free(h->skipped);
    memset(h, 0, sizeof *h);
}

void br_history_label(char *buf, size_t len, const br_history *h, size_t i, int ascii) {
    if (len == 0)
        return;
    const br_history_run *hr = &h->runs[i];
    const br_run *r = &hr->run;
    const char *base = br_history_has_commit(r) ? r->git.short_sha
                       : r->git.present         ? "no commit"
                                                : "no git";
    const char *dirty = br_history_has_commit(r) && r->git.dirty ? "*" : "";
    if (hr->rerun > 1)
        snprintf(buf, len, "%s%s%s%zu", base, dirty, ascii ? "." : "·", hr->rerun);
    else
        snprintf(buf, len, "%s%s", base, dirty);
}

const br_run *br_history_view_run(const br_history_view *v, size_t j) {
    return &v->h->runs[v->first + j].run;
}

br_history_cell *br_history_view_cell(const br_history_view *v, size_t row, size_t j) {
    return &v->cells[row * v->n + j];
}

void br_history_view_dispose(br_history_view *v) {
    free(v->pnames);
    free(v->rows);
    free(v->cells);
    free(v->devices);
    free(v->dev);
    for (size_t i = 0; i < v->n_cmps; i++) {
        br_comparison_dispose(&v->cmps[i].cmp);
        free(v->cmps[i].entry_of);
    }
    free(v->cmps);
    free(v->changes);
    memset(v, 0, sizeof *v);
}

/* The value a cell shows for case c of run r under metric m: its value in
 * m's unit (metric.h) or, for none, the headline median in µs; NAN when the
 * case has none. */
double br_history_case_value(const br_run *r, const br_case_result *c, br_metric m) {
    if (c->status != BR_STATUS_OK)
        return NAN;
    if (br_metric_amount_of(m) != BR_AMOUNT_NONE)
        return br_case_metric_value(c, m);
    const br_timing *t = br_case_headline(r, c);
    return t && t->present && t->n_samples > 0 ? t->stats.median / 1e3 : NAN;
}

typedef struct triple {
    char *key;
    size_t run, ci, pos;
} triple;

static int cmp_triple(const void *pa, const void *pb) {
    const triple *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static int cmp_rank(const void *pa, const void *pb) {
    const br_history_row *a = pa, *b = pb;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The comparison of view runs i (base) and j, computed once. */
static const br_history_cmp *view_compare(br_history_view *v, size_t i, size_t j) {
    for (size_t k = v->n_cmps; k-- > 0;) {
        if (v->cmps[k].i == i && v->cmps[k].j == j)
            return &v->cmps[k];
    }
    br_history_cmp *grown = realloc(v->cmps, (v->n_cmps + 1) * sizeof *grown);
    if (!grown) {
        br_error_nomem();
        return NULL;
    }
    v->cmps = grown;
    br_history_cmp *c = &v->cmps[v->n_cmps];
    memset(c, 0, sizeof *c);
    c->i = i;
    c->j = j;
    const br_run *base = br_history_view_run(v, i), *cur = br_history_view_run(v, j);
    br_regression_cfg rules = cur->regression;
    if (br_baseline_compare(&c->cmp, base, v->h->runs[v->first + i].path, cur, &rules, 0) != 0) {
        char why[BR_ERROR_MAX];
        snprintf(why, sizeof why, "%s", br_error_get());
        br_comparison_dispose(&c->cmp);
        br_error_set("%s: comparing with %s: %s", v->h->runs[v->first + j].path,
                     v->h->runs[v->first + i].path, why);
        return NULL;
    }
    c->entry_of = malloc((cur->n_cases + 1) * sizeof *c->entry_of);
    if (!c->entry_of) {
        br_comparison_dispose(&c->cmp);
        br_error_nomem();
        return NULL;
    }
    for (size_t k = 0; k < cur->n_cases; k++)
        c->entry_of[k] = BR_HISTORY_NONE;
    for (size_t k = 0; k < c->cmp.n_entries; k++) {
        size_t ci = c->cmp.entries[k].case_index;
        if (ci < cur->n_cases && c->entry_of[ci] == BR_HISTORY_NONE)
            c->entry_of[ci] = k;
    }
    v->n_cmps++;
    return c;
}

/* Compare each measured cell with the latest earlier run of the same
 * device that measured its case. */
static int view_judge(br_history_view *v) {
    for (size_t j = 1; j < v->n; j++) {
        const br_run *cur = br_history_view_run(v, j);
        for (size_t row = 0; row < v->n_rows; row++) {
            br_history_cell *c = br_history_view_cell(v, row, j);
            if (c->ci == BR_HISTORY_NONE || cur->cases[c->ci].status != BR_STATUS_OK)
                continue;
            size_t i = j;
            while (i-- > 0) {
                const br_history_cell *b = br_history_view_cell(v, row, i);
                if (v->dev[i] == v->dev[j] && b->ci != BR_HISTORY_NONE &&
                    br_history_view_run(v, i)->cases[b->ci].status == BR_STATUS_OK)
                    break;
            }
            if (i == BR_HISTORY_NONE)
                continue;
            const br_history_cmp *cmp = view_compare(v, i, j);
            if (!cmp)
                return -1;
            size_t e = cmp->entry_of[c->ci];
            if (e == BR_HISTORY_NONE)
                continue;
            c->compared = 1;
            c->change = cmp->cmp.entries[e].status;
            const br_run *base = br_history_view_run(v, i);
            double now = br_history_case_value(cur, &cur->cases[c->ci], v->metric);
            double was = br_history_case_value(
                base, &base->cases[br_history_view_cell(v, row, i)->ci], v->metric);
            c->pct = was > 0 && isfinite(now) ? now / was - 1.0 : NAN;
        }
    }
    return 0;
}

/* The distinct devices of v's runs (v->devices, v->dev) and the union of
 * their parameter names, newest run first (v->pnames). */
static void view_names(br_history_view *v) {
    for (size_t j = 0; j < v->n; j++) {
        const char *d = br_baseline_device(br_history_view_run(v, j));
        size_t k = 0;
        while (k < v->n_devices && strcmp(v->devices[k], d) != 0)
            k++;
        if (k == v->n_devices)
            v->devices[v->n_devices++] = d;
        v->dev[j] = k;
    }
    for (size_t j = v->n; j-- > 0;) {
        const br_run *r = br_history_view_run(v, j);
        for (size_t p = 0; p < r->n_params; p++) {
            size_t k = 0;
            while (k < v->n_pnames && strcmp(v->pnames[k], r->param_names[p]) != 0)
                k++;
            if (k == v->n_pnames)
                v->pnames[v->n_pnames++] = r->param_names[p];
        }
    }
}

/* Every case of v into t[0 .. *n_t), newest run first, sorted by key.
 * Returns 0, or -1 with the error set (the keys made so far are in t). */
static int view_keys(triple *t, size_t *n_t, const br_history_view *v) {
    size_t pos = 0;
    for (size_t j = v->n; j-- > 0;) {
        const br_run *r = br_history_view_run(v, j);
        for (size_t ci = 0; ci < r->n_cases; ci++, pos++) {
            if (!(t[*n_t].key = br_baseline_case_key(r, &r->cases[ci])))
                return -1;
            t[*n_t].run = j;
            t[*n_t].ci = ci;
            t[*n_t].pos = pos;
            (*n_t)++;
        }
    }
    qsort(t, *n_t, sizeof *t, cmp_triple);
    return 0;
}

/* The rows of v (one per key of the sorted t, in order of first
 * appearance) and its cells. Returns 0, or -1 with the error set. */
static int view_rows(br_history_view *v, const triple *t, size_t n_t) {
    v->rows = calloc(n_t + 1, sizeof *v->rows);
    if (!v->rows)
        return br_error_nomem();
    for (size_t k = 0; k < n_t; k++) {
        if (k > 0 && strcmp(t[k].key, t[k - 1].key) == 0)
            continue;
        v->rows[v->n_rows++] = (br_history_row){t[k].run, t[k].ci, k, t[k].pos};
    }
    qsort(v->rows, v->n_rows, sizeof *v->rows, cmp_rank);
    v->cells = calloc(v->n_rows * v->n + 1, sizeof *v->cells);
    if (!v->cells)
        return br_error_nomem();
    for (size_t row = 0; row < v->n_rows; row++) {
        for (size_t j = 0; j < v->n; j++)
            *br_history_view_cell(v, row, j) =
                (br_history_cell){BR_HISTORY_NONE, 0, BR_CHANGE_SAME, NAN, BR_HISTORY_NONE};
        for (size_t k = v->rows[row].first; k < n_t; k++) {
            if (k > v->rows[row].first && strcmp(t[k].key, t[k - 1].key) != 0)
                break;
            br_history_cell *c = br_history_view_cell(v, row, t[k].run);
            if (c->ci == BR_HISTORY_NONE || t[k].ci < c->ci)
                c->ci = t[k].ci;
        }
    }
    return 0;
}

int br_history_view_build(br_history_view *v, const br_history *h, size_t first, size_t n,
                          int judge) {
    memset(v, 0, sizeof *v);
    v->h = h;
    v->first = first;
    v->n = n;
    v->newest = br_history_view_run(v, n - 1);
    v->metric = v->newest->metric;
    int rc = -1;
    size_t n_t = 0, total = 0, cap_p = 0;
    for (size_t j = 0; j < n; j++) {
        total += br_history_view_run(v, j)->n_cases;
        cap_p += br_history_view_run(v, j)->n_params;
    }
    triple *t = calloc(total + 1, sizeof *t);
    v->pnames = calloc(cap_p + 1, sizeof *v->pnames);
    v->devices = calloc(n, sizeof *v->devices);
    v->dev = calloc(n, sizeof *v->dev);
    if (!t || !v->pnames || !v->devices || !v->dev) {
        br_error_nomem();
        goto done;
    }
    view_names(v);
    if (view_keys(t, &n_t, v) != 0 || view_rows(v, t, n_t) != 0)
        goto done;
    if (judge && view_judge(v) != 0)
        goto done;
    rc = 0;
done:
    for (size_t k = 0; t && k < n_t; k++)
        free(t[k].key);
    free(t);
    if (rc != 0)
        br_history_view_dispose(v);
    return rc;
}

/* The number of runs of the suite that starts at run `first` of h. */
size_t br_history_suite_runs(const br_history *h, size_t first) {
    size_t n = 1;
    const char *name = h->runs[first].run.suite_name ? h->runs[first].run.suite_name : "";
    while (first + n < h->n_runs) {
        const char *o = h->runs[first + n].run.suite_name;
        if (strcmp(o ? o : "", name) != 0)
            break;
        n++;
    }
    return n;
}

/* The value of parameter `name` in case c of run r: 1 and *out, or 0 when
 * the run has no such parameter. */
int br_history_param_of(int64_t *out, const br_run *r, const br_case_result *c, const char *name) {
    for (size_t p = 0; p < r->n_params; p++) {
        if (strcmp(r->param_names[p], name) == 0) {
            *out = c->params[p];
            return 1;
        }
    }
    return 0;
}

/* "n=2^20 b=256" for case c of run r in r's parameter order into buf. */
void br_history_params_label(char *buf, size_t len, const br_run *r, const br_case_result *c) {
    br_case_label(buf, len, NULL, (const char *const *)r->param_names, c->params, r->n_params);
}

/* The kernel name of case c of run r. */
const char *br_history_kernel_of(const br_run *r, const br_case_result *c) {
    return c->kernel < r->n_kernels && r->kernels[c->kernel].name ? r->kernels[c->kernel].name
                                                                  : "?";
}

/* "2026-11-22 10:00" from an ISO 8601 date ("2026-11-22T10:00:00Z"). */
void br_history_short_date(char *buf, size_t len, const char *iso) {
    if (strlen(iso) >= 16 && iso[10] == 'T')
        snprintf(buf, len, "%.10s %.5s", iso, iso + 11);
    else
        snprintf(buf, len, "%s", iso[0] ? iso : "no date");
}
