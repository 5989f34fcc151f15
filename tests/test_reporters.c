/* test_reporters.c - the table, csv and json reporters against reviewed
 * golden files, plus br_run_derive / br_run_count / br_run_dispose.
 *
 * The runs are built by hand with deterministic values:
 *   1. "reduction" on a GPU (GB/s): OK cases and a FAILED verify (its message
 *      holds a comma and double quotes, for CSV quoting);
 *   2. "sgemm" on a host without a GPU (GFLOP/s): host cases OK, GPU cases
 *      SKIPPED, git detached and dirty;
 *   3. "latency" (metric none, no params, no git, no device, unknown CPU):
 *      no bytes (NaN figures), a FAILED compile with a multi-line message,
 *      times below 1 µs and 10 µs.
 *
 * To regenerate the goldens after an intended change of output, run this
 * test with BR_UPDATE_GOLDEN=1 in the environment, then review the diff of
 * tests/fixtures/golden/ before committing it. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "error.h"
#include "reporter.h"
#include "results.h"

#ifndef BR_FIXTURES_DIR
#error "BR_FIXTURES_DIR must name tests/fixtures"
#endif

/* --- building runs by hand --------------------------------------------------- */

static char *dup_or_null(const char *s) {
    if (!s)
        return NULL;
    char *d = strdup(s);
    cr_assert_not_null(d);
    return d;
}

static void *xcalloc(size_t n, size_t size) {
    void *p = calloc(n ? n : 1, size);
    cr_assert_not_null(p);
    return p;
}

static void run_init(br_run *r, const char *name, const char *description, br_metric metric,
                     const char *const *params, size_t n_params, size_t max_cases) {
    memset(r, 0, sizeof *r);
    r->benchrun_version = dup_or_null("0.1.0");
    snprintf(r->date, sizeof r->date, "2026-11-22T10:00:00Z");
    r->suite_name = dup_or_null(name);
    r->suite_description = dup_or_null(description);
    char path[256];
    snprintf(path, sizeof path, "suites/%s.yaml", name);
    r->suite_path = dup_or_null(path);
    snprintf(r->suite_hash, sizeof r->suite_hash, "%s", "3b18e512dba79e4c8300dd08aeb37f8e728b8dad");
    r->metric = metric;
    r->cache = BR_CACHE_FLUSH;
    r->warmup_ns = BR_DEFAULT_WARMUP_NS;
    r->measure = (br_measure_cfg){BR_DEFAULT_MIN_SAMPLES, BR_DEFAULT_MIN_TIME_NS,
                                  BR_DEFAULT_MAX_NOISE, BR_DEFAULT_TIMEOUT_NS};
    r->n_params = n_params;
    r->param_names = xcalloc(n_params, sizeof *r->param_names);
    for (size_t i = 0; i < n_params; i++)
        r->param_names[i] = dup_or_null(params[i]);
    r->cases = xcalloc(max_cases, sizeof *r->cases);
}

static void add_kernel(br_run *r, const char *name, const char *source, br_backend backend) {
    br_run_kernel *k = realloc(r->kernels, (r->n_kernels + 1) * sizeof *k);
    cr_assert_not_null(k);
    r->kernels = k;
    k[r->n_kernels++] = (br_run_kernel){dup_or_null(name), dup_or_null(source), backend};
}

/* Append a case; samples (n of them) are copied and summarised when OK. */
static br_case_result *add_case(br_run *r, size_t kernel, size_t combo, const int64_t *params,
                                br_case_status status, const char *stage, const char *message,
                                const double *samples, size_t n, double bytes, double flops) {
    br_case_result *c = &r->cases[r->n_cases++];
    c->kernel = kernel;
    c->combo = combo;
    c->params = xcalloc(r->n_params, sizeof *c->params);
    memcpy(c->params, params, r->n_params * sizeof *c->params);
    c->status = status;
    c->stage = dup_or_null(stage);
    c->message = dup_or_null(message);
    c->bytes = bytes;
    c->flops = flops;
    if (status == BR_STATUS_OK) {
        c->samples = xcalloc(n, sizeof *c->samples);
        memcpy(c->samples, samples, n * sizeof *c->samples);
        c->n_samples = n;
        cr_assert_eq(br_stats_compute(&c->time, samples, n), 0, "%s", br_error_get());
        c->warmup_runs = 40;
        c->warmup_ns = 25.5e6;
        c->measure_ns = 50.25e6;
        c->stop_reason = "min_time";
    }
    return c;
}

