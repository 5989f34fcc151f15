/* SPDX-License-Identifier: Apache-2.0 */
/* The rows of the index: a file's runs and their cases'
 * summaries written (br_index_put_file), and read back as runs
 * (br_index_runs). Enums are stored by their names (model/types.h's
 * tables), so that the index reads as the JSON does. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/name.h"
#include "base/util.h"
#include "index_impl.h"

#define SEP "\x1f" /* between names in one column */

/* ---- writing ------------------------------------------------------------------------ */

static int run_sql(br_index *ix, const char *sql, const char *name) {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
        rc = sqlite3_step(st);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : br_index_fail(ix, "writing the index");
}

/* names[0..n) joined by SEP (caller frees). */
static char *join(const char *const *names, size_t stride, size_t n) {
    size_t len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(*(const char *const *)((const char *)names + i * stride)) + 1;
    char *s = malloc(len);
    if (!s) {
        br_error_nomem();
        return NULL;
    }
    s[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i)
            strcat(s, SEP);
        strcat(s, *(const char *const *)((const char *)names + i * stride));
    }
    return s;
}

static void bind_num(sqlite3_stmt *st, int i, double v) {
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static int put_run(br_index *ix, const char *name, size_t idx, const br_run *r, int64_t *id) {
    static const char *sql =
        "INSERT INTO run(file, idx, suite, date, git, unborn, sha, short_sha, branch, dirty,"
        " commit_time, has_device, device, cpu, metric, headline, peak_gbps, peak_gflops,"
        " params, kernels) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    char *params = join((const char *const *)r->param_names, sizeof *r->param_names, r->n_params);
    char *kernels =
        params ? join((const char *const *)&r->kernels[0].name, sizeof *r->kernels, r->n_kernels)
               : NULL;
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (!kernels)
        goto done;
    if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK) {
        br_index_fail(ix, "writing the index");
        goto done;
    }
    int k = 1;
    sqlite3_bind_text(st, k++, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, k++, (int64_t)idx);
    sqlite3_bind_text(st, k++, r->suite_name ? r->suite_name : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, k++, r->date, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, k++, r->git.present);
    sqlite3_bind_int(st, k++, r->git.unborn);
    sqlite3_bind_text(st, k++, r->git.sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, k++, r->git.short_sha, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, k++, r->git.branch, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, k++, r->git.dirty);
    sqlite3_bind_int64(st, k++, r->git.commit_time);
    sqlite3_bind_int(st, k++, r->has_device);
    sqlite3_bind_text(st, k++, r->device.name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, k++, r->host.cpu_model, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, k++, br_metric_name(r->metric), -1, SQLITE_STATIC);
    sqlite3_bind_text(st, k++, br_mode_name(r->measure.headline), -1, SQLITE_STATIC);
    bind_num(st, k++, r->peak_gbps);
    bind_num(st, k++, r->peak_gflops);
    sqlite3_bind_text(st, k++, params, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, k++, kernels, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) {
        br_index_fail(ix, "writing the index");
        goto done;
    }
    *id = sqlite3_last_insert_rowid(ix->db);
    rc = 0;
done:
    sqlite3_finalize(st);
    free(params);
    free(kernels);
    return rc;
}

/* The parameter values of c as "v1,v2,..." into buf. */
static void params_text(char *buf, size_t len, const br_case_result *c, size_t n) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t p = 0; p < n && used + 1 < len; p++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", p ? "," : "",
                                 (long long)c->params[p]);
}

