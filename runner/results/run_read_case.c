/* SPDX-License-Identifier: Apache-2.0 */
/* One case of a results document read back (case_json.h's reader, shared
 * with the worker's case message): its timings with their samples, clocks,
 * medians of runs and intervals, its energy, parameters, device and wall
 * time. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/error.h"
#include "base/util.h"
#include "case_columns.h"
#include "case_json.h"
#include "json_checked.h"
#include "model/stats.h"
#include "run_read_impl.h"

/* A per-sample column of a timing: the jansson array a, or the numbers
 * v[0..n) that were lifted out of the case's text (case_columns.h; a is then
 * the empty array left in their place). */
typedef struct column {
    const json_t *a;
    const double *v;
    size_t n;
} column;

/* The lifted columns of the timing being read: which timing, of what. */
typedef struct lifted {
    const br_case_columns *cols;
    int timing;
} lifted;

/* obj[the key of column k] as a column (req: REQ or OPT); out->a NULL when
 * optional and absent or null. */
static int get_column(br_json_ctx *c, const json_t *o, br_case_column k, int req, const lifted *l,
                      column *out) {
    json_t *a;
    *out = (column){0};
    if (br_json_get_container(c, o, br_case_column_keys[k], req, JSON_ARRAY, &a) != 0)
        return -1;
    out->a = a;
    if (a && json_array_size(a) == 0)
        out->v = br_case_columns_get(l->cols, l->timing, k, &out->n);
    return 0;
}

static size_t column_size(const column *k) {
    return k->v ? k->n : json_array_size(k->a);
}

/* Entry i of k: 1 a number (*x), 0 null, -1 anything else (*v, for the
 * message). */
static int column_at(const column *k, size_t i, double *x, const json_t **v) {
    if (k->v) {
        *x = k->v[i];
        return 1;
    }
    *v = json_array_get(k->a, i);
    if (json_is_number(*v)) {
        *x = json_number_value(*v);
        return 1;
    }
    return json_is_null(*v) ? 0 : -1;
}

/* Fail at key[i] (the path pushed only now: most columns have no error,
 * and formatting the path of each entry cost more than reading it). */
__attribute__((format(printf, 4, 5))) static int fail_at(br_json_ctx *c, const char *key, size_t i,
                                                         const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    br_json_push_key(c, key);
    br_json_push_index(c, i);
    return br_json_fail(c, "%s", msg);
}

/* Column k of o: an optional array of n per-sample values into *out (NULL
 * when absent or null; else newly allocated). `finite` 1: every entry a
 * finite number; 0: a number or null (NAN). Then *median is the median of
 * its finite entries (br_stats_finite_median); NAN without the array. */
static int load_sample_array(br_json_ctx *c, const json_t *o, br_case_column k, size_t n,
                             int finite, const lifted *l, double **out, double *median) {
    column a;
    const char *key = br_case_column_keys[k];
    *out = NULL;
    *median = NAN;
    if (get_column(c, o, k, OPT, l, &a) != 0)
        return -1;
    if (!a.a)
        return 0;
    size_t m = column_size(&a);
    if (m != n)
        return br_json_fail_key(
            c, key, "expected %zu values (one per sample in samples_ns) or null, found %zu", n, m);
    if (!(*out = calloc(n ? n : 1, sizeof **out)))
        return br_json_fail(c, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *v = NULL;
        double x = NAN;
        int got = column_at(&a, i, &x, &v);
        if (finite && got != 1)
            return fail_at(c, key, i, "expected a number, found %s", br_json_kind(v));
        if (finite && !isfinite(x))
            return fail_at(c, key, i, "expected a finite number, found %.17g", x);
        if (got < 0)
            return fail_at(c, key, i, "expected a number or null, found %s", br_json_kind(v));
        (*out)[i] = got ? x : NAN;
    }
    *median = br_stats_finite_median(*out, n);
    return 0;
}

/* obj["breakdown"]: the per-operation statistics of a timing (NULL when
 * absent or null). */
