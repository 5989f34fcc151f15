/* test_reporters.c - the table, csv and json reporters against reviewed
 * golden files, plus br_run_derive / br_run_count / br_run_dispose and the
 * name functions of results.c.
 *
 * The runs are built by hand (results_fixture.h).
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

#include "measure/device.h"
#include "base/error.h"
#include "reporters/reporter.h"
#include "results/results.h"
#include "results_fixture.h"

#ifndef BR_FIXTURES_DIR
#error "BR_FIXTURES_DIR must name tests/fixtures"
#endif

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
    br_report_opts opts = {.ascii = ascii};
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
    char *out = render(reporter, fixture_ptrs, N_RUNS, ascii, &len);
    check_golden(golden, out, len);
    free(out);
}

/* Render run `i` of the fixture alone. */
static char *render_one(const char *reporter, size_t i, int ascii) {
    return render(reporter, &fixture_ptrs[i], 1, ascii, NULL);
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

/* --- table: properties that hold whatever the goldens say ------------------------ */

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
    char *out = render("table", fixture_ptrs, N_RUNS, ascii, NULL);
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
    cr_expect_eq(boxes, N_RUNS);
    free(out);
}

Test(reporters, table_lines_align_utf8) {
    check_box_widths(0);
}

Test(reporters, table_lines_align_ascii) {
    check_box_widths(1);
}

Test(reporters, table_ascii_is_ascii) {
    /* The first three runs hold no non-ASCII text of their own (the fourth's
     * description has a µ, which is the user's text and shown as is). */
    char *out = render("table", fixture_ptrs, 3, 1, NULL);
    for (const char *p = out; *p; p++)
        cr_assert((unsigned char)*p < 0x80, "non-ASCII byte at offset %zu", (size_t)(p - out));
    cr_expect(strstr(out, "time (us)") != NULL);
    cr_expect(strstr(out, "cold (us)") != NULL);
    free(out);
}

/* The cells of the (UTF-8) table row of `kernel` whose second cell is
 * `param`, trimmed, into cells[] (at most max); returns how many, 0 when no
 * such row. The strings point into *storage, which the caller frees. */
static size_t row_cells(const char *out, const char *kernel, const char *param, char **cells,
                        size_t max, char **storage) {
    *storage = NULL;
    for (const char *line = out; *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            break;
        char prefix[256];
        snprintf(prefix, sizeof prefix, "║ %s ", kernel);
        if (strncmp(line, prefix, strlen(prefix)) == 0) {
            size_t len = (size_t)(end - line);
            char *copy = malloc(len + 1);
            cr_assert_not_null(copy);
            memcpy(copy, line, len);
            copy[len] = '\0';
            /* Split on the inner bar; drop the outer ones. */
            size_t n = 0;
            char *p = copy + strlen("║");
            char *stop = copy + len - strlen("║");
            *stop = '\0';
            while (p && n < max) {
                char *bar = strstr(p, "│");
                if (bar)
                    *bar = '\0';
                while (*p == ' ')
                    p++;
                char *e = p + strlen(p);
                while (e > p && e[-1] == ' ')
                    *--e = '\0';
                cells[n++] = p;
                p = bar ? bar + strlen("│") : NULL;
            }
            if (n > 1 && (!param || strcmp(cells[1], param) == 0)) {
                *storage = copy;
                return n;
            }
            free(copy);
        }
        line = end + 1;
    }
    return 0;
}

/* The header row of the first box in out, split like row_cells. */
static size_t header_cells(const char *out, char **cells, size_t max, char **storage) {
    return row_cells(out, "kernel", NULL, cells, max, storage);
}

Test(reporters, table_title) {
    char *red = render_one("table", 0, 0);
    cr_expect(strstr(red, "║ reduction · sum of n float32 · 1a2b3c4 (main) ") != NULL, "%s", red);
    cr_expect(strstr(red, "║ NVIDIA H100 80GB HBM3 · sm_90 · 132 SMs · 1980 MHz (now 1755)") !=
                  NULL,
              "%s", red);
    cr_expect(strstr(red, "║ % peak of 3352 GB/s theoretical peak ") != NULL, "%s", red);
    free(red);

    char *bw = render_one("table", 1, 0);
    cr_expect(strstr(bw, "║ % peak of 2910 GB/s measured peak ") != NULL, "%s", bw);
    cr_expect(strstr(bw, "theoretical peak") == NULL, "%s", bw);
    free(bw);

    char *sg = render_one("table", 2, 0);
    cr_expect(strstr(sg, "║ AMD EPYC 9654 96-Core Processor · 192 cores · governor performance ") !=
                  NULL,
              "%s", sg);
    cr_expect(strstr(sg, "% peak of") == NULL, "no peak line without a device: %s", sg);
    free(sg);

    char *lat = render_one("table", 3, 0);
    cr_expect(strstr(lat, "║ host ") != NULL, "%s", lat);
    free(lat);
}

/* The line of the title that says which clock the GPU times show: after
 * the device, before the peak; only in runs with GPU cases. */
Test(reporters, table_clock_line) {
    char *red = render_one("table", 0, 0);
    const char *device = strstr(red, "\n║ NVIDIA H100 80GB HBM3 · sm_90");
    const char *clock = strstr(red, "\n║ GPU times: kernel clock (CUPTI activity records) ");
    const char *peak = strstr(red, "\n║ % peak of 3352 GB/s theoretical peak ");
    cr_assert(device && clock && peak, "%s", red);
    cr_expect(device < clock && clock < peak, "%s", red);
    cr_expect(strstr(red, "CUDA events") == NULL, "%s", red);
    free(red);

    char *bw = render_one("table", 1, 1);
    cr_expect(strstr(bw, "\n| GPU times: CUDA events ") != NULL, "%s", bw);
    cr_expect(strstr(bw, "unavailable") == NULL && strstr(bw, "kernel clock") == NULL, "%s", bw);
    free(bw);

    /* No device, but a GPU kernel (skipped): the line, with the note. */
    char *sg = render_one("table", 2, 0);
    cr_expect(strstr(sg, "\n║ GPU times: CUDA events (kernel clock unavailable: libcupti.so: "
                         "cannot open shared object file) ║\n") != NULL,
              "%s", sg);
    free(sg);

    /* Host kernels only: no line. */
    char *lat = render_one("table", 3, 0);
    cr_expect(strstr(lat, "GPU times") == NULL, "%s", lat);
    free(lat);

    /* A note with a newline stays on its line; a run with an unset clock
     * (zeroed) reads as CUDA events. */
    br_run *r = &fixture[1];
    r->clock_note = dup_or_null("CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\nsee the docs");
    r->gpu_clock = BR_CLOCK_MONOTONIC;
    bw = render_one("table", 1, 0);
    cr_expect(strstr(bw, "\n║ GPU times: CUDA events (kernel clock unavailable: "
                         "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES see the docs) ║\n") != NULL,
              "%s", bw);
    free(bw);
}

Test(reporters, table_columns) {
    char *cells[32], *storage;
    /* The kernel clock: an events column after the time columns. */
    const char *want_both[] = {"kernel", "n",    "cold (µs)", "batch (µs)", "events (µs)",
                               "noise",  "GB/s", "% peak",    "speedup",    "!"};
    char *out = render_one("table", 0, 0);
    size_t n = header_cells(out, cells, 32, &storage);
    cr_assert_eq(n, 10, "%s", out);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(cells[i], want_both[i]);
    free(storage);
    cr_expect(strstr(out, "\nnote: GB/s, % peak, speedup and noise use the cold time\n") != NULL,
              "%s", out);
    /* reduce_warp n=2^24: cold 41.7 µs (kernel clock), batch 0.95 of it; the
     * cold CUDA event times 1.51 µs above; noise of the cold time. */
    n = row_cells(out, "reduce_warp", "2^24", cells, 32, &storage);
    cr_assert_eq(n, 10, "%s", out);
    cr_expect_str_eq(cells[2], "41.7");
    cr_expect_str_eq(cells[3], "39.6");
    cr_expect_str_eq(cells[4], "43.2");
    cr_expect_str_eq(cells[5], "0.1%");
    cr_expect_str_eq(cells[9], "");
    free(storage);
    /* reduce_cub n=2^20: kernel 3.20 µs, events (3200 + 1650.5) ns. */
    n = row_cells(out, "reduce_cub", "2^20", cells, 32, &storage);
    cr_assert_eq(n, 10, "%s", out);
    cr_expect_str_eq(cells[2], "3.20");
    cr_expect_str_eq(cells[4], "4.85");
    free(storage);
    /* A host case has no CUDA event times. */
    n = row_cells(out, "reduce_cpu", "2^20", cells, 32, &storage);
    cr_assert_eq(n, 10, "%s", out);
    cr_expect_str_eq(cells[2], "262.0");
    cr_expect_str_eq(cells[4], "–");
    free(storage);
    /* The failed case: FAILED in the first time column, dashes elsewhere. */
    n = row_cells(out, "reduce_naive", "2^24", cells, 32, &storage);
    cr_assert_eq(n, 10);
    cr_expect_str_eq(cells[2], "FAILED");
    cr_expect_str_eq(cells[3], "–");
    cr_expect_str_eq(cells[4], "–");
    cr_expect_str_eq(cells[5], "–");
    cr_expect_str_eq(cells[6], "–");
    free(storage);
    free(out);
    out = render_one("table", 0, 1);
    cr_expect(strstr(out, "| batch (us) | events (us) | noise |") != NULL, "%s", out);
    free(out);

    /* The events clock (with CUPTI's data): no events column. */
    const char *want_cold[] = {"kernel", "n",      "time (µs)", "noise",
                               "GB/s",   "% peak", "speedup",   "!"};
    out = render_one("table", 1, 0);
    n = header_cells(out, cells, 32, &storage);
    cr_assert_eq(n, 8, "%s", out);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(cells[i], want_cold[i]);
    free(storage);
    cr_expect(strstr(out, "note: GB/s") == NULL, "no headline note in mode cold");
    free(out);

    const char *want_batch[] = {"kernel", "batch (µs)", "noise", "speedup", "!"};
    out = render_one("table", 3, 0);
    n = header_cells(out, cells, 32, &storage);
    cr_assert_eq(n, 5, "%s", out);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(cells[i], want_batch[i]);
    free(storage);
    free(out);
}

