/* SPDX-License-Identifier: Apache-2.0 */
/* The results document of run_write.c read back into the
 * model of model/run.h with jansson, through the checked access of json_checked.h
 * (what is checked and rebuilt: run_read.h). */
#include "run_read.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "base/error.h"
#include "case_columns.h"
#include "case_json.h"
#include "case_spans.h"
#include "json_checked.h"
#include "shardinfo.h"
#include "model/stats.h"
#include "base/util.h"
#include "model/regression.h"

#include "run_read_impl.h"

/* Names accepted where a message lists them in another order than the
 * table, or only some of them. */
static const int headline_modes[] = {BR_MODE_COLD, BR_MODE_BATCH};
static const int gpu_clocks[] = {BR_CLOCK_EVENTS, BR_CLOCK_KERNEL};

/* --- run parts ----------------------------------------------------------------- */

/* "YYYY-MM-DDTHH:MM:SSZ" (UTC, as the json reporter writes commit_time) in
 * seconds since the epoch. Returns 0, or -1 when s is not such a time. */
static int parse_utc(const char *s, int64_t *out) {
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(s) != sizeof shape - 1)
        return -1;
    for (size_t i = 0; shape[i]; i++) {
        if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
            return -1;
    }
    int f[6];
    static const int at[6] = {0, 5, 8, 11, 14, 17}, width[6] = {4, 2, 2, 2, 2, 2};
    for (int i = 0; i < 6; i++) {
        f[i] = 0;
        for (int j = 0; j < width[i]; j++)
            f[i] = f[i] * 10 + (s[at[i] + j] - '0');
    }
    if (f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 || f[4] > 59 || f[5] > 59)
        return -1;
    struct tm tm = {0};
    tm.tm_year = f[0] - 1900;
    tm.tm_mon = f[1] - 1;
    tm.tm_mday = f[2];
    tm.tm_hour = f[3];
    tm.tm_min = f[4];
    tm.tm_sec = f[5];
    time_t t = timegm(&tm);
    struct tm back;
    if (!gmtime_r(&t, &back) || back.tm_mday != f[2] || back.tm_mon != f[1] - 1)
        return -1; /* e.g. February 30 */
    *out = (int64_t)t;
    return 0;
}

/* The optional git SHA at o[key] into out (40 hex digits; "" when absent).
 * Returns 0, or -1 after br_json_fail (not a SHA). */
static int get_sha(br_json_ctx *c, const json_t *o, const char *key, char out[41]) {
    const char *v = NULL;
    out[0] = '\0';
    if (br_json_get_string(c, o, key, OPT, &v) != 0)
        return -1;
    if (!v)
        return 0;
    size_t n = strspn(v, "0123456789abcdef");
    if (n != 40 || v[n])
        return br_json_fail_key(c, key, "expected 40 hexadecimal digits (a git object id)");
    memcpy(out, v, 41);
    return 0;
}

static int load_suite(br_json_ctx *c, const json_t *o, br_run *r) {
    return br_json_get_label(c, o, "name", &r->suite_name) ||
                   br_json_get_dup(c, o, "description", OPT, &r->suite_description) ||
                   br_json_get_dup(c, o, "path", OPT, &r->suite_path) ||
                   br_json_get_text(c, o, "hash", r->suite_hash, sizeof r->suite_hash) ||
                   GET_NAME(c, o, "metric", REQ, br_metric_names, 0, &r->metric)
               ? -1
               : 0;
}

static int load_measure(br_json_ctx *c, const json_t *o, br_run *r) {
    br_measure_cfg *m = &r->measure;
    return GET_NAME(c, o, "cache", REQ, br_cache_names, 0, &r->cache) ||
                   br_json_get_number(c, o, "warmup_ns", OPT, &r->warmup_ns) ||
                   GET_NAME(c, o, "mode", REQ, br_mode_names, BR_MODE_COLD, &m->mode) ||
                   GET_ONLY(c, o, "headline", REQ, br_mode_names, headline_modes, BR_MODE_COLD,
                            &m->headline) ||
                   br_json_get_bool(c, o, "hold", 0, &m->hold) ||
                   br_json_get_number(c, o, "throttle", OPT, &m->throttle) ||
                   br_json_get_count(c, o, "min_samples", &m->min_samples) ||
                   br_json_get_number(c, o, "min_time_ns", OPT, &m->min_time_ns) ||
                   br_json_get_number(c, o, "max_noise", OPT, &m->max_noise) ||
                   br_json_get_number(c, o, "timeout_ns", OPT, &m->timeout_ns) ||
                   br_json_get_count(c, o, "max_samples", &m->max_samples)
               ? -1
               : 0;
}