static void git_commit(br_gitinfo *g, const char *sha, const char *branch, int dirty) {
    memset(g, 0, sizeof *g);
    g->present = 1;
    snprintf(g->sha, sizeof g->sha, "%s", sha);
    snprintf(g->short_sha, sizeof g->short_sha, "%.7s", sha);
    snprintf(g->branch, sizeof g->branch, "%s", branch ? branch : "");
    g->detached = branch == NULL;
    g->dirty = dirty;
    g->commit_time = 1795000000; /* 2026-11-18T11:06:40Z */
    snprintf(g->workdir, sizeof g->workdir, "/home/ci/benchrun");
}

static void build_reduction(br_run *r) {
    const char *params[] = {"n"};
    run_init(r, "reduction", "sum of n float32", BR_METRIC_GBPS, params, 1, 8);
    add_kernel(r, "reduce_cpu", "kernels/reduce_cpu.c", BR_BACKEND_HOST);
    add_kernel(r, "reduce_naive", "kernels/reduce_naive.cu", BR_BACKEND_GPU);
    add_kernel(r, "reduce_warp", "kernels/reduce_warp.cu", BR_BACKEND_GPU);
    add_kernel(r, "reduce_cub", "kernels/reduce_cub.cu", BR_BACKEND_GPU);
    git_commit(&r->git, "1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5", "main", 0);
    r->has_device = 1;
    br_device *d = &r->device;
    d->index = 0;
    snprintf(d->name, sizeof d->name, "NVIDIA H100 80GB HBM3");
    snprintf(d->uuid, sizeof d->uuid, "GPU-5c1a2b3d-4e5f-6071-8293-a4b5c6d7e8f9");
    d->cc_major = 9;
    d->cc_minor = 0;
    d->sm_count = 132;
    d->sm_clock_khz = 1980000;
    d->mem_clock_khz = 2619000;
    d->bus_width_bits = 5120;
    d->l2_bytes = 52428800;
    d->global_mem_bytes = 85022736384;
    d->peak_gbps = 3352.32;
    d->driver_version = 13000;
    d->runtime_version = 12080;
    snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "Intel(R) Xeon(R) Platinum 8480+");
    r->host.logical_cores = 224;
    snprintf(r->host.governor, sizeof r->host.governor, "performance");
    snprintf(r->host.hostname, sizeof r->host.hostname, "gpu-node-07");

    const int64_t n20[] = {1 << 20}, n24[] = {1 << 24};
    const double b20 = 4.0 * (1 << 20), b24 = 4.0 * (1 << 24);
    const double cpu20[] = {262000, 261500, 263250, 262750, 261875};
    const double naive20[] = {34000, 34125, 33950, 34050, 33990};
    const double warp20[] = {4100, 4096, 4112, 4104, 4090};
    const double cub20[] = {3200, 3196, 3208, 3204, 3190};
    const double cpu24[] = {4210000, 4209000, 4213500, 4208250, 4211000};
    const double warp24[] = {41700, 41650, 41800, 41725.5, 41690};
    const double cub24[] = {26100, 26080, 26125, 26110, 26095};
    add_case(r, 0, 0, n20, BR_STATUS_OK, NULL, NULL, cpu20, 5, b20, NAN);
    add_case(r, 1, 0, n20, BR_STATUS_OK, NULL, NULL, naive20, 5, b20, NAN);
    add_case(r, 2, 0, n20, BR_STATUS_OK, NULL, NULL, warp20, 5, b20, NAN);
    add_case(r, 3, 0, n20, BR_STATUS_OK, NULL, NULL, cub20, 5, b20, NAN);
    add_case(r, 0, 1, n24, BR_STATUS_OK, NULL, NULL, cpu24, 5, b24, NAN);
    add_case(r, 1, 1, n24, BR_STATUS_FAILED, "verify",
             "element 1017, block 3: got \"nan\", expected 16777216 (tolerance 1e-3)", NULL, 0, b24,
             NAN);
    add_case(r, 2, 1, n24, BR_STATUS_OK, NULL, NULL, warp24, 5, b24, NAN);
    add_case(r, 3, 1, n24, BR_STATUS_OK, NULL, NULL, cub24, 5, b24, NAN);
    br_run_derive(r);
}

