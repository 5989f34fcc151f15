/* history.c - `benchrun history`: runs read back from a directory of
 * results documents, shown as a table per suite and drawn with gnuplot
 * (the choices are described in history.h). */
#include "history.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "baseline.h"
#include "base/error.h"
#include "plan/plan.h"
#include "reporters/reporter.h"
#include "resultsfile.h"
#include "base/util.h"

extern char **environ;

#define NONE SIZE_MAX

/* ---- loading -------------------------------------------------------------------------- */

/* 1 when run r records a commit (git info with a SHA). */
static int has_commit(const br_run *r) {
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
    int ga = has_commit(&a->run), gb = has_commit(&b->run);
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
    if (!br_plan_kernel_selected(kernel, f->kernels, f->n_kernels))
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

/* Release what case c owns. */
static void case_free(br_case_result *c) {
    free(c->params);
    free(c->stage);
    free(c->message);
    free(c->commit);
    br_timing_dispose(&c->cold);
    br_timing_dispose(&c->batch);
    memset(c, 0, sizeof *c);
}

/* Drop the cases of r that f does not select. */
static void filter_cases(br_run *r, const br_history_filter *f) {
    size_t kept = 0;
    for (size_t i = 0; i < r->n_cases; i++) {
        if (case_selected(r, &r->cases[i], f))
            r->cases[kept++] = r->cases[i];
        else
            case_free(&r->cases[i]);
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

/* Read the results file `path` and append its runs to h. */
static int add_file(br_history *h, size_t *cap, const char *path) {
    br_run *runs = NULL;
    size_t n = 0;
    if (br_results_load(&runs, &n, path) != 0)
        return -1;
    int rc = -1;
    if (h->n_runs + n > *cap) {
        size_t want = *cap ? *cap * 2 : 16;
        while (want < h->n_runs + n)
            want *= 2;
        br_history_run *v = realloc(h->runs, want * sizeof *v);
        if (!v) {
            br_error_set("out of memory reading %s", path);
            goto done;
        }
        h->runs = v;
        *cap = want;
    }
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
            int same = has_commit(r) ? has_commit(o) && strcmp(o->git.sha, r->git.sha) == 0
                                     : !has_commit(o);
            k += same;
        }
        h->runs[i].rerun = k;
    }
}

int br_history_load(br_history *out, const char *dir, const br_history_filter *f) {
    memset(out, 0, sizeof *out);
    static const br_history_filter all = {0};
    if (!f)
        f = &all;
    struct dirent **names = NULL;
    int n_names = -1, rc = -1;
    size_t cap = 0;
    char *path = NULL;

    if (!(out->dir = br_strdup(dir)))
        return -1;
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
        if (S_ISREG(st.st_mode) && add_file(out, &cap, path) != 0)
            goto done;
        free(path);
        path = NULL;
    }
    if (out->n_files == 0) {
        br_error_set("%s: holds no results files (*.json)", dir);
        goto done;
    }
    if (out->n_runs > 1)
        qsort(out->runs, out->n_runs, sizeof *out->runs, cmp_runs);

    if (f->suite) {
        char suites[512];
        br_history_suite_list(suites, sizeof suites, out);
        for (size_t i = out->n_runs; i-- > 0;) {
            const char *name = out->runs[i].run.suite_name;
            if (!name || strcmp(name, f->suite) != 0)
                drop_run(out, i);
        }
        if (out->n_runs == 0) {
            br_error_set("%s: holds no run of suite '%s' (suites: %s)", dir, f->suite,
                         suites[0] ? suites : "none");
            goto done;
        }
    }
    for (size_t p = 0; p < f->n_params; p++) {
        if (!has_param(out, f->params[p].name)) {
            char known[512];
            param_list(known, sizeof known, out);
            br_error_set("-p %s=...: no run of the history has a parameter '%s' (parameters: %s)",
                         f->params[p].name, f->params[p].name, known[0] ? known : "none");
            goto done;
        }
    }
    if (f->n_kernels > 0 || f->n_params > 0) {
        for (size_t i = out->n_runs; i-- > 0;) {
            filter_cases(&out->runs[i].run, f);
            if (out->runs[i].run.n_cases == 0)
                drop_run(out, i);
        }
        if (out->n_runs == 0) {
            br_error_set("%s: no case matches the filters (-k, -p)", dir);
            goto done;
        }
    }
    if (f->last > 0) {
        /* Keep the newest `last` of each suite: drop from the front of each group. */
        for (size_t i = out->n_runs; i-- > 0;) {
            size_t newer = 0;
            for (size_t j = i + 1; j < out->n_runs; j++) {
                const char *a = out->runs[i].run.suite_name, *b = out->runs[j].run.suite_name;
                if (strcmp(a ? a : "", b ? b : "") != 0)
                    break;
                newer++;
            }
            if (newer >= f->last)
                drop_run(out, i);
        }
    }
    number_reruns(out);
    rc = 0;
done:
    free(path);
    for (int i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    return rc;
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
    memset(h, 0, sizeof *h);
}

void br_history_label(char *buf, size_t len, const br_history *h, size_t i, int ascii) {
    if (len == 0)
        return;
    const br_history_run *hr = &h->runs[i];
    const br_run *r = &hr->run;
    const char *base = has_commit(r) ? r->git.short_sha : r->git.present ? "no commit" : "no git";
    const char *dirty = has_commit(r) && r->git.dirty ? "*" : "";
    if (hr->rerun > 1)
        snprintf(buf, len, "%s%s%s%zu", base, dirty, ascii ? "." : "·", hr->rerun);
    else
        snprintf(buf, len, "%s%s", base, dirty);
}

/* ---- one suite's view: rows (cases) x columns (runs) ------------------------------------ */

typedef struct hcell {
    size_t ci;        /* index of the case in its run; NONE: the run has no such case */
    int compared;     /* 1: compared with an earlier run (change, pct) */
    br_change change; /* br_baseline_compare's label */
    double pct;       /* change of the value shown, a fraction; NAN when not computable */
} hcell;

typedef struct hrow {
    size_t run, ci; /* the newest run (view index) with this case, and the case there */
    size_t first;   /* first triple of the row's group (build only) */
    size_t rank;    /* position of its first appearance, newest run first */
} hrow;

typedef struct hcmp {
    size_t i, j; /* view indices: base and current */
    br_comparison cmp;
    size_t *entry_of; /* per case of run j: its entry, or NONE */
} hcmp;

typedef struct hview {
    const br_history *h;
    size_t first, n;      /* the runs h->runs[first .. first + n) */
    const br_run *newest; /* the last of them */
    br_metric metric;     /* the newest run's */
    const char **pnames;  /* union of the runs' parameter names (borrowed), newest first */
    size_t n_pnames;
    hrow *rows;
    size_t n_rows;
    hcell *cells;         /* n_rows x n */
    const char **devices; /* distinct devices, in order of first use (borrowed) */
    size_t n_devices;
    size_t *dev; /* per run: index into devices */
    hcmp *cmps;
    size_t n_cmps;
} hview;

static const br_run *vrun(const hview *v, size_t j) {
    return &v->h->runs[v->first + j].run;
}

static hcell *vcell(const hview *v, size_t row, size_t j) {
    return &v->cells[row * v->n + j];
}

static void view_dispose(hview *v) {
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
    memset(v, 0, sizeof *v);
}

/* The value a cell shows for case c of run r under metric m: GB/s, GFLOP/s
 * or the headline median in µs; NAN when the case has none. */
static double case_value(const br_run *r, const br_case_result *c, br_metric m) {
    if (c->status != BR_STATUS_OK)
        return NAN;
    if (m == BR_METRIC_GBPS)
        return c->gbps;
    if (m == BR_METRIC_GFLOPS)
        return c->gflops;
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
    const hrow *a = pa, *b = pb;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The comparison of view runs i (base) and j, computed once. */
static const hcmp *view_compare(hview *v, size_t i, size_t j) {
    for (size_t k = v->n_cmps; k-- > 0;) {
        if (v->cmps[k].i == i && v->cmps[k].j == j)
            return &v->cmps[k];
    }
    hcmp *grown = realloc(v->cmps, (v->n_cmps + 1) * sizeof *grown);
    if (!grown) {
        br_error_set("out of memory");
        return NULL;
    }
    v->cmps = grown;
    hcmp *c = &v->cmps[v->n_cmps];
    memset(c, 0, sizeof *c);
    c->i = i;
    c->j = j;
    const br_run *base = vrun(v, i), *cur = vrun(v, j);
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
        br_error_set("out of memory");
        return NULL;
    }
    for (size_t k = 0; k < cur->n_cases; k++)
        c->entry_of[k] = NONE;
    for (size_t k = 0; k < c->cmp.n_entries; k++) {
        size_t ci = c->cmp.entries[k].case_index;
        if (ci < cur->n_cases && c->entry_of[ci] == NONE)
            c->entry_of[ci] = k;
    }
    v->n_cmps++;
    return c;
}

/* Compare each measured cell with the latest earlier run of the same
 * device that measured its case. */
static int view_judge(hview *v) {
    for (size_t j = 1; j < v->n; j++) {
        const br_run *cur = vrun(v, j);
        for (size_t row = 0; row < v->n_rows; row++) {
            hcell *c = vcell(v, row, j);
            if (c->ci == NONE || cur->cases[c->ci].status != BR_STATUS_OK)
                continue;
            size_t i = j;
            while (i-- > 0) {
                const hcell *b = vcell(v, row, i);
                if (v->dev[i] == v->dev[j] && b->ci != NONE &&
                    vrun(v, i)->cases[b->ci].status == BR_STATUS_OK)
                    break;
            }
            if (i == NONE)
                continue;
            const hcmp *cmp = view_compare(v, i, j);
            if (!cmp)
                return -1;
            size_t e = cmp->entry_of[c->ci];
            if (e == NONE)
                continue;
            c->compared = 1;
            c->change = cmp->cmp.entries[e].status;
            const br_run *base = vrun(v, i);
            double now = case_value(cur, &cur->cases[c->ci], v->metric);
            double was = case_value(base, &base->cases[vcell(v, row, i)->ci], v->metric);
            c->pct = was > 0 && isfinite(now) ? now / was - 1.0 : NAN;
        }
    }
    return 0;
}

/* Build the view of runs h->runs[first .. first + n) (one suite); with
 * `judge`, compare the cells too. Returns 0, or -1 with the error set. */
static int view_build(hview *v, const br_history *h, size_t first, size_t n, int judge) {
    memset(v, 0, sizeof *v);
    v->h = h;
    v->first = first;
    v->n = n;
    v->newest = vrun(v, n - 1);
    v->metric = v->newest->metric;
    int rc = -1;
    triple *t = NULL;
    size_t n_t = 0, total = 0, cap_p = 0;
    for (size_t j = 0; j < n; j++) {
        total += vrun(v, j)->n_cases;
        cap_p += vrun(v, j)->n_params;
    }
    t = calloc(total + 1, sizeof *t);
    v->pnames = calloc(cap_p + 1, sizeof *v->pnames);
    v->devices = calloc(n, sizeof *v->devices);
    v->dev = calloc(n, sizeof *v->dev);
    if (!t || !v->pnames || !v->devices || !v->dev)
        goto oom;

    /* Devices and parameter names. */
    for (size_t j = 0; j < n; j++) {
        const char *d = br_baseline_device(vrun(v, j));
        size_t k = 0;
        while (k < v->n_devices && strcmp(v->devices[k], d) != 0)
            k++;
        if (k == v->n_devices)
            v->devices[v->n_devices++] = d;
        v->dev[j] = k;
    }
    for (size_t j = n; j-- > 0;) {
        const br_run *r = vrun(v, j);
        for (size_t p = 0; p < r->n_params; p++) {
            size_t k = 0;
            while (k < v->n_pnames && strcmp(v->pnames[k], r->param_names[p]) != 0)
                k++;
            if (k == v->n_pnames)
                v->pnames[v->n_pnames++] = r->param_names[p];
        }
    }

    /* Every case, newest run first, grouped by key. */
    size_t pos = 0;
    for (size_t j = n; j-- > 0;) {
        const br_run *r = vrun(v, j);
        for (size_t ci = 0; ci < r->n_cases; ci++, pos++) {
            if (!(t[n_t].key = br_baseline_case_key(r, &r->cases[ci])))
                goto done;
            t[n_t].run = j;
            t[n_t].ci = ci;
            t[n_t].pos = pos;
            n_t++;
        }
    }
    qsort(t, n_t, sizeof *t, cmp_triple);
    v->rows = calloc(n_t + 1, sizeof *v->rows);
    if (!v->rows)
        goto oom;
    for (size_t k = 0; k < n_t; k++) {
        if (k > 0 && strcmp(t[k].key, t[k - 1].key) == 0)
            continue;
        v->rows[v->n_rows++] = (hrow){t[k].run, t[k].ci, k, t[k].pos};
    }
    qsort(v->rows, v->n_rows, sizeof *v->rows, cmp_rank);
    v->cells = calloc(v->n_rows * n + 1, sizeof *v->cells);
    if (!v->cells)
        goto oom;
    for (size_t row = 0; row < v->n_rows; row++) {
        for (size_t j = 0; j < n; j++)
            *vcell(v, row, j) = (hcell){NONE, 0, BR_CHANGE_SAME, NAN};
        for (size_t k = v->rows[row].first; k < n_t; k++) {
            if (k > v->rows[row].first && strcmp(t[k].key, t[k - 1].key) != 0)
                break;
            hcell *c = vcell(v, row, t[k].run);
            if (c->ci == NONE || t[k].ci < c->ci)
                c->ci = t[k].ci;
        }
    }
    if (judge && view_judge(v) != 0)
        goto done;
    rc = 0;
    goto done;
oom:
    br_error_set("out of memory");
done:
    for (size_t k = 0; k < n_t; k++)
        free(t[k].key);
    free(t);
    if (rc != 0)
        view_dispose(v);
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
static int param_of(int64_t *out, const br_run *r, const br_case_result *c, const char *name) {
    for (size_t p = 0; p < r->n_params; p++) {
        if (strcmp(r->param_names[p], name) == 0) {
            *out = c->params[p];
            return 1;
        }
    }
    return 0;
}

/* "n=2^20 b=256" for case c of run r in r's parameter order into buf. */
static void params_label(char *buf, size_t len, const br_run *r, const br_case_result *c) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t p = 0; p < r->n_params && used + 1 < len; p++) {
        char v[32];
        br_format_param(v, sizeof v, c->params[p]);
        used +=
            (size_t)snprintf(buf + used, len - used, "%s%s=%s", p ? " " : "", r->param_names[p], v);
    }
}

