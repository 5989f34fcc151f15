/* SPDX-License-Identifier: Apache-2.0 */
/* The ncu CSV parser (results/ncu_csv.c): the recorded `ncu --csv --page raw
 * --print-units base` output of tests/fixtures/profile/ncu_raw.csv (real:
 * `benchrun profile suites/reduction.yaml -k reduce_vec -p n=2^28` under
 * Nsight Compute on an H200, 2026-11-26, units "ns", "byte" and "%"; ncu's
 * progress lines and the profiled benchrun's own table first, thousands separators, kernel names
 * with commas), units other than the base ones, missing and "n/a" metrics, quotes inside a field,
 * and every malformed input it refuses with the file, line and column. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "profile/ncu_csv.h"

#define HEADER                                                                                     \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\","            \
    "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\""

static int parse(br_ncu_report *r, const char *text) {
    return br_ncu_parse(r, text, strlen(text), "ncu.txt");
}

Test(ncu_csv, the_recorded_report) {
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(br_read_file(&text, &len, BR_FIXTURES_DIR "/profile/ncu_raw.csv", 1 << 20), 0);
    br_ncu_report r;
    cr_assert_eq(br_ncu_parse(&r, text, len, "ncu_raw.csv"), 0, "%s", br_error_get());
    cr_assert_eq(r.n, 3);
    cr_expect_str_eq(r.launches[0].kernel, "reduce_vec_kernel(const float *, long, red_ctl *)");
    cr_expect_eq(r.launches[0].dram_read_bytes, 1073762816.0);
    cr_expect_eq(r.launches[0].dram_write_bytes, 2202368.0);
    cr_expect_eq(r.launches[1].duration_ns, 245728.0);
    cr_expect_float_eq(r.launches[2].occupancy_pct, 98.91, 1e-9);
    cr_expect_float_eq(r.launches[2].sm_pct, 11.22, 1e-9);
    cr_expect_float_eq(r.launches[2].mem_pct, 90.64, 1e-9);
    cr_expect_float_eq(r.launches[2].l2_hit_pct, 1.13, 1e-9);
    br_ncu_report_dispose(&r);
    free(text);
}

Test(ncu_csv, units_are_converted_to_base_units) {
    const char *t = HEADER ",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\","
                           "\"dram__bytes_write.sum\"\r\n"
                           "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"usecond\","
                           "\"Mbyte\",\"Kbyte\"\r\n"
                           "\"0\",\"1\",\"b\",\"h\",\"k\",\"1\",\"7\",\"(1, 1, 1)\",\"(1, 1, 1)\","
                           "\"0\",\"9.0\",\"1.5\",\"1,073.74\",\"2.5\"\r\n";
    br_ncu_report r;
    cr_assert_eq(parse(&r, t), 0, "%s", br_error_get());
    cr_assert_eq(r.n, 1);
    cr_expect_float_eq(r.launches[0].duration_ns, 1500.0, 1e-9);
    cr_expect_float_eq(r.launches[0].dram_read_bytes, 1073.74e6, 1e-3);
    cr_expect_float_eq(r.launches[0].dram_write_bytes, 2500.0, 1e-9);
    cr_expect(isnan(r.launches[0].occupancy_pct), "a metric the report lacks is NAN");
    br_ncu_report_dispose(&r);
}

Test(ncu_csv, quotes_inside_a_field_and_not_available_values) {
    const char *t = HEADER ",\"lts__t_sector_hit_rate.pct\"\n"
                           "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"%\"\n"
                           "\"0\",\"1\",\"b\",\"h\",\"say \"\"hi\"\", k\",\"1\",\"7\",\"x\",\"y\","
                           "\"0\",\"9.0\",\"n/a\"\n"
                           "==PROF== Report: done\n";
    br_ncu_report r;
    cr_assert_eq(parse(&r, t), 0, "%s", br_error_get());
    cr_assert_eq(r.n, 1);
    cr_expect_str_eq(r.launches[0].kernel, "say \"hi\", k");
    cr_expect(isnan(r.launches[0].l2_hit_pct));
    br_ncu_report_dispose(&r);
}

Test(ncu_csv, a_header_without_launches_is_an_empty_report) {
    br_ncu_report r;
    cr_assert_eq(parse(&r, "==PROF== x\n" HEADER "\n"), 0, "%s", br_error_get());
    cr_expect_eq(r.n, 0);
    br_ncu_report_dispose(&r);
}

/* Each bad input and the words its error must contain. */
static void expect_refused(const char *text, const char *words) {
    br_ncu_report r;
    cr_expect_eq(parse(&r, text), -1, "accepted: %s", text);
    cr_expect(strstr(br_error_get(), words), "error '%s' lacks '%s'", br_error_get(), words);
    cr_expect_eq(r.n, 0);
    cr_expect_null(r.launches);
}

