/* SPDX-License-Identifier: Apache-2.0 */
/* test_suite.c - loading suite files: the model, defaults, the hash, and
 * errors with their exact message, line and column.
 *
 * The catalogue of malformed suites (tests/fixtures/bad/NAME.yaml with
 * NAME.expect) is checked through the benchrun executable, every stage up to
 * measuring, by test_bad_suites.c.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite/suite.h"

#define SUITES BR_FIXTURES_DIR "/suites"
#define BAD    BR_FIXTURES_DIR "/bad"

/* ---------------------------------------------------------------------------
 * helpers
 */

/* Whole file as a NUL-terminated string (malloc'd), trailing newlines cut. */
static char *slurp(const char *path, size_t *out_len) {
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            buf = realloc(buf, cap);
            cr_assert_not_null(buf);
        }
        size_t got = fread(buf + len, 1, 4096, f);
        if (got == 0)
            break;
        len += got;
    }
    fclose(f);
    buf[len] = '\0';
    if (out_len)
        *out_len = len;
    return buf;
}

static void spit(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void load_ok(br_suite *s, const char *path) {
    br_error_clear();
    int rc = br_suite_load(s, path);
    cr_assert_eq(rc, 0, "%s failed: %s", path, br_error_get());
}

/* ---------------------------------------------------------------------------
 * good suites
 */

Test(suite, full) {
    br_suite s;
    const char *path = SUITES "/full.yaml";
    load_ok(&s, path);
    cr_assert_str_eq(s.path, path);
    cr_assert_str_eq(s.dir, SUITES);
    cr_assert_str_eq(s.name.text, "reduction");
    cr_assert_eq(s.name.pos.path, s.path);
    cr_assert_eq(s.name.pos.line, 2);
    cr_assert_eq(s.name.pos.column, 7);
    cr_assert_str_eq(s.description.text, "sum of n float32");

    cr_assert_eq(s.n_sources, 3);
    cr_assert_str_eq(s.sources[0].text, SUITES "/dummy.c");
    cr_assert_str_eq(s.sources[1].text, SUITES "/dummy.cu");
    cr_assert_str_eq(s.sources[2].text, SUITES "/kernels/other.c");
    cr_assert_eq(s.sources[1].pos.line, 4);
    cr_assert_eq(s.sources[1].pos.column, 19);

    cr_assert_eq(s.n_kernels, 3);
    cr_assert_str_eq(s.kernels[0].text, "reduce_cpu");
    cr_assert_str_eq(s.kernels[1].text, "reduce_naive");
    cr_assert_str_eq(s.kernels[2].text, "reduce_warp");
    cr_assert_eq(s.kernels[2].pos.line, 5);
    cr_assert_eq(s.kernels[2].pos.column, 37);

    cr_assert_eq(s.n_params, 3);
    cr_assert_str_eq(s.params[0].name, "n");
    cr_assert_eq(s.params[0].pos.line, 7);
    cr_assert_eq(s.params[0].pos.column, 3);
    int64_t pow2[] = {1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28};
    cr_assert_eq(s.params[0].n_values, 7);
    for (size_t i = 0; i < 7; i++)
        cr_assert_eq(s.params[0].values[i], pow2[i]);
    cr_assert_str_eq(s.params[1].name, "m");
    int64_t m[] = {1, 2, 1024, 1 << 20};
    cr_assert_eq(s.params[1].n_values, 4);
    for (size_t i = 0; i < 4; i++)
        cr_assert_eq(s.params[1].values[i], m[i]);
    cr_assert_str_eq(s.params[2].name, "k");
    cr_assert_eq(s.params[2].n_values, 1);
    cr_assert_eq(s.params[2].values[0], 64);

    cr_assert_eq(s.metric, BR_METRIC_GBPS);
    cr_assert_str_eq(s.bytes.all.text, "4 * n");
    cr_assert_eq(s.bytes.all.pos.line, 11);
    cr_assert_eq(s.bytes.all.pos.column, 8);
    cr_assert_str_eq(s.flops.all.text, "n");
    cr_assert_eq(s.cache, BR_CACHE_WARM);
    cr_assert_float_eq(s.warmup_ns, 1.5e9, 1e-6);
    cr_assert_eq(s.measure.min_samples, 20);
    cr_assert_float_eq(s.measure.min_time_ns, 500e3, 1e-9);
    cr_assert_float_eq(s.measure.max_noise, 0.005, 1e-15);
    cr_assert_float_eq(s.measure.timeout_ns, 120e9, 1e-3);
    cr_assert_eq(strlen(s.hash), 40);
    br_suite_dispose(&s);
    cr_assert_null(s.path);
    cr_assert_null(s.params);
}

Test(suite, minimal_gets_the_defaults) {
    br_suite s;
    load_ok(&s, SUITES "/minimal.yaml");
    cr_assert_str_eq(s.name.text, "tiny");
    cr_assert_null(s.description.text);
    cr_assert_eq(s.n_sources, 1);
    cr_assert_str_eq(s.sources[0].text, SUITES "/dummy.c");
    cr_assert_eq(s.sources[0].pos.line, 2);
    cr_assert_eq(s.sources[0].pos.column, 9);
    cr_assert_eq(s.n_kernels, 1);
    cr_assert_eq(s.n_params, 0);
    cr_assert_null(s.params);
    cr_assert_eq(s.metric, BR_METRIC_NONE);
    cr_assert_null(s.bytes.all.text);
    cr_assert_null(s.flops.all.text);
    cr_assert_eq(s.cache, BR_CACHE_FLUSH);
    cr_assert_eq(s.warmup_ns, BR_DEFAULT_WARMUP_NS);
    cr_assert_eq(s.measure.min_samples, BR_DEFAULT_MIN_SAMPLES);
    cr_assert_eq(s.measure.min_time_ns, BR_DEFAULT_MIN_TIME_NS);
    cr_assert_eq(s.measure.max_noise, BR_DEFAULT_MAX_NOISE);
    cr_assert_eq(s.measure.timeout_ns, BR_DEFAULT_TIMEOUT_NS);
    cr_assert_eq(s.measure.max_samples, BR_DEFAULT_MAX_SAMPLES);
    cr_assert_eq(s.measure.throttle, BR_DEFAULT_THROTTLE);
    cr_assert_eq(s.measure.hold, 1);
    cr_assert_eq(s.measure.mode, BR_MODE_COLD);
    cr_assert_eq(s.measure.headline, BR_MODE_COLD);
    cr_assert_eq(s.peak, BR_PEAK_THEORETICAL);
    cr_assert_null(s.precision);
    cr_assert_eq(br_suite_precision(&s, 0), BR_PRECISION_NONE, "undeclared: none (FP32)");
    cr_assert_float_eq(s.regression.threshold, BR_DEFAULT_REGRESSION_THRESHOLD, 1e-15);
    cr_assert_float_eq(s.regression.alpha, BR_DEFAULT_REGRESSION_ALPHA, 1e-15);
    cr_assert_eq(s.regression.keep, BR_DEFAULT_REGRESSION_KEEP);
    br_suite_dispose(&s);
}

Test(suite, every_measurement_key) {
    br_suite s;
    load_ok(&s, SUITES "/measure_all.yaml");
    cr_assert_eq(s.cache, BR_CACHE_FLUSH_MEMSET);
    cr_assert_eq(s.peak, BR_PEAK_MEASURED);
    cr_assert_eq(s.measure.min_samples, 5);
    cr_assert_float_eq(s.measure.min_time_ns, 1e6, 1e-9);
    cr_assert_float_eq(s.measure.max_noise, 0.01, 1e-15);
    cr_assert_float_eq(s.measure.timeout_ns, 2e9, 1e-3);
    cr_assert_eq(s.measure.max_samples, 500);
    cr_assert_float_eq(s.measure.throttle, 0.8, 1e-15);
    cr_assert_eq(s.measure.hold, 0);
    cr_assert_eq(s.measure.mode, BR_MODE_BOTH);
    cr_assert_eq(s.measure.headline, BR_MODE_BATCH);
    cr_assert_float_eq(s.regression.threshold, 0.05, 1e-15);
    cr_assert_float_eq(s.regression.alpha, 0.05, 1e-15);
    cr_assert_eq(s.regression.keep, 5);
    br_suite_dispose(&s);
}

Test(suite, flow_style_and_quotes) {
    br_suite s;
    load_ok(&s, SUITES "/flow.yaml");
    cr_assert_str_eq(s.name.text, "flow suite");
    cr_assert_eq(s.name.pos.line, 3);
    cr_assert_eq(s.name.pos.column, 11); /* one past the opening quote */
    cr_assert_eq(s.n_kernels, 3);
    cr_assert_str_eq(s.kernels[2].text, "_c");
    cr_assert_eq(s.n_params, 2);
    cr_assert_eq(s.params[0].n_values, 3);
    cr_assert_eq(s.params[0].values[0], -3);
    cr_assert_eq(s.params[0].values[1], 1024);
    cr_assert_eq(s.params[0].values[2], -4);
    cr_assert_eq(s.params[1].values[0], 7);
    /* GFLOP/s is the default when only flops is given. */
    cr_assert_eq(s.metric, BR_METRIC_GFLOPS);
    cr_assert_str_eq(s.flops.all.text, "2 * x * y");
    cr_assert_eq(s.flops.all.pos.line, 5);
    cr_assert_eq(s.flops.all.pos.column, 10);
    cr_assert_float_eq(s.warmup_ns, 250e3, 1e-9);
    cr_assert_eq(s.cache, BR_CACHE_FLUSH);
    cr_assert_float_eq(s.measure.max_noise, 0.02, 1e-15);
    cr_assert_eq(s.measure.min_samples, 1);
    cr_assert_eq(s.measure.min_time_ns, 0);
    cr_assert_float_eq(s.measure.timeout_ns, 1e6, 1e-9);
    br_suite_dispose(&s);
}

Test(suite, block_style) {
    br_suite s;
    load_ok(&s, SUITES "/block.yaml");
    cr_assert_str_eq(s.description.text, "Two lines\nof text.\n");
    cr_assert_eq(s.n_kernels, 2);
    cr_assert_str_eq(s.kernels[1].text, "second");
    cr_assert_eq(s.kernels[1].pos.line, 10);
    cr_assert_eq(s.kernels[1].pos.column, 5);
    cr_assert_eq(s.params[0].n_values, 2);
    cr_assert_eq(s.params[0].values[1], 3);
    cr_assert_eq(s.params[1].values[0], (int64_t)1 << 62);
    cr_assert_str_eq(s.bytes.all.text, "4096");
    cr_assert_eq(s.metric, BR_METRIC_GBPS);
    cr_assert_eq(s.warmup_ns, 0);
    cr_assert_eq(s.measure.min_time_ns, 10e9); /* min_time == timeout is allowed */
    cr_assert_eq(s.measure.timeout_ns, 10e9);
    br_suite_dispose(&s);
}

Test(suite, bom_and_crlf) {
    br_suite s;
    load_ok(&s, SUITES "/bom_crlf.yaml");
    cr_assert_str_eq(s.name.text, "bom");
    cr_assert_eq(s.name.pos.line, 1);
    cr_assert_eq(s.name.pos.column, 7); /* the byte order mark is not a column */
    cr_assert_str_eq(s.bytes.all.text, "8 *  s");
    cr_assert_eq(s.bytes.all.pos.line, 4);
    cr_assert_eq(s.bytes.all.pos.column, 9);
    cr_assert_eq(s.metric, BR_METRIC_NONE); /* explicit none, although bytes is given */
    br_suite_dispose(&s);
}

Test(suite, hash_is_the_git_blob_id) {
    br_suite s;
    load_ok(&s, SUITES "/hash.yaml");
    /* `git hash-object tests/fixtures/suites/hash.yaml` */
    cr_assert_str_eq(s.hash, "223d614f04834f368dfd7848acfa8a872382684a");
    br_suite_dispose(&s);
}

Test(suite, path_kept_as_given) {
    cr_assert_eq(chdir(BR_FIXTURES_DIR), 0);
    br_suite s;
    load_ok(&s, "suites/minimal.yaml");
    cr_assert_str_eq(s.path, "suites/minimal.yaml");
    cr_assert_str_eq(s.dir, "suites");
    cr_assert_str_eq(s.sources[0].text, "suites/dummy.c");
    br_suite_dispose(&s);

    cr_assert_eq(chdir(SUITES), 0);
    load_ok(&s, "minimal.yaml");
    cr_assert_str_eq(s.dir, ".");
    cr_assert_str_eq(s.sources[0].text, "dummy.c", "'./dummy.c' is shown normalized");
    br_suite_dispose(&s);

    cr_assert_eq(chdir(BR_FIXTURES_DIR), 0);
    cr_assert_eq(br_suite_load(&s, "bad/cache_unknown.yaml"), -1);
    cr_assert_str_eq(br_error_get(),
                     "bad/cache_unknown.yaml:4:8: unknown cache policy 'cold' (expected flush, "
                     "warm or flush-memset)");
    br_suite_dispose(&s);
}

/* ---------------------------------------------------------------------------
 * errors that need files made at run time
 */

static char tmpdir[64];

static void make_tmpdir(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/br_suite_XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    char p[128];
    snprintf(p, sizeof p, "%s/dummy.c", tmpdir);
    spit(p, "/* x */\n", 8);
    snprintf(p, sizeof p, "%s/dummy.cu", tmpdir);
    spit(p, "// x\n", 5);
    snprintf(p, sizeof p, "%s/kernels", tmpdir);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/kernels/other.c", tmpdir);
    spit(p, "/* x */\n", 8);
}

static void remove_tmpdir(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_expect_eq(system(cmd), 0);
}

/* Load `len` bytes as a suite; returns rc and checks the error is well formed. */
static int load_bytes(const void *data, size_t len) {
    char p[128];
    snprintf(p, sizeof p, "%s/s.yaml", tmpdir);
    spit(p, data, len);
    br_suite s;
    br_error_clear();
    int rc = br_suite_load(&s, p);
    if (rc != 0) {
        cr_assert_eq(rc, -1);
        cr_assert(strncmp(br_error_get(), p, strlen(p)) == 0, "error without the path: %s",
                  br_error_get());
    }
    br_suite_dispose(&s);
    return rc;
}

/* `precision`: one for the suite, or per kernel (the others none). */
Test(suite, precision_per_suite_or_per_kernel, .init = make_tmpdir, .fini = remove_tmpdir) {
    char p[128];
    snprintf(p, sizeof p, "%s/s.yaml", tmpdir);
    const char *all = "name: g\nsource: dummy.cu\nkernels: [hgemm, sgemm, igemm]\n"
                      "flops: 2\nprecision: bf16-tensor\n";
    spit(p, all, strlen(all));
    br_suite s;
    load_ok(&s, p);
    for (size_t k = 0; k < 3; k++)
        cr_expect_eq(br_suite_precision(&s, k), BR_PRECISION_BF16_TENSOR);
    cr_expect_eq(br_suite_precision(&s, 3), BR_PRECISION_NONE, "out of range");
    br_suite_dispose(&s);
    const char *each = "name: g\nsource: dummy.cu\nkernels: [hgemm, sgemm, igemm]\nflops: 2\n"
                       "precision: {hgemm: fp16-tensor, igemm: int8-tensor-sparse}\n";
    spit(p, each, strlen(each));
    load_ok(&s, p);
    cr_expect_eq(br_suite_precision(&s, 0), BR_PRECISION_FP16_TENSOR);
    cr_expect_eq(br_suite_precision(&s, 1), BR_PRECISION_NONE, "not named");
    cr_expect_eq(br_suite_precision(&s, 2), BR_PRECISION_INT8_TENSOR_SPARSE);
    br_suite_dispose(&s);
    const char *none = "name: g\nsource: dummy.cu\nkernels: [k]\nprecision: none\n";
    cr_expect_eq(load_bytes(none, strlen(none)), -1, "none is not a declaration");
    cr_expect(strstr(br_error_get(), "4:12: unknown precision 'none'"), "%s", br_error_get());
}

Test(suite, file_errors) {
    br_suite s;
    cr_assert_eq(br_suite_load(&s, BAD "/no_such_file.yaml"), -1);
    cr_assert_str_eq(br_error_get(),
                     BAD "/no_such_file.yaml: cannot open: No such file or directory");
    br_suite_dispose(&s);
    cr_assert_eq(br_suite_load(&s, SUITES), -1);
    cr_assert_str_eq(br_error_get(), SUITES ": cannot read: is a directory");
    br_suite_dispose(&s);
    cr_assert_eq(br_suite_load(&s, NULL), -1);
    br_suite_dispose(&s);
    cr_assert_eq(br_suite_load(&s, ""), -1);
    br_suite_dispose(&s);
    cr_assert_eq(br_suite_load(NULL, SUITES "/minimal.yaml"), -1);
}

Test(suite, larger_than_one_mib, .init = make_tmpdir, .fini = remove_tmpdir) {
    size_t len = 1024 * 1024 + 1;
    char *big = malloc(len);
    cr_assert_not_null(big);
    memset(big, '#', len);
    big[len - 1] = '\n';
    char p[128];
    snprintf(p, sizeof p, "%s/s.yaml", tmpdir);
    spit(p, big, len);
    br_suite s;
    cr_assert_eq(br_suite_load(&s, p), -1);
    char want[256];
    snprintf(want, sizeof want, "%s: file is larger than the limit of 1048576 bytes", p);
    cr_assert_str_eq(br_error_get(), want);
    br_suite_dispose(&s);
    /* Exactly 1 MiB of comments is read (and is an empty suite). */
    spit(p, big, len - 1);
    cr_assert_eq(br_suite_load(&s, p), -1);
    snprintf(want, sizeof want,
             "%s:1:1: empty suite: expected a mapping with the keys name, source and kernels", p);
    cr_assert_str_eq(br_error_get(), want);
    br_suite_dispose(&s);
    free(big);
}

/* A device is refused before a byte is read (base/files.h): not after a
 * mebibyte of zeros. */
Test(suite, endless_device_is_refused) {
    br_suite s;
    cr_assert_eq(br_suite_load(&s, "/dev/zero"), -1);
    cr_assert_str_eq(br_error_get(), "/dev/zero: cannot read: a character device, not a regular "
                                     "file");
    br_suite_dispose(&s);
}

Test(suite, alias_bomb_is_refused, .init = make_tmpdir, .fini = remove_tmpdir) {
    static const char bomb[] = "name: x\nsource: dummy.c\nkernels: [k]\n"
                               "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
                               "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                               "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                               "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n";
    cr_assert_eq(load_bytes(bomb, sizeof bomb - 1), -1);
    cr_assert(strstr(br_error_get(), ":4:4: anchors and aliases are not supported in suites"), "%s",
              br_error_get());
}

Test(suite, many_params_are_refused, .init = make_tmpdir, .fini = remove_tmpdir) {
    char text[4096];
    size_t o = (size_t)snprintf(text, sizeof text,
                                "name: x\nsource: dummy.c\nkernels: [k]\n"
                                "params:\n");
    for (int i = 0; i < 40; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "  p%d: [1, 2]\n", i);
    cr_assert_eq(load_bytes(text, o), -1);
    cr_assert(strstr(br_error_get(), ":37:3: too many parameters (at most 32)"), "%s",
              br_error_get());
}

/* A suite of `n` items made by item(buf, i) after `head`, joined by `sep`,
 * then `tail`; loaded, its error returned (static). The loader finds
 * repeats by sorting, so 100,000 keys take milliseconds; comparing every
 * pair took 12 s for 80,000. The timeout of these tests (10 s, a margin for
 * a sanitizer build on a loaded machine) is only a net for that: they
 * assert on the message. */
static const char *load_many(const char *head, const char *sep, const char *tail, int n,
                             int (*item)(char *buf, size_t len, int i)) {
    size_t cap = 1024 * 1024, o = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    o += (size_t)snprintf(text, cap, "%s", head);
    for (int i = 0; i < n; i++) {
        cr_assert_lt(o + 64, cap, "the suite outgrows 1 MiB at item %d", i);
        if (i)
            o += (size_t)snprintf(text + o, cap - o, "%s", sep);
        o += (size_t)item(text + o, cap - o, i);
    }
    o += (size_t)snprintf(text + o, cap - o, "%s", tail);
    cr_assert_eq(load_bytes(text, o), -1);
    free(text);
    static char err[512];
    snprintf(err, sizeof err, "%s", br_error_get());
    return err;
}

static int param_key(char *buf, size_t len, int i) {
    return snprintf(buf, len, "a%d", i);
}

/* The last kernel repeats the first. */
static int kernel_name(char *buf, size_t len, int i) {
    return snprintf(buf, len, "k%d", i == 99999 ? 0 : i);
}

/* The last value repeats the first. */
static int list_value(char *buf, size_t len, int i) {
    return snprintf(buf, len, "%d", i == 99999 ? 0 : i);
}

Test(suite, a_hundred_thousand_params_are_refused_at_once, .init = make_tmpdir,
     .fini = remove_tmpdir, .timeout = 10) {
    const char *e = load_many("name: x\nsource: dummy.c\nkernels: [k]\nparams: {", ", ", "}\n",
                              100000, param_key);
    cr_expect(strstr(e, ":4:160: too many parameters (at most 32)"), "%s", e);
}

Test(suite, a_hundred_thousand_kernels_with_a_repeat, .init = make_tmpdir, .fini = remove_tmpdir,
     .timeout = 10) {
    const char *e =
        load_many("name: x\nsource: dummy.c\nkernels: [", ", ", "]\n", 100000, kernel_name);
    cr_expect(strstr(e, "duplicate kernel 'k0' (first at 3:11)"), "%s", e);
}

Test(suite, a_hundred_thousand_values_with_a_repeat, .init = make_tmpdir, .fini = remove_tmpdir,
     .timeout = 10) {
    const char *e = load_many("name: x\nsource: dummy.c\nkernels: [k]\nparams:\n  n: [", ",", "]\n",
                              100000, list_value);
    cr_expect(strstr(e, "parameter 'n' lists the value 0 twice (also item 1)"), "%s", e);
}

Test(suite, bytes_for_forty_thousand_kernels, .init = make_tmpdir, .fini = remove_tmpdir,
     .timeout = 10) {
    /* 40,000 kernels, then bytes naming each, the last one not a kernel. */
    size_t cap = 1024 * 1024, o = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    o += (size_t)snprintf(text, cap, "name: x\nsource: dummy.c\nkernels: [");
    for (int i = 0; i < 40000; i++)
        o += (size_t)snprintf(text + o, cap - o, "%sk%d", i ? ", " : "", i);
    o += (size_t)snprintf(text + o, cap - o, "]\nbytes: {");
    for (int i = 0; i < 40000; i++)
        o += (size_t)snprintf(text + o, cap - o, "%sk%d: 1", i ? ", " : "", i == 39999 ? 40000 : i);
    o += (size_t)snprintf(text + o, cap - o, "}\n");
    cr_assert_eq(load_bytes(text, o), -1);
    cr_expect(strstr(br_error_get(), "bytes names kernel 'k40000', which is not in the suite's "
                                     "kernels"),
              "%s", br_error_get());
    free(text);
}

Test(suite, many_values_and_long_text, .init = make_tmpdir, .fini = remove_tmpdir) {
    /* 100000 values in one list, and a 200 kB description. */
    size_t cap = 900 * 1024, o = 0;
    char *text = malloc(cap);
    cr_assert_not_null(text);
    o += (size_t)snprintf(text, cap, "name: x\nsource: dummy.c\nkernels: [k]\nparams:\n  n: [");
    for (int i = 0; i < 100000; i++)
        o += (size_t)snprintf(text + o, cap - o, "%s%d", i ? "," : "", i);
    o += (size_t)snprintf(text + o, cap - o, "]\ndescription: ");
    memset(text + o, 'x', 200000);
    o += 200000;
    text[o++] = '\n';
    char p[128];
    snprintf(p, sizeof p, "%s/s.yaml", tmpdir);
    spit(p, text, o);
    br_suite s;
    load_ok(&s, p);
    cr_assert_eq(s.params[0].n_values, 100000);
    cr_assert_eq(s.params[0].values[99999], 99999);
    cr_assert_eq(strlen(s.description.text), 200000);
    br_suite_dispose(&s);
    free(text);
}

Test(suite, dispose_accepts_null_and_zeroed) {
    br_suite_dispose(NULL);
    br_suite s;
    memset(&s, 0, sizeof s);
    br_suite_dispose(&s);
    cr_assert_str_eq(br_metric_name(BR_METRIC_GBPS), "GB/s");
    cr_assert_str_eq(br_metric_name(BR_METRIC_GFLOPS), "GFLOP/s");
    cr_assert_str_eq(br_metric_name(BR_METRIC_NONE), "none");
    cr_assert_str_eq(br_metric_name((br_metric)42), "none");
}

/* ---------------------------------------------------------------------------
 * no crash on any input: every prefix and many mutations of a good suite
 */

Test(suite, every_prefix_loads_or_fails_cleanly, .init = make_tmpdir, .fini = remove_tmpdir,
     .timeout = 120) {
    size_t len = 0;
    char *full = slurp(SUITES "/full.yaml", &len);
    int ok = 0;
    for (size_t cut = 0; cut <= len; cut++)
        ok += load_bytes(full, cut) == 0;
    cr_assert_geq(ok, 1); /* at least the whole file */
    free(full);
}

Test(suite, mutations_load_or_fail_cleanly, .init = make_tmpdir, .fini = remove_tmpdir,
     .timeout = 120) {
    static const char alphabet[] = "{}[],:-#&*!|>'\"%@`?\t\n \\01923456789.^/()abnk\x00\xff\xc3";
    size_t len = 0;
    char *full = slurp(SUITES "/full.yaml", &len);
    char *buf = malloc(len + 8);
    cr_assert_not_null(buf);
    uint32_t seed = 12345;
    for (int round = 0; round < 3000; round++) {
        memcpy(buf, full, len);
        size_t n = len;
        int edits = 1 + round % 4;
        for (int e = 0; e < edits; e++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = (seed >> 8) % n;
            seed = seed * 1103515245u + 12345u;
            char c = alphabet[(seed >> 8) % (sizeof alphabet - 1)];
            if (round % 3 == 0) { /* replace */
                buf[at] = c;
            } else if (round % 3 == 1 && n < len + 8) { /* insert */
                memmove(buf + at + 1, buf + at, n - at);
                buf[at] = c;
                n++;
            } else if (n > 1) { /* delete: shift the tail left by one */
                for (size_t k = at; k + 1 < n; k++)
                    buf[k] = buf[k + 1];
                n--;
            }
        }
        load_bytes(buf, n);
    }
    free(buf);
    free(full);
}