/* The kernel name of case c of run r. */
static const char *kernel_of(const br_run *r, const br_case_result *c) {
    return c->kernel < r->n_kernels && r->kernels[c->kernel].name ? r->kernels[c->kernel].name
                                                                  : "?";
}

/* ---- the table ---------------------------------------------------------------------------- */

typedef struct tglyphs {
    const char *v, *h, *cross, *slower, *faster, *dash, *dot, *micro, *sep;
} tglyphs;

static const tglyphs utf8_tg = {"│", "─", "┼", "▼", "▲", "–", "·", "µ", " · "};
static const tglyphs ascii_tg = {"|", "-", "+", "v", "^", "-", ".", "u", " . "};

static void pad(FILE *f, size_t n) {
    for (size_t i = 0; i < n; i++)
        fputc(' ', f);
}

/* A value as cells show it: 1 decimal for a metric; for a time (µs) 1
 * decimal, 2 below 10 µs, 3 below 1 µs. */
static void format_value(char *buf, size_t len, double v, br_metric m) {
    if (!isfinite(v))
        snprintf(buf, len, "n/a");
    else if (m != BR_METRIC_NONE)
        snprintf(buf, len, "%.1f", v);
    else
        snprintf(buf, len, "%.*f", v < 1.0 ? 3 : v < 10.0 ? 2 : 1, v);
}