static int load_regression(br_json_ctx *c, const json_t *o, br_run *r) {
    br_regression_cfg *g = &r->regression;
    double keep;
    if (br_json_get_number(c, o, "threshold", REQ, &g->threshold) != 0 ||
        br_json_get_number(c, o, "alpha", REQ, &g->alpha) != 0 ||
        br_json_get_number(c, o, "keep", OPT, &keep) != 0)
        return -1;
    if (isnan(keep)) /* files written before regression.keep */
        keep = BR_DEFAULT_REGRESSION_KEEP;
    const char *e;
    if ((e = br_regression_keep_expects(keep)))
        return br_json_fail_key(c, "keep", "expected %s, found %.17g", e, keep);
    g->keep = (size_t)keep;
    if ((e = br_regression_threshold_expects(g->threshold)))
        return br_json_fail_key(c, "threshold", "expected %s, found %.17g", e, g->threshold);
    if ((e = br_regression_alpha_expects(g->alpha)))
        return br_json_fail_key(c, "alpha", "expected %s, found %.17g", e, g->alpha);
    return 0;
}

static int load_git(br_json_ctx *c, const json_t *o, br_run *r) {
    br_gitinfo *g = &r->git;
    const char *when;
    if (br_json_get_bool(c, o, "present", 0, &g->present) ||
        br_json_get_bool(c, o, "unborn", 0, &g->unborn) ||
        br_json_get_text(c, o, "sha", g->sha, sizeof g->sha) ||
        br_json_get_text(c, o, "short_sha", g->short_sha, sizeof g->short_sha) ||
        br_json_get_text(c, o, "branch", g->branch, sizeof g->branch) ||
        br_json_get_bool(c, o, "detached", 0, &g->detached) ||
        br_json_get_bool(c, o, "dirty", 0, &g->dirty) ||
        br_json_get_string(c, o, "commit_time", OPT, &when))
        return -1;
    if (when && parse_utc(when, &g->commit_time) != 0) {
        char q[80];
        br_json_quoted(q, sizeof q, when);
        return br_json_fail_key(
            c, "commit_time", "expected a UTC time like \"2026-11-18T11:06:40Z\" or null, found %s",
            q);
    }
    return 0;
}

/* "9.0" into major and minor. */
static int parse_cc(const char *s, int *major, int *minor) {
    int *part[2] = {major, minor};
    for (int i = 0; i < 2; i++) {
        long v = 0;
        int digits = 0;
        while (isdigit((unsigned char)*s) && digits < 6) {
            v = v * 10 + (*s++ - '0');
            digits++;
        }
        if (digits == 0 || (i == 0 ? *s != '.' : *s != '\0'))
            return -1;
        *part[i] = (int)v;
        s++;
    }
    return 0;
}

/* A clock written in whole MHz into kHz. */
static int get_mhz_as_khz(br_json_ctx *c, const json_t *o, const char *key, int *khz) {
    int mhz;
    if (br_json_get_cint(c, o, key, 0, INT_MAX / 1000, &mhz) != 0)
        return -1;
    *khz = mhz * 1000;
    return 0;
}