static int load_breakdown(br_json_ctx *c, const json_t *o, br_timing *t) {
    json_t *a;
    if (br_json_get_container(c, o, "breakdown", OPT, JSON_ARRAY, &a) != 0)
        return -1;
    if (!a)
        return 0;
    size_t m = json_array_size(a);
    if (!(t->breakdown = calloc(m ? m : 1, sizeof *t->breakdown)))
        return br_json_fail(c, "out of memory");
    size_t old = br_json_push_key(c, "breakdown");
    for (size_t i = 0; i < m; i++) {
        const json_t *x = json_array_get(a, i);
        br_op_stat *op = &t->breakdown[i];
        size_t at = br_json_push_index(c, i);
        t->n_breakdown = i + 1; /* op->name is freed with the timing from here on */
        op->per_exec = op->median_ns = op->share = NAN;
        if (!json_is_object(x))
            return br_json_fail(c, "expected an object, found %s", br_json_kind(x));
        if (br_json_get_dup(c, x, "name", REQ, &op->name) ||
            GET_NAME(c, x, "kind", REQ, br_op_kind_names, 0, &op->kind) ||
            br_json_get_size(c, x, "count", REQ, &op->count) ||
            br_json_get_number(c, x, "per_execution", OPT, &op->per_exec) ||
            br_json_get_number(c, x, "median_ns", OPT, &op->median_ns) ||
            br_json_get_number(c, x, "share", OPT, &op->share))
            return -1;
        br_json_pop(c, at);
    }
    br_json_pop(c, old);
    return 0;
}

/* The clock and GPU-clock data of a timing: from schema 4 on, "clock" (required),
 * the per-sample arrays (each optional; n entries when present), "incomplete"
 * and "breakdown"; before it, the events clock for a GPU case and the monotonic
 * clock for a host one, nothing else. */
static int load_timing_clocks(br_json_ctx *c, const json_t *o, br_timing *t, size_t n,
                              br_backend backend, const lifted *l) {
    t->event_median_ns = t->kernel_median_ns = t->span_median_ns = t->ops_median = NAN;
    if (c->schema < 4) {
        t->clock = backend == BR_BACKEND_GPU ? BR_CLOCK_EVENTS : BR_CLOCK_MONOTONIC;
        return 0;
    }
    return GET_NAME(c, o, "clock", REQ, br_clock_names, 0, &t->clock) ||
                   load_sample_array(c, o, BR_COLUMN_EVENT_NS, n, 1, l, &t->event_ns,
                                     &t->event_median_ns) ||
                   load_sample_array(c, o, BR_COLUMN_KERNEL_NS, n, 0, l, &t->kernel_ns,
                                     &t->kernel_median_ns) ||
                   load_sample_array(c, o, BR_COLUMN_SPAN_NS, n, 0, l, &t->span_ns,
                                     &t->span_median_ns) ||
                   load_sample_array(c, o, BR_COLUMN_OPS, n, 0, l, &t->ops, &t->ops_median) ||
                   br_json_get_count(c, o, "incomplete", &t->n_incomplete) ||
                   br_json_get_count(c, o, "other_stream_ops", &t->n_other_stream) ||
                   br_json_get_count(c, o, "other_context_ops", &t->n_other_context) ||
                   br_json_get_dup(c, o, "escaped_op", OPT, &t->escaped_op) ||
                   load_breakdown(c, o, t)
               ? -1
               : 0;
}

/* The column a (at `key`) as n finite numbers > 0 (ns) into out[0..n). */
static int load_ns(br_json_ctx *c, const column *a, const char *key, double *out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const json_t *v = NULL;
        if (column_at(a, i, &out[i], &v) != 1)
            return fail_at(c, key, i, "expected a number, found %s", br_json_kind(v));
        if (!isfinite(out[i]) || !(out[i] > 0.0))
            return fail_at(c, key, i, "expected a number > 0 (ns), found %.17g", out[i]);
    }
    return 0;
}

/* The per-sample column k (present) of numbers >= 0 in `unit` ("sm_mhz_samples",
 * "cpu_mhz_samples" in MHz, "switches" in context switches) of a timing of n
 * samples into *dst. */
static int load_mhz(br_json_ctx *c, const column *a, br_case_column k, const char *unit,
                    double **dst, size_t n) {
    const char *key = br_case_column_keys[k];
    size_t m = column_size(a);
    int any_mhz = 0; /* a host timing's column is all null: kept as NULL (model/run.h) */
    for (size_t i = 0; i < m && !any_mhz; i++)
        any_mhz = a->v || !json_is_null(json_array_get(a->a, i));
    if (!any_mhz && m == n)
        return 0;
    if (m != n)
        return br_json_fail_key(
            c, key, "expected %zu values (one per sample in samples_ns) or null, found %zu", n, m);
    if (!(*dst = calloc(n ? n : 1, sizeof **dst)))
        return br_json_fail(c, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *v = NULL;
        double x = NAN;
        int got = column_at(a, i, &x, &v);
        if (got < 0)
            return fail_at(c, key, i, "expected a number or null, found %s", br_json_kind(v));
        if (got && !(x >= 0.0))
            return fail_at(c, key, i, "expected a number >= 0 (%s) or null, found %.17g", unit, x);
        (*dst)[i] = got ? x : NAN;
    }
    return 0;
}