static void build_sgemm(br_run *r) {
    const char *params[] = {"n", "tile"};
    run_init(r, "sgemm", NULL, BR_METRIC_GFLOPS, params, 2, 4);
    add_kernel(r, "sgemm_host", "kernels/sgemm_host.c", BR_BACKEND_HOST);
    add_kernel(r, "sgemm_tiled", "kernels/sgemm_tiled.cu", BR_BACKEND_GPU);
    git_commit(&r->git, "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432", NULL, 1);
    r->has_device = 0;
    r->gpu_skip_reason =
        dup_or_null("no CUDA device: cudaGetDeviceCount: no CUDA-capable device is detected");
    snprintf(r->host.cpu_model, sizeof r->host.cpu_model, "AMD EPYC 9654 96-Core Processor");
    r->host.logical_cores = 192;

    const int64_t p0[] = {1000, 16}, p1[] = {2048, 16};
    const double s0[] = {152000000, 151500000, 152250000};
    const double s1[] = {1340000000, 1338000000, 1342500000};
    const char *why = "no CUDA device";
    add_case(r, 0, 0, p0, BR_STATUS_OK, NULL, NULL, s0, 3, NAN, 2e9);
    add_case(r, 1, 0, p0, BR_STATUS_SKIPPED, "no-gpu", why, NULL, 0, NAN, 2e9);
    add_case(r, 0, 1, p1, BR_STATUS_OK, NULL, NULL, s1, 3, NAN, 2.0 * 2048 * 2048 * 2048);
    add_case(r, 1, 1, p1, BR_STATUS_SKIPPED, "no-gpu", why, NULL, 0, NAN, 2.0 * 2048 * 2048 * 2048);
    br_run_derive(r);
}

static void build_latency(br_run *r) {
    run_init(r, "latency", "empty kernels:\n  launch overhead in µs", BR_METRIC_NONE, NULL, 0, 3);
    add_kernel(r, "noop_host", "kernels/noop.c", BR_BACKEND_HOST);
    add_kernel(r, "spin_host", "kernels/spin.c", BR_BACKEND_HOST);
    add_kernel(r, "sleep_host", "kernels/sleep.c", BR_BACKEND_HOST);
    r->git.present = 0;
    r->has_device = 0;
    r->cache = BR_CACHE_WARM;

    const int64_t none[1] = {0};
    const double noop[] = {850, 849.5, 851.25, 850.75};
    const double spin[] = {9250, 9240, 9262.5, 9255};
    add_case(r, 0, 0, none, BR_STATUS_OK, NULL, NULL, noop, 4, NAN, NAN);
    add_case(r, 1, 0, none, BR_STATUS_OK, NULL, NULL, spin, 4, NAN, NAN);
    add_case(r, 2, 0, none, BR_STATUS_FAILED, "compile",
             "kernels/sleep.c:3:9: error: expected ';' before '}' token\n"
             "    3 |   int x\n"
             "      |        ^\n",
             NULL, 0, NAN, NAN);
    br_run_derive(r);
}

static br_run fixture[3];
static const br_run *fixture_ptrs[3];

static void fixtures_setup(void) {
    build_reduction(&fixture[0]);
    build_sgemm(&fixture[1]);
    build_latency(&fixture[2]);
    for (size_t i = 0; i < 3; i++)
        fixture_ptrs[i] = &fixture[i];
}

static void fixtures_teardown(void) {
    for (size_t i = 0; i < 3; i++)
        br_run_dispose(&fixture[i]);
}

/* --- rendering and golden files ---------------------------------------------- */

/* Render the runs with reporter `name`; the caller frees the result. */
static char *render(const char *name, const br_run *const *runs, size_t n_runs, int ascii,
                    size_t *out_len) {
    const br_reporter *rep = br_reporter_find(name);
    cr_assert_not_null(rep, "no reporter %s", name);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    br_report_opts opts = {ascii};
    int rc = rep->write(f, runs, n_runs, &opts);
    fclose(f);
    cr_assert_eq(rc, 0, "%s: %s", name, br_error_get());
    if (out_len)
        *out_len = len;
    return buf;
}

static char *read_file(const char *path, size_t *out_len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 > cap) {
            cap = 2 * cap + 4096;
            char *nb = realloc(buf, cap);
            cr_assert_not_null(nb);
            buf = nb;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    *out_len = len;
    return buf;
}