static int load_device(br_json_ctx *c, const json_t *o, br_run *r) {
    br_device *d = &r->device;
    r->has_device = 1;
    const char *cc;
    json_t *ecc;
    if (br_json_get_cint(c, o, "index", 0, INT_MAX, &d->index) ||
        br_json_get_text(c, o, "name", d->name, sizeof d->name) ||
        br_json_get_text(c, o, "uuid", d->uuid, sizeof d->uuid) ||
        br_json_get_string(c, o, "cc", OPT, &cc) ||
        br_json_get_cint(c, o, "sm_count", 0, INT_MAX, &d->sm_count) ||
        get_mhz_as_khz(c, o, "sm_clock_max_mhz", &d->sm_clock_khz) ||
        br_json_get_cint(c, o, "sm_clock_now_mhz", 0, INT_MAX, &d->sm_clock_now_mhz) ||
        get_mhz_as_khz(c, o, "mem_clock_mhz", &d->mem_clock_khz) ||
        br_json_get_cint(c, o, "bus_width_bits", 0, INT_MAX, &d->bus_width_bits) ||
        br_json_get_number(c, o, "peak_gbps", OPT, &d->peak_gbps) ||
        br_json_get_number(c, o, "measured_peak_gbps", OPT, &d->measured_peak_gbps) ||
        br_json_get_number(c, o, "peak_gflops_fp32", OPT, &d->peak_gflops) ||
        br_json_get_count(c, o, "l2_bytes", &d->l2_bytes) ||
        br_json_get_count(c, o, "global_mem_bytes", &d->global_mem_bytes) ||
        br_json_get_cint(c, o, "driver_version", 0, INT_MAX, &d->driver_version) ||
        br_json_get_cint(c, o, "runtime_version", 0, INT_MAX, &d->runtime_version) ||
        br_json_member(c, o, "ecc", OPT, &ecc))
        return -1;
    if (cc && parse_cc(cc, &d->cc_major, &d->cc_minor) != 0) {
        char q[80];
        br_json_quoted(q, sizeof q, cc);
        return br_json_fail_key(c, "cc", "expected a compute capability like \"9.0\", found %s", q);
    }
    if (ecc && !json_is_boolean(ecc))
        return br_json_fail_key(c, "ecc", "expected true, false or null, found %s",
                                br_json_kind(ecc));
    d->ecc = !ecc ? -1 : json_is_true(ecc);
    return 0;
}

static int load_host(br_json_ctx *c, const json_t *o, br_run *r) {
    br_host *h = &r->host;
    long long cpu;
    if (br_json_get_text(c, o, "cpu_model", h->cpu_model, sizeof h->cpu_model) ||
        br_json_get_cint(c, o, "logical_cores", 0, INT_MAX, &h->logical_cores) ||
        br_json_get_text(c, o, "governor", h->governor, sizeof h->governor) ||
        br_json_get_text(c, o, "hostname", h->hostname, sizeof h->hostname) ||
        br_json_get_int(c, o, "cpu", OPT, 0, INT_MAX, -1, &cpu) ||
        br_json_get_bool(c, o, "freq_scaling", -1, &h->freq_scaling) ||
        br_json_get_bool(c, o, "turbo", -1, &h->turbo))
        return -1;
    h->pinned = cpu >= 0;
    h->cpu = h->pinned ? (int)cpu : 0;
    return 0;
}

static int load_params(br_json_ctx *c, const json_t *a, br_run *r) {
    size_t n = json_array_size(a);
    if (n > BR_SUITE_MAX_PARAMS)
        return br_json_fail(c, "expected at most %d params, found %zu", BR_SUITE_MAX_PARAMS, n);
    r->param_names = calloc(n ? n : 1, sizeof *r->param_names);
    if (!r->param_names)
        return br_json_fail(c, "out of memory");
    r->n_params = n;
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(a, i);
        size_t old = br_json_push_index(c, i);
        if (br_json_name_value(c, v, &r->param_names[i]) != 0)
            return -1;
        const char *s = r->param_names[i];
        for (size_t j = 0; j < i; j++) {
            if (strcmp(r->param_names[j], s) == 0) {
                char q[80];
                br_json_quoted(q, sizeof q, s);
                return br_json_fail(c, "duplicate param %s (also at index %zu)", q, j);
            }
        }
        br_json_pop(c, old);
    }
    return 0;
}

/* A kernel name and its index, sorted by name to find kernels of cases. */

static int name_cmp(const void *a, const void *b) {
    const br_json_name_index *x = a, *y = b;
    int d = strcmp(x->name, y->name);
    return d ? d : (x->index > y->index) - (x->index < y->index);
}