/* A baseline timing's optional "run_medians" into t. */
static int load_run_medians(br_json_ctx *c, const json_t *o, br_timing *t, const lifted *l) {
    column medians;
    if (get_column(c, o, BR_COLUMN_RUN_MEDIANS, OPT, l, &medians) != 0)
        return -1;
    size_t m = medians.a ? column_size(&medians) : 0;
    if (m == 0)
        return 0;
    if (m > BR_RUN_MEDIANS_MAX)
        return br_json_fail_key(c, "run_medians", "expected at most %d values, found %zu",
                                BR_RUN_MEDIANS_MAX, m);
    if (!(t->run_medians = calloc(m, sizeof *t->run_medians)))
        return br_json_fail(c, "out of memory");
    t->n_run_medians = m;
    return load_ns(c, &medians, "run_medians", t->run_medians, m);
}

/* A timing that stopped on ci_t: its interval of the median is the log-t
 * one the rule judged (model/run.h br_timing_stats). A file whose samples
 * cannot give one (fewer than 3, one not positive) keeps the
 * order-statistics interval: the reader is lenient there. */
static void log_t_ci(br_timing *t) {
    if (t->stop == BR_STOP_CI_T && t->n_samples >= BR_STATS_T_FIRST)
        (void)br_stats_set_log_t_ci(&t->stats, t->samples, t->n_samples);
}

/* One timing (an object: null was handled by the caller) of a case of
 * `backend` into *t. */
static int load_timing(br_json_ctx *c, const json_t *o, br_timing *t, br_backend backend,
                       const lifted *l) {
    column samples, mhz, cpu_mhz, switches;
    int stop;
    if (get_column(c, o, BR_COLUMN_SAMPLES_NS, REQ, l, &samples) != 0 ||
        get_column(c, o, BR_COLUMN_SM_MHZ, OPT, l, &mhz) != 0 ||
        get_column(c, o, BR_COLUMN_CPU_MHZ, OPT, l, &cpu_mhz) != 0 ||
        get_column(c, o, BR_COLUMN_SWITCHES, OPT, l, &switches) != 0)
        return -1;
    size_t n = column_size(&samples);
    t->present = 1;
    if (n > 0 && !(t->samples = calloc(n, sizeof *t->samples)))
        return br_json_fail(c, "out of memory");
    t->n_samples = n;
    if (load_ns(c, &samples, "samples_ns", t->samples, n) != 0 ||
        (mhz.a && load_mhz(c, &mhz, BR_COLUMN_SM_MHZ, "MHz", &t->sm_mhz, n) != 0) ||
        (cpu_mhz.a && load_mhz(c, &cpu_mhz, BR_COLUMN_CPU_MHZ, "MHz", &t->cpu_mhz, n) != 0) ||
        (switches.a &&
         load_mhz(c, &switches, BR_COLUMN_SWITCHES, "context switches", &t->switches, n) != 0) ||
        load_run_medians(c, o, t, l) != 0)
        return -1;
    if (load_timing_clocks(c, o, t, n, backend, l) != 0)
        return -1;
    if (n > 0 && br_stats_compute(&t->stats, t->samples, n) != 0)
        return br_json_fail(c, "cannot compute statistics: %s", br_error_get());
    return br_json_get_count(c, o, "n_throttled", &t->n_throttled) ||
                   br_json_get_number(c, o, "throttled_min_mhz", OPT, &t->throttled_min_mhz) ||
                   br_json_get_count(c, o, "reps", &t->reps) ||
                   br_json_get_bool(c, o, "graph", 0, &t->graph) ||
                   br_json_get_count(c, o, "warmup_runs", &t->warmup_runs) ||
                   br_json_get_number(c, o, "warmup_ns", OPT, &t->warmup_ns) ||
                   br_json_get_number(c, o, "measure_ns", OPT, &t->measure_ns) ||
                   GET_NAME(c, o, "stop_reason", OPT, br_stop_names, BR_STOP_NONE, &stop) ||
                   br_json_get_number(c, o, "tick_ns", OPT, &t->tick_ns) ||
                   br_json_get_number(c, o, "sm_mhz", OPT, &t->sm_mhz_median) ||
                   br_json_get_number(c, o, "cpu_mhz", OPT, &t->cpu_mhz_median) ||
                   br_json_get_count(c, o, "n_switched", &t->n_switched) ||
                   br_json_get_count(c, o, "n_slow", &t->n_slow) ||
                   br_json_get_number(c, o, "slow_min_mhz", OPT, &t->slow_min_mhz) ||
                   br_json_get_bool(c, o, "disturbed_kept", 0, &t->disturbed_kept)
               ? -1
               : (t->stop = (br_stop)stop, t->tick_ns = t->tick_ns > 0 ? t->tick_ns : 0,
                  log_t_ci(t), 0);
}