static int put_cases(br_index *ix, int64_t id, const br_run *r) {
    static const char *sql =
        "INSERT INTO kase(run, ci, kernel, params, status, stage, message, bytes, flops, gbps,"
        " gflops, pct_peak, timed, n_samples, n, median, q1, q3, ci_low, ci_high, noise, min,"
        " max, mean, stddev, stop) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "writing the index");
    char params[32 * 24];
    for (size_t i = 0; i < r->n_cases; i++) {
        const br_case_result *c = &r->cases[i];
        const br_timing *t = br_case_headline(r, c);
        const br_stats *s = &t->stats;
        params_text(params, sizeof params, c, r->n_params);
        int k = 1;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, k++, id);
        sqlite3_bind_int64(st, k++, (int64_t)i);
        sqlite3_bind_int64(st, k++, (int64_t)c->kernel);
        sqlite3_bind_text(st, k++, params, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, k++, br_status_name(c->status), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, br_stage_name(c->stage), -1, SQLITE_STATIC);
        sqlite3_bind_text(st, k++, c->message, -1, SQLITE_STATIC);
        bind_num(st, k++, c->bytes);
        bind_num(st, k++, c->flops);
        bind_num(st, k++, c->gbps);
        bind_num(st, k++, c->gflops);
        bind_num(st, k++, c->pct_peak);
        sqlite3_bind_int(st, k++, t->present);
        sqlite3_bind_int64(st, k++, (int64_t)t->n_samples);
        sqlite3_bind_int64(st, k++, (int64_t)s->n);
        const double v[] = {s->median, s->q1,  s->q3,  s->ci_low, s->ci_high,
                            s->noise,  s->min, s->max, s->mean,   s->stddev};
        for (size_t j = 0; j < sizeof v / sizeof *v; j++)
            bind_num(st, k++, v[j]);
        sqlite3_bind_text(st, k++, br_stop_name(t->stop), -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_DONE) {
            sqlite3_finalize(st);
            return br_index_fail(ix, "writing the index");
        }
    }
    sqlite3_finalize(st);
    return 0;
}