/* The value part and the mark part of a cell. */
static void cell_text(char *val, size_t vlen, char *mark, size_t mlen, const hview *v, size_t row,
                      size_t j, const tglyphs *g) {
    const hcell *c = vcell(v, row, j);
    mark[0] = '\0';
    if (c->ci == NONE) {
        snprintf(val, vlen, "%s", g->dot);
        return;
    }
    const br_run *r = vrun(v, j);
    const br_case_result *cr = &r->cases[c->ci];
    if (cr->status == BR_STATUS_FAILED) {
        snprintf(val, vlen, "failed");
        return;
    }
    if (cr->status == BR_STATUS_SKIPPED) {
        snprintf(val, vlen, "%s", g->dash);
        return;
    }
    format_value(val, vlen, case_value(r, cr, v->metric), v->metric);
    if (!c->compared)
        return;
    switch (c->change) {
    case BR_CHANGE_SLOWER:
    case BR_CHANGE_FASTER:
        if (isfinite(c->pct))
            snprintf(mark, mlen, "%s%+.1f%%", c->change == BR_CHANGE_SLOWER ? g->slower : g->faster,
                     100.0 * c->pct);
        else
            snprintf(mark, mlen, "%s", c->change == BR_CHANGE_SLOWER ? g->slower : g->faster);
        break;
    case BR_CHANGE_UNKNOWN:
        snprintf(mark, mlen, "?");
        break;
    default:
        break;
    }
}

/* "2026-11-22 10:00" from an ISO 8601 date ("2026-11-22T10:00:00Z"). */
static void short_date(char *buf, size_t len, const char *iso) {
    if (strlen(iso) >= 16 && iso[10] == 'T')
        snprintf(buf, len, "%.10s %.5s", iso, iso + 11);
    else
        snprintf(buf, len, "%s", iso[0] ? iso : "no date");
}