/* obj[key]: a timing of a case of `backend`, or null (absent); its
 * columns lifted into cols, as timing `timing` (NULL: none). */
static int load_timing_at(br_json_ctx *c, const json_t *o, const char *key, br_timing *t,
                          br_backend backend, const br_case_columns *cols, int timing) {
    json_t *v;
    if (br_json_get_container(c, o, key, OPT, JSON_OBJECT, &v) != 0)
        return -1;
    if (!v)
        return 0;
    size_t old = br_json_push_key(c, key);
    lifted l = {cols, timing};
    int rc = load_timing(c, v, t, backend, &l);
    br_json_pop(c, old);
    return rc;
}

/* The case's "energy" (an object or null) into k->energy. */
static int load_energy(br_json_ctx *c, const json_t *o, br_case_result *k) {
    json_t *v;
    if (br_json_get_container(c, o, "energy", OPT, JSON_OBJECT, &v) != 0)
        return -1;
    if (!v)
        return 0;
    br_energy *e = &k->energy;
    size_t old = br_json_push_key(c, "energy");
    int rc = br_json_get_number(c, v, "j_per_exec", REQ, &e->j_per_exec) ||
                     br_json_get_number(c, v, "watts", REQ, &e->watts) ||
                     br_json_get_number(c, v, "spread", OPT, &e->spread) ||
                     br_json_get_count(c, v, "windows", &e->windows) ||
                     br_json_get_number(c, v, "window_ns", OPT, &e->window_ns) ||
                     br_json_get_number(c, v, "executions", OPT, &e->executions)
                 ? -1
                 : 0;
    br_json_pop(c, old);
    e->present = rc == 0;
    return rc;
}

/* The case's "params": every run param as an integer, nothing else. */
static int load_case_params(br_json_ctx *c, const json_t *o, const br_run *r, br_case_result *k) {
    json_t *p;
    if (br_json_get_container(c, o, "params", REQ, JSON_OBJECT, &p) != 0)
        return -1;
    if (!(k->params = calloc(r->n_params ? r->n_params : 1, sizeof *k->params)))
        return br_json_fail(c, "out of memory");
    size_t old = br_json_push_key(c, "params");
    for (size_t i = 0; i < r->n_params; i++) {
        long long x;
        if (br_json_get_int(c, p, r->param_names[i], REQ, INT64_MIN, INT64_MAX, 0, &x) != 0)
            return -1;
        k->params[i] = (int64_t)x;
    }
    const char *key;
    json_t *v;
    json_object_foreach(p, key, v) {
        size_t i = 0;
        while (i < r->n_params && strcmp(r->param_names[i], key) != 0)
            i++;
        if (i == r->n_params)
            return br_json_fail_key(c, key, "not a param of this run (its \"params\" list)");
    }
    br_json_pop(c, old);
    return 0;
}

/* The case's "device" (absent or null: a one-device run, and older files). */
static int load_case_device(br_json_ctx *c, const json_t *o, br_case_result *k) {
    json_t *v;
    long long index = 0;
    const char *uuid = NULL;
    if (br_json_get_container(c, o, "device", OPT, JSON_OBJECT, &v) != 0)
        return -1;
    if (!v)
        return 0;
    size_t old = br_json_push_key(c, "device");
    if (br_json_get_int(c, v, "index", REQ, 0, 65535, 0, &index) != 0 ||
        br_json_get_string(c, v, "uuid", OPT, &uuid) != 0)
        return -1;
    if (uuid && strlen(uuid) >= sizeof k->device_uuid)
        return br_json_fail_key(c, "uuid", "expected a string of at most %zu bytes",
                                sizeof k->device_uuid - 1);
    br_json_pop(c, old);
    k->device_present = 1;
    k->device_index = (int)index;
    snprintf(k->device_uuid, sizeof k->device_uuid, "%s", uuid ? uuid : "");
    return 0;
}