/* Fill r->kernels from array a and *out_sorted (caller frees) with their
 * names sorted; duplicate names are an error. */
static int load_kernels(br_json_ctx *c, const json_t *a, br_run *r,
                        br_json_name_index **out_sorted) {
    size_t n = json_array_size(a);
    *out_sorted = NULL;
    r->kernels = calloc(n ? n : 1, sizeof *r->kernels);
    br_json_name_index *sorted = calloc(n ? n : 1, sizeof *sorted);
    if (!r->kernels || !sorted) {
        free(sorted);
        return br_json_fail(c, "out of memory");
    }
    *out_sorted = sorted;
    r->n_kernels = n;
    for (size_t i = 0; i < n; i++) {
        const json_t *k = json_array_get(a, i);
        br_run_kernel *rk = &r->kernels[i];
        size_t old = br_json_push_index(c, i);
        if (!json_is_object(k))
            return br_json_fail(c, "expected an object, found %s", br_json_kind(k));
        if (br_json_get_label(c, k, "name", &rk->name) ||
            br_json_get_dup(c, k, "source", OPT, &rk->source) ||
            GET_NAME(c, k, "backend", REQ, br_backend_names, BR_BACKEND_HOST, &rk->backend) ||
            get_sha(c, k, "source_sha", rk->source_sha))
            return -1;
        sorted[i] = (br_json_name_index){rk->name, i};
        br_json_pop(c, old);
    }
    qsort(sorted, n, sizeof *sorted, name_cmp);
    for (size_t i = 1; i < n; i++) {
        if (strcmp(sorted[i - 1].name, sorted[i].name) == 0) {
            char q[80];
            br_json_quoted(q, sizeof q, sorted[i].name);
            size_t old = br_json_push_index(c, sorted[i].index);
            br_json_fail_key(c, "name", "duplicate kernel %s (also kernels[%zu])", q,
                             sorted[i - 1].index);
            br_json_pop(c, old);
            return -1;
        }
    }
    return 0;
}

/* A case's param vector and index, sorted to number the combos. */
typedef struct combo_key {
    const int64_t *p;
    size_t n;
    size_t index;
} combo_key;

static int combo_cmp(const void *a, const void *b) {
    const combo_key *x = a, *y = b;
    for (size_t i = 0; i < x->n; i++) {
        if (x->p[i] != y->p[i])
            return x->p[i] < y->p[i] ? -1 : 1;
    }
    return (x->index > y->index) - (x->index < y->index);
}

/* Cases with equal param vectors share a combo; combos are numbered in the
 * order their first case appears. O(n log n). */