/* GFLOP/s: the FP32 theoretical peak in the title, a "% peak" column. */
Test(reporters, table_gflops_peak) {
    char *cells[32], *storage;
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *one[] = {&sg};
    char *out = render("table", one, 1, 0, NULL);
    cr_expect(strstr(out, "\n║ % peak of 66.9 TFLOP/s FP32 theoretical peak ") != NULL, "%s", out);
    const char *want[] = {"kernel",  "n",      "tile",    "time (µs)", "noise",
                          "GFLOP/s", "% peak", "speedup", "!"};
    size_t n = header_cells(out, cells, 32, &storage);
    cr_assert_eq(n, 9, "%s", out);
    for (size_t i = 0; i < n; i++)
        cr_expect_str_eq(cells[i], want[i]);
    free(storage);
    /* sgemm_tiled n=2^11: 2 x 2048^3 FLOP in 640 us = 26843.5 GFLOP/s, 40.1% of 66908.16. */
    n = row_cells(out, "sgemm_tiled", "2^11", cells, 32, &storage);
    cr_assert_eq(n, 9, "%s", out);
    cr_expect_str_eq(cells[5], "26843.5");
    cr_expect_str_eq(cells[6], "40.1%");
    free(storage);
    n = row_cells(out, "sgemm_tiled", "1000", cells, 32, &storage);
    cr_assert_eq(n, 9, "%s", out);
    cr_expect_str_eq(cells[5], "8000.0");
    cr_expect_str_eq(cells[6], "12.0%");
    free(storage);
    /* A host case has no % of peak; nor has a failed one. */
    n = row_cells(out, "sgemm_host", "1000", cells, 32, &storage);
    cr_assert_eq(n, 9, "%s", out);
    cr_expect_str_eq(cells[5], "13.2");
    cr_expect_str_eq(cells[6], "–");
    free(storage);
    n = row_cells(out, "sgemm_host", "2^11", cells, 32, &storage);
    cr_assert_eq(n, 9, "%s", out);
    cr_expect_str_eq(cells[3], "FAILED");
    cr_expect_str_eq(cells[6], "–");
    free(storage);
    free(out);
    out = render("table", one, 1, 1, NULL);
    cr_expect(strstr(out, "\n| % peak of 66.9 TFLOP/s FP32 theoretical peak ") != NULL, "%s", out);
    cr_expect(strstr(out, "| GFLOP/s | % peak | speedup |") != NULL, "%s", out);
    free(out);

    /* Mode both: the note names the % of peak too. */
    sg.measure.mode = BR_MODE_BOTH;
    out = render("table", one, 1, 0, NULL);
    cr_expect(strstr(out, "\nnote: GFLOP/s, % peak, speedup and noise use the cold time\n") != NULL,
              "%s", out);
    free(out);
    sg.measure.mode = BR_MODE_COLD;

    /* A measured peak is a bandwidth: GFLOP/s stays on the FP32 theoretical
     * peak, and the title says so. */
    sg.peak_kind = BR_PEAK_MEASURED;
    sg.device.measured_peak_gbps = 2910.4;
    sg.peak_gbps = 2910.4;
    br_run_derive(&sg);
    out = render("table", one, 1, 0, NULL);
    cr_expect(strstr(out, "\n║ % peak of 66.9 TFLOP/s FP32 theoretical peak (`peak: measured` is "
                          "for GB/s only) ") != NULL,
              "%s", out);
    n = row_cells(out, "sgemm_tiled", "2^11", cells, 32, &storage);
    cr_assert_eq(n, 9, "%s", out);
    cr_expect_str_eq(cells[6], "40.1%");
    free(storage);
    free(out);

    /* Below 1 TFLOP/s the peak is given in GFLOP/s (a Jetson Nano: 5.3, one
     * SM, 921.6 MHz: 235.9 GFLOP/s). */
    sg.peak_kind = BR_PEAK_THEORETICAL;
    sg.device.cc_minor = 3;
    sg.device.cc_major = 5;
    sg.device.sm_count = 1;
    sg.device.sm_clock_khz = 921600;
    sg.device.peak_gflops = br_device_peak_gflops_fp32(5, 3, 1, 921600);
    sg.peak_gflops = NAN;
    br_run_derive(&sg);
    cr_expect_eq(sg.peak_gflops, sg.device.peak_gflops);
    out = render("table", one, 1, 0, NULL);
    cr_expect(strstr(out, "\n║ % peak of 236 GFLOP/s FP32 theoretical peak ") != NULL, "%s", out);
    free(out);

    /* A device of unknown compute capability: no peak line, dashes. */
    sg.device.peak_gflops = NAN;
    sg.peak_gflops = NAN;
    br_run_derive(&sg);
    out = render("table", one, 1, 0, NULL);
    cr_expect(strstr(out, "% peak of") == NULL, "%s", out);
    n = row_cells(out, "sgemm_tiled", "2^11", cells, 32, &storage);
    cr_assert_eq(n, 9, "%s", out);
    cr_expect_str_eq(cells[6], "–");
    free(storage);
    free(out);
    br_run_dispose(&sg);

    /* Without a device: the column (dashes), no title line. */
    out = render_one("table", 2, 0);
    cr_expect(strstr(out, "│ GFLOP/s │ % peak │ speedup │") != NULL, "%s", out);
    cr_expect(strstr(out, "% peak of") == NULL, "%s", out);
    free(out);
}

/* The events column follows the headline timing, and needs event times. */
Test(reporters, table_events_column_follows_the_headline) {
    char *cells[32], *storage;
    br_run *r = &fixture[0];
    r->measure.headline = BR_MODE_BATCH;
    br_run_derive(r);
    char *out = render_one("table", 0, 0);
    /* reduce_cub n=2^20 batch: 0.95 x 3200 ns kernel, 180.25 ns more on events. */
    size_t n = row_cells(out, "reduce_cub", "2^20", cells, 32, &storage);
    cr_assert_eq(n, 10, "%s", out);
    cr_expect_str_eq(cells[3], "3.04");
    cr_expect_str_eq(cells[4], "3.22");
    free(storage);
    free(out);

    /* Without any event times there is no column, kernel clock or not. */
    r->measure.headline = BR_MODE_COLD;
    for (size_t i = 0; i < r->n_cases; i++) {
        free(r->cases[i].cold.event_ns);
        r->cases[i].cold.event_ns = NULL;
    }
    out = render_one("table", 0, 0);
    n = header_cells(out, cells, 32, &storage);
    cr_expect_eq(n, 9, "%s", out);
    free(storage);
    cr_expect(strstr(out, "events") == NULL, "%s", out);
    cr_expect(strstr(out, "GPU times: kernel clock") != NULL, "%s", out);
    free(out);
}

/* --- markdown ---------------------------------------------------------------------- */

