/* SPDX-License-Identifier: Apache-2.0 */
/* What the reporters say about the roofline, energy and flags S and P: the
 * CSV columns (units in their names), the JSON objects, the table's
 * columns and notes; on the fixture results file
 * tests/fixtures/roofline/h100.json, with S, P and energy planted. */
#include <criterion/criterion.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "reporters/timing_notes.h"
#include "results/run_read.h"

static br_run *runs;
static size_t n_runs;
static const br_run *ptrs[2];

static void setup(void) {
    cr_assert_eq(br_results_load(&runs, &n_runs, BR_FIXTURES_DIR "/roofline/h100.json"), 0, "%s",
                 br_error_get());
    cr_assert_eq(n_runs, 2);
    ptrs[0] = &runs[0];
    ptrs[1] = &runs[1];
}

static void teardown(void) {
    br_results_free(runs, n_runs);
}

TestSuite(roofline_outputs, .init = setup, .fini = teardown);

static char *render(const char *reporter, const br_report_opts *opts) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    cr_assert_eq(br_reporter_find(reporter)->write(f, ptrs, n_runs, opts), 0, "%s", br_error_get());
    fclose(f);
    return buf;
}

/* The case of kernel `name` at n in run r. */
static br_case_result *find(br_run *r, const char *name, int64_t n) {
    for (size_t i = 0; i < r->n_cases; i++)
        if (strcmp(r->kernels[r->cases[i].kernel].name, name) == 0 && r->cases[i].params[0] == n)
            return &r->cases[i];
    cr_assert_fail("no case %s", name);
    return NULL;
}

Test(roofline_outputs, csv_has_the_roofline_columns_with_units) {
    char *csv = render("csv", NULL);
    cr_assert(strstr(csv, ",speedup_ratio,intensity_flop_per_byte,attainable_gflop_per_s,"
                          "roofline_pct,bound,git_sha,"),
              "%.600s", csv);
    /* reduce_warp n=2^20: 0.25 FLOP/B x 3352.32 GB/s = 838.08 GFLOP/s attainable. */
    cr_assert(strstr(csv, ",0.25,838.08,30.5236"), "%s", csv);
    cr_assert(strstr(csv, ",memory,"));
    cr_assert(strstr(csv, ",100.0,66908.16,18.4374"), "the compute-bound point: %s", csv);
    cr_assert(strstr(csv, ",compute,"));
    cr_assert_null(strstr(csv, "energy_j_per_exec"), "no energy measured: no energy columns");
    free(csv);
}

Test(roofline_outputs, json_has_the_roofline_object) {
    char *text = render("json", NULL);
    json_error_t err;
    json_t *doc = json_loads(text, 0, &err);
    cr_assert_not_null(doc, "%s", err.text);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    json_t *cpu = json_array_get(cases, 0), *warp = json_array_get(cases, 2);
    cr_assert_str_eq(json_string_value(json_object_get(warp, "kernel")), "reduce_warp");
    cr_assert(json_is_null(json_object_get(cpu, "roofline")), "a host case has no point");
    json_t *rf = json_object_get(warp, "roofline");
    cr_assert(json_is_object(rf));
    cr_assert_float_eq(json_real_value(json_object_get(rf, "intensity_flop_per_byte")), 0.25, 0);
    cr_assert_str_eq(json_string_value(json_object_get(rf, "bound")), "memory");
    cr_assert_float_eq(json_real_value(json_object_get(rf, "attainable_gflops")), 838.08, 1e-9);
    cr_assert_float_eq(json_real_value(json_object_get(rf, "bandwidth_gbps")), 3352.32, 1e-9);
    cr_assert_float_eq(json_real_value(json_object_get(rf, "roofline_pct")),
                       100.0 * 1023.2505489143693 / 3352.32, 1e-9);
    cr_assert(json_is_null(json_object_get(warp, "energy")));
    json_decref(doc);
    free(text);
}

Test(roofline_outputs, the_table_shows_intensity_bound_and_percent_of_roofline) {
    br_report_opts o = {.ascii = 1};
    char *t = render("table", &o);
    cr_assert(strstr(t, "| FLOP/B | bound   | % roof |"), "%s", t);
    cr_assert(strstr(t, "|    100 | compute |  18.4% |"), "%s", t);
    cr_assert(strstr(t, "|   0.25 | memory  |  30.5% |"), "%s", t);
    cr_assert_null(strstr(t, "J/exec"), "energy columns only with --energy");
    free(t);
}