/* The title of a suite's table: "suite · GB/s (higher is better) · 3 runs · device". */
static void put_title(FILE *f, const hview *v, const tglyphs *g) {
    const br_run *r = v->newest;
    fprintf(f, "%s%s", r->suite_name ? r->suite_name : "?", g->sep);
    if (v->metric == BR_METRIC_NONE)
        fprintf(f, "median time (%ss, lower is better)", g->micro);
    else
        fprintf(f, "%s (higher is better)", br_metric_name(v->metric));
    fprintf(f, "%s%zu run%s", g->sep, v->n, v->n == 1 ? "" : "s");
    if (v->n_devices == 1)
        fprintf(f, "%s%s", g->sep, v->devices[0]);
    else
        fprintf(f, "%s%zu devices", g->sep, v->n_devices);
    fputc('\n', f);
}

/* The legend under a suite's table: only what the table uses. */
static void put_legend(FILE *f, const hview *v, const tglyphs *g) {
    int used_unknown = 0, used_dot = 0, used_skip = 0;
    int dirty = 0, compared = 0;
    for (size_t row = 0; row < v->n_rows; row++) {
        for (size_t j = 0; j < v->n; j++) {
            const hcell *c = vcell(v, row, j);
            if (c->ci == NONE) {
                used_dot = 1;
                continue;
            }
            used_skip |= vrun(v, j)->cases[c->ci].status == BR_STATUS_SKIPPED;
            compared |= c->compared;
            if (!c->compared)
                continue;
            used_unknown |= c->change == BR_CHANGE_UNKNOWN;
        }
    }
    for (size_t j = 0; j < v->n; j++)
        dirty |= has_commit(vrun(v, j)) && vrun(v, j)->git.dirty;

    /* The rules of the newer side of the comparisons: one line when all agree. */
    int same_rules = 1;
    br_regression_cfg rules = v->newest->regression;
    for (size_t k = 0; k < v->n_cmps; k++) {
        const br_regression_cfg *o = &v->cmps[k].cmp.rules;
        same_rules &= o->threshold == v->cmps[0].cmp.rules.threshold &&
                      o->alpha == v->cmps[0].cmp.rules.alpha;
    }
    if (v->n_cmps > 0)
        rules = v->cmps[0].cmp.rules;

    fputs("columns: runs in commit order (committer time; reruns by date), each with the date it "
          "ran (UTC)\n",
          f);
    if (compared) {
        fprintf(f, "%s slower, %s faster than the previous run%s that measured the case (",
                g->slower, g->faster, v->n_devices > 1 ? " of the same device" : "");
        if (same_rules)
            fprintf(f, "Mann-Whitney U p < %g and |change| > %g%%", rules.alpha,
                    100.0 * rules.threshold);
        else
            fputs("each newer run's regression rules: Mann-Whitney U p < alpha and |change| > "
                  "threshold",
                  f);
        fputs("),\n  with the change of the value shown; no mark: no change beyond the threshold, "
              "or nothing earlier to compare with\n",
              f);
    } else {
        fprintf(f, "no case was measured by two runs%s: nothing compared\n",
                v->n_devices > 1 ? " of one device" : "");
    }
    const char *sep = "";
    if (used_unknown) {
        fprintf(f, "%s? = cannot tell (too few samples, too noisy, another clock)", sep);
        sep = "; ";
    }
    if (used_dot) {
        fprintf(f, "%s%s = not in that run", sep, g->dot);
        sep = "; ";
    }
    if (used_skip) {
        fprintf(f, "%s%s = skipped", sep, g->dash);
        sep = "; ";
    }
    if (dirty) {
        fprintf(f, "%s* after a commit = uncommitted changes (dirty work tree)", sep);
        sep = "; ";
    }
    if (sep[0])
        fputc('\n', f);
    if (v->n_devices > 1) {
        fputs("devices:", f);
        for (size_t d = 0; d < v->n_devices; d++)
            fprintf(f, "%s dev %zu = %s", d ? "," : "", d + 1, v->devices[d]);
        fputs("; runs are compared only with runs of the same device\n", f);
    }
}