/* Each error names the file, the line and the column (the byte where the
 * field, or the fault, starts), as a compiler's do. */
Test(ncu_csv, malformed_input_is_refused_with_its_file_line_and_column) {
    expect_refused("", "ncu.txt: no ncu table");
    expect_refused("==PROF== Connected to process 1\nsome table\n", "--csv --page raw");
    expect_refused("\"ID\",\"Process ID\",\"Name\"\n",
                   "ncu.txt:1:1: the table has no \"Kernel Name\" column");
    expect_refused("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
                   "\"\",\"\",\"fortnight\"\n",
                   "ncu.txt:2:7: unknown unit 'fortnight' of gpu__time_duration.sum");
    expect_refused("x\n\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
                   "\"\",\"\",\"nsecond\"\n\"0\",\"k\",\"12 ns\"\n",
                   "ncu.txt:4:9: gpu__time_duration.sum is '12 ns', expected a number");
    expect_refused("\"ID\",\"Kernel Name\"\n\"0\",\"k\",\"extra\"\n",
                   "ncu.txt:2:9: 3 fields, the header has 2");
    expect_refused("\"ID\",\"Kernel Name\"\n\"0\",\"k\n",
                   "ncu.txt:2:5: a quoted field is not closed");
    expect_refused("\"ID\",\"Kernel Name\"\n\"0\"x,\"k\"\n", "ncu.txt:2:4: expected ','");
}

/* A report with the pipe metrics (tests/fixtures/profile/ncu_tensor.csv,
 * constructed in ncu's raw format for an sm_90 Tensor Core kernel, not
 * recorded): each pipe's column read, "n/a" and the pipes the GPU lacks
 * (no sm__pipe_tensor_cycles_active, no DMMA column) NAN. */
Test(ncu_csv, the_pipe_metrics) {
    char *text = NULL;
    size_t len = 0;
    cr_assert_eq(br_read_file(&text, &len, BR_FIXTURES_DIR "/profile/ncu_tensor.csv", 1 << 20), 0);
    br_ncu_report r;
    cr_assert_eq(br_ncu_parse(&r, text, len, "ncu_tensor.csv"), 0, "%s", br_error_get());
    cr_assert_eq(r.n, 3);
    const br_ncu_launch *l = &r.launches[1];
    cr_expect_float_eq(l->hmma_pct, 71.60, 1e-9);
    cr_expect_eq(l->gmma_pct, 0.0);
    cr_expect_float_eq(l->fma_pct, 3.10, 1e-9);
    cr_expect_float_eq(l->fp16_pct, 0.21, 1e-9);
    cr_expect_eq(l->fp64_pct, 0.0);
    cr_expect(isnan(l->imma_inst_pct), "n/a is NAN");
    cr_expect(isnan(l->tensor_pct) && isnan(l->dmma_pct) && isnan(l->imma_pct),
              "a pipe the report lacks is NAN");
    cr_expect_eq(l->duration_ns, 1649920.0);
    br_ncu_report_dispose(&r);
    free(text);
}

Test(ncu_csv, the_pipe_metrics_are_asked_for_as_one_expression) {
    const char *m = BR_NCU_METRICS;
    const char *re = strstr(m, ",regex:sm__(pipe_(tensor|tensor_op_hmma|");
    cr_assert_not_null(re, "%s", m);
    cr_expect(strstr(re, "gmma") && strstr(re, "|fma|fp16|fp64)_cycles_active|") &&
                  strstr(re, "inst_executed_pipe_tensor_op_imma)"),
              "%s", re);
    cr_expect(strstr(re, "\\.avg\\.pct_of_peak_sustained_active$"), "%s", re);
    cr_expect_null(strchr(re + 1, ','), "no comma inside the expression: %s", re);
}