/* Compare `got` with tests/fixtures/golden/<name> byte for byte; with
 * BR_UPDATE_GOLDEN=1 write it instead. */
static void check_golden(const char *name, const char *got, size_t got_len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/golden/%s", BR_FIXTURES_DIR, name);
    const char *update = getenv("BR_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f, "cannot write %s", path);
        cr_assert_eq(fwrite(got, 1, got_len, f), got_len);
        cr_assert_eq(fclose(f), 0);
        cr_log_warn("updated golden file %s", path);
        return;
    }
    size_t want_len = 0;
    char *want = read_file(path, &want_len);
    cr_assert_not_null(want, "missing golden file %s (BR_UPDATE_GOLDEN=1 writes it)", path);
    if (want_len == got_len && memcmp(want, got, got_len) == 0) {
        free(want);
        return;
    }
    /* Find the first line that differs. */
    size_t i = 0, line = 1, line_start = 0;
    while (i < want_len && i < got_len && want[i] == got[i]) {
        if (got[i] == '\n') {
            line++;
            line_start = i + 1;
        }
        i++;
    }
    size_t we = line_start, ge = line_start;
    while (we < want_len && want[we] != '\n')
        we++;
    while (ge < got_len && got[ge] != '\n')
        ge++;
    cr_expect_fail("%s differs from the output at line %zu:\n  want: %.*s\n  got:  %.*s\n"
                   "(rerun with BR_UPDATE_GOLDEN=1 to accept the new output)",
                   path, line, (int)(we - line_start), want + line_start, (int)(ge - line_start),
                   got + line_start);
    free(want);
}

static void golden_test(const char *reporter, int ascii, const char *golden) {
    size_t len = 0;
    char *out = render(reporter, fixture_ptrs, 3, ascii, &len);
    check_golden(golden, out, len);
    free(out);
}

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);
TestSuite(results, .init = fixtures_setup, .fini = fixtures_teardown);

Test(reporters, golden_table_utf8) {
    golden_test("table", 0, "table_utf8.txt");
}

Test(reporters, golden_table_ascii) {
    golden_test("table", 1, "table_ascii.txt");
}

Test(reporters, golden_csv) {
    golden_test("csv", 0, "results.csv");
}

Test(reporters, golden_json) {
    golden_test("json", 0, "results.json");
}

/* --- properties that hold whatever the goldens say ----------------------------- */

static size_t utf8_width(const char *s, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        w += ((unsigned char)s[i] & 0xC0) != 0x80;
    return w;
}

/* A box is a run of consecutive lines that begin with a box glyph; every
 * line of a box has the same display width, in both modes. */
static int box_line(const char *line, int ascii) {
    if (ascii)
        return line[0] == '+' || line[0] == '|';
    const char *starts[] = {"╔", "║", "╠", "╟", "╚"};
    for (size_t i = 0; i < 5; i++) {
        if (strncmp(line, starts[i], strlen(starts[i])) == 0)
            return 1;
    }
    return 0;
}

static void check_box_widths(int ascii) {
    char *out = render("table", fixture_ptrs, 3, ascii, NULL);
    size_t box_width = 0, boxes = 0;
    int in_box = 0;
    for (char *line = out; *line;) {
        char *end = strchr(line, '\n');
        cr_assert_not_null(end, "output does not end in a newline");
        size_t w = utf8_width(line, (size_t)(end - line));
        if (!box_line(line, ascii)) {
            in_box = 0;
        } else if (!in_box) {
            in_box = 1;
            box_width = w;
            boxes++;
        } else {
            cr_expect_eq(w, box_width, "line of width %zu in a box of %zu: %.*s", w, box_width,
                         (int)(end - line), line);
        }
        line = end + 1;
    }
    cr_expect_eq(boxes, 3);
    free(out);
}

Test(reporters, table_lines_align_utf8) {
    check_box_widths(0);
}

Test(reporters, table_lines_align_ascii) {
    check_box_widths(1);
}

Test(reporters, table_ascii_is_ascii) {
    char *out = render("table", fixture_ptrs, 2, 1, NULL);
    for (const char *p = out; *p; p++)
        cr_assert((unsigned char)*p < 0x80, "non-ASCII byte at offset %zu", (size_t)(p - out));
    free(out);
}