/* Print the table of one suite's view. */
static int print_view(FILE *f, const hview *v, int ascii) {
    const tglyphs *g = ascii ? &ascii_tg : &utf8_tg;
    size_t np = v->n_pnames, n_cols = 1 + np + v->n;
    size_t n_head = v->n_devices > 1 ? 3 : 2;
    size_t *w = calloc(n_cols, sizeof *w);
    size_t *vw = calloc(v->n + 1, sizeof *vw), *mw = calloc(v->n + 1, sizeof *mw);
    char(*head)[3][64] = calloc(n_cols, sizeof *head);
    int rc = -1;
    if (!w || !vw || !mw || !head) {
        br_error_set("out of memory");
        goto done;
    }
    snprintf(head[0][0], 64, "kernel");
    for (size_t p = 0; p < np; p++)
        snprintf(head[1 + p][0], 64, "%s", v->pnames[p]);
    for (size_t j = 0; j < v->n; j++) {
        char *h3 = head[1 + np + j][0];
        br_history_label(h3, 64, v->h, v->first + j, ascii);
        short_date(head[1 + np + j][1], 64, vrun(v, j)->date);
        if (n_head == 3)
            snprintf(head[1 + np + j][2], 64, "dev %zu", v->dev[j] + 1);
    }
    for (size_t c = 0; c < n_cols; c++) {
        for (size_t k = 0; k < n_head; k++) {
            size_t hw = br_report_display_width(head[c][k]);
            w[c] = hw > w[c] ? hw : w[c];
        }
    }
    char val[64], mark[64], buf[64];
    for (size_t row = 0; row < v->n_rows; row++) {
        const br_run *r = vrun(v, v->rows[row].run);
        const br_case_result *c = &r->cases[v->rows[row].ci];
        size_t kw = br_report_display_width(kernel_of(r, c));
        w[0] = kw > w[0] ? kw : w[0];
        for (size_t p = 0; p < np; p++) {
            int64_t x;
            if (param_of(&x, r, c, v->pnames[p])) {
                br_format_param(buf, sizeof buf, x);
                size_t pw = br_report_display_width(buf);
                w[1 + p] = pw > w[1 + p] ? pw : w[1 + p];
            }
        }
        for (size_t j = 0; j < v->n; j++) {
            cell_text(val, sizeof val, mark, sizeof mark, v, row, j, g);
            size_t a = br_report_display_width(val), b = br_report_display_width(mark);
            vw[j] = a > vw[j] ? a : vw[j];
            mw[j] = b > mw[j] ? b : mw[j];
        }
    }
    for (size_t j = 0; j < v->n; j++) {
        size_t cw = vw[j] + (mw[j] ? 1 + mw[j] : 0);
        w[1 + np + j] = cw > w[1 + np + j] ? cw : w[1 + np + j];
    }

    put_title(f, v, g);
    for (size_t k = 0; k < n_head; k++) {
        for (size_t c = 0; c < n_cols; c++) {
            const char *s = head[c][k];
            int right = c >= 1 && c < 1 + np;
            if (c)
                fprintf(f, " %s ", g->v);
            else
                fputc(' ', f);
            if (right)
                pad(f, w[c] - br_report_display_width(s));
            fputs(s, f);
            if (!right && c + 1 < n_cols)
                pad(f, w[c] - br_report_display_width(s));
        }
        fputc('\n', f);
    }
    for (size_t c = 0; c < n_cols; c++) {
        if (c)
            fputs(g->cross, f);
        for (size_t k = 0; k < w[c] + 2; k++)
            fputs(g->h, f);
    }
    fputc('\n', f);
    for (size_t row = 0; row < v->n_rows; row++) {
        const br_run *r = vrun(v, v->rows[row].run);
        const br_case_result *c = &r->cases[v->rows[row].ci];
        const char *k = kernel_of(r, c);
        fprintf(f, " %s", k);
        pad(f, w[0] - br_report_display_width(k));
        for (size_t p = 0; p < np; p++) {
            int64_t x;
            buf[0] = '\0';
            if (param_of(&x, r, c, v->pnames[p]))
                br_format_param(buf, sizeof buf, x);
            fprintf(f, " %s ", g->v);
            pad(f, w[1 + p] - br_report_display_width(buf));
            fputs(buf, f);
        }
        for (size_t j = 0; j < v->n; j++) {
            cell_text(val, sizeof val, mark, sizeof mark, v, row, j, g);
            fprintf(f, " %s ", g->v);
            pad(f, vw[j] - br_report_display_width(val));
            fputs(val, f);
            size_t used = vw[j];
            if (mark[0]) {
                fprintf(f, " %s", mark);
                used += 1 + br_report_display_width(mark);
            }
            if (j + 1 < v->n)
                pad(f, w[1 + np + j] - used);
        }
        fputc('\n', f);
    }
    put_legend(f, v, g);
    rc = ferror(f) ? br_error_set("cannot write the history table: %s", strerror(errno)) : 0;
done:
    free(w);
    free(vw);
    free(mw);
    free(head);
    return rc;
}

int br_history_print(FILE *f, const br_history *h, int ascii) {
    for (size_t first = 0; first < h->n_runs;) {
        size_t n = br_history_suite_runs(h, first);
        hview v;
        if (view_build(&v, h, first, n, 1) != 0)
            return -1;
        if (first > 0)
            fputc('\n', f);
        int rc = print_view(f, &v, ascii);
        view_dispose(&v);
        if (rc != 0)
            return -1;
        first += n;
    }
    return 0;
}

/* ---- the plot --------------------------------------------------------------------------- */

/* `s` as the inside of a double-quoted gnuplot string: backslash and double
 * quote escaped, control characters (a newline would end the command) and
 * runs of white space as one space. */
static void put_gp_string(FILE *f, const char *s) {
    int space = 0;
    fputc('"', f);
    for (const char *p = s ? s : ""; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch < 0x20 || ch == 0x7f || ch == ' ') {
            space = 1;
            continue;
        }
        if (space)
            fputc(' ', f);
        space = 0;
        if (ch == '\\' || ch == '"')
            fputc('\\', f);
        fputc(ch, f);
    }
    fputc('"', f);
}

/* What panel 1's x axis shows. */
typedef enum xmode {
    X_PARAM, /* the one parameter that varies (px) */
    X_BYTES, /* bytes per execution (GB/s) */
    X_FLOPS, /* FLOP per execution (GFLOP/s) */
    X_COMBO, /* the parameter combination's position (metric none, several vary) */
    X_KERNEL /* the kernel's position (no parameter varies) */
} xmode;

/* Panel 1 of the plot: the newest run against problem size. */
typedef struct panel1 {
    const br_run *r; /* the newest run */
    xmode mode;
    size_t px;      /* X_PARAM: the parameter */
    int log2x;      /* X_PARAM: all its values are powers of two */
    size_t *combos; /* X_COMBO: the combinations drawn, ascending; owned */
    size_t n_combos;
    int *drawn; /* per kernel: 1 when it has a data block; owned */
    double ylo, yhi;
} panel1;

static const char *metric_axis(br_metric m) {
    return m == BR_METRIC_GBPS ? "GB/s" : m == BR_METRIC_GFLOPS ? "GFLOP/s" : "median time (µs)";
}

static const char *metric_title(br_metric m) {
    return m == BR_METRIC_NONE ? "median time (µs)" : br_metric_name(m);
}