Test(reporters, markdown_clock_and_events) {
    char *out = render_one("markdown", 0, 0);
    cr_expect(strstr(out, "### reduction · `1a2b3c4` (main) · NVIDIA H100 80GB HBM3\n\n"
                          "GPU times: kernel clock (CUPTI activity records)\n\n"
                          "| kernel | n | cold (µs) | batch (µs) | events (µs) | noise | GB/s | % "
                          "peak | speedup |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "| reduce_cub | 2^20 | 3.20 | 3.04 | 4.85 | 0.2% |") != NULL, "%s", out);
    cr_expect(strstr(out, "| reduce_cpu | 2^20 | 262.0 | 248.9 | – | 0.3% |") != NULL, "%s", out);
    cr_expect(strstr(out, "| reduce_naive | 2^24 | **FAILED** | – | – | – |") != NULL, "%s", out);
    free(out);

    out = render_one("markdown", 1, 0);
    cr_expect(strstr(out, "\n\nGPU times: CUDA events\n\n| kernel | n | time (µs) | noise |") !=
                  NULL,
              "%s", out);
    free(out);
    out = render_one("markdown", 2, 0);
    cr_expect(strstr(out, "\n\nGPU times: CUDA events (kernel clock unavailable: libcupti.so: "
                          "cannot open shared object file)\n\n") != NULL,
              "%s", out);
    free(out);
    out = render_one("markdown", 3, 0);
    cr_expect(strstr(out, "GPU times") == NULL, "%s", out);
    cr_expect(strstr(out, "events") == NULL, "%s", out);
    free(out);
}

Test(reporters, markdown_gflops_peak) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *one[] = {&sg};
    char *out = render("markdown", one, 1, 0, NULL);
    cr_expect(strstr(out, "| kernel | n | tile | time (µs) | noise | GFLOP/s | % peak | speedup |\n"
                          "|---|--:|--:|--:|--:|--:|--:|--:|\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "| sgemm_tiled | 2^11 | 16 | 640.0 | 0.1% | 26843.5 | 40.1% | ") != NULL,
              "%s", out);
    cr_expect(strstr(out, "| sgemm_host | 1000 | 16 | 152000.0 | 0.3% | 13.2 | – | 1.00× |") !=
                  NULL,
              "%s", out);
    free(out);
    br_run_dispose(&sg);

    /* Without a device: the column, empty. */
    out = render_one("markdown", 2, 0);
    cr_expect(strstr(out, "| GFLOP/s | % peak | speedup |") != NULL, "%s", out);
    cr_expect(strstr(out, "| sgemm_host | 1000 | 16 | 152000.0 | 0.3% | 13.2 | – | 1.00× |") !=
                  NULL,
              "%s", out);
    free(out);
    /* Metric none: no column. */
    out = render_one("markdown", 3, 0);
    cr_expect(strstr(out, "% peak") == NULL, "%s", out);
    free(out);
}

/* The flags cell (the last) of a row. */
static void expect_flags(const char *out, const char *kernel, const char *param, const char *want) {
    char *cells[32], *storage;
    size_t n = row_cells(out, kernel, param, cells, 32, &storage);
    cr_assert_gt(n, 2, "no row %s %s in\n%s", kernel, param, out);
    cr_expect_str_eq(cells[n - 1], want, "flags of %s %s", kernel, param);
    free(storage);
}

Test(reporters, table_flags) {
    char *out = render_one("table", 0, 0);
    expect_flags(out, "reduce_cpu", "2^20", "");
    expect_flags(out, "reduce_naive", "2^20", "");
    expect_flags(out, "reduce_warp", "2^20", "T");
    expect_flags(out, "reduce_cub", "2^20", "");
    expect_flags(out, "reduce_cpu", "2^24", "N");
    expect_flags(out, "reduce_naive", "2^24", "");
    expect_flags(out, "reduce_warp", "2^24", "");
    expect_flags(out, "reduce_cub", "2^24", "N");
    free(out);
    out = render_one("table", 1, 0);
    expect_flags(out, "copy", "2^28", "O");
    expect_flags(out, "copy_vec4", "2^28", "");
    free(out);
}

Test(reporters, table_warnings) {
    const br_timing *plateau = &fixture[0].cases[4].cold;
    cr_assert_gt(plateau->stats.noise, 0.005, "the fixture's plateau case must be noisy");
    char want[512];
    snprintf(want, sizeof want,
             "\nreduce_cpu n=2^24 (cold): noise %.1f%% did not reach max_noise 0.5%% "
             "(stopped on plateau after 8 samples)\n",
             100.0 * plateau->stats.noise);

    char *out = render_one("table", 0, 0);
    cr_expect(strstr(out, "\nflags: N = noise above max_noise when sampling stopped, "
                          "T = throttled samples discarded\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, want) != NULL, "want %s in\n%s", want, out);
    cr_expect(strstr(out, "\nreduce_warp n=2^20 (cold): 12 throttled samples discarded (SM clock "
                          "down to 1020 MHz, threshold 75% of 1980 MHz)\n") != NULL,
              "%s", out);
    cr_expect(strstr(out, "\nreduce_cub n=2^24 (batch): noise ") != NULL, "%s", out);
    cr_expect(strstr(out, "(stopped on timeout after 6 samples)\n") != NULL, "%s", out);
    cr_expect(strstr(out, "reduce_cub n=2^24 (cold)") == NULL, "the cold timing is clean");
    cr_expect(strstr(out, "reduce_warp n=2^20 (batch)") == NULL, "the batch timing is clean");
    /* Warnings come after the legend and before the failures. */
    const char *legend = strstr(out, "\nflags: ");
    const char *warning = strstr(out, "\nreduce_warp n=2^20 (cold)");
    const char *failed = strstr(out, "\nFAILED reduce_naive");
    cr_assert(legend && warning && failed);
    cr_expect(legend < warning && warning < failed);
    free(out);

    out = render_one("table", 1, 0);
    cr_expect(strstr(out, "\nflags: O = over 20% of samples are outliers\n") != NULL, "%s", out);
    cr_expect(strstr(out, "\ncopy n=2^28 (cold): 5 of 20 samples (25.0%) are outliers (outside "
                          "Tukey's fences)\n") != NULL,
              "%s", out);
    free(out);

    /* Runs without flags have no legend. */
    out = render_one("table", 2, 0);
    cr_expect(strstr(out, "flags:") == NULL, "%s", out);
    free(out);
    out = render_one("table", 3, 0);
    cr_expect(strstr(out, "flags:") == NULL, "%s", out);
    free(out);
}

Test(reporters, table_notes) {
    char *out = render("table", fixture_ptrs, N_RUNS, 0, NULL);
    cr_expect(strstr(out, "\nFAILED reduce_naive n=2^24 (verify): element 1017") != NULL);
    cr_expect(strstr(out, "\nnote: 2 GPU case(s) skipped: no CUDA device: cudaGetDeviceCount") !=
              NULL);
    cr_expect(strstr(out, "sgemm_tiled") == NULL, "skipped cases are not rows");
    cr_expect(strstr(out, "9f8e7d6-dirty (detached)") != NULL);
    cr_expect(strstr(out, "no git") != NULL);
    cr_expect(strstr(out, "\nFAILED sleep_host (compile): kernels/sleep.c:3:9:") != NULL);
    free(out);
}

/* --- csv --------------------------------------------------------------------------- */

/* A parsed CSV document: records of fields (owned strings). */
typedef struct csv_doc {
    char ***rows;
    size_t *n_fields;
    size_t n_rows;
} csv_doc;

/* Parse RFC 4180 text (CRLF records, quoted fields); asserts it is well formed. */
static void csv_parse(csv_doc *d, const char *text) {
    memset(d, 0, sizeof *d);
    size_t cap_rows = 0;
    char **fields = NULL;
    size_t n_fields = 0, cap_fields = 0;
    char *field = NULL;
    size_t len = 0, cap = 0;
    int quoted = 0;
    for (const char *p = text;; p++) {
        int end_field = 0, end_record = 0;
        if (*p == '\0') {
            cr_assert_eq(quoted, 0, "unterminated quote");
            cr_assert(len == 0 && n_fields == 0, "last record does not end in CRLF");
            break;
        }
        if (quoted) {
            if (p[0] == '"' && p[1] == '"') {
                p++;
            } else if (p[0] == '"') {
                quoted = 0;
                continue;
            }
        } else if (*p == '"') {
            cr_assert_eq(len, 0, "quote inside an unquoted field");
            quoted = 1;
            continue;
        } else if (*p == ',') {
            end_field = 1;
        } else if (*p == '\r') {
            cr_assert_eq(p[1], '\n', "bare CR outside quotes");
            p++;
            end_field = end_record = 1;
        } else {
            cr_assert_neq(*p, '\n', "bare LF outside quotes");
        }
        if (!end_field) {
            if (len + 2 > cap) {
                cap = 2 * cap + 64;
                field = realloc(field, cap);
                cr_assert_not_null(field);
            }
            field[len++] = *p;
            continue;
        }
        if (n_fields == cap_fields) {
            cap_fields = 2 * cap_fields + 16;
            fields = realloc(fields, cap_fields * sizeof *fields);
            cr_assert_not_null(fields);
        }
        char *f = malloc(len + 1);
        cr_assert_not_null(f);
        memcpy(f, field ? field : "", len);
        f[len] = '\0';
        fields[n_fields++] = f;
        len = 0;
        if (end_record) {
            if (d->n_rows == cap_rows) {
                cap_rows = 2 * cap_rows + 8;
                d->rows = realloc(d->rows, cap_rows * sizeof *d->rows);
                d->n_fields = realloc(d->n_fields, cap_rows * sizeof *d->n_fields);
                cr_assert(d->rows && d->n_fields);
            }
            d->rows[d->n_rows] = fields;
            d->n_fields[d->n_rows++] = n_fields;
            fields = NULL;
            n_fields = cap_fields = 0;
        }
    }
    free(field);
    free(fields);
}

static void csv_free(csv_doc *d) {
    for (size_t r = 0; r < d->n_rows; r++) {
        for (size_t i = 0; i < d->n_fields[r]; i++)
            free(d->rows[r][i]);
        free(d->rows[r]);
    }
    free(d->rows);
    free(d->n_fields);
}

/* The field of record `row` (1 = the first after the header) in column `name`. */
static const char *csv_get(const csv_doc *d, size_t row, const char *name) {
    cr_assert_gt(d->n_rows, row);
    for (size_t i = 0; i < d->n_fields[0]; i++) {
        if (strcmp(d->rows[0][i], name) == 0)
            return d->rows[row][i];
    }
    cr_assert_fail("no column %s", name);
    return NULL;
}

/* The record of kernel `kernel` with parameter column `param` = `value`. */
static size_t csv_find(const csv_doc *d, const char *kernel, const char *param, const char *value) {
    for (size_t r = 1; r < d->n_rows; r++) {
        if (strcmp(csv_get(d, r, "kernel"), kernel) == 0 &&
            (!param || strcmp(csv_get(d, r, param), value) == 0))
            return r;
    }
    cr_assert_fail("no record %s %s=%s", kernel, param ? param : "", value ? value : "");
    return 0;
}

static const char *const csv_timing_columns[] = {
    "median_ns",      "mean_ns",  "min_ns",    "max_ns",          "stddev_ns",
    "noise",          "q1_ns",    "q3_ns",     "iqr_ns",          "ci_low_ns",
    "ci_high_ns",     "outliers", "samples",   "throttled",       "stop_reason",
    "reps",           "graph",    "sm_mhz",    "event_median_ns", "kernel_median_ns",
    "span_median_ns", "ops",      "samples_ns"};
#define N_CSV_TIMING_COLUMNS (sizeof csv_timing_columns / sizeof csv_timing_columns[0])

Test(reporters, csv_header) {
    char *out = render("csv", fixture_ptrs, N_RUNS, 0, NULL);
    char want[4096];
    int n = snprintf(want, sizeof want,
                     "suite,kernel,n,tile,backend,status,stage,message,headline,clock,bytes,flops,"
                     "gbps,gflops,pct_peak,speedup,git_sha,device");
    const char *prefixes[] = {"cold_", "batch_"};
    for (size_t p = 0; p < 2; p++) {
        for (size_t i = 0; i < N_CSV_TIMING_COLUMNS; i++)
            n += snprintf(want + n, sizeof want - (size_t)n, ",%s%s", prefixes[p],
                          csv_timing_columns[i]);
    }
    snprintf(want + n, sizeof want - (size_t)n, "\r\n");
    cr_expect(strncmp(out, want, strlen(want)) == 0, "header:\n%.*s\nwant:\n%s",
              (int)(strchr(out, '\n') - out), out, want);
    free(out);
}

Test(reporters, csv_records) {
    char *out = render("csv", fixture_ptrs, N_RUNS, 0, NULL);
    csv_doc d;
    csv_parse(&d, out);
    cr_expect_eq(d.n_rows, 1 + 8 + 2 + 4 + 3);
    cr_expect_eq(N_CSV_TIMING_COLUMNS, 23);
    cr_expect_eq(d.n_fields[0], 2 + 2 + 14 + 2 * 23); /* suite, kernel; n, tile; ...; timings */
    for (size_t r = 1; r < d.n_rows; r++)
        cr_expect_eq(d.n_fields[r], d.n_fields[0], "record %zu", r);

    /* reduce_warp n=2^20 (GPU, mode both): cold throttled, both timings full. */
    size_t w = csv_find(&d, "reduce_warp", "n", "1048576");
    cr_expect_str_eq(csv_get(&d, w, "suite"), "reduction");
    cr_expect_str_eq(csv_get(&d, w, "status"), "ok");
    cr_expect_str_eq(csv_get(&d, w, "headline"), "cold");
    cr_expect_str_eq(csv_get(&d, w, "cold_median_ns"), "4099");
    cr_expect_str_eq(csv_get(&d, w, "cold_samples"), "8");
    cr_expect_str_eq(csv_get(&d, w, "cold_throttled"), "12");
    cr_expect_str_eq(csv_get(&d, w, "cold_stop_reason"), "noise");
    cr_expect_str_eq(csv_get(&d, w, "cold_reps"), "1");
    cr_expect_str_eq(csv_get(&d, w, "cold_graph"), "0");
    cr_expect_str_eq(csv_get(&d, w, "cold_sm_mhz"), "1965");
    cr_expect_str_eq(csv_get(&d, w, "cold_samples_ns"),
                     "4100 4096 4112 4104 4090.1234 4098 4102 4094");
    cr_expect_str_neq(csv_get(&d, w, "cold_ci_low_ns"), "", "8 samples have a CI");
    cr_expect_str_eq(csv_get(&d, w, "batch_reps"), "64");
    cr_expect_str_eq(csv_get(&d, w, "batch_graph"), "1");
    cr_expect_str_eq(csv_get(&d, w, "batch_throttled"), "0");
    /* The batch samples (0.95 of the cold ones) read back to 9 digits. */
    const char *p = csv_get(&d, w, "batch_samples_ns");
    const br_timing *bt = &fixture[0].cases[2].batch;
    for (size_t i = 0; i < bt->n_samples; i++) {
        char *end;
        double v = strtod(p, &end);
        cr_assert_neq(end, p, "sample %zu missing in '%s'", i, csv_get(&d, w, "batch_samples_ns"));
        cr_expect(fabs(v - bt->samples[i]) <= 1e-9 * bt->samples[i], "%.17g vs %.17g", v,
                  bt->samples[i]);
        p = end;
    }
    cr_expect_eq(*p, '\0', "more samples than kept: '%s'", p);

    /* The kernel clock: CUDA events 1510 ns above the kernel times, no gap
     * in the span, one operation per execution. */
    cr_expect_str_eq(csv_get(&d, w, "clock"), "kernel");
    cr_expect_str_eq(csv_get(&d, w, "cold_event_median_ns"), "5609");
    cr_expect_str_eq(csv_get(&d, w, "cold_kernel_median_ns"), "4099");
    cr_expect_str_eq(csv_get(&d, w, "cold_span_median_ns"), "4099");
    cr_expect_str_eq(csv_get(&d, w, "cold_ops"), "1");
    cr_expect_str_eq(csv_get(&d, w, "batch_event_median_ns"), "3989.55");
    /* reduce_cub: a CUB kernel and a memset per execution, the span 36 ns
     * above the kernel time. */
    size_t cub = csv_find(&d, "reduce_cub", "n", "1048576");
    cr_expect_str_eq(csv_get(&d, cub, "cold_event_median_ns"), "4850.5");
    cr_expect_str_eq(csv_get(&d, cub, "cold_kernel_median_ns"), "3200");
    cr_expect_str_eq(csv_get(&d, cub, "cold_span_median_ns"), "3236");
    cr_expect_str_eq(csv_get(&d, cub, "cold_ops"), "2");
    cr_expect_str_eq(csv_get(&d, cub, "batch_kernel_median_ns"), "3040");
    cr_expect_str_eq(csv_get(&d, cub, "batch_ops"), "2");

    /* A host case: graph, sm_mhz and the GPU clocks empty; 5 samples have no CI. */
    size_t h = csv_find(&d, "reduce_cpu", "n", "1048576");
    cr_expect_str_eq(csv_get(&d, h, "clock"), "monotonic");
    cr_expect_str_eq(csv_get(&d, h, "cold_graph"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_sm_mhz"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_event_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_kernel_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_span_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_ops"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_ci_low_ns"), "");
    cr_expect_str_eq(csv_get(&d, h, "cold_outliers"), "0");

    /* The plateau case and the outlier case. */
    size_t pl = csv_find(&d, "reduce_cpu", "n", "16777216");
    cr_expect_str_eq(csv_get(&d, pl, "cold_stop_reason"), "plateau");
    size_t o = csv_find(&d, "copy", NULL, NULL);
    cr_expect_str_eq(csv_get(&d, o, "cold_outliers"), "5");
    cr_expect_str_eq(csv_get(&d, o, "cold_samples"), "20");
    /* The events clock with CUPTI's data: the kernel times 1480 ns below the
     * event times, their median over the 19 samples that kept their records
     * (the 10th smallest of copy28 minus 1480). */
    cr_expect_str_eq(csv_get(&d, o, "clock"), "events");
    cr_expect_str_eq(csv_get(&d, o, "cold_event_median_ns"), "1000040");
    cr_expect_str_eq(csv_get(&d, o, "cold_kernel_median_ns"), "998550");
    cr_expect_str_eq(csv_get(&d, o, "cold_ops"), "1");

    /* A failed case: message quoted and read back, no times. */
    size_t f = csv_find(&d, "reduce_naive", "n", "16777216");
    cr_expect_str_eq(csv_get(&d, f, "status"), "failed");
    cr_expect_str_eq(csv_get(&d, f, "stage"), "verify");
    cr_expect_str_eq(csv_get(&d, f, "message"),
                     "element 1017, block 3: got \"nan\", expected 16777216 (tolerance 1e-3)");
    cr_expect_str_eq(csv_get(&d, f, "cold_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, f, "cold_samples_ns"), "");
    cr_expect_str_eq(csv_get(&d, f, "gbps"), "");
    cr_expect_str_eq(csv_get(&d, f, "clock"), "");
    cr_expect_str_eq(csv_get(&d, f, "cold_event_median_ns"), "");

    /* Mode cold: the batch set is empty; a skipped case has no times. */
    size_t s = csv_find(&d, "sgemm_host", "n", "1000");
    cr_expect_str_eq(csv_get(&d, s, "cold_samples"), "3");
    cr_expect_str_eq(csv_get(&d, s, "tile"), "16");
    cr_expect_str_eq(csv_get(&d, s, "clock"), "monotonic");
    for (size_t i = 0; i < N_CSV_TIMING_COLUMNS; i++) {
        char col[64];
        snprintf(col, sizeof col, "batch_%s", csv_timing_columns[i]);
        cr_expect_str_eq(csv_get(&d, s, col), "", "%s", col);
    }
    size_t sk = csv_find(&d, "sgemm_tiled", "n", "1000");
    cr_expect_str_eq(csv_get(&d, sk, "status"), "skipped");
    cr_expect_str_eq(csv_get(&d, sk, "cold_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, sk, "clock"), "");

    /* Mode batch: the cold set is empty, the headline is batch. */
    size_t l = csv_find(&d, "noop_host", NULL, NULL);
    cr_expect_str_eq(csv_get(&d, l, "headline"), "batch");
    cr_expect_str_eq(csv_get(&d, l, "clock"), "monotonic");
    cr_expect_str_eq(csv_get(&d, l, "cold_median_ns"), "");
    cr_expect_str_eq(csv_get(&d, l, "batch_reps"), "1000");
    cr_expect_str_eq(csv_get(&d, l, "batch_samples_ns"), "850 849.5 851.25 850.75");
    csv_free(&d);
    free(out);
}

/* --- json -------------------------------------------------------------------------- */

static json_t *parse_json(const char *text) {
    json_error_t err;
    json_t *doc = json_loads(text, 0, &err);
    cr_assert_not_null(doc, "line %d: %s", err.line, err.text);
    return doc;
}

static json_t *at(json_t *o, const char *key) {
    json_t *v = json_object_get(o, key);
    cr_assert_not_null(v, "no key %s", key);
    return v;
}

static double num(json_t *o, const char *key) {
    json_t *v = at(o, key);
    cr_assert(json_is_number(v), "%s is not a number", key);
    return json_number_value(v);
}

static const char *text(json_t *o, const char *key) {
    json_t *v = at(o, key);
    cr_assert(json_is_string(v), "%s is not a string", key);
    return json_string_value(v);
}

static json_t *case_at(json_t *run, size_t i) {
    json_t *c = json_array_get(at(run, "cases"), i);
    cr_assert_not_null(c, "no case %zu", i);
    return c;
}

/* t[key] is null when want is NULL, else n numbers equal to want's (null
 * for a NAN). */
static void expect_array(json_t *t, const char *key, const double *want, size_t n) {
    json_t *a = at(t, key);
    if (!want) {
        cr_expect(json_is_null(a), "%s", key);
        return;
    }
    cr_assert(json_is_array(a), "%s", key);
    cr_assert_eq(json_array_size(a), n, "%s", key);
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(a, i);
        if (isnan(want[i]))
            cr_expect(json_is_null(v), "%s[%zu]", key, i);
        else
            cr_expect_eq(json_number_value(v), want[i], "%s[%zu]", key, i);
    }
}

/* t[key] is the median of the array `array`, null without it. */
static void expect_median(json_t *t, const char *key, const double *array, double median) {
    if (!array || isnan(median))
        cr_expect(json_is_null(at(t, key)), "%s", key);
    else
        cr_expect_eq(num(t, key), median, "%s", key);
}

/* The JSON timing t carries every statistic and sample of the in-memory one. */
static void expect_timing(json_t *t, const br_timing *want, int gpu) {
    cr_assert(json_is_object(t));
    cr_expect_eq(num(t, "n"), (double)want->stats.n);
    cr_expect_eq(num(t, "median"), want->stats.median);
    cr_expect_eq(num(t, "mean"), want->stats.mean);
    cr_expect_eq(num(t, "min"), want->stats.min);
    cr_expect_eq(num(t, "max"), want->stats.max);
    cr_expect_eq(num(t, "stddev"), want->stats.stddev);
    cr_expect_eq(num(t, "noise"), want->stats.noise);
    cr_expect_eq(num(t, "q1"), want->stats.q1);
    cr_expect_eq(num(t, "q3"), want->stats.q3);
    cr_expect_eq(num(t, "iqr"), want->stats.iqr);
    cr_expect_eq(num(t, "outliers"), (double)want->stats.n_outliers);
    if (want->stats.n >= 6) {
        cr_expect_eq(num(t, "ci_low"), want->stats.ci_low);
        cr_expect_eq(num(t, "ci_high"), want->stats.ci_high);
        cr_expect_eq(num(t, "ci_level"), want->stats.ci_level);
    } else {
        cr_expect(json_is_null(at(t, "ci_low")) && json_is_null(at(t, "ci_high")) &&
                  json_is_null(at(t, "ci_level")));
    }
    cr_expect_eq(num(t, "n_throttled"), (double)want->n_throttled);
    cr_expect_eq(num(t, "reps"), (double)want->reps);
    cr_expect_eq(num(t, "warmup_runs"), (double)want->warmup_runs);
    cr_expect_eq(num(t, "warmup_ns"), want->warmup_ns);
    cr_expect_eq(num(t, "measure_ns"), want->measure_ns);
    cr_expect_str_eq(text(t, "stop_reason"), want->stop_reason);
    json_t *samples = at(t, "samples_ns");
    cr_assert_eq(json_array_size(samples), want->n_samples);
    for (size_t i = 0; i < want->n_samples; i++)
        cr_expect_eq(json_number_value(json_array_get(samples, i)), want->samples[i], "sample %zu",
                     i);
    cr_expect_str_eq(text(t, "clock"), br_clock_name(want->clock));
    cr_expect_eq(num(t, "incomplete"), (double)want->n_incomplete);
    expect_array(t, "event_ns", want->event_ns, want->n_samples);
    expect_array(t, "kernel_ns", want->kernel_ns, want->n_samples);
    expect_array(t, "span_ns", want->span_ns, want->n_samples);
    expect_array(t, "ops", want->ops, want->n_samples);
    expect_median(t, "event_median_ns", want->event_ns, want->event_median_ns);
    expect_median(t, "kernel_median_ns", want->kernel_ns, want->kernel_median_ns);
    expect_median(t, "span_median_ns", want->span_ns, want->span_median_ns);
    expect_median(t, "ops_median", want->ops, want->ops_median);
    json_t *ops = at(t, "breakdown");
    if (!want->breakdown) {
        cr_expect(json_is_null(ops));
    } else {
        cr_assert_eq(json_array_size(ops), want->n_breakdown);
        for (size_t i = 0; i < want->n_breakdown; i++) {
            json_t *op = json_array_get(ops, i);
            const br_op_stat *w = &want->breakdown[i];
            cr_expect_eq(json_object_size(op), 6);
            cr_expect_str_eq(text(op, "name"), w->name);
            cr_expect_str_eq(text(op, "kind"), br_op_kind_name(w->kind));
            cr_expect(json_is_integer(at(op, "count")));
            cr_expect_eq(num(op, "count"), (double)w->count);
            cr_expect_eq(num(op, "per_execution"), w->per_exec);
            cr_expect_eq(num(op, "median_ns"), w->median_ns);
            cr_expect_eq(num(op, "share"), w->share);
        }
    }
    json_t *mhz = at(t, "sm_mhz_samples");
    if (gpu) {
        cr_expect(json_is_boolean(at(t, "graph")));
        cr_expect_eq(json_is_true(at(t, "graph")), want->graph != 0);
        cr_expect_eq(num(t, "sm_mhz"), want->sm_mhz_median);
        cr_assert_eq(json_array_size(mhz), want->n_samples);
        cr_expect_eq(json_number_value(json_array_get(mhz, 0)), want->sm_mhz[0]);
    } else {
        cr_expect(json_is_null(at(t, "graph")));
        cr_expect(json_is_null(at(t, "sm_mhz")));
        cr_expect(json_is_null(mhz));
    }
}

Test(reporters, json_run_level) {
    char *out = render("json", fixture_ptrs, N_RUNS, 0, NULL);
    json_t *doc = parse_json(out);
    cr_expect_eq(json_integer_value(at(doc, "schema_version")), 4);
    cr_expect_eq(BR_SCHEMA_VERSION, 4);
    cr_expect_str_eq(text(doc, "benchrun_version"), "0.1.0");
    json_t *runs = at(doc, "runs");
    cr_assert_eq(json_array_size(runs), N_RUNS);

    json_t *red = json_array_get(runs, 0);
    cr_expect_str_eq(text(red, "benchrun_version"), "0.1.0");
    cr_expect_str_eq(text(red, "gpu_clock"), "kernel");
    cr_expect(json_is_null(at(red, "clock_note")));
    cr_expect_str_eq(text(red, "date"), "2026-11-22T10:00:00Z");
    json_t *suite = at(red, "suite");
    cr_expect_str_eq(text(suite, "name"), "reduction");
    cr_expect_str_eq(text(suite, "description"), "sum of n float32");
    cr_expect_str_eq(text(suite, "path"), "suites/reduction.yaml");
    cr_expect_str_eq(text(suite, "hash"), "3b18e512dba79e4c8300dd08aeb37f8e728b8dad");
    cr_expect_str_eq(text(at(red, "git"), "commit_time"), "2026-11-18T11:06:40Z");

    json_t *m = at(red, "measure");
    cr_expect_str_eq(text(m, "cache"), "flush");
    cr_expect_eq(num(m, "warmup_ns"), BR_DEFAULT_WARMUP_NS);
    cr_expect_str_eq(text(m, "mode"), "both");
    cr_expect_str_eq(text(m, "headline"), "cold");
    cr_expect(json_is_true(at(m, "hold")));
    cr_expect_eq(num(m, "throttle"), 0.75);
    cr_expect_eq(num(m, "min_samples"), 10);
    cr_expect_eq(num(m, "min_time_ns"), 50e6);
    cr_expect_eq(num(m, "max_noise"), 0.005);
    cr_expect_eq(num(m, "timeout_ns"), 10e9);
    cr_expect_eq(num(m, "max_samples"), BR_DEFAULT_MAX_SAMPLES);
    json_t *peak = at(red, "peak");
    cr_expect_str_eq(text(peak, "kind"), "theoretical");
    cr_expect_eq(num(peak, "gbps"), 3352.32);

    json_t *d = at(red, "device");
    cr_expect_str_eq(text(d, "name"), "NVIDIA H100 80GB HBM3");
    cr_expect_str_eq(text(d, "uuid"), "GPU-5c1a2b3d-4e5f-6071-8293-a4b5c6d7e8f9");
    cr_expect_str_eq(text(d, "cc"), "9.0");
    cr_expect_eq(num(d, "sm_count"), 132);
    cr_expect_eq(num(d, "sm_clock_max_mhz"), 1980);
    cr_expect_eq(num(d, "sm_clock_now_mhz"), 1755);
    cr_expect_eq(num(d, "mem_clock_mhz"), 2619);
    cr_expect_eq(num(d, "bus_width_bits"), 5120);
    cr_expect_eq(num(d, "peak_gbps"), 3352.32);
    cr_expect(json_is_null(at(d, "measured_peak_gbps")));
    cr_expect_eq(num(d, "peak_gflops_fp32"), 66908.16);
    cr_expect_eq(num(peak, "gflops"), 66908.16, "filled in from the device by br_run_derive");
    cr_expect_eq(num(d, "l2_bytes"), 52428800);
    cr_expect_eq(num(d, "global_mem_bytes"), 85022736384.0);
    cr_expect(json_is_true(at(d, "ecc")));
    cr_expect_eq(num(d, "driver_version"), 13000);
    cr_expect_eq(num(d, "runtime_version"), 12080);
    json_t *host = at(red, "host");
    cr_expect_str_eq(text(host, "cpu_model"), "Intel(R) Xeon(R) Platinum 8480+");
    cr_expect_eq(num(host, "logical_cores"), 224);
    cr_expect_str_eq(text(host, "governor"), "performance");
    cr_expect_str_eq(text(host, "hostname"), "gpu-node-07");

    json_t *bw = json_array_get(runs, 1);
    cr_expect_str_eq(text(bw, "gpu_clock"), "events");
    cr_expect(json_is_null(at(bw, "clock_note")));
    cr_expect_str_eq(text(at(bw, "measure"), "cache"), "flush-memset");
    cr_expect_str_eq(text(at(bw, "measure"), "mode"), "cold");
    cr_expect_str_eq(text(at(bw, "peak"), "kind"), "measured");
    cr_expect_eq(num(at(bw, "peak"), "gbps"), 2910.4);
    cr_expect_eq(num(at(bw, "device"), "measured_peak_gbps"), 2910.4);
    cr_expect_eq(num(at(bw, "peak"), "gflops"), 66908.16, "FP32: theoretical, whatever the kind");
    cr_expect(json_is_null(at(at(bw, "device"), "sm_clock_now_mhz")));
    cr_expect(json_is_null(at(at(bw, "device"), "ecc")));

    json_t *sg = json_array_get(runs, 2);
    cr_expect_str_eq(text(sg, "gpu_clock"), "events");
    cr_expect_str_eq(text(sg, "clock_note"), "libcupti.so: cannot open shared object file");
    cr_expect(json_is_null(at(sg, "device")));
    cr_expect(json_is_null(at(at(sg, "peak"), "gbps")));
    cr_expect(json_is_null(at(at(sg, "peak"), "gflops")));
    cr_expect(json_is_string(at(sg, "gpu_skip_reason")));
    cr_expect(json_is_null(at(at(sg, "git"), "branch")));

    json_t *lat = json_array_get(runs, 3);
    cr_expect_str_eq(text(lat, "gpu_clock"), "events");
    cr_expect(json_is_false(at(at(lat, "git"), "present")));
    cr_expect_str_eq(text(at(lat, "measure"), "mode"), "batch");
    cr_expect_str_eq(text(at(lat, "measure"), "headline"), "batch");
    cr_expect_str_eq(text(at(lat, "measure"), "cache"), "warm");
    cr_expect(json_is_null(at(at(lat, "host"), "cpu_model")));
    cr_expect_eq(json_object_size(at(case_at(lat, 0), "params")), 0);
    json_decref(doc);
    free(out);
}

/* A GFLOP/s run on a GPU: the FP32 peak and each case's % of it. */
Test(reporters, json_gflops_peak) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_run *one[] = {&sg};
    char *out = render("json", one, 1, 0, NULL);
    json_t *doc = parse_json(out);
    json_t *run = json_array_get(at(doc, "runs"), 0);
    cr_assert_not_null(run);
    json_t *peak = at(run, "peak");
    cr_expect_str_eq(text(peak, "kind"), "theoretical");
    cr_expect_eq(num(peak, "gbps"), 3352.32);
    cr_expect_eq(num(peak, "gflops"), 66908.16);
    cr_expect_eq(num(at(run, "device"), "peak_gflops_fp32"), 66908.16);
    cr_expect(json_is_null(at(case_at(run, 0), "pct_peak")), "host case");
    cr_expect_eq(num(case_at(run, 1), "pct_peak"), 100.0 * (2e9 / 250000.0) / 66908.16);
    cr_expect(json_is_null(at(case_at(run, 2), "pct_peak")), "failed case");
    cr_expect_eq(num(case_at(run, 3), "pct_peak"),
                 100.0 * (2.0 * 2048 * 2048 * 2048 / 640000.0) / 66908.16);
    json_decref(doc);
    free(out);
    br_run_dispose(&sg);
}

Test(reporters, json_cases) {
    char *out = render("json", fixture_ptrs, N_RUNS, 0, NULL);
    json_t *doc = parse_json(out);
    json_t *runs = at(doc, "runs");
    json_t *red = json_array_get(runs, 0);

    /* Every OK case of every run: its timings as in memory, null when absent. */
    for (size_t ri = 0; ri < N_RUNS; ri++) {
        const br_run *r = &fixture[ri];
        json_t *run = json_array_get(runs, ri);
        cr_assert_eq(json_array_size(at(run, "cases")), r->n_cases);
        for (size_t i = 0; i < r->n_cases; i++) {
            const br_case_result *c = &r->cases[i];
            json_t *jc = case_at(run, i);
            int gpu = r->kernels[c->kernel].backend == BR_BACKEND_GPU;
            cr_expect_str_eq(text(jc, "kernel"), r->kernels[c->kernel].name);
            cr_expect_str_eq(text(jc, "status"), br_status_name(c->status));
            if (c->status == BR_STATUS_OK && c->cold.present)
                expect_timing(at(jc, "cold"), &c->cold, gpu);
            else
                cr_expect(json_is_null(at(jc, "cold")), "run %zu case %zu", ri, i);
            if (c->status == BR_STATUS_OK && c->batch.present)
                expect_timing(at(jc, "batch"), &c->batch, gpu);
            else
                cr_expect(json_is_null(at(jc, "batch")), "run %zu case %zu", ri, i);
        }
    }

    json_t *warp = case_at(red, 2);
    cr_expect_eq(num(at(warp, "cold"), "n_throttled"), 12);
    cr_expect_eq(num(at(warp, "cold"), "throttled_min_mhz"), 1020);
    cr_expect(json_is_null(at(at(warp, "batch"), "throttled_min_mhz")));
    cr_expect_eq(json_array_size(at(at(warp, "cold"), "samples_ns")), 8);
    cr_expect_eq(num(at(warp, "params"), "n"), 1 << 20);
    cr_expect_eq(num(warp, "gbps"), 4194304.0 / 4099.0);
    cr_expect_eq(num(warp, "bytes"), 4194304.0);
    cr_expect(json_is_null(at(warp, "flops")));
    cr_expect(json_is_null(at(warp, "gflops")));
    cr_expect_eq(num(warp, "pct_peak"), 100.0 * (4194304.0 / 4099.0) / 3352.32);
    cr_expect_eq(num(warp, "speedup"), 262000.0 / 4099.0);
    cr_expect_str_eq(text(at(case_at(red, 4), "cold"), "stop_reason"), "plateau");

    json_t *failed = case_at(red, 5);
    cr_expect_str_eq(text(failed, "stage"), "verify");
    cr_expect(json_is_string(at(failed, "message")));
    cr_expect(json_is_null(at(failed, "cold")) && json_is_null(at(failed, "batch")));
    cr_expect(json_is_null(at(failed, "gbps")));
    cr_expect(json_is_null(at(case_at(red, 0), "stage")));

    json_t *copy = case_at(json_array_get(runs, 1), 0);
    cr_expect_eq(num(at(copy, "cold"), "outliers"), 5);
    cr_expect(json_is_null(at(copy, "batch")));

    json_t *skipped = case_at(json_array_get(runs, 2), 1);
    cr_expect_str_eq(text(skipped, "status"), "skipped");
    cr_expect_str_eq(text(skipped, "stage"), "no-gpu");
    cr_expect(json_is_null(at(skipped, "cold")));

    json_t *noop = case_at(json_array_get(runs, 3), 0);
    cr_expect(json_is_null(at(noop, "cold")));
    cr_expect_eq(num(at(noop, "batch"), "reps"), 1000);
    json_decref(doc);
    free(out);
}

/* The GPU clocks of a timing: values written for the fixture's CUPTI data. */
Test(reporters, json_gpu_clocks) {
    char *out = render("json", fixture_ptrs, N_RUNS, 0, NULL);
    json_t *doc = parse_json(out);
    json_t *runs = at(doc, "runs");
    json_t *red = json_array_get(runs, 0);

    /* reduce_cub n=2^20, cold, the kernel clock: kernel times are the
     * samples, CUDA events 1650.5 ns above, the span 36 ns above, two
     * operations per execution, 2 samples discarded as incomplete. */
    json_t *cold = at(case_at(red, 3), "cold");
    cr_expect_str_eq(text(cold, "clock"), "kernel");
    cr_expect_eq(num(cold, "incomplete"), 2);
    cr_expect_eq(num(cold, "median"), 3200.0);
    cr_expect_eq(num(cold, "kernel_median_ns"), 3200.0);
    cr_expect_eq(num(cold, "event_median_ns"), 4850.5);
    cr_expect_eq(num(cold, "span_median_ns"), 3236.0);
    cr_expect_eq(num(cold, "ops_median"), 2.0);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "event_ns"), 4)), 3190.0 + 1650.5);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "kernel_ns"), 2)), 3208.0);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "span_ns"), 1)), 3196.0 + 36.0);
    cr_expect_eq(json_number_value(json_array_get(at(cold, "ops"), 0)), 2.0);
    json_t *ops = at(cold, "breakdown");
    cr_assert_eq(json_array_size(ops), 2);
    json_t *k = json_array_get(ops, 0), *m = json_array_get(ops, 1);
    cr_expect(strncmp(text(k, "name"),
                      "void cub::CUB_200700_900_NS::DeviceReduceSingleTileKernel<cub::", 63) == 0,
              "%s", text(k, "name"));
    cr_expect(strstr(text(k, "name"), "<float, int, cub::CUB_200700_900_NS::Sum>::Policy600, ") !=
              NULL);
    cr_expect_str_eq(text(k, "kind"), "kernel");
    cr_expect_eq(json_integer_value(at(k, "count")), 5);
    cr_expect_eq(num(k, "per_execution"), 1.0);
    cr_expect_eq(num(k, "median_ns"), 2890.0);
    cr_expect_eq(num(k, "share"), 1.0 - 310.0 / 3200.0);
    cr_expect_str_eq(text(m, "name"), "memset");
    cr_expect_str_eq(text(m, "kind"), "memset");
    cr_expect_eq(json_integer_value(at(m, "count")), 5);
    cr_expect_eq(num(m, "median_ns"), 310.0);
    cr_expect_eq(num(m, "share"), 310.0 / 3200.0);
    /* its batch timing: 64 executions per sample, counted per execution */
    json_t *batch = at(case_at(red, 3), "batch");
    cr_expect_str_eq(text(batch, "clock"), "kernel");
    cr_expect_eq(num(batch, "incomplete"), 0);
    cr_expect_eq(json_integer_value(at(json_array_get(at(batch, "breakdown"), 1), "count")),
                 5 * 64);

    /* A host timing: the monotonic clock, no GPU data. */
    json_t *cpu = at(case_at(red, 0), "cold");
    cr_expect_str_eq(text(cpu, "clock"), "monotonic");
    const char *nulls[] = {"event_ns",        "kernel_ns",        "span_ns",        "ops",
                           "event_median_ns", "kernel_median_ns", "span_median_ns", "ops_median",
                           "breakdown"};
    for (size_t i = 0; i < sizeof nulls / sizeof nulls[0]; i++)
        cr_expect(json_is_null(at(cpu, nulls[i])), "%s", nulls[i]);
    cr_expect_eq(num(cpu, "incomplete"), 0);

    /* bandwidth: the events clock with CUPTI's data; copy's sample 17 lost
     * its records (null), the kernel median over the other 19. */
    json_t *copy = at(case_at(json_array_get(runs, 1), 0), "cold");
    cr_expect_str_eq(text(copy, "clock"), "events");
    cr_expect_eq(json_array_size(at(copy, "kernel_ns")), 20);
    cr_expect(json_is_null(json_array_get(at(copy, "kernel_ns"), 17)));
    cr_expect(json_is_null(json_array_get(at(copy, "span_ns"), 17)));
    cr_expect(json_is_null(json_array_get(at(copy, "ops"), 17)));
    cr_expect_eq(json_number_value(json_array_get(at(copy, "event_ns"), 17)), 1001500.0);
    cr_expect_eq(json_number_value(json_array_get(at(copy, "kernel_ns"), 16)), 1001400.0 - 1480.0);
    cr_expect_eq(num(copy, "event_median_ns"), 1000040.0);
    cr_expect_eq(num(copy, "kernel_median_ns"), 1000030.0 - 1480.0);
    cr_expect_eq(num(copy, "ops_median"), 1.0);
    cr_expect_eq(num(copy, "incomplete"), 0);
    cr_expect_str_eq(text(json_array_get(at(copy, "breakdown"), 0), "name"),
                     "void copy_kernel<float>(const float *, float *, unsigned long)");
    json_decref(doc);
    free(out);

    /* An array whose values are all NAN has a null median; an unset run
     * clock is written as the events clock. */
    br_timing *t = &fixture[1].cases[1].cold;
    for (size_t i = 0; i < t->n_samples; i++)
        t->span_ns[i] = NAN;
    t->span_median_ns = NAN;
    fixture[1].gpu_clock = BR_CLOCK_MONOTONIC;
    out = render_one("json", 1, 0);
    doc = parse_json(out);
    json_t *run = json_array_get(at(doc, "runs"), 0);
    cr_expect_str_eq(text(run, "gpu_clock"), "events");
    json_t *vec = at(case_at(run, 1), "cold");
    cr_expect(json_is_null(at(vec, "span_median_ns")));
    cr_expect(json_is_null(json_array_get(at(vec, "span_ns"), 0)));
    cr_expect_eq(num(vec, "kernel_median_ns"), 760025.0 - 1480.0);
    json_decref(doc);
    free(out);
}