int br_index_put_file(br_index *ix, const char *name, long long size, long long mtime_ns,
                      long long ino, const char *hash, const br_run *runs, size_t n,
                      const char *error) {
    if (run_sql(ix, "DELETE FROM kase WHERE run IN (SELECT id FROM run WHERE file = ?1)", name) ||
        run_sql(ix, "DELETE FROM run WHERE file = ?1", name) ||
        run_sql(ix, "DELETE FROM file WHERE name = ?1", name))
        return -1;
    if (!hash)
        return 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(ix->db,
                           "INSERT INTO file(name, size, mtime_ns, ino, hash, error) "
                           "VALUES(?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "writing the index");
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, size);
    sqlite3_bind_int64(st, 3, mtime_ns);
    sqlite3_bind_int64(st, 4, ino);
    sqlite3_bind_text(st, 5, hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, error, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return br_index_fail(ix, "writing the index");
    for (size_t i = 0; runs && i < n; i++) {
        int64_t id;
        if (put_run(ix, name, i, &runs[i], &id) != 0 || put_cases(ix, id, &runs[i]) != 0)
            return -1;
    }
    return 0;
}

/* ---- reading -------------------------------------------------------------------------- */

static const char *text_of(sqlite3_stmt *st, int i) {
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? (const char *)t : "";
}

static double num_of(sqlite3_stmt *st, int i) {
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* Values read back are checked before use: the index is never trusted
 * (index.h). Each returns 1 when the value is one the index could hold. */

/* A flag: 0 or 1. */
static int flag_ok(sqlite3_stmt *st, int i) {
    int64_t v = sqlite3_column_int64(st, i);
    return sqlite3_column_type(st, i) == SQLITE_INTEGER && (v == 0 || v == 1);
}

/* A count: an integer in [0, 2^40]. */
static int count_ok(sqlite3_stmt *st, int i) {
    int64_t v = sqlite3_column_int64(st, i);
    return sqlite3_column_type(st, i) == SQLITE_INTEGER && v >= 0 && v <= ((int64_t)1 << 40);
}

/* A number: missing (NaN) or finite, and not negative when `nonneg`. */
static int num_ok(double v, int nonneg) {
    return isnan(v) || (isfinite(v) && (!nonneg || v >= 0));
}

/* A name of table t, or (when may_be_null) none. */
static int name_ok(const br_name *t, sqlite3_stmt *st, int i, int may_be_null) {
    int v;
    if (!sqlite3_column_text(st, i))
        return may_be_null;
    return br_name_find(&v, t, text_of(st, i)) == 0;
}

/* A results file's name, as the sync stores it: "NAME.json", no '/',
 * not starting with '.' (so that DIR/NAME stays in DIR). */
static int file_name_ok(const char *name) {
    size_t n = strlen(name);
    return n > 5 && name[0] != '.' && !strchr(name, '/') && strcmp(name + n - 5, ".json") == 0;
}

/* Split `text` at SEP into a new array *out of *n strings. */
static int split(char ***out, size_t *n, const char *text) {
    *out = NULL;
    *n = 0;
    if (!*text)
        return 0;
    size_t cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == SEP[0];
    char **v = calloc(cap, sizeof *v);
    if (!v)
        return br_error_nomem();
    const char *p = text;
    for (size_t i = 0; i < cap; i++) {
        const char *e = strchr(p, SEP[0]);
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (!(v[i] = malloc(len + 1))) {
            for (size_t j = 0; j < i; j++)
                free(v[j]);
            free(v);
            return br_error_nomem();
        }
        memcpy(v[i], p, len);
        v[i][len] = '\0';
        p = e ? e + 1 : p + len;
    }
    *out = v;
    *n = cap;
    return 0;
}

static int name_value(const br_name *t, const char *text, int otherwise) {
    int v;
    return br_name_find(&v, t, text) == 0 ? v : otherwise;
}

/* Whether a run row's values are ones the index could hold. */
static int run_row_ok(sqlite3_stmt *st) {
    return file_name_ok(text_of(st, 1)) && count_ok(st, 2) && flag_ok(st, 5) && flag_ok(st, 6) &&
           flag_ok(st, 10) && flag_ok(st, 12) && name_ok(br_metric_names, st, 15, 0) &&
           name_ok(br_mode_names, st, 16, 0) && num_ok(num_of(st, 17), 1) &&
           num_ok(num_of(st, 18), 1);
}

/* One run row (SELECT of read_runs) into *r. */
static int fill_run(br_run *r, sqlite3_stmt *st) {
    if (!(r->suite_name = br_strdup(text_of(st, 3))))
        return -1;
    snprintf(r->date, sizeof r->date, "%s", text_of(st, 4));
    r->git.present = sqlite3_column_int(st, 5);
    r->git.unborn = sqlite3_column_int(st, 6);
    snprintf(r->git.sha, sizeof r->git.sha, "%s", text_of(st, 7));
    snprintf(r->git.short_sha, sizeof r->git.short_sha, "%s", text_of(st, 8));
    snprintf(r->git.branch, sizeof r->git.branch, "%s", text_of(st, 9));
    r->git.dirty = sqlite3_column_int(st, 10);
    r->git.commit_time = sqlite3_column_int64(st, 11);
    r->has_device = sqlite3_column_int(st, 12);
    snprintf(r->device.name, sizeof r->device.name, "%s", text_of(st, 13));
    snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "%s", text_of(st, 14));
    r->metric = (br_metric)name_value(br_metric_names, text_of(st, 15), BR_METRIC_NONE);
    r->measure.headline = (br_mode)name_value(br_mode_names, text_of(st, 16), BR_MODE_COLD);
    r->peak_gbps = num_of(st, 17);
    r->peak_gflops = num_of(st, 18);
    r->compile_ns = NAN;
    char **kernels = NULL;
    size_t n_kernels = 0;
    if (split(&r->param_names, &r->n_params, text_of(st, 19)) != 0 ||
        split(&kernels, &n_kernels, text_of(st, 20)) != 0)
        return -1;
    r->kernels = calloc(n_kernels + 1, sizeof *r->kernels);
    if (!r->kernels) {
        for (size_t i = 0; i < n_kernels; i++)
            free(kernels[i]);
        free(kernels);
        return br_error_nomem();
    }
    for (size_t i = 0; i < n_kernels; i++)
        r->kernels[i].name = kernels[i];
    r->n_kernels = n_kernels;
    free(kernels);
    return 0;
}

/* Whether a case row's values are ones the index could hold for run r. */
static int case_row_ok(sqlite3_stmt *st, const br_run *r) {
    if (!count_ok(st, 2) || (size_t)sqlite3_column_int64(st, 2) >= r->n_kernels ||
        !name_ok(br_status_names, st, 4, 0) || !name_ok(br_stage_names, st, 5, 1) ||
        !flag_ok(st, 12) || !count_ok(st, 13) || !count_ok(st, 14) ||
        !name_ok(br_stop_names, st, 25, 1))
        return 0;
    for (int i = 7; i <= 11; i++) /* bytes, flops, gbps, gflops, % of peak */
        if (!num_ok(num_of(st, i), 1))
            return 0;
    for (int i = 15; i <= 24; i++) /* the statistics (a CI bound may be negative) */
        if (!num_ok(num_of(st, i), i != 18 && i != 19))
            return 0;
    return 1;
}

/* One case row (SELECT of read_cases, from column 2 on) into *c of run r;
 * its parameter values must be whole numbers, at most one per parameter. */
static int fill_case(br_case_result *c, const br_run *r, sqlite3_stmt *st, br_index *ix) {
    c->kernel = (size_t)sqlite3_column_int64(st, 2);
    c->params = calloc(r->n_params + 1, sizeof *c->params);
    if (!c->params)
        return br_error_nomem();
    const char *p = text_of(st, 3);
    for (size_t i = 0; *p; i++) {
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (i >= r->n_params || end == p || errno || (*end && *end != ','))
            return br_index_bad_value(ix, "a case's parameter values");
        c->params[i] = v;
        p = *end == ',' ? end + 1 : end;
    }
    c->status = (br_case_status)name_value(br_status_names, text_of(st, 4), BR_STATUS_FAILED);
    c->stage = sqlite3_column_text(st, 5)
                   ? (br_stage)name_value(br_stage_names, text_of(st, 5), BR_STAGE_NONE)
                   : BR_STAGE_NONE;
    if (sqlite3_column_text(st, 6) && !(c->message = br_strdup(text_of(st, 6))))
        return -1;
    c->bytes = num_of(st, 7);
    c->flops = num_of(st, 8);
    c->gbps = num_of(st, 9);
    c->gflops = num_of(st, 10);
    c->pct_peak = num_of(st, 11);
    c->speedup = NAN;
    br_timing *t = (br_timing *)br_case_headline(r, c);
    t->present = sqlite3_column_int(st, 12);
    t->n_samples = (size_t)sqlite3_column_int64(st, 13);
    br_stats *s = &t->stats;
    s->n = (size_t)sqlite3_column_int64(st, 14);
    double *v[] = {&s->median, &s->q1,  &s->q3,  &s->ci_low, &s->ci_high,
                   &s->noise,  &s->min, &s->max, &s->mean,   &s->stddev};
    for (size_t j = 0; j < sizeof v / sizeof *v; j++)
        *v[j] = num_of(st, 15 + (int)j);
    s->iqr = s->q3 - s->q1;
    int stop = BR_STOP_NONE;
    if (sqlite3_column_text(st, 25))
        br_name_find(&stop, br_stop_names, text_of(st, 25));
    t->stop = (br_stop)stop;
    return 0;
}

typedef struct id_pos {
    int64_t id;
    size_t pos;
} id_pos;

static int cmp_id(const void *pa, const void *pb) {
    const id_pos *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The runs (of `suite`, or all) into *out, *ids (sorted by id). */
static int read_runs(br_index_run **out, size_t *n_out, id_pos **ids, br_index *ix,
                     const char *suite) {
    sqlite3_stmt *st = NULL;
    const char *sql = suite ? "SELECT * FROM run WHERE suite = ?1 ORDER BY file, idx"
                            : "SELECT * FROM run ORDER BY file, idx";
    if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "reading the index");
    if (suite)
        sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n_out == cap) {
            cap = cap ? 2 * cap : 64;
            br_index_run *g = realloc(*out, cap * sizeof *g);
            id_pos *gi = g ? realloc(*ids, cap * sizeof *gi) : NULL;
            if (g)
                *out = g;
            if (!gi) {
                sqlite3_finalize(st);
                return br_error_nomem();
            }
            *ids = gi;
        }
        br_index_run *r = &(*out)[*n_out];
        memset(r, 0, sizeof *r);
        (*ids)[*n_out] = (id_pos){sqlite3_column_int64(st, 0), *n_out};
        (*n_out)++;
        r->index = (size_t)sqlite3_column_int64(st, 2);
        if (!run_row_ok(st)) {
            sqlite3_finalize(st);
            return br_index_bad_value(ix, "a run's row");
        }
        if (!(r->path = br_path_join(ix->dir, text_of(st, 1))) || fill_run(&r->run, st) != 0) {
            sqlite3_finalize(st);
            return -1;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return br_index_fail(ix, "reading the index");
    if (*n_out > 1)
        qsort(*ids, *n_out, sizeof **ids, cmp_id);
    return 0;
}

/* Append one case to run r (growing its array by doubling: *cap). */
static br_case_result *new_case(br_run *r, size_t *cap) {
    if (r->n_cases == *cap) {
        size_t want = *cap ? 2 * *cap : 16;
        br_case_result *g = realloc(r->cases, want * sizeof *g);
        if (!g) {
            br_error_nomem();
            return NULL;
        }
        r->cases = g;
        *cap = want;
    }
    br_case_result *c = &r->cases[r->n_cases++];
    memset(c, 0, sizeof *c);
    return c;
}

static int read_cases(br_index_run *runs, size_t n, const id_pos *ids, br_index *ix,
                      const char *suite) {
    sqlite3_stmt *st = NULL;
    const char *sql = suite ? "SELECT * FROM kase WHERE run IN (SELECT id FROM run WHERE suite = "
                              "?1) ORDER BY run, ci"
                            : "SELECT * FROM kase ORDER BY run, ci";
    if (sqlite3_prepare_v2(ix->db, sql, -1, &st, NULL) != SQLITE_OK)
        return br_index_fail(ix, "reading the index");
    if (suite)
        sqlite3_bind_text(st, 1, suite, -1, SQLITE_STATIC);
    int64_t last = -1;
    br_run *r = NULL;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        if (id != last) {
            id_pos key = {id, 0};
            const id_pos *f = bsearch(&key, ids, n, sizeof *ids, cmp_id);
            r = f ? &runs[f->pos].run : NULL;
            cap = r ? r->n_cases : 0;
            last = id;
        }
        /* A case of no run, out of order, or with a value the index
         * could not hold: damage. */
        const char *bad = !r ? "a case of no run"
                          : sqlite3_column_int64(st, 1) != (int64_t)r->n_cases
                              ? "a case out of order"
                          : !case_row_ok(st, r) ? "a case's row"
                                                : NULL;
        if (bad) {
            sqlite3_finalize(st);
            return br_index_bad_value(ix, bad);
        }
        br_case_result *c = new_case(r, &cap);
        if (!c || fill_case(c, r, st, ix) != 0) {
            sqlite3_finalize(st);
            return -1;
        }
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : br_index_fail(ix, "reading the index");
}

int br_index_runs(br_index_run **out, size_t *n_out, br_index *ix, const char *suite) {
    id_pos *ids = NULL;
    *out = NULL;
    *n_out = 0;
    ix->trouble = IX_FINE;
    if (br_index_exec(ix, "BEGIN") != 0)
        return -1;
    int rc =
        read_runs(out, n_out, &ids, ix, suite) == 0 && read_cases(*out, *n_out, ids, ix, suite) == 0
            ? 0
            : -1;
    sqlite3_exec(ix->db, "COMMIT", NULL, NULL, NULL);
    free(ids);
    if (rc != 0) {
        br_index_runs_free(*out, *n_out);
        *out = NULL;
        *n_out = 0;
    }
    return rc;
}

void br_index_runs_free(br_index_run *runs, size_t n) {
    for (size_t i = 0; runs && i < n; i++) {
        br_run_dispose(&runs[i].run);
        free(runs[i].path);
    }
    free(runs);
}