/* A log y axis when the values span more than 100x, else linear. */
static void put_yscale(FILE *f, double lo, double hi) {
    if (lo > 0 && isfinite(hi) && hi / lo > 100.0)
        fputs("set logscale y 10\nset format y \"% h\"\n", f);
    else
        fputs("unset logscale y\nset format y \"% h\"\n", f);
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Choose panel 1's x axis for view v (history.h). Returns 0, or -1 with
 * the error set. */
static int panel1_setup(panel1 *p, const hview *v) {
    memset(p, 0, sizeof *p);
    const br_run *r = p->r = v->newest;
    p->ylo = INFINITY;
    p->yhi = -INFINITY;
    size_t n_vary = 0;
    p->px = NONE;
    for (size_t k = 0; k < r->n_params; k++) {
        int64_t first = 0;
        int seen = 0, varies = 0;
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            if (!isfinite(case_value(r, c, v->metric)))
                continue;
            varies |= seen && c->params[k] != first;
            if (!seen)
                first = c->params[k];
            seen = 1;
        }
        if (varies) {
            n_vary++;
            p->px = k;
        }
    }
    p->mode = n_vary == 1                     ? X_PARAM
              : n_vary == 0                   ? X_KERNEL
              : v->metric == BR_METRIC_GBPS   ? X_BYTES
              : v->metric == BR_METRIC_GFLOPS ? X_FLOPS
                                              : X_COMBO;
    if (p->mode == X_PARAM) {
        p->log2x = 1;
        for (size_t i = 0; i < r->n_cases; i++) {
            int64_t x = r->cases[i].params[p->px];
            if (isfinite(case_value(r, &r->cases[i], v->metric)) && (x <= 0 || (x & (x - 1))))
                p->log2x = 0;
        }
    }
    p->combos = calloc(r->n_cases + 1, sizeof *p->combos);
    p->drawn = calloc(r->n_kernels + 1, sizeof *p->drawn);
    if (!p->combos || !p->drawn) {
        free(p->combos);
        free(p->drawn);
        return br_error_set("out of memory");
    }
    for (size_t i = 0; i < r->n_cases; i++) {
        if (!isfinite(case_value(r, &r->cases[i], v->metric)))
            continue;
        size_t k = 0;
        while (k < p->n_combos && p->combos[k] != r->cases[i].combo)
            k++;
        if (k == p->n_combos)
            p->combos[p->n_combos++] = r->cases[i].combo;
    }
    qsort(p->combos, p->n_combos, sizeof *p->combos, cmp_size);
    return 0;
}

/* The x of case c in panel 1; NAN when it has none (or none the axis can show). */
static double panel1_x(const panel1 *p, const br_case_result *c) {
    double x = NAN;
    switch (p->mode) {
    case X_PARAM:
        x = (double)c->params[p->px];
        return p->log2x && x <= 0 ? NAN : x;
    case X_BYTES:
        return c->bytes > 0 ? c->bytes : NAN;
    case X_FLOPS:
        return c->flops > 0 ? c->flops : NAN;
    case X_COMBO:
        for (size_t m = 0; m < p->n_combos; m++)
            x = p->combos[m] == c->combo ? (double)(m + 1) : x;
        return x;
    case X_KERNEL:
        return (double)(c->kernel + 1);
    }
    return NAN;
}

/* Panel 1's data: a block $sizeK per kernel K with points, sorted by x. */
static int panel1_data(FILE *f, panel1 *p, const hview *v) {
    const br_run *r = p->r;
    double(*pts)[2] = calloc(r->n_cases + 1, sizeof *pts);
    if (!pts)
        return br_error_set("out of memory");
    for (size_t k = 0; k < r->n_kernels; k++) {
        size_t n_pts = 0;
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            double y = case_value(r, c, v->metric), x = panel1_x(p, c);
            if (c->kernel != k || !isfinite(y) || !isfinite(x))
                continue;
            size_t at = n_pts++;
            for (; at > 0 && pts[at - 1][0] > x; at--) {
                pts[at][0] = pts[at - 1][0];
                pts[at][1] = pts[at - 1][1];
            }
            pts[at][0] = x;
            pts[at][1] = y;
            p->ylo = fmin(p->ylo, y);
            p->yhi = fmax(p->yhi, y);
        }
        if (n_pts == 0)
            continue;
        p->drawn[k] = 1;
        fprintf(f, "# panel 1, kernel %s: x, %s\n$size%zu << EOD\n",
                r->kernels[k].name ? r->kernels[k].name : "?", metric_axis(v->metric), k);
        for (size_t i = 0; i < n_pts; i++)
            fprintf(f, "%.10g %.7g\n", pts[i][0], pts[i][1]);
        fputs("EOD\n", f);
    }
    free(pts);
    return 0;
}

/* Panel 1's commands. */
static void panel1_commands(FILE *f, const panel1 *p, const hview *v) {
    const br_run *r = p->r;
    char when[64], label[64], title[1024];
    short_date(when, sizeof when, r->date);
    br_history_label(label, sizeof label, v->h, v->first + v->n - 1, 0);
    const char *against = p->mode == X_PARAM   ? r->param_names[p->px]
                          : p->mode == X_BYTES ? "bytes per execution"
                          : p->mode == X_FLOPS ? "FLOP per execution"
                          : p->mode == X_COMBO ? "parameters"
                                               : "kernel";
    snprintf(title, sizeof title, "%s: %s against %s, newest run %s (%s)",
             r->suite_name ? r->suite_name : "?", metric_title(v->metric), against, label, when);
    fputs("\n# panel 1: the newest run against problem size\nset title ", f);
    put_gp_string(f, title);
    fputs(" noenhanced\nset xlabel ", f);
    char xl[512];
    if (p->mode == X_PARAM)
        snprintf(xl, sizeof xl, "%s%s", against, p->log2x ? " (log2 scale)" : "");
    else if (p->mode == X_BYTES || p->mode == X_FLOPS)
        snprintf(xl, sizeof xl, "%s (log scale)", against);
    else
        snprintf(xl, sizeof xl, "%s", against);
    put_gp_string(f, xl);
    fputs(" noenhanced\nset ylabel ", f);
    put_gp_string(f, metric_axis(v->metric));
    fputs(" noenhanced\n", f);
    if (p->mode == X_PARAM && p->log2x)
        fputs("set logscale x 2\nset format x \"2^{%L}\"\nset xtics autofreq\nset autoscale x\n",
              f);
    else if (p->mode == X_BYTES)
        fputs("set logscale x 10\nset format x \"%.0s %cB\"\nset xtics autofreq\n"
              "set autoscale x\n",
              f);
    else if (p->mode == X_FLOPS)
        fputs("set logscale x 10\nset format x \"%.0s %cFLOP\"\nset xtics autofreq\n"
              "set autoscale x\n",
              f);
    else if (p->mode == X_PARAM)
        fputs("unset logscale x\nset format x \"% h\"\nset xtics autofreq\nset autoscale x\n", f);
    if (p->mode == X_COMBO || p->mode == X_KERNEL) {
        size_t n_tics = p->mode == X_COMBO ? p->n_combos : r->n_kernels;
        fprintf(f, "unset logscale x\nset xrange [0.5:%zu.5]\nset xtics %snoenhanced (", n_tics,
                n_tics > 4 ? "rotate by -30 " : "");
        for (size_t m = 0; m < n_tics; m++) {
            char tic[512] = "";
            if (p->mode == X_KERNEL) {
                snprintf(tic, sizeof tic, "%s", r->kernels[m].name ? r->kernels[m].name : "?");
            } else {
                for (size_t i = 0; i < r->n_cases; i++) {
                    if (r->cases[i].combo == p->combos[m]) {
                        params_label(tic, sizeof tic, r, &r->cases[i]);
                        break;
                    }
                }
            }
            fputs(m ? ", " : "", f);
            put_gp_string(f, tic);
            fprintf(f, " %zu", m + 1);
        }
        fputs(")\n", f);
    }
    put_yscale(f, p->ylo, p->yhi);
    fputs("set key below height 1\n", f);
    size_t m = 0;
    for (size_t k = 0; k < r->n_kernels; k++) {
        if (!p->drawn[k])
            continue;
        fprintf(f, "%s$size%zu using 1:2 with linespoints lw 1.5 title ",
                m++ ? ", \\\n     " : "plot ", k);
        put_gp_string(f, r->kernels[k].name);
        fputs(" noenhanced", f);
    }
    if (m == 0)
        fputs("set label 1 \"no measured case in the newest run\" at graph 0.5, 0.5 center\n"
              "unset xtics\nunset ytics\nset xrange [0:1]\nset yrange [0:1]\nunset logscale\n"
              "plot NaN notitle\nunset label 1\nset xtics\nset ytics\nset autoscale\n",
              f);
    else
        fputc('\n', f);
}

