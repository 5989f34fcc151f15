/* SPDX-License-Identifier: Apache-2.0 */
/* The suite format: the keys of a suite file read into the suite
 * model (see suite.h).
 *
 * Two steps. yamltree.c turns the file into a tree of nodes that keep their
 * positions; here the tree is checked against the suite format key by key,
 * through key tables (keys.h), with the typed readers of scalar.h. Every
 * error is set once, where it is found, at the line and column of the
 * offending key or value.
 */
#include "suite.h"

#include "base/name.h"
#include "base/sort.h"
#include "base/util.h"
#include "expr.h"
#include "flags.h"
#include "keys.h"
#include "params.h"
#include "model/metric.h"
#include "precision.h"
#include "model/settings.h"
#include "scalar.h"
#include "yamltree.h"
#include "model/regression.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest suite file accepted, bytes. */
#define SUITE_MAX_BYTES (1024u * 1024u)

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* What the key readers fill: the suite, and the values read once the others
 * are known (bytes, flops, memory and precision may name kernels, defines names params;
 * metric is checked against bytes and flops). */
typedef struct loader {
    br_suite *s;
    br_measure_layer measure; /* the measurement settings the suite's keys give */
    const br_node *metric, *bytes, *flops, *memory, *defines, *precision;
} loader;

static br_suite *suite_of(void *ctx) {
    return ((loader *)ctx)->s;
}

static int load_name(void *ctx, const br_node *v) {
    br_suite *s = suite_of(ctx);
    if (br_get_located(&s->name, v, "a suite name (a string)") < 0)
        return -1;
    if (s->name.text[0] == '\0')
        return br_error_at(v->pos, "the suite name must not be empty");
    for (const char *c = s->name.text; *c; c++)
        if (*c == '/' || *c == '\\' || (unsigned char)*c < 0x20 || *c == 0x7f) {
            char q[BR_SHOW_MAX + 16];
            br_show(q, sizeof q, v->text, v->len);
            return br_error_at(v->pos,
                               "the suite name %s must not contain '/', '\\' or control "
                               "characters (it names files)",
                               q);
        }
    if (strcmp(s->name.text, ".") == 0 || strcmp(s->name.text, "..") == 0)
        return br_error_at(v->pos, "the suite name must not be '.' or '..' (it names files)");
    /* C1 and bidirectional controls, bytes that are not UTF-8, the length. */
    return br_check_name(s->name.text, v, "the suite name");
}

/* br_item_cmp of two texts of an array of br_located (ctx). */
static int cmp_located(size_t i, size_t j, void *ctx) {
    const br_located *l = ctx;
    return strcmp(l[i].text, l[j].text);
}