Test(reporters, json_nan_is_null) {
    /* A statistic that is NAN (an empty CI of a sample set this small) is null. */
    br_run *r = &fixture[2];
    r->cases[0].cold.sm_mhz_median = NAN;
    r->cases[0].cold.stats.mean = NAN;
    char *out = render_one("json", 2, 0);
    json_t *doc = parse_json(out);
    json_t *cold = at(case_at(json_array_get(at(doc, "runs"), 0), 0), "cold");
    cr_expect(json_is_null(at(cold, "mean")));
    cr_expect(json_is_null(at(cold, "ci_low")));
    cr_expect(json_is_number(at(cold, "median")));
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
        int rc = br_reporter_find(names[i])->write(f, fixture_ptrs, N_RUNS, &opts);
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
    double cpu_median = cpu->cold.stats.median;
    cr_expect_eq(cpu->gbps, 67108864.0 / cpu_median);
    cr_expect(isnan(cpu->pct_peak), "host case has no % of peak");
    cr_expect_eq(cpu->speedup, 1.0);
    cr_expect(isnan(cpu->gflops), "no flops");
    cr_expect(isnan(naive->gbps) && isnan(naive->pct_peak) && isnan(naive->speedup));
    cr_expect_eq(warp->pct_peak, 100.0 * (67108864.0 / 41700.0) / 3352.32);
    cr_expect_eq(warp->speedup, cpu_median / 41700.0);

    /* % of peak is relative to the run's peak (here the measured one), not
     * the device's theoretical peak. */
    br_run *bw = &fixture[1];
    double copy_median = bw->cases[0].cold.stats.median;
    cr_expect_eq(bw->cases[0].gbps, 2147483648.0 / copy_median);
    cr_expect_eq(bw->cases[0].pct_peak, 100.0 * (2147483648.0 / copy_median) / 2910.4);

    br_run *s = &fixture[2];
    cr_expect_eq(s->cases[0].gflops, 2e9 / 152000000.0);
    cr_expect(isnan(s->cases[0].gbps) && isnan(s->cases[0].pct_peak));
    cr_expect(isnan(s->cases[1].gflops) && isnan(s->cases[1].speedup));

    /* Headline batch: the batch medians. */
    br_run *l = &fixture[3];
    cr_expect_eq(l->cases[1].speedup, 850.375 / 9252.5);
}