/* Panel 2's data: a block $caseR per row R with a measured value, "run
 * value" lines, a blank line (a gap in the line) where the case was not
 * measured. Sets drawn[R]; returns the number of blocks and the y range. */
static size_t panel2_data(FILE *f, const hview *v, int *drawn, double *ylo, double *yhi) {
    size_t n_lines = 0;
    *ylo = INFINITY;
    *yhi = -INFINITY;
    for (size_t row = 0; row < v->n_rows; row++) {
        int any = 0, gap = 0;
        for (size_t j = 0; j < v->n; j++) {
            const hcell *c = vcell(v, row, j);
            const br_run *r = vrun(v, j);
            double y = c->ci == NONE ? NAN : case_value(r, &r->cases[c->ci], v->metric);
            if (!isfinite(y)) {
                gap = any;
                continue;
            }
            if (!any) {
                const br_run *lr = vrun(v, v->rows[row].run);
                const br_case_result *lc = &lr->cases[v->rows[row].ci];
                char params[512];
                params_label(params, sizeof params, lr, lc);
                fprintf(f, "# panel 2, %s%s%s: run, %s\n$case%zu << EOD\n", kernel_of(lr, lc),
                        params[0] ? " " : "", params, metric_axis(v->metric), row);
            }
            if (gap)
                fputc('\n', f);
            any = 1;
            gap = 0;
            fprintf(f, "%zu %.7g\n", j + 1, y);
            *ylo = fmin(*ylo, y);
            *yhi = fmax(*yhi, y);
        }
        if (any) {
            fputs("EOD\n", f);
            drawn[row] = 1;
            n_lines++;
        }
    }
    return n_lines;
}

/* Panel 2's commands. */
static void panel2_commands(FILE *f, const hview *v, const int *drawn, size_t n_lines, double ylo,
                            double yhi) {
    const br_run *nr = v->newest;
    int keys = n_lines <= BR_HISTORY_PLOT_MAX_KEYS;
    char title[1024];
    if (keys)
        snprintf(title, sizeof title, "%s: %s across commits, oldest to newest",
                 nr->suite_name ? nr->suite_name : "?", metric_title(v->metric));
    else
        snprintf(title, sizeof title,
                 "%s: %s across commits, oldest to newest (%zu cases: no legend above %d)",
                 nr->suite_name ? nr->suite_name : "?", metric_title(v->metric), n_lines,
                 BR_HISTORY_PLOT_MAX_KEYS);
    fputs("\n# panel 2: every case across the runs\nset title ", f);
    put_gp_string(f, title);
    fputs(" noenhanced\nset xlabel \"commit (run)\" noenhanced\nset ylabel ", f);
    put_gp_string(f, metric_axis(v->metric));
    fprintf(f, " noenhanced\nunset logscale x\nset format x \"%% h\"\nset xrange [0.5:%zu.5]\n",
            v->n);
    size_t every = v->n > 40 ? (v->n + 39) / 40 : 1;
    fprintf(f, "set xtics %snoenhanced (", v->n > 8 ? "rotate by -45 " : "norotate ");
    for (size_t j = 0, m = 0; j < v->n; j++) {
        if (j % every != 0 && j + 1 != v->n)
            continue;
        char label[64];
        br_history_label(label, sizeof label, v->h, v->first + j, 0);
        fputs(m++ ? ", " : "", f);
        put_gp_string(f, label);
        fprintf(f, " %zu", j + 1);
    }
    fputs(")\n", f);
    put_yscale(f, ylo, yhi);
    fputs(keys ? "set key below height 1\n" : "unset key\n", f);
    if (n_lines == 0) {
        fputs("set label 1 \"no measured case\" at graph 0.5, 0.5 center\n"
              "unset ytics\nset yrange [0:1]\nunset logscale y\nplot NaN notitle\nunset label 1\n",
              f);
        return;
    }
    for (size_t row = 0, m = 0; row < v->n_rows; row++) {
        if (!drawn[row])
            continue;
        const br_run *r = vrun(v, v->rows[row].run);
        const br_case_result *c = &r->cases[v->rows[row].ci];
        fprintf(f, "%s$case%zu using 1:2 with linespoints lw 1.5 ", m++ ? ", \\\n     " : "plot ",
                row);
        if (keys) {
            char name[1024], params[512];
            params_label(params, sizeof params, r, c);
            snprintf(name, sizeof name, "%s%s%s", kernel_of(r, c), params[0] ? " " : "", params);
            fputs("title ", f);
            put_gp_string(f, name);
            fputs(" noenhanced", f);
        } else {
            fputs("notitle", f);
        }
    }
    fputc('\n', f);
}