Test(reporters, table_notes) {
    char *out = render("table", fixture_ptrs, 3, 0, NULL);
    cr_expect(strstr(out, "\nFAILED reduce_naive n=2^24 (verify): element 1017") != NULL);
    cr_expect(strstr(out, "\nnote: 2 GPU case(s) skipped: no CUDA device: cudaGetDeviceCount") !=
              NULL);
    cr_expect(strstr(out, "sgemm_tiled") == NULL, "skipped cases are not rows");
    cr_expect(strstr(out, "9f8e7d6-dirty (detached)") != NULL);
    cr_expect(strstr(out, "no git") != NULL);
    free(out);
}

/* A minimal RFC 4180 reader: the number of fields of each record. */
Test(reporters, csv_records_have_equal_fields) {
    char *out = render("csv", fixture_ptrs, 3, 0, NULL);
    size_t fields = 1, header = 0, records = 0;
    int quoted = 0;
    for (const char *p = out; *p; p++) {
        if (quoted) {
            if (p[0] == '"' && p[1] == '"')
                p++;
            else if (p[0] == '"')
                quoted = 0;
        } else if (*p == '"') {
            quoted = 1;
        } else if (*p == ',') {
            fields++;
        } else if (*p == '\r') {
            cr_assert_eq(p[1], '\n', "bare CR outside quotes");
            p++;
            if (records++ == 0)
                header = fields;
            cr_expect_eq(fields, header, "record %zu has %zu fields, header %zu", records, fields,
                         header);
            fields = 1;
        } else {
            cr_assert_neq(*p, '\n', "bare LF outside quotes");
        }
    }
    cr_expect_eq(quoted, 0);
    cr_expect_eq(records, 1 + 8 + 4 + 3);
    cr_expect_eq(header, 2 + 2 + 22); /* suite, kernel; n, tile; backend..device */
    free(out);
}

Test(reporters, json_parses_back) {
    char *out = render("json", fixture_ptrs, 3, 0, NULL);
    json_error_t err;
    json_t *doc = json_loads(out, 0, &err);
    cr_assert_not_null(doc, "line %d: %s", err.line, err.text);
    cr_expect_eq(json_integer_value(json_object_get(doc, "schema_version")), BR_SCHEMA_VERSION);
    json_t *runs = json_object_get(doc, "runs");
    cr_assert_eq(json_array_size(runs), 3);

    json_t *red = json_array_get(runs, 0);
    json_t *failed = json_array_get(json_object_get(red, "cases"), 5);
    cr_expect_str_eq(json_string_value(json_object_get(failed, "status")), "failed");
    cr_expect(json_is_null(json_object_get(failed, "time_ns")));
    cr_expect(json_is_null(json_object_get(failed, "samples_ns")));
    cr_expect(json_is_null(json_object_get(failed, "gbps")));
    json_t *warp = json_array_get(json_object_get(red, "cases"), 6);
    cr_expect_eq(json_real_value(json_object_get(warp, "gbps")), 67108864.0 / 41700.0);
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(warp, "params"), "n")),
                 1 << 24);
    cr_expect_eq(json_array_size(json_object_get(warp, "samples_ns")), 5);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(red, "git"), "commit_time")),
                     "2026-11-18T11:06:40Z");

    json_t *sgemm = json_array_get(runs, 1);
    cr_expect(json_is_null(json_object_get(sgemm, "device")));
    cr_expect(json_is_string(json_object_get(sgemm, "gpu_skip_reason")));
    cr_expect(json_is_null(json_object_get(json_object_get(sgemm, "git"), "branch")));

    json_t *lat = json_array_get(runs, 2);
    cr_expect(json_is_false(json_object_get(json_object_get(lat, "git"), "present")));
    cr_expect_eq(json_object_size(
                     json_object_get(json_array_get(json_object_get(lat, "cases"), 0), "params")),
                 0);
    json_decref(doc);
    free(out);
}

Test(reporters, no_runs) {
    size_t len = 0;
    char *out = render("table", NULL, 0, 0, &len);
    cr_expect_eq(len, 0);
    free(out);
    out = render("csv", NULL, 0, 0, NULL);
    cr_expect(strncmp(out, "suite,kernel,backend,", 21) == 0);
    free(out);
    out = render("json", NULL, 0, 0, NULL);
    cr_expect(strstr(out, "\"runs\": []") != NULL, "%s", out);
    free(out);
}

