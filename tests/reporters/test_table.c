/* SPDX-License-Identifier: Apache-2.0 */
/* test_table.c - the table reporter (reporters/table.c) against reviewed
 * golden files, and properties of its box, title, columns, flags, warnings
 * and notes. The runs are built by hand (results_fixture.h). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "platform/device.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "report_util.h"

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);

Test(reporters, golden_table_utf8) {
    golden_test("table", 0, "table_utf8.txt");
}

Test(reporters, golden_table_ascii) {
    golden_test("table", 1, "table_ascii.txt");
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

/* The lines of the title that say what timed the measured cases: after
 * the device, before the peak; "Host times" for a run that measured a host
 * case, "GPU times" (with the GPU clock) for one that measured a GPU case. */
Test(reporters, table_clock_line) {
    char *red = render_one("table", 0, 0);
    const char *device = strstr(red, "\n║ NVIDIA H100 80GB HBM3 · sm_90");
    const char *host = strstr(red, "\n║ Host times: host clock (CLOCK_MONOTONIC) ");
    const char *clock = strstr(red, "\n║ GPU times: kernel clock (CUPTI activity records) ");
    const char *peak = strstr(red, "\n║ % peak of 3352 GB/s theoretical peak ");
    cr_assert(device && host && clock && peak, "%s", red);
    cr_expect(device < host && host < clock && clock < peak, "%s", red);
    cr_expect(strstr(red, "CUDA events") == NULL, "%s", red);
    free(red);

    /* GPU cases only. */
    char *bw = render_one("table", 1, 1);
    cr_expect(strstr(bw, "\n| GPU times: CUDA events ") != NULL, "%s", bw);
    cr_expect(strstr(bw, "unavailable") == NULL && strstr(bw, "kernel clock") == NULL, "%s", bw);
    cr_expect(strstr(bw, "Host times") == NULL, "%s", bw);
    free(bw);

    /* A GPU kernel whose cases were skipped, host cases measured: the host
     * clock only, not the clock the GPU cases would have had. */
    char *sg = render_one("table", 2, 0);
    cr_expect(strstr(sg, "\n║ Host times: host clock (CLOCK_MONOTONIC) ") != NULL, "%s", sg);
    cr_expect(strstr(sg, "GPU times") == NULL, "%s", sg);
    free(sg);

    /* Host kernels only. */
    char *lat = render_one("table", 3, 0);
    cr_expect(strstr(lat, "\n║ Host times: host clock (CLOCK_MONOTONIC) ") != NULL, "%s", lat);
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

    /* Every case failed: nothing was timed, no line. */
    for (size_t i = 0; i < r->n_cases; i++)
        r->cases[i].status = BR_STATUS_FAILED;
    bw = render_one("table", 1, 0);
    cr_expect(strstr(bw, "times:") == NULL, "%s", bw);
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

/* A run that recorded the peaks of other precisions names them in the
 * title, each at the maximum clock. */
Test(reporters, table_names_the_precisions_peaks) {
    br_run sg;
    build_sgemm_h100(&sg);
    sg.compute_peaks[BR_PRECISION_FP32] = (br_compute_peak){1, 256, 66908.16, 1980, "table"};
    char *out = render("table", (const br_run *[]){&sg}, 1, 0, NULL);
    cr_expect(strstr(out, "\n║ % peak of 66.9 TFLOP/s FP32 theoretical peak at the maximum "
                          "clock, each case's at the SM clock it held "),
              "%s", out);
    free(out);
    sg.compute_peaks[BR_PRECISION_FP16_TENSOR] =
        (br_compute_peak){1, 4096, 4096 * 132 * 1.98, 1980, "table"};
    out = render("table", (const br_run *[]){&sg}, 1, 0, NULL);
    cr_expect(strstr(out, "\n║ % peak of each case's precision at the SM clock it held; at "
                          "the maximum clock: fp32 66.9 TFLOP/s, fp16-tensor 1070.5 TFLOP/s "),
              "%s", out);
    free(out);
    br_run_dispose(&sg);
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

    /* `peak: measured` without a measured compute peak: GFLOP/s stays on
     * the FP32 theoretical peak, and the title says so. */
    sg.peak_kind = BR_PEAK_MEASURED;
    sg.device.measured_peak_gbps = 2910.4;
    sg.peak_gbps = 2910.4;
    br_run_derive(&sg);
    out = render("table", one, 1, 0, NULL);
    cr_expect(strstr(out, "\n║ % peak of 66.9 TFLOP/s FP32 theoretical peak (no compute peak was "
                          "measured: the datasheet's) ") != NULL,
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