/* The fixture's suite gives both bytes and flops: the table and the
 * Markdown show GB/s and GFLOP/s, and "% peak" says it is of GB/s. */
Test(roofline_outputs, both_metrics_when_both_are_declared) {
    /* reduce_naive n=2^20: 4 x 2^20 bytes and 100 FLOP/B in 34.0 us: 123.4
     * GB/s (3.7% of 3352.32) and 419430400 / 34000 ns = 12336.2 GFLOP/s. */
    br_report_opts o = {.ascii = 1};
    char *t = render("table", &o);
    cr_expect(strstr(t, "|   GB/s | GFLOP/s | % peak (GB/s) | FLOP/B |"), "%s", t);
    cr_expect(strstr(t, "|  123.4 | 12336.2 |          3.7% |    100 |"), "%s", t);
    cr_expect(strstr(t, "\nnote: GB/s, GFLOP/s, % peak, speedup and noise use the cold time\n"),
              "%s", t);
    char *md = render("markdown", NULL);
    cr_expect(strstr(md, "| GB/s | GFLOP/s | % peak (GB/s) | speedup | ! |\n"), "%s", md);
    cr_expect(strstr(md, "| 123.4 | 12336.2 | 3.7% | 7.71× |"), "%s", md);
    free(md);
    free(t);

    /* metric: GFLOP/s over the same cases: GFLOP/s first, then GB/s, and
     * % peak of the FP32 peak (12336.2 / 66908.16 = 18.4%). */
    runs[0].metric = BR_METRIC_GFLOPS;
    br_run_derive(&runs[0]);
    t = render("table", &o);
    cr_expect(strstr(t, "| GFLOP/s |   GB/s | % peak (GFLOP/s) |"), "%s", t);
    cr_expect(strstr(t, "| 12336.2 |  123.4 |            18.4% |"), "%s", t);
    free(t);
}

/* A suite with bytes alone keeps one metric column and a plain "% peak". */
Test(roofline_outputs, one_metric_when_one_is_declared) {
    for (size_t r = 0; r < n_runs; r++)
        for (size_t i = 0; i < runs[r].n_cases; i++)
            runs[r].cases[i].flops = NAN;
    for (size_t r = 0; r < n_runs; r++)
        br_run_derive(&runs[r]);
    br_report_opts o = {.ascii = 1};
    char *t = render("table", &o);
    cr_expect(strstr(t, "|   GB/s | % peak | speedup |"), "%s", t);
    cr_expect_null(strstr(t, "GFLOP/s |"), "%s", t);
    free(t);
}

Test(roofline_outputs, energy_in_csv_json_and_with_energy_the_table) {
    br_case_result *c = find(&runs[0], "reduce_cub", 1 << 24);
    c->energy = (br_energy){1, 0.0125, 480.0, 0.02, 3, 1.05e9, 40000.0};
    br_report_opts o = {.ascii = 1, .energy = 1};
    char *t = render("table", &o);
    cr_assert(strstr(t, "| J/exec |   W | GB/J |"), "%s", t);
    /* 64 MiB / 0.0125 J = 5.37 GB/J */
    cr_assert(strstr(t, "| 0.0125 | 480 | 5.37 |"), "%s", t);
    free(t);
    char *csv = render("csv", NULL);
    cr_assert(strstr(csv, ",energy_j_per_exec,power_w,gflop_per_j,gb_per_j,energy_spread_pct,"),
              "%.800s", csv);
    cr_assert(strstr(csv, ",0.0125,480.0,1.34217728,5.36870912,2.0,"), "%s", csv);
    free(csv);
    char *text = render("json", NULL);
    cr_assert(strstr(text, "\"energy\": {\n            \"j_per_exec\": 0.012500000000000001,\n"
                           "            \"watts\": 480.0,"),
              "%s", text);
    /* The energy is a measurement: it is read back. */
    br_run *back = NULL;
    size_t n_back = 0;
    cr_assert_eq(br_results_parse(&back, &n_back, text, strlen(text), "<json>"), 0, "%s",
                 br_error_get());
    const br_energy *e = &find(&back[0], "reduce_cub", 1 << 24)->energy;
    cr_assert(e->present);
    cr_assert_float_eq(e->j_per_exec, 0.0125, 0);
    cr_assert_float_eq(e->watts, 480.0, 0);
    cr_assert_eq(e->windows, 3);
    br_results_free(back, n_back);
    free(text);
}