Test(reporters, write_error_is_reported) {
    const char *names[] = {"table", "csv", "json"};
    for (size_t i = 0; i < 3; i++) {
        FILE *f = fopen("/dev/null", "r"); /* every write fails */
        cr_assert_not_null(f);
        br_error_clear();
        br_report_opts opts = {0};
        int rc = br_reporter_find(names[i])->write(f, fixture_ptrs, 3, &opts);
        fclose(f);
        cr_expect_eq(rc, -1, "%s", names[i]);
        cr_expect_str_neq(br_error_get(), "", "%s", names[i]);
    }
}

Test(reporters, registry) {
    cr_expect_str_eq(br_reporter_find("table")->name, "table");
    cr_expect_str_eq(br_reporter_find("csv")->name, "csv");
    cr_expect_str_eq(br_reporter_find("json")->name, "json");
    cr_expect_null(br_reporter_find("xml"));
    cr_expect_null(br_reporter_find(""));
    cr_expect_null(br_reporter_find(NULL));
}

/* --- results.c ------------------------------------------------------------------ */

Test(results, derive) {
    br_run *r = &fixture[0];
    const br_case_result *cpu = &r->cases[4], *naive = &r->cases[5], *warp = &r->cases[6];
    cr_expect_eq(cpu->gbps, 67108864.0 / 4210000.0);
    cr_expect(isnan(cpu->pct_peak), "host case has no % of peak");
    cr_expect_eq(cpu->speedup, 1.0);
    cr_expect(isnan(cpu->gflops), "no flops");
    cr_expect(isnan(naive->gbps) && isnan(naive->pct_peak) && isnan(naive->speedup));
    cr_expect_eq(warp->pct_peak, 100.0 * (67108864.0 / 41700.0) / 3352.32);
    cr_expect_eq(warp->speedup, 4210000.0 / 41700.0);

    br_run *s = &fixture[1];
    cr_expect_eq(s->cases[0].gflops, 2e9 / 152000000.0);
    cr_expect(isnan(s->cases[0].gbps) && isnan(s->cases[0].pct_peak));
    cr_expect(isnan(s->cases[1].gflops) && isnan(s->cases[1].speedup));

    br_run *l = &fixture[2];
    cr_expect_eq(l->cases[1].speedup, 850.375 / 9252.5); /* medians */
}

Test(results, speedup_without_reference) {
    br_run *r = &fixture[0];
    /* Make the reference (kernel 0) of combo 1 fail: no speedups there. */
    r->cases[4].status = BR_STATUS_FAILED;
    br_run_derive(r);
    cr_expect(isnan(r->cases[4].gbps));
    cr_expect(isnan(r->cases[6].speedup) && isnan(r->cases[7].speedup));
    cr_expect(!isnan(r->cases[6].gbps), "own figures remain");
    cr_expect(!isnan(r->cases[2].speedup), "other combos keep theirs");
    /* Without a device, no % of peak. */
    r->has_device = 0;
    br_run_derive(r);
    cr_expect(isnan(r->cases[6].pct_peak));
}

Test(results, count) {
    size_t ok = 9, failed = 9, skipped = 9;
    br_run_count(&fixture[0], &ok, &failed, &skipped);
    cr_expect(ok == 7 && failed == 1 && skipped == 0);
    br_run_count(&fixture[1], &ok, &failed, &skipped);
    cr_expect(ok == 2 && failed == 0 && skipped == 2);
    br_run_count(NULL, &ok, NULL, &skipped);
    cr_expect(ok == 0 && skipped == 0);
}

Test(results, dispose_accepts_null_and_zeroed) {
    br_run zero;
    memset(&zero, 0, sizeof zero);
    br_run_dispose(&zero);
    br_run_dispose(NULL);
    br_run_dispose(&fixture[0]);
    br_run_dispose(&fixture[0]); /* zeroed by the first call */
}

Test(results, names) {
    cr_expect_str_eq(br_status_name(BR_STATUS_OK), "ok");
    cr_expect_str_eq(br_status_name(BR_STATUS_FAILED), "failed");
    cr_expect_str_eq(br_status_name(BR_STATUS_SKIPPED), "skipped");
    cr_expect_str_eq(br_backend_name(BR_BACKEND_HOST), "host");
    cr_expect_str_eq(br_backend_name(BR_BACKEND_GPU), "gpu");
}