int br_history_plot_script(FILE *f, const br_history *h, const char *svg_path) {
    if (!h || h->n_runs == 0)
        return br_error_set("nothing to plot: the history holds no run");
    if (br_history_suite_runs(h, 0) != h->n_runs) {
        char suites[512];
        br_history_suite_list(suites, sizeof suites, h);
        return br_error_set("the history holds several suites (%s); --plot draws one: choose it "
                            "with --suite NAME",
                            suites);
    }
    hview v;
    panel1 p1;
    int rc = -1, *drawn = NULL;
    if (view_build(&v, h, 0, h->n_runs, 0) != 0)
        return -1;
    if (panel1_setup(&p1, &v) != 0) {
        view_dispose(&v);
        return -1;
    }
    if (!(drawn = calloc(v.n_rows + 1, sizeof *drawn))) {
        br_error_set("out of memory");
        goto done;
    }
    const br_run *r = v.newest;
    const char *suite = r->suite_name ? r->suite_name : "?";
    fprintf(f,
            "# benchrun history --plot: suite '%s', %zu run(s) from %s (benchrun %s)\n"
            "# self-contained: run it with `gnuplot FILE`\n",
            suite, v.n, h->dir ? h->dir : "?", BR_VERSION);
    fputs("set encoding utf8\n"
          "set terminal svg size 1200,900 dynamic enhanced font \"Sans,11\" background rgb "
          "\"white\"\nset output ",
          f);
    put_gp_string(f, svg_path);
    fputs("\n\n", f);
    if (panel1_data(f, &p1, &v) != 0)
        goto done;
    double ylo, yhi;
    size_t n_lines = panel2_data(f, &v, drawn, &ylo, &yhi);

    char title[1024];
    if (r->suite_description && r->suite_description[0])
        snprintf(title, sizeof title, "benchrun history: %s - %s", suite, r->suite_description);
    else
        snprintf(title, sizeof title, "benchrun history: %s", suite);
    fputs("\nset grid\nset multiplot layout 2,1 title ", f);
    put_gp_string(f, title);
    fputs(" noenhanced\n", f);
    panel1_commands(f, &p1, &v);
    panel2_commands(f, &v, drawn, n_lines, ylo, yhi);
    fputs("\nunset multiplot\nunset output\n", f);
    rc = ferror(f) ? br_error_set("cannot write the gnuplot script: %s", strerror(errno)) : 0;
done:
    free(drawn);
    free(p1.combos);
    free(p1.drawn);
    view_dispose(&v);
    return rc;
}

int br_history_have_gnuplot(void) {
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/bin:/bin";
    char buf[4096];
    for (const char *p = path;;) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s%sgnuplot", (int)len, len ? p : ".", len ? "/" : "/");
        if (access(buf, X_OK) == 0)
            return 1;
        if (!end)
            return 0;
        p = end + 1;
    }
}

int br_history_plot(const br_history *h, const char *svg_path) {
    if (!br_history_have_gnuplot())
        return br_error_set("benchrun history --plot needs gnuplot (apt-get install "
                            "gnuplot-nox); the table above is complete without it");
    for (const char *s = svg_path; *s; s++) {
        if ((unsigned char)*s < 0x20)
            return br_error_set("--plot %s: a control character in the file name", svg_path);
    }
    int rc = -1, fd = -1, svg_fd = -1;
    FILE *f = NULL;
    const char *tmpdir = getenv("TMPDIR");
    char *script = br_strfmt("%s/benchrun-history-XXXXXX.gp", tmpdir && *tmpdir ? tmpdir : "/tmp");
    char *tmp_svg = br_strfmt("%s.XXXXXX", svg_path);
    if (!script || !tmp_svg)
        goto done;
    if ((svg_fd = mkstemp(tmp_svg)) < 0) {
        br_error_set("--plot %s: cannot create %s: %s", svg_path, tmp_svg, strerror(errno));
        free(tmp_svg);
        tmp_svg = NULL;
        goto done;
    }
    /* mkstemp made it 0600; the plot gets the mode a new file would. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(svg_fd, 0666 & ~mask) != 0) {
        br_error_set("--plot %s: cannot set the mode of %s: %s", svg_path, tmp_svg,
                     strerror(errno));
        close(svg_fd);
        goto done;
    }
    close(svg_fd);
    if ((fd = mkstemps(script, 3)) < 0 || !(f = fdopen(fd, "w"))) {
        br_error_set("cannot create a temporary gnuplot script %s: %s", script, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(script);
        }
        free(script);
        script = NULL;
        goto done;
    }
    fd = -1;
    int wrc = br_history_plot_script(f, h, tmp_svg);
    if (fclose(f) != 0 && wrc == 0)
        wrc = br_error_set("cannot write the gnuplot script %s: %s", script, strerror(errno));
    f = NULL;
    if (wrc != 0)
        goto done;
    char *argv[] = {"gnuplot", script, NULL};
    pid_t pid;
    int e = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    if (e != 0) {
        br_error_set("cannot run gnuplot: %s", strerror(e));
        goto done;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            br_error_set("waiting for gnuplot: %s", strerror(errno));
            goto done;
        }
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (WIFEXITED(st))
            br_error_set("gnuplot failed (exit status %d) drawing %s; its messages are above",
                         WEXITSTATUS(st), svg_path);
        else
            br_error_set("gnuplot was killed by signal %d drawing %s", WTERMSIG(st), svg_path);
        goto done;
    }
    struct stat sb;
    if (stat(tmp_svg, &sb) != 0 || sb.st_size == 0) {
        br_error_set("gnuplot wrote nothing drawing %s", svg_path);
        goto done;
    }
    if (rename(tmp_svg, svg_path) != 0) {
        br_error_set("--plot %s: cannot rename %s over it: %s", svg_path, tmp_svg, strerror(errno));
        goto done;
    }
    free(tmp_svg);
    tmp_svg = NULL;
    rc = 0;
done:
    if (f)
        fclose(f);
    if (script) {
        unlink(script);
        free(script);
    }
    if (tmp_svg) {
        unlink(tmp_svg);
        free(tmp_svg);
    }
    return rc;
}