Test(roofline_outputs, flag_s_names_the_work_that_escaped_and_both_times) {
    br_case_result *c = find(&runs[0], "reduce_warp", 1 << 24);
    c->cold.n_other_stream = 12;
    c->cold.escaped_op = strdup("spin_kernel(unsigned long, int*)");
    br_report_opts o = {.ascii = 1};
    char *t = render("table", &o);
    cr_assert(strstr(t, "| S "), "the flag: %s", t);
    cr_assert(strstr(t, "S = work ran outside the case's stream: its event time is not to be "
                        "trusted"),
              "%s", t);
    cr_assert(strstr(t, "reduce_warp n=2^24 (cold): 12 operation(s) on another stream and 0 in "
                        "another context over 5 samples (first: spin_kernel(unsigned long, "
                        "int*)): CUDA events see only the case's stream, so the event time is not "
                        "to be trusted (event median 43.210 us, kernel time median 41.700 us)"),
              "%s", t);
    free(t);
    /* ... and the counts travel in JSON. */
    char *text = render("json", NULL);
    cr_assert(strstr(text, "\"other_stream_ops\": 12,"), "%s", text);
    cr_assert(strstr(text, "\"escaped_op\": \"spin_kernel(unsigned long, int*)\""));
    free(text);
}

Test(roofline_outputs, flag_p_says_why_the_figure_is_impossible) {
    br_case_result *c = find(&runs[0], "reduce_cub", 1 << 24);
    c->bytes *= 10; /* 640 MiB in 26.1 us: 25.7 TB/s */
    br_run_derive(&runs[0]);
    br_report_opts o = {.ascii = 1};
    char *t = render("table", &o);
    cr_assert(strstr(t, "P = faster than the hardware can go"), "%s", t);
    cr_assert(strstr(t, "reduce_cub n=2^24 (P): 25712.2 GB/s is above the 3352 GB/s DRAM peak "
                        "and 671 MB per execution does not fit the 52.4 MB L2 (wrong `bytes`, "
                        "skipped work, or work outside the clock)"),
              "%s", t);
    free(t);
}

/* An FP16 Tensor Core figure declared FP32 (or not declared) is faster than
 * the FP32 peak can go: P, naming that peak; declared fp16-tensor it is
 * measured against that precision's peak and is not flagged. */
Test(roofline_outputs, flag_p_uses_the_cases_precision) {
    br_run *r = &runs[0];
    const double ops[] = {[BR_PRECISION_FP32] = 256, [BR_PRECISION_FP16_TENSOR] = 4096};
    for (int p = 0; p <= BR_PRECISION_FP16_TENSOR; p++) {
        if (!ops[p])
            continue;
        r->compute_peaks[p] = (br_compute_peak){1, ops[p], ops[p] * 132 * 1.98, 1980, "table"};
    }
    br_case_result *c = find(r, "reduce_warp", 1 << 24);
    c->flops *= 1500; /* about 6e5 GFLOP/s: above FP32's 66908, below FP16 Tensor's 1070530 */
    br_run_derive(r);
    cr_assert(c->gflops > 66908.16 && c->gflops < 1070530.56, "%f", c->gflops);
    br_report_opts o = {.ascii = 1};
    char *t = render("table", &o);
    cr_assert(strstr(t, "reduce_warp n=2^24 (P): "), "%s", t);
    cr_assert(strstr(t, "GFLOP/s is above the 66908 GFLOP/s FP32 peak: no cache explains it "
                        "(wrong `flops` or `precision`, skipped work, tensor cores, or work "
                        "outside the clock)"),
              "%s", t);
    free(t);
    c->precision = BR_PRECISION_FP16_TENSOR;
    t = render("table", &o);
    cr_assert_null(strstr(t, "reduce_warp n=2^24 (P)"), "%s", t);
    free(t);
    c->gflops = 2e6; /* and above that: P against the precision's own peak */
    char why[512];
    br_report_physics_warning(why, sizeof why, r, c);
    cr_assert(strstr(why, "is above the 1070531 GFLOP/s fp16-tensor peak"), "%s", why);
}