Test(results, derive_uses_headline) {
    br_run *r = &fixture[0];
    const br_case_result *warp = &r->cases[6];
    cr_expect_eq(br_case_headline(r, warp), &warp->cold);
    r->measure.headline = BR_MODE_BATCH;
    cr_expect_eq(br_case_headline(r, warp), &warp->batch);
    br_run_derive(r);
    double batch = warp->batch.stats.median;
    cr_expect_eq(batch, 0.95 * 41700.0);
    cr_expect_eq(warp->gbps, 67108864.0 / batch);
    cr_expect_eq(warp->speedup, r->cases[4].batch.stats.median / batch);
    cr_expect_eq(warp->pct_peak, 100.0 * (67108864.0 / batch) / 3352.32);
    cr_expect_null(br_case_headline(r, NULL));

    /* A headline timing that was not taken gives no figures. */
    br_run *bw = &fixture[1];
    bw->measure.headline = BR_MODE_BATCH;
    br_run_derive(bw);
    cr_expect(isnan(bw->cases[0].gbps) && isnan(bw->cases[0].speedup));
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
    /* Without a device, or without a usable peak, no % of peak. */
    r->peak_gbps = NAN;
    br_run_derive(r);
    cr_expect(isnan(r->cases[6].pct_peak));
    r->peak_gbps = 3352.32;
    br_run_derive(r);
    cr_expect(!isnan(r->cases[6].pct_peak));
    r->has_device = 0;
    br_run_derive(r);
    cr_expect(isnan(r->cases[6].pct_peak));
}