static int load_one_source(br_suite *s, br_located *out, const br_node *v) {
    char *given = NULL;
    int rc = -1;
    if (br_get_text(&given, v, "a source path (a string)") < 0)
        goto done;
    out->pos = br_text_pos(v);
    if (given[0] == '\0') {
        br_error_at(v->pos, "expected a source path, found an empty string");
        goto done;
    }
    out->text = br_path_join(s->dir, given);
    if (!out->text) {
        br_error_at(v->pos, "out of memory");
        goto done;
    }
    char q[BR_SHOW_MAX + 16];
    br_show(q, sizeof q, v->text, v->len);
    struct stat st;
    if (stat(out->text, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            br_error_at(v->pos, "source %s does not exist", q);
        else
            br_error_at(v->pos, "cannot access source %s: %s", q, strerror(errno));
        goto done;
    }
    if (S_ISDIR(st.st_mode)) {
        br_error_at(v->pos, "source %s is a directory", q);
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        br_error_at(v->pos, "source %s is not a regular file", q);
        goto done;
    }
    if (!br_has_suffix(out->text, ".c") && !br_has_suffix(out->text, ".cu") &&
        !br_has_suffix(out->text, ".cpp") && !br_has_suffix(out->text, ".cc") &&
        !br_has_suffix(out->text, ".cxx")) {
        br_error_at(v->pos,
                    "source %s is not a kernel source (expected a .cu file, or a .c, .cpp, .cc "
                    "or .cxx file for host kernels)",
                    q);
        goto done;
    }
    /* Show "kernels/x.cu" rather than "suites/../kernels/x.cu", when that
     * names the same file (a symbolic link in the path could make it not). */
    char *norm = br_path_normalize(out->text);
    struct stat nst;
    if (norm && stat(norm, &nst) == 0 && nst.st_dev == st.st_dev && nst.st_ino == st.st_ino) {
        free(out->text);
        out->text = norm;
    } else {
        free(norm);
    }
    rc = 0;
done:
    free(given);
    return rc;
}

static int load_sources(void *ctx, const br_node *v) {
    br_suite *s = suite_of(ctx);
    const char *what = "a source path or a list of source paths";
    if (v->kind == BR_NODE_MAP || br_is_null(v))
        return br_expected(v, what);
    if (v->kind == BR_NODE_SEQ && v->n_items == 0)
        return br_expected(v, "at least one source path");
    size_t n = v->kind == BR_NODE_SEQ ? v->n_items : 1;
    s->sources = calloc(n, sizeof *s->sources);
    if (!s->sources)
        return br_error_at(v->pos, "out of memory");
    s->n_sources = n;
    for (size_t i = 0; i < n; i++) {
        const br_node *item = v->kind == BR_NODE_SEQ ? v->items[i] : v;
        if (load_one_source(s, &s->sources[i], item) < 0)
            return -1;
    }
    size_t i, j;
    int rep = br_find_repeat(&i, &j, n, cmp_located, s->sources);
    if (rep < 0)
        return br_error_at(v->pos, "out of memory");
    if (rep) {
        char q[BR_SHOW_MAX + 16];
        br_show(q, sizeof q, v->items[i]->text, v->items[i]->len);
        return br_error_at(v->items[i]->pos, "duplicate source %s (first at %d:%d)", q,
                           v->items[j]->pos.line, v->items[j]->pos.column);
    }
    return 0;
}

static int load_kernels(void *ctx, const br_node *v) {
    br_suite *s = suite_of(ctx);
    if (v->kind != BR_NODE_SEQ)
        return br_expected(v, "a list of kernel names");
    if (v->n_items == 0)
        return br_expected(v, "a list of at least one kernel name");
    s->kernels = calloc(v->n_items, sizeof *s->kernels);
    if (!s->kernels)
        return br_error_at(v->pos, "out of memory");
    s->n_kernels = v->n_items;
    for (size_t i = 0; i < v->n_items; i++) {
        const br_node *item = v->items[i];
        if (br_get_located(&s->kernels[i], item, "a kernel name") < 0)
            return -1;
        if (br_check_identifier(s->kernels[i].text, item, "kernel name") < 0)
            return -1;
    }
    size_t i, j;
    int rep = br_find_repeat(&i, &j, s->n_kernels, cmp_located, s->kernels);
    if (rep < 0)
        return br_error_at(v->pos, "out of memory");
    if (rep) {
        char q[BR_SHOW_MAX + 16];
        br_show(q, sizeof q, v->items[i]->text, v->items[i]->len);
        return br_error_at(v->items[i]->pos, "duplicate kernel %s (first at %d:%d)", q,
                           v->items[j]->pos.line, v->items[j]->pos.column);
    }
    return 0;
}

static int load_params(void *ctx, const br_node *v) {
    return br_params_load(suite_of(ctx), v);
}

/* `link: [cublas]`: libraries the kernel sources are linked with. */
static int load_libs(void *ctx, const br_node *v) {
    br_suite *s = suite_of(ctx);
    if (v->kind == BR_NODE_SCALAR && !br_is_null(v)) {
        s->libs = calloc(1, sizeof *s->libs);
        if (!s->libs)
            return br_error_at(v->pos, "out of memory");
        s->n_libs = 1;
        if (br_get_located(&s->libs[0], v, "a library name") < 0)
            return -1;
    } else if (v->kind == BR_NODE_SEQ && v->n_items > 0) {
        s->libs = calloc(v->n_items, sizeof *s->libs);
        if (!s->libs)
            return br_error_at(v->pos, "out of memory");
        s->n_libs = v->n_items;
        for (size_t i = 0; i < v->n_items; i++)
            if (br_get_located(&s->libs[i], v->items[i], "a library name") < 0)
                return -1;
    } else {
        return br_expected(v, "a library name or a list of them (link: [cublas])");
    }
    for (size_t i = 0; i < s->n_libs; i++) {
        const char *t = s->libs[i].text;
        bool ok = t[0] != '\0' && t[0] != '-';
        for (const char *c = t; *c && ok; c++)
            ok = isalnum((unsigned char)*c) || strchr("_.+-", *c);
        if (!ok)
            return br_error_at(s->libs[i].pos,
                               "expected a library name such as cublas (letters, digits, '_', "
                               "'.', '+', '-'; passed to the linker as -lNAME), found '%s'",
                               t);
    }
    return 0;
}

static int load_cflags(void *ctx, const br_node *v) {
    br_suite *s = suite_of(ctx);
    return br_flags_load(&s->cflags, &s->n_cflags, v, "cflags");
}

static int load_nvcc_flags(void *ctx, const br_node *v) {
    br_suite *s = suite_of(ctx);
    return br_flags_load(&s->nvcc_flags, &s->n_nvcc_flags, v, "nvcc_flags");
}

static int load_include_dirs(void *ctx, const br_node *v) {
    return br_include_dirs_load(suite_of(ctx), v);
}

static int load_expr_text(br_located *out, const br_node *v) {
    const char *what = "an integer expression such as 4 * n";
    if (v->kind != BR_NODE_SCALAR || br_is_null(v) || br_looks_like_float(v))
        return br_expected(v, what);
    if (br_check_one_line(v, "an integer expression") < 0)
        return -1;
    return br_get_located(out, v, what);
}

/* br_key_cmp of a scalar node (the key) with kernel i of an array of
 * br_located (ctx), as cmp_located orders the kernels. */
static int cmp_node_kernel(const void *key, size_t i, void *ctx) {
    const br_node *k = key;
    const char *t = ((const br_located *)ctx)[i].text;
    size_t tl = strlen(t), n = k->len < tl ? k->len : tl;
    int c = memcmp(k->text, t, n);
    return c ? c : (k->len > tl) - (k->len < tl);
}

/* `bytes`/`flops`: one expression, or a mapping kernel -> expression naming
 * every kernel of the suite (checked once the kernels are known). */
static int load_work(br_suite *s, br_work *w, const br_node *v, const char *key) {
    if (v->kind != BR_NODE_MAP)
        return load_expr_text(&w->all, v);
    char where[64];
    snprintf(where, sizeof where, " in %s", key);
    if (br_keys_check(v, NULL, 0, where) < 0)
        return -1;
    if (s->n_kernels == 0)
        return br_error_at(v->pos, "%s per kernel needs the suite's 'kernels' list", key);
    w->by_kernel = calloc(s->n_kernels, sizeof *w->by_kernel);
    size_t *sorted = br_sorted_index(s->n_kernels, cmp_located, s->kernels);
    if (!w->by_kernel || !sorted) {
        free(sorted);
        return br_error_at(v->pos, "out of memory");
    }
    for (size_t i = 0; i < br_map_size(v); i++) {
        const br_node *k = br_map_key(v, i);
        size_t idx = br_sorted_find(sorted, s->n_kernels, k, cmp_node_kernel, s->kernels);
        char q[BR_SHOW_MAX + 16];
        br_show_node(q, sizeof q, k);
        int rc = 0;
        if (idx == (size_t)-1)
            rc = br_error_at(k->pos, "%s names kernel %s, which is not in the suite's kernels", key,
                             q);
        else
            rc = load_expr_text(&w->by_kernel[idx], br_map_value(v, i));
        if (rc < 0) {
            free(sorted);
            return -1;
        }
    }
    free(sorted);
    for (size_t j = 0; j < s->n_kernels; j++)
        if (!w->by_kernel[j].text)
            return br_error_at(v->pos,
                               "%s gives no expression for kernel '%s' (give one for every "
                               "kernel, or one expression for all)",
                               key, s->kernels[j].text);
    return 0;
}

/* Check the expression(s) of w against the parameter names. */
static int check_work(const br_work *w, const br_suite *s, const char *const *names) {
    if (w->all.text && br_expr_check(w->all.text, w->all.pos, names, s->n_params) < 0)
        return -1;
    for (size_t i = 0; w->by_kernel && i < s->n_kernels; i++)
        if (br_expr_check(w->by_kernel[i].text, w->by_kernel[i].pos, names, s->n_params) < 0)
            return -1;
    return 0;
}

/* ---------------------------------------------------------------------------
 * The key tables
 */

/* A setting that is off when written as 0 or 0% (plain), else a fraction. */
static int get_fraction_or_off(double *out, const br_node *x, const char *name) {
    if (x->kind == BR_NODE_SCALAR && x->style == YAML_PLAIN_SCALAR_STYLE &&
        br_setting_text_is_off(x->text)) {
        *out = 0;
        return 0;
    }
    return br_get_fraction(out, x, name);
}

/* A duration that must be longer than 0; `name` is the key. */
static int get_positive_duration(double *out, const br_node *x, const char *name) {
    if (br_get_duration(out, x) < 0)
        return -1;
    if (*out <= 0)
        return br_error_at(x->pos, "%s must be longer than 0", name);
    return 0;
}

static int load_cache_policy(br_cache_policy *out, const br_node *v);

/* The value x of measurement setting f into layer l, from x's position:
 * read by f's kind, then range-checked by the layer's setter. */
static int load_setting(br_measure_layer *l, br_setting f, const br_node *x) {
    char shown[BR_SHOW_MAX + 16] = "";
    if (x->kind == BR_NODE_SCALAR)
        br_show_node(shown, sizeof shown, x);
    br_setting_origin at = br_setting_from_key(x->pos, shown);
    switch (br_setting_kind_of(f)) {
    case BR_KIND_COUNT: {
        int64_t n = 0;
        return br_get_int(&n, x) < 0 ? -1 : br_measure_layer_set_count(l, f, (long long)n, &at);
    }
    case BR_KIND_DURATION: {
        double ns = 0;
        return br_get_duration(&ns, x) < 0 ? -1 : br_measure_layer_set_time(l, f, ns, &at);
    }
    case BR_KIND_FRACTION: {
        double v = 0;
        int rc = f == BR_SETTING_THROTTLE ? get_fraction_or_off(&v, x, br_setting_key(f))
                                          : br_get_fraction(&v, x, br_setting_key(f));
        return rc < 0 ? -1 : br_measure_layer_set_fraction(l, f, v, &at);
    }
    case BR_KIND_FLAG: {
        int on = 0;
        return br_get_bool(&on, x) < 0 ? -1 : br_measure_layer_set_flag(l, f, on, &at);
    }
    case BR_KIND_MODE: {
        br_mode m = BR_MODE_COLD;
        return br_get_mode(&m, x, f == BR_SETTING_MODE) < 0
                   ? -1
                   : br_measure_layer_set_mode(l, f, m, &at);
    }
    default: {
        br_cache_policy c = BR_CACHE_FLUSH;
        return load_cache_policy(&c, x) < 0 ? -1 : br_measure_layer_set_cache(l, c, &at);
    }
    }
}

/* The keys of `measure`: the settings before BR_SETTING_WARMUP, in the
 * order of br_setting (warmup, cache and watchdog are root keys). */
#define MEASURE_KEYS BR_SETTING_WARMUP

/* `measure`: its keys into the loader's layer (each value range-checked as
 * it is set; the rules between the settings are checked once, in
 * load_root, over every layer). */
static int load_measure(void *ctx, const br_node *v) {
    if (v->kind != BR_NODE_MAP)
        return br_expected(v, "a mapping with min_samples, min_time, max_noise, timeout, "
                              "max_samples, throttle, hold, mode or headline");
    const char *names[MEASURE_KEYS];
    for (int f = 0; f < MEASURE_KEYS; f++)
        names[f] = br_setting_key((br_setting)f);
    if (br_keys_check(v, names, MEASURE_KEYS, " in measure") < 0)
        return -1;
    br_measure_layer *l = &((loader *)ctx)->measure;
    for (size_t i = 0; i < br_map_size(v); i++)
        for (int f = 0; f < MEASURE_KEYS; f++)
            if (br_key_is(br_map_key(v, i), names[f]) &&
                load_setting(l, (br_setting)f, br_map_value(v, i)) < 0)
                return -1;
    return 0;
}

static int load_metric(void *ctx, const br_node *v) {
    ((loader *)ctx)->metric = v;
    int m = 0;
    if (br_get_name(&m, v, br_metric_names, -1, "metric",
                    "a metric (GB/s, GFLOP/s, TFLOP/s or TOP/s)") < 0)
        return -1;
    suite_of(ctx)->metric = (br_metric)m;
    return 0;
}

/* A name of table t into *out; else "unknown WHAT 'x' (expected EXPECTED)". */
static int get_named(int *out, const br_node *v, const br_name *t, const char *what,
                     const char *expected) {
    char *text = NULL, form[96];
    snprintf(form, sizeof form, "a %s (%s)", what, expected);
    if (br_get_text(&text, v, form) < 0)
        return -1;
    int rc = 0;
    if (br_name_find(out, t, text) < 0) {
        char q[BR_SHOW_MAX + 16];
        br_show(q, sizeof q, v->text, v->len);
        rc = br_error_at(v->pos, "unknown %s %s (expected %s)", what, q, expected);
    }
    free(text);
    return rc;
}

static int load_cache_policy(br_cache_policy *out, const br_node *v) {
    int c = 0;
    if (get_named(&c, v, br_cache_names, "cache policy", "flush, warm or flush-memset") < 0)
        return -1;
    *out = (br_cache_policy)c;
    return 0;
}

static int load_cache(void *ctx, const br_node *v) {
    return load_setting(&((loader *)ctx)->measure, BR_SETTING_CACHE, v);
}

static int load_peak(void *ctx, const br_node *v) {
    int p = 0;
    if (get_named(&p, v, br_peak_names, "peak", "theoretical or measured") < 0)
        return -1;
    suite_of(ctx)->peak = (br_peak_kind)p;
    return 0;
}

/* threshold may be 0 (every significant change counts). */
static int load_threshold(void *ctx, const br_node *x) {
    return get_fraction_or_off(&suite_of(ctx)->regression.threshold, x, "threshold");
}

static int load_alpha(void *ctx, const br_node *x) {
    return br_get_fraction(&suite_of(ctx)->regression.alpha, x, "alpha");
}

/* keep: how many run medians a baseline keeps per case, 1..100. */
static int load_keep(void *ctx, const br_node *x) {
    int64_t n = 0;
    if (br_get_int(&n, x) < 0)
        return -1;
    const char *e = br_regression_keep_expects((double)n);
    if (e)
        return br_error_at(x->pos, "keep must be %s (run medians per case), found %lld", e,
                           (long long)n);
    suite_of(ctx)->regression.keep = (size_t)n;
    return 0;
}

static const br_key_spec regression_keys[] = {
    {"threshold", load_threshold, 0}, {"alpha", load_alpha, 0}, {"keep", load_keep, 0}};

/* regression: {threshold: 2%, alpha: 0.01, keep: 10} */
static int load_regression(void *ctx, const br_node *v) {
    if (v->kind != BR_NODE_MAP)
        return br_expected(v, "a mapping with threshold, alpha and keep");
    return br_keys_load(ctx, v, regression_keys, COUNT(regression_keys), " in regression");
}

static int load_description(void *ctx, const br_node *v) {
    return br_get_located(&suite_of(ctx)->description, v, "a description (a string)");
}

static int load_where(void *ctx, const br_node *v) {
    return load_expr_text(&suite_of(ctx)->where, v);
}

static int load_warmup(void *ctx, const br_node *v) {
    return load_setting(&((loader *)ctx)->measure, BR_SETTING_WARMUP, v);
}

static int load_budget(void *ctx, const br_node *v) {
    return get_positive_duration(&suite_of(ctx)->budget_ns, v, "budget");
}

static int load_watchdog(void *ctx, const br_node *v) {
    return load_setting(&((loader *)ctx)->measure, BR_SETTING_WATCHDOG, v);
}

/* Read after the other keys (see loader). */
static int defer_bytes(void *ctx, const br_node *v) {
    ((loader *)ctx)->bytes = v;
    return 0;
}

static int defer_flops(void *ctx, const br_node *v) {
    ((loader *)ctx)->flops = v;
    return 0;
}

static int defer_memory(void *ctx, const br_node *v) {
    ((loader *)ctx)->memory = v;
    return 0;
}

static int defer_precision(void *ctx, const br_node *v) {
    ((loader *)ctx)->precision = v;
    return 0;
}

static int defer_defines(void *ctx, const br_node *v) {
    ((loader *)ctx)->defines = v;
    return 0;
}

static const br_key_spec root_keys[] = {{"name", load_name, 1},
                                        {"description", load_description, 0},
                                        {"source", load_sources, 1},
                                        {"kernels", load_kernels, 1},
                                        {"params", load_params, 0},
                                        {"where", load_where, 0},
                                        {"defines", defer_defines, 0},
                                        {"link", load_libs, 0},
                                        {"cflags", load_cflags, 0},
                                        {"nvcc_flags", load_nvcc_flags, 0},
                                        {"include_dirs", load_include_dirs, 0},
                                        {"metric", load_metric, 0},
                                        {"bytes", defer_bytes, 0},
                                        {"flops", defer_flops, 0},
                                        {"precision", defer_precision, 0},
                                        {"cache", load_cache, 0},
                                        {"warmup", load_warmup, 0},
                                        {"measure", load_measure, 0},
                                        {"regression", load_regression, 0},
                                        {"peak", load_peak, 0},
                                        {"budget", load_budget, 0},
                                        {"watchdog", load_watchdog, 0},
                                        {"memory", defer_memory, 0}};

/* ---------------------------------------------------------------------------
 * The suite as a whole
 */

/* The expressions, once the params are known, and the metric against them. */
static int check_exprs(br_suite *s, const br_node *metric) {
    const char *names[BR_SUITE_MAX_PARAMS];
    for (size_t i = 0; i < s->n_params; i++)
        names[i] = s->params[i].name;
    if (check_work(&s->bytes, s, names) < 0 || check_work(&s->flops, s, names) < 0 ||
        check_work(&s->memory, s, names) < 0)
        return -1;
    if (s->where.text && br_expr_check(s->where.text, s->where.pos, names, s->n_params) < 0)
        return -1;

    int has_bytes = br_work_present(&s->bytes), has_flops = br_work_present(&s->flops);
    br_metric_amount needs = br_metric_amount_of(s->metric);
    if (!metric)
        s->metric = has_bytes ? BR_METRIC_GBPS : has_flops ? BR_METRIC_GFLOPS : BR_METRIC_NONE;
    else if ((needs == BR_AMOUNT_BYTES && !has_bytes) || (needs == BR_AMOUNT_OPS && !has_flops))
        return br_error_at(metric->pos, "metric '%s' needs '%s' (the %s per execution)",
                           br_metric_name(s->metric), needs == BR_AMOUNT_BYTES ? "bytes" : "flops",
                           br_metric_work(s->metric));
    return 0;
}

/* Lay the suite's layer, then the command line's (over; NULL: none), over
 * s's defaults, origins into s->measure_from, and check the result once
 * (br_measure_settings_check: a rule the suite breaks alone is said first,
 * at its key). Returns 0, or -1 with the error set. */
static int apply_measure(br_suite *s, const br_measure_layer *suite, const br_measure_layer *over) {
    br_measure_settings m = {s->measure, s->warmup_ns, s->cache, s->watchdog_ns};
    br_measure_settings_apply(&m, &s->measure_from, suite);
    if (over)
        br_measure_settings_apply(&m, &s->measure_from, over);
    s->measure = m.cfg;
    s->warmup_ns = m.warmup_ns;
    s->cache = m.cache;
    s->watchdog_ns = m.watchdog_ns;
    return br_measure_settings_check(&m, &s->measure_from);
}

/* cflags (and nvcc_flags) with include_dirs within BR_SUITE_MAX_USER_FLAGS. */
static int check_user_flags(const br_suite *s, const br_node *root) {
    const char *keys[] = {"cflags", "nvcc_flags"};
    size_t counts[] = {s->n_cflags, s->n_nvcc_flags};
    for (size_t i = 0; i < COUNT(keys); i++) {
        size_t n = counts[i] + s->n_include_dirs;
        if (n > BR_SUITE_MAX_USER_FLAGS) {
            const br_node *at = br_map_find(root, counts[i] ? keys[i] : "include_dirs");
            return br_error_at(at ? at->pos : root->pos,
                               "%s and include_dirs give %zu compiler flags (at most %d together)",
                               keys[i], n, BR_SUITE_MAX_USER_FLAGS);
        }
    }
    return 0;
}

/* Check the top-level mapping and fill the model, the measurement settings
 * with `over` laid over the suite's. */
static int load_root(br_suite *s, const br_node *root, const br_measure_layer *over) {
    br_pos start = {s->path, 1, 1};
    if (!root)
        return br_error_at(start, "empty suite: expected a mapping with the keys name, source "
                                  "and kernels");
    if (root->kind != BR_NODE_MAP)
        return br_expected(root, "a mapping of suite keys (name, source, kernels, ...)");
    loader l = {.s = s};
    if (br_keys_load(&l, root, root_keys, COUNT(root_keys), "") < 0)
        return -1;
    if (apply_measure(s, &l.measure, over) < 0) /* the one check of the settings */
        return -1;
    if ((l.bytes && load_work(s, &s->bytes, l.bytes, "bytes") < 0) ||
        (l.flops && load_work(s, &s->flops, l.flops, "flops") < 0) ||
        (l.memory && load_work(s, &s->memory, l.memory, "memory") < 0) ||
        (l.precision && br_suite_precision_load(s, l.precision) < 0) ||
        (l.defines && br_defines_load(s, l.defines) < 0))
        return -1;
    size_t n_flags = s->n_libs;
    for (size_t i = 0; i < s->n_params; i++)
        n_flags += s->params[i].define != 0;
    if (n_flags > BR_SUITE_MAX_EXTRA_FLAGS)
        return br_error_at(l.defines ? l.defines->pos : s->libs[0].pos,
                           "defines and link give %zu compiler flags (at most %d together)",
                           n_flags, BR_SUITE_MAX_EXTRA_FLAGS);
    if (check_user_flags(s, root) < 0)
        return -1;
    return check_exprs(s, l.metric);
}

int br_suite_load(br_suite *out, const char *path) {
    return br_suite_load_over(out, path, NULL);
}

/* Load and check the suite at `path`; see suite.h. Returns 0 or -1 with the
 * error set; *out is disposed by the caller either way. */
int br_suite_load_over(br_suite *out, const char *path, const br_measure_layer *over) {
    int rc = -1;
    char *buf = NULL;
    size_t len = 0;
    br_node *root = NULL;

    if (!out)
        return br_error_set("br_suite_load: no suite to load into");
    memset(out, 0, sizeof *out);
    out->cache = BR_CACHE_FLUSH;
    out->peak = BR_PEAK_THEORETICAL;
    out->warmup_ns = BR_DEFAULT_WARMUP_NS;
    out->watchdog_ns = BR_DEFAULT_WATCHDOG_NS;
    br_measure_cfg_defaults(&out->measure);
    br_regression_defaults(&out->regression);
    if (!path || !*path)
        return br_error_set("br_suite_load: no suite path given");

    out->path = br_strdup(path);
    out->dir = br_path_dir(path);
    br_measure_origins_init(&out->measure_from, out->path);
    if (!out->path || !out->dir) {
        br_error_set("%s: out of memory", path);
        goto done;
    }
    if (br_read_file(&buf, &len, out->path, SUITE_MAX_BYTES) < 0)
        goto done;
    if (br_hash_blob(out->hash, buf, len) < 0)
        goto done;
    /* Skip a UTF-8 byte order mark, so that columns on line 1 are right. */
    size_t skip = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    if (br_yaml_read(&root, out->path, (const unsigned char *)buf + skip, len - skip) < 0)
        goto done;
    if (load_root(out, root, over) < 0)
        goto done;
    rc = 0;
done:
    br_node_free(root);
    free(buf);
    return rc;
}