static int assign_combos(br_json_ctx *c, br_run *r) {
    size_t n = r->n_cases;
    if (n == 0)
        return 0;
    combo_key *keys = calloc(n, sizeof *keys);
    size_t *first = calloc(n, sizeof *first);
    if (!keys || !first) {
        free(keys);
        free(first);
        return br_json_fail(c, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        keys[i] = (combo_key){r->cases[i].params, r->n_params, i};
    qsort(keys, n, sizeof *keys, combo_cmp);
    size_t rep = 0;
    for (size_t j = 0; j < n; j++) {
        if (j == 0 || memcmp(keys[j].p, keys[j - 1].p, r->n_params * sizeof *keys[j].p) != 0)
            rep = keys[j].index; /* the lowest index of the group: it sorts first */
        first[keys[j].index] = rep;
    }
    size_t next = 0;
    for (size_t i = 0; i < n; i++)
        r->cases[i].combo = first[i] == i ? next++ : r->cases[first[i]].combo;
    free(keys);
    free(first);
    return 0;
}

/* The baseline the run was compared with ("comparison": {"baseline":
 * PATH}); the rest of the comparison is the gate's to make again. */
static int load_compared(br_json_ctx *c, const json_t *o, br_run *r) {
    return br_json_get_dup(c, o, "baseline", OPT, &r->compared_with);
}

/* "measured_gops" of "peak" (optional: {precision name: GFLOP/s}) into
 * r->measured_gops; a name that is no precision, or a value that is not a
 * positive number (null is "not measured"), is an error. */
static int load_measured_gops(br_json_ctx *c, const json_t *peak, br_run *r) {
    json_t *m = NULL;
    const char *name;
    json_t *v;
    if (br_json_get_container(c, peak, "measured_gops", OPT, JSON_OBJECT, &m) != 0)
        return -1;
    if (!m)
        return 0;
    size_t at = br_json_push_key(c, "measured_gops");
    json_object_foreach(m, name, v) {
        int p;
        double x = NAN;
        if (br_name_find(&p, br_precision_names, name) != 0 || p == BR_PRECISION_NONE)
            return br_json_fail_key(c, name, "not a precision (fp64, fp32, ..., int8-tensor)");
        if (!json_is_null(v)) {
            size_t k = br_json_push_key(c, name);
            if (br_json_number_value(c, v, &x) != 0)
                return -1;
            if (!(x > 0.0) || !isfinite(x))
                return br_json_fail(c, "expected a positive number, found %g", x);
            br_json_pop(c, k);
        }
        r->measured_gops[p] = x;
    }
    br_json_pop(c, at);
    return 0;
}

/* One recorded compute peak ("peak": {"compute": {NAME: {...}}}). */
static int load_compute_peak(br_json_ctx *c, const char *name, const json_t *o, br_run *r) {
    int p = 0;
    if (br_name_find(&p, br_precision_names, name) != 0 || p == BR_PRECISION_NONE) {
        char q[96];
        br_json_quoted(q, sizeof q, name);
        return br_json_fail(c,
                            "unknown precision %s (expected a name of a case's \"precision\": "
                            "\"fp32\", \"fp16-tensor\", ...)",
                            q);
    }
    if (!json_is_object(o))
        return br_json_fail_key(c, name, "expected an object, found %s", br_json_kind(o));
    br_compute_peak *k = &r->compute_peaks[p];
    char source[sizeof k->source];
    size_t at = br_json_push_key(c, name); /* a known name: safe in messages */
    int rc = br_json_get_number(c, o, "gflops", OPT, &k->gflops) ||
                     br_json_get_number(c, o, "ops_per_sm_clock", OPT, &k->ops_per_sm_clock) ||
                     br_json_get_number(c, o, "clock_mhz", OPT, &k->clock_mhz) ||
                     br_json_get_text(c, o, "source", source, sizeof source)
                 ? -1
                 : 0;
    br_json_pop(c, at);
    if (rc != 0)
        return -1;
    memcpy(k->source, source, sizeof source);
    k->present = 1;
    return 0;
}

static int load_peak(br_json_ctx *c, const json_t *o, br_run *r) {
    json_t *compute = NULL;
    if (GET_NAME(c, o, "kind", OPT, br_peak_names, BR_PEAK_THEORETICAL, &r->peak_kind) ||
        br_json_get_number(c, o, "gbps", OPT, &r->peak_gbps) ||
        br_json_get_number(c, o, "gflops", OPT, &r->peak_gflops) || load_measured_gops(c, o, r) ||
        br_json_get_container(c, o, "compute", OPT, JSON_OBJECT, &compute))
        return -1;
    const char *name;
    json_t *v;
    size_t at = br_json_push_key(c, "compute");
    json_object_foreach(compute, name, v) {
        if (load_compute_peak(c, name, v, r) != 0)
            return -1;
    }
    br_json_pop(c, at);
    return 0;
}

/* Case i of the array a, or with spans (the array then empty) parsed from
 * its span of the text, its per-sample columns lifted into cols first
 * (case_columns.h); NULL (error set) when that is not JSON. */
static json_t *case_at(br_json_ctx *c, json_t *a, size_t i, const char *text,
                       const br_case_spans *sp, br_case_columns *cols) {
    if (!sp)
        return json_incref(json_array_get(a, i));
    if (br_case_columns_lift(cols, text + sp->start[i], sp->end[i] - sp->start[i]) != 0)
        return NULL;
    json_error_t err;
    json_t *o = json_loadb(cols->text, cols->len, JSON_REJECT_DUPLICATES, &err);
    if (!o)
        br_json_fail(c, "%s", err.text);
    return o;
}

/* A run's "cases" (the array a) into r->cases, kernels found in `sorted`;
 * then the combos numbered. Each case's tree is freed once read (replaced
 * by null in a): the tree of a large document is several times its size,
 * and the cases' results then take its place instead of adding to it. */
static int load_cases(br_json_ctx *c, json_t *a, br_run *r, const br_json_name_index *sorted,
                      const char *text, const br_case_spans *sp) {
    size_t n = sp ? sp->n : json_array_size(a);
    br_case_columns cols = {0};
    int rc = -1;
    if (!(r->cases = calloc(n ? n : 1, sizeof *r->cases)))
        return br_json_fail(c, "out of memory");
    r->n_cases = n;
    size_t old = br_json_push_key(c, "cases");
    for (size_t i = 0; i < n; i++) {
        size_t at = br_json_push_index(c, i);
        json_t *o = case_at(c, a, i, text, sp, &cols);
        int case_rc = o ? br_json_case_read(c, o, r, sorted, sp ? &cols : NULL, &r->cases[i]) : -1;
        json_decref(o);
        if (case_rc != 0)
            goto done;
        if (!sp)
            json_array_set_new(a, i, json_null());
        br_json_pop(c, at);
    }
    br_json_pop(c, old);
    rc = assign_combos(c, r);
done:
    br_case_columns_free(&cols);
    return rc;
}

/* The members of a run but "kernels" and "cases", in file order: the key,
 * its JSON type, whether it is required (REQ_FROM_3: from schema 3 on), and
 * the function that reads an object or array, or for a string the offset of
 * the br_run member that gets a copy. */
enum { REQ_FROM_3 = 2 };
static const struct run_part {
    const char *key;
    json_type type;
    int req;
    int (*load)(br_json_ctx *c, const json_t *o, br_run *r);
    size_t text;
} run_parts[] = {
    {"suite", JSON_OBJECT, REQ, load_suite, 0},
    {"measure", JSON_OBJECT, REQ, load_measure, 0},
    {"peak", JSON_OBJECT, OPT, load_peak, 0},
    {"regression", JSON_OBJECT, REQ_FROM_3, load_regression, 0},
    {"git", JSON_OBJECT, OPT, load_git, 0},
    {"device", JSON_OBJECT, OPT, load_device, 0},
    {"gpu_skip_reason", JSON_STRING, OPT, NULL, offsetof(br_run, gpu_skip_reason)},
    {"interrupted", JSON_STRING, OPT, NULL, offsetof(br_run, interrupted)},
    {"host", JSON_OBJECT, OPT, load_host, 0},
    {"params", JSON_ARRAY, REQ, load_params, 0},
    {"comparison", JSON_OBJECT, OPT, load_compared, 0},
};
#define N_PARTS (sizeof run_parts / sizeof run_parts[0])

/* One element of "runs" into *r (zeroed by the caller; partly filled on
 * failure, for the caller to dispose). The members are checked in file order
 * first (so a run missing two reports the first), then read. */
static int load_run(br_json_ctx *c, const json_t *o, br_run *r, const char *text,
                    const br_case_spans *sp) {
    int rc = -1;
    br_json_name_index *sorted = NULL;
    json_t *part[N_PARTS], *kernels, *cases;
    r->peak_gbps = r->peak_gflops = r->warmup_ns = NAN;
    for (int p = 0; p < BR_PRECISION_COUNT; p++)
        r->measured_gops[p] = NAN;
    br_regression_defaults(&r->regression);
    r->device.ecc = -1;
    r->device.peak_gbps = r->device.measured_peak_gbps = r->device.peak_gflops = NAN;
    r->gpu_clock = BR_CLOCK_EVENTS;
    if (!json_is_object(o))
        return br_json_fail(c, "expected an object, found %s", br_json_kind(o));
    if (br_json_get_dup(c, o, "benchrun_version", OPT, &r->benchrun_version) ||
        (c->schema >= 4 && (GET_ONLY(c, o, "gpu_clock", OPT, br_clock_names, gpu_clocks,
                                     BR_CLOCK_EVENTS, &r->gpu_clock) ||
                            br_json_get_dup(c, o, "clock_note", OPT, &r->clock_note))) ||
        br_json_get_text(c, o, "date", r->date, sizeof r->date) ||
        br_json_get_number(c, o, "compile_ns", OPT, &r->compile_ns))
        return -1;
    for (size_t i = 0; i < N_PARTS; i++) {
        const struct run_part *p = &run_parts[i];
        int req = p->req == REQ_FROM_3 ? c->schema >= 3 : p->req;
        if (p->load ? br_json_get_container(c, o, p->key, req, p->type, &part[i])
                    : br_json_get_dup(c, o, p->key, req, (char **)((char *)r + p->text)))
            return -1;
    }
    if (br_json_get_container(c, o, "kernels", REQ, JSON_ARRAY, &kernels) ||
        br_json_get_container(c, o, "cases", REQ, JSON_ARRAY, &cases))
        return -1;
    for (size_t i = 0; i < N_PARTS; i++) {
        if (!run_parts[i].load || !part[i])
            continue;
        size_t old = br_json_push_key(c, run_parts[i].key);
        if (run_parts[i].load(c, part[i], r) != 0)
            goto done;
        br_json_pop(c, old);
    }
    size_t old = br_json_push_key(c, "kernels");
    if (load_kernels(c, kernels, r, &sorted) != 0)
        goto done;
    br_json_pop(c, old);
    if ((sp && json_array_size(cases) != 0) || load_cases(c, cases, r, sorted, text, sp) != 0 ||
        br_shard_json_read(c, o, r) != 0)
        goto done;
    br_run_derive(r);
    rc = 0;
done:
    free(sorted);
    return rc;
}

/* --- the document ------------------------------------------------------------------ */

/* Dispose n runs and free the array; accepts NULL. */
void br_results_free(br_run *runs, size_t n) {
    if (!runs)
        return;
    for (size_t i = 0; i < n; i++)
        br_run_dispose(&runs[i]);
    free(runs);
}

/* The runs of the document doc into *out_runs, *out_n; with spans
 * (doc parsed without its cases), each run's cases from its spans of text. */
static int load_doc(br_json_ctx *c, br_run **out_runs, size_t *out_n, json_t *doc, const char *text,
                    const br_case_spans *sp, size_t n_sp) {
    br_run *runs = NULL;
    size_t n = 0;
    int rc = -1;
    json_t *v, *arr;
    if (!json_is_object(doc))
        return br_json_fail(c, "expected an object (a results document), found %s",
                            br_json_kind(doc));
    if (br_json_member(c, doc, "schema_version", REQ, &v) != 0)
        return -1;
    if (!json_is_integer(v))
        return br_json_fail_key(c, "schema_version", "expected an integer, found %s",
                                br_json_kind(v));
    c->schema = (long long)json_integer_value(v);
    if (c->schema > BR_SCHEMA_VERSION)
        return br_json_fail(
            c, "written by a newer benchrun; schema %lld, this benchrun reads %d to %d", c->schema,
            BR_SCHEMA_VERSION_MIN, BR_SCHEMA_VERSION);
    if (c->schema < BR_SCHEMA_VERSION_MIN)
        return br_json_fail(c, "schema %lld is no longer read; this benchrun reads %d to %d",
                            c->schema, BR_SCHEMA_VERSION_MIN, BR_SCHEMA_VERSION);
    if (br_json_get_container(c, doc, "runs", REQ, JSON_ARRAY, &arr) != 0)
        return -1;
    size_t want = json_array_size(arr);
    if (sp && want != n_sp)
        return br_json_fail(c, "runs: the scan found %zu", n_sp); /* the caller parses again */
    if (want > 0 && !(runs = calloc(want, sizeof *runs)))
        return br_json_fail(c, "out of memory");
    n = want;
    size_t old = br_json_push_key(c, "runs");
    for (size_t i = 0; i < n; i++) {
        size_t at = br_json_push_index(c, i);
        if (load_run(c, json_array_get(arr, i), &runs[i], text, sp ? &sp[i] : NULL) != 0)
            goto done;
        br_json_pop(c, at);
    }
    br_json_pop(c, old);
    *out_runs = runs;
    *out_n = n;
    runs = NULL;
    rc = 0;
done:
    br_results_free(runs, n);
    return rc;
}

/* The document whole (the jansson tree of all of it at once); when owned
 * is not NULL it is text's buffer, freed (and set to NULL) as soon as
 * jansson has parsed it, before the runs are built. */
static int parse_whole(br_run **out_runs, size_t *out_n, const char *text, size_t len,
                       const char *name, char **owned) {
    br_json_ctx c = {.name = name};
    json_error_t err;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (owned) {
        free(*owned);
        *owned = NULL;
    }
    if (!doc)
        return br_error_at((br_pos){c.name, err.line, err.column}, "%s", err.text);
    int rc = load_doc(&c, out_runs, out_n, doc, NULL, NULL, 0);
    json_decref(doc);
    return rc;
}

/* The document without its cases, then one case at a time (case_spans.h):
 * the same runs as parse_whole with the tree of one case at a time rather
 * than of the whole document. Returns 0, 1 when it could not (the text is
 * not of the usual shape, or something in it is wrong: parse_whole then
 * gives the message), -1 when out of memory. */
static int parse_by_case(br_run **out_runs, size_t *out_n, const char *text, size_t len,
                         const char *name) {
    br_case_spans *sp = NULL;
    size_t n_sp = 0, short_len = 0;
    int found = br_case_spans_find(&sp, &n_sp, text, len);
    if (found != 0)
        return found;
    char *without = br_case_spans_strip(text, len, sp, n_sp, &short_len);
    json_t *doc = without ? json_loadb(without, short_len, JSON_REJECT_DUPLICATES, NULL) : NULL;
    free(without);
    br_json_ctx c = {.name = name};
    int rc = !without ? -1 : doc && load_doc(&c, out_runs, out_n, doc, text, sp, n_sp) == 0 ? 0 : 1;
    json_decref(doc);
    br_case_spans_free(sp, n_sp);
    return rc;
}

/* br_results_parse (by_case 1: case by case where the document allows it;
 * 0: whole); owned as for parse_whole. */
static int parse_text(br_run **out_runs, size_t *out_n, const char *text, size_t len,
                      const char *name, char **owned, int by_case) {
    *out_runs = NULL;
    *out_n = 0;
    name = name ? name : "<input>";
    if (!text)
        return br_error_set("%s: no text to read", name);
    if (len > BR_RESULTS_MAX_BYTES)
        return br_error_set("%s: file is larger than the limit of %zu bytes", name,
                            BR_RESULTS_MAX_BYTES);
    size_t blank = 0;
    while (blank < len && strchr(" \t\r\n", text[blank]) && text[blank] != '\0')
        blank++;
    if (blank == len)
        return br_error_set("%s: empty file (expected a JSON results document)", name);
    int rc = by_case ? parse_by_case(out_runs, out_n, text, len, name) : 1;
    if (rc <= 0)
        return rc;
    return parse_whole(out_runs, out_n, text, len, name, owned);
}

/* Parse the document in text[len] into a new array of runs (see the header
 * for what is checked). Returns 0, or -1 with the error set and nothing
 * returned (every partial allocation freed). */
int br_results_parse(br_run **out_runs, size_t *out_n, const char *text, size_t len,
                     const char *name) {
    return parse_text(out_runs, out_n, text, len, name, NULL, 1);
}

int br_results_parse_whole(br_run **out_runs, size_t *out_n, const char *text, size_t len,
                           const char *name) {
    return parse_text(out_runs, out_n, text, len, name, NULL, 0);
}

/* br_results_parse of the file at path (at most BR_RESULTS_MAX_BYTES); the
 * file's text is freed once parsed. */
int br_results_load(br_run **out_runs, size_t *out_n, const char *path) {
    char *text = NULL;
    size_t len = 0;
    *out_runs = NULL;
    *out_n = 0;
    if (br_read_file(&text, &len, path, BR_RESULTS_MAX_BYTES) != 0)
        return -1;
    int rc = parse_text(out_runs, out_n, text, len, path, &text, 1);
    free(text);
    return rc;
}