/* GFLOP/s: % of the FP32 theoretical peak for GPU cases only. */
Test(results, derive_gflops) {
    br_run sg;
    build_sgemm_h100(&sg);
    const double peak = 66908.16;
    const double f1 = 2.0 * 2048 * 2048 * 2048;
    cr_expect_eq(sg.peak_gflops, peak);
    cr_expect(isnan(sg.cases[0].pct_peak), "host case");
    cr_expect_eq(sg.cases[0].gflops, 2e9 / 152000000.0);
    cr_expect_eq(sg.cases[1].gflops, 2e9 / 250000.0);
    cr_expect_eq(sg.cases[1].pct_peak, 100.0 * (2e9 / 250000.0) / peak);
    cr_expect(isnan(sg.cases[2].gflops) && isnan(sg.cases[2].pct_peak), "failed case");
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / peak);
    cr_expect(isnan(sg.cases[3].gbps), "no bytes");

    /* A measured (bandwidth) peak does not change the GFLOP/s one. */
    sg.peak_kind = BR_PEAK_MEASURED;
    sg.peak_gbps = 2910.4;
    br_run_derive(&sg);
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / peak);

    /* A run whose builder left peak_gflops unset (zeroed, NAN or negative)
     * gets the device's. */
    double unset[] = {0.0, NAN, -1.0, INFINITY};
    for (size_t i = 0; i < sizeof unset / sizeof unset[0]; i++) {
        sg.peak_gflops = unset[i];
        br_run_derive(&sg);
        cr_expect_eq(sg.peak_gflops, peak, "from %g", unset[i]);
        cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / peak);
    }
    /* A peak the run already has is kept. */
    sg.peak_gflops = 50000.0;
    br_run_derive(&sg);
    cr_expect_eq(sg.peak_gflops, 50000.0);
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (f1 / 640000.0) / 50000.0);

    /* A device of unknown compute capability: no peak, no % of it. */
    sg.device.peak_gflops = NAN;
    sg.peak_gflops = NAN;
    br_run_derive(&sg);
    cr_expect(isnan(sg.peak_gflops));
    cr_expect(isnan(sg.cases[1].pct_peak) && isnan(sg.cases[3].pct_peak));
    cr_expect_eq(sg.cases[3].gflops, f1 / 640000.0, "the GFLOP/s remain");

    /* Without a device: NAN, even with the device's figure left in. */
    sg.device.peak_gflops = peak;
    sg.peak_gflops = 0.0;
    sg.has_device = 0;
    br_run_derive(&sg);
    cr_expect(isnan(sg.peak_gflops));
    cr_expect(isnan(sg.cases[3].pct_peak));

    /* The GB/s metric ignores the FP32 peak. */
    sg.has_device = 1;
    sg.metric = BR_METRIC_GBPS;
    sg.cases[3].bytes = 3.0 * 4 * 2048 * 2048;
    br_run_derive(&sg);
    cr_expect_eq(sg.peak_gflops, peak);
    cr_expect_eq(sg.cases[3].pct_peak, 100.0 * (sg.cases[3].bytes / 640000.0) / 2910.4);
    /* Metric none: none. */
    sg.metric = BR_METRIC_NONE;
    br_run_derive(&sg);
    cr_expect(isnan(sg.cases[3].pct_peak));
    br_run_dispose(&sg);

    /* The fixture's GB/s runs get the FP32 peak recorded too, untouched % of peak. */
    cr_expect_eq(fixture[0].peak_gflops, peak);
    cr_expect_eq(fixture[1].peak_gflops, peak);
    cr_expect(isnan(fixture[2].peak_gflops) && isnan(fixture[3].peak_gflops));
    cr_expect_eq(fixture[0].cases[6].pct_peak, 100.0 * (67108864.0 / 41700.0) / 3352.32);
}