/* The case's "wall" (absent or null: not measured, in older files too). */
static int load_wall(br_json_ctx *c, const json_t *o, br_case_wall *w) {
    json_t *v;
    if (br_json_get_container(c, o, "wall", OPT, JSON_OBJECT, &v) != 0)
        return -1;
    if (!v)
        return 0;
    size_t old = br_json_push_key(c, "wall");
    char key[32];
    for (size_t i = 0; i < BR_WALL_PHASES; i++) {
        snprintf(key, sizeof key, "%s_ns", br_wall_phase_names[i]);
        if (br_json_get_number(c, v, key, OPT, br_wall_phase_ptr(w, i)) != 0)
            return -1;
    }
    if (br_json_get_number(c, v, "total_ns", OPT, &w->total_ns) != 0)
        return -1;
    if (br_json_get_number(c, v, "began_ns", OPT, &w->began_ns) != 0)
        return -1;
    br_json_pop(c, old);
    w->present = 1;
    return 0;
}

/* One case (case_json.h). */
int br_json_case_read(br_json_ctx *c, const json_t *o, br_run *r, const br_json_name_index *sorted,
                      const br_case_columns *cols, br_case_result *k) {
    const char *kernel, *commit, *date;
    int backend;
    if (!json_is_object(o))
        return br_json_fail(c, "expected an object, found %s", br_json_kind(o));
    if (br_json_get_string(c, o, "kernel", REQ, &kernel) != 0)
        return -1;
    br_json_name_index key = {kernel, 0};
    const br_json_name_index *hit = NULL;
    if (r->n_kernels > 0) {
        /* The lowest index of that name (names are unique anyway). */
        const br_json_name_index *lo = sorted, *hi = sorted + r->n_kernels;
        while (lo < hi) {
            const br_json_name_index *mid = lo + (hi - lo) / 2;
            if (strcmp(mid->name, kernel) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < sorted + r->n_kernels && strcmp(lo->name, key.name) == 0)
            hit = lo;
    }
    if (!hit) {
        char q[80];
        br_json_quoted(q, sizeof q, kernel);
        return br_json_fail_key(c, "kernel", "unknown kernel %s (not in this run's \"kernels\")",
                                q);
    }
    k->kernel = hit->index;
    const br_run_kernel *rk = &r->kernels[k->kernel];
    if (load_case_params(c, o, r, k) != 0 ||
        GET_NAME(c, o, "backend", OPT, br_backend_names, -1, &backend) != 0)
        return -1;
    if (backend >= 0 && (br_backend)backend != rk->backend)
        return br_json_fail_key(
            c, "backend", "expected \"%s\" (the backend of kernel '%s'), found \"%s\"",
            br_backend_name(rk->backend), rk->name, br_backend_name((br_backend)backend));
    if (GET_NAME(c, o, "status", REQ, br_status_names, 0, &k->status) ||
        GET_NAME(c, o, "stage", OPT, br_stage_names, BR_STAGE_NONE, &k->stage) ||
        GET_NAME(c, o, "precision", OPT, br_precision_names, BR_PRECISION_NONE, &k->precision) ||
        br_json_get_dup(c, o, "message", OPT, &k->message) ||
        br_json_get_number(c, o, "bytes", OPT, &k->bytes) ||
        br_json_get_number(c, o, "flops", OPT, &k->flops) ||
        br_json_get_string(c, o, "commit", OPT, &commit) ||
        br_json_get_string(c, o, "date", OPT, &date))
        return -1;

    const char *run_sha = r->git.present && !r->git.unborn && r->git.sha[0] ? r->git.sha : NULL;
    if (commit && commit[0] && !(run_sha && strcmp(commit, run_sha) == 0) &&
        !(k->commit = br_strdup(commit)))
        return br_json_fail(c, "out of memory");
    if (date && date[0] && strcmp(date, r->date) != 0) {
        size_t n = strlen(date);
        if (n >= sizeof k->date)
            return br_json_fail_key(c, "date",
                                    "expected a string of at most %zu bytes, found %zu bytes",
                                    sizeof k->date - 1, n);
        memcpy(k->date, date, n + 1);
    }
    return load_timing_at(c, o, "cold", &k->cold, rk->backend, cols, BR_COLUMN_COLD) ||
                   load_timing_at(c, o, "batch", &k->batch, rk->backend, cols, BR_COLUMN_BATCH) ||
                   load_energy(c, o, k) || load_wall(c, o, &k->wall) || load_case_device(c, o, k)
               ? -1
               : 0;
}