Test(results, count) {
    size_t ok = 9, failed = 9, skipped = 9;
    br_run_count(&fixture[0], &ok, &failed, &skipped);
    cr_expect(ok == 7 && failed == 1 && skipped == 0);
    br_run_count(&fixture[2], &ok, &failed, &skipped);
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
    cr_expect_null(fixture[0].cases);
    br_run_dispose(&fixture[0]); /* zeroed by the first call */
}

Test(results, timing_dispose) {
    br_timing t;
    memset(&t, 0, sizeof t);
    br_timing_dispose(&t);
    br_timing_dispose(NULL);
    br_timing *cold = &fixture[0].cases[1].cold;
    cr_assert_not_null(cold->samples);
    cr_assert_not_null(cold->sm_mhz);
    br_timing_dispose(cold);
    cr_expect_null(cold->samples);
    cr_expect_null(cold->sm_mhz);
    cr_expect_eq(cold->present, 0);
    cr_expect_eq(cold->n_samples, 0);
}

Test(results, names) {
    cr_expect_str_eq(br_status_name(BR_STATUS_OK), "ok");
    cr_expect_str_eq(br_status_name(BR_STATUS_FAILED), "failed");
    cr_expect_str_eq(br_status_name(BR_STATUS_SKIPPED), "skipped");
    cr_expect_str_eq(br_backend_name(BR_BACKEND_HOST), "host");
    cr_expect_str_eq(br_backend_name(BR_BACKEND_GPU), "gpu");
    cr_expect_str_eq(br_mode_name(BR_MODE_COLD), "cold");
    cr_expect_str_eq(br_mode_name(BR_MODE_BATCH), "batch");
    cr_expect_str_eq(br_mode_name(BR_MODE_BOTH), "both");
    cr_expect_str_eq(br_mode_name((br_mode)0), "unknown");
    cr_expect_str_eq(br_cache_name(BR_CACHE_FLUSH), "flush");
    cr_expect_str_eq(br_cache_name(BR_CACHE_WARM), "warm");
    cr_expect_str_eq(br_cache_name(BR_CACHE_FLUSH_MEMSET), "flush-memset");
    cr_expect_str_eq(br_cache_name((br_cache_policy)7), "unknown");
    cr_expect_str_eq(br_peak_kind_name(BR_PEAK_THEORETICAL), "theoretical");
    cr_expect_str_eq(br_peak_kind_name(BR_PEAK_MEASURED), "measured");
    cr_expect_str_eq(br_peak_kind_name((br_peak_kind)5), "unknown");
    cr_expect_str_eq(br_clock_name(BR_CLOCK_MONOTONIC), "monotonic");
    cr_expect_str_eq(br_clock_name(BR_CLOCK_EVENTS), "events");
    cr_expect_str_eq(br_clock_name(BR_CLOCK_KERNEL), "kernel");
    cr_expect_str_eq(br_clock_name((br_clock)9), "unknown");
}
