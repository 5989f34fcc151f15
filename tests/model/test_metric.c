/* SPDX-License-Identifier: Apache-2.0 */
/* The metric table (model/metric.h): each row's name through the name
 * table and a results file, its scale, direction, amount and peak kind, and
 * a case's value and % of peak computed from the table, on the hand-built
 * sgemm run of results_fixture.h. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/error.h"
#include "model/metric.h"
#include "model/run.h"
#include "results/run_read.h"
#include "results/run_write.h"
#include "results_fixture.h"

/* Every metric of the enum, none last. */
static const br_metric all[] = {BR_METRIC_GBPS, BR_METRIC_GFLOPS, BR_METRIC_TFLOPS, BR_METRIC_TOPS,
                                BR_METRIC_NONE};
#define N_ALL (sizeof all / sizeof all[0])

Test(metric, every_row_has_a_name_that_reads_back) {
    size_t n_names = 0;
    for (const br_name *t = br_metric_names; t->name; t++)
        n_names++;
    cr_expect_eq(n_names, N_ALL, "one name per metric");
    for (size_t i = 0; i < N_ALL; i++) {
        const char *name = br_metric_name(all[i]);
        int back = -1;
        cr_assert_eq(br_name_find(&back, br_metric_names, name), 0, "%s", name);
        cr_expect_eq(back, (int)all[i], "%s", name);
    }
    cr_expect_str_eq(br_metric_name(BR_METRIC_TFLOPS), "TFLOP/s");
    cr_expect_str_eq(br_metric_name(BR_METRIC_TOPS), "TOP/s");
    int m;
    cr_expect_neq(br_name_find(&m, br_metric_names, "tflop/s"), 0, "names are case-sensitive");
}

Test(metric, columns_per_row) {
    static const struct {
        br_metric m;
        const char *unit;
        double scale;
        int higher;
        br_metric_amount amount;
        br_metric_peak peak;
        br_metric companion;
    } want[] = {
        {BR_METRIC_GBPS, "GB/s", 1e9, 1, BR_AMOUNT_BYTES, BR_METRIC_PEAK_BANDWIDTH,
         BR_METRIC_GFLOPS},
        {BR_METRIC_GFLOPS, "GFLOP/s", 1e9, 1, BR_AMOUNT_OPS, BR_METRIC_PEAK_COMPUTE,
         BR_METRIC_GBPS},
        {BR_METRIC_TFLOPS, "TFLOP/s", 1e12, 1, BR_AMOUNT_OPS, BR_METRIC_PEAK_COMPUTE,
         BR_METRIC_GBPS},
        {BR_METRIC_TOPS, "TOP/s", 1e12, 1, BR_AMOUNT_OPS, BR_METRIC_PEAK_COMPUTE, BR_METRIC_GBPS},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        br_metric m = want[i].m;
        cr_expect_str_eq(br_metric_unit(m), want[i].unit);
        cr_expect_eq(br_metric_scale(m), want[i].scale, "%s", want[i].unit);
        cr_expect_eq(br_metric_higher_is_better(m), want[i].higher, "%s", want[i].unit);
        cr_expect_eq(br_metric_amount_of(m), want[i].amount, "%s", want[i].unit);
        cr_expect_eq(br_metric_peak_of(m), want[i].peak, "%s", want[i].unit);
        cr_expect_eq(br_metric_companion(m), want[i].companion, "%s", want[i].unit);
    }
    /* none: the time, lower is better, no amount, no peak */
    cr_expect_str_eq(br_metric_unit(BR_METRIC_NONE), "median time (µs)");
    cr_expect(isnan(br_metric_scale(BR_METRIC_NONE)));
    cr_expect_eq(br_metric_higher_is_better(BR_METRIC_NONE), 0);
    cr_expect_eq(br_metric_amount_of(BR_METRIC_NONE), BR_AMOUNT_NONE);
    cr_expect_eq(br_metric_peak_of(BR_METRIC_NONE), BR_METRIC_PEAK_NONE);
    /* a value outside the enum reads as none */
    cr_expect_eq(br_metric_peak_of((br_metric)99), BR_METRIC_PEAK_NONE);
    cr_expect_str_eq(br_metric_work(BR_METRIC_TOPS), "operations");
}

/* A case's value: its rate of the metric's amount over the scale. */
Test(metric, value_of_a_case) {
    br_run sg;
    build_sgemm_h100(&sg);
    const br_case_result *gpu = &sg.cases[1]; /* 2e9 FLOP at a median of 250000 ns */
    double gflops = 2e9 / 250000.0;
    cr_expect_eq(br_case_metric_value(gpu, BR_METRIC_GFLOPS), gflops);
    cr_expect_eq(br_case_metric_value(gpu, BR_METRIC_TFLOPS), gflops / 1000.0);
    cr_expect_eq(br_case_metric_value(gpu, BR_METRIC_TOPS), gflops / 1000.0);
    cr_expect_eq(br_case_metric_rate(gpu, BR_METRIC_TFLOPS), gflops);
    cr_expect_eq(br_case_metric_amount(gpu, BR_METRIC_TFLOPS), 2e9);
    cr_expect(isnan(br_case_metric_value(gpu, BR_METRIC_GBPS)), "no bytes");
    cr_expect(isnan(br_case_metric_value(gpu, BR_METRIC_NONE)));
    cr_expect(isnan(br_case_metric_value(&sg.cases[2], BR_METRIC_TFLOPS)), "failed case");

    /* work per joule in the metric's energy unit */
    br_case_result e = *gpu;
    e.energy = (br_energy){.present = 1, .j_per_exec = 0.5};
    cr_expect_eq(br_case_per_joule(&e, BR_METRIC_GFLOPS), 2e9 / 0.5 / 1e9);
    cr_expect_eq(br_case_per_joule(&e, BR_METRIC_TFLOPS), 2e9 / 0.5 / 1e9 / 1000.0);
    cr_expect_str_eq(br_metric_energy_unit(BR_METRIC_TFLOPS), "TFLOP/J");
    cr_expect(isnan(br_case_per_joule(&e, BR_METRIC_NONE)), "bytes per joule: no bytes");

    /* % of peak: the compute peak for the compute metrics, the same figure
     * whatever their scale; the bandwidth peak for GB/s. */
    double pct = 100.0 * gflops / sg.peak_gflops;
    for (size_t i = 0; i < 3; i++) {
        sg.metric = (br_metric[]){BR_METRIC_GFLOPS, BR_METRIC_TFLOPS, BR_METRIC_TOPS}[i];
        br_run_derive(&sg);
        cr_expect_eq(br_run_metric_peak(&sg, gpu), sg.peak_gflops, "%s", br_metric_name(sg.metric));
        cr_expect_eq(gpu->pct_peak, pct, "%s", br_metric_name(sg.metric));
    }
    sg.metric = BR_METRIC_GBPS;
    br_run_derive(&sg);
    cr_expect_eq(br_run_metric_peak(&sg, gpu), sg.peak_gbps);
    cr_expect(isnan(gpu->pct_peak), "GB/s without bytes");
    sg.metric = BR_METRIC_NONE;
    br_run_derive(&sg);
    cr_expect(isnan(br_run_metric_peak(&sg, gpu)) && isnan(gpu->pct_peak));
    br_run_dispose(&sg);
}

/* The run written with metric m and read back. Returns the JSON text
 * (caller frees) and the run in *back. */
static char *round_trip(br_run *r, br_metric m, br_run **back) {
    r->metric = m;
    br_run_derive(r);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    const br_run *runs[] = {r};
    cr_assert_eq(br_results_write(f, runs, 1), 0, "%s", br_error_get());
    cr_assert_eq(fclose(f), 0);
    size_t n = 0;
    cr_assert_eq(br_results_parse(back, &n, text, len, "metric.json"), 0, "%s", br_error_get());
    cr_assert_eq(n, 1);
    return text;
}

Test(metric, every_metric_round_trips_through_a_results_file) {
    br_run sg;
    build_sgemm_h100(&sg);
    for (size_t i = 0; i < N_ALL; i++) {
        br_run *back = NULL;
        char *text = round_trip(&sg, all[i], &back);
        cr_expect_eq(back->metric, all[i], "%s", br_metric_name(all[i]));
        cr_expect_eq(back->cases[1].gflops, sg.cases[1].gflops);
        double was = br_case_metric_value(&sg.cases[1], all[i]);
        double now = br_case_metric_value(&back->cases[1], all[i]);
        cr_expect(now == was || (isnan(now) && isnan(was)), "%s", br_metric_name(all[i]));
        /* TFLOP/s and TOP/s add the value in their unit beside gbps and
         * gflops; GB/s and GFLOP/s files stay as they were. */
        const char *key = br_name_of(br_metric_value_keys, (int)all[i], NULL);
        int has_tflops = strstr(text, "\"tflops\"") != NULL,
            has_tops = strstr(text, "\"tops\"") != NULL;
        cr_expect_eq(has_tflops, all[i] == BR_METRIC_TFLOPS, "%s", br_metric_name(all[i]));
        cr_expect_eq(has_tops, all[i] == BR_METRIC_TOPS, "%s", br_metric_name(all[i]));
        cr_expect_eq(key != NULL, has_tflops || has_tops);
        free(text);
        br_results_free(back, 1);
    }
    br_run_dispose(&sg);
}

/* "tflops": each case's "gflops" / 1000, as written (null where that is). */
Test(metric, tflops_key_holds_the_value) {
    br_run sg;
    build_sgemm_h100(&sg);
    br_run *back = NULL;
    char *text = round_trip(&sg, BR_METRIC_TFLOPS, &back);
    json_t *doc = json_loads(text, 0, NULL);
    cr_assert_not_null(doc);
    json_t *cases = json_object_get(json_array_get(json_object_get(doc, "runs"), 0), "cases");
    cr_assert_eq(json_array_size(cases), sg.n_cases);
    size_t n_values = 0;
    for (size_t i = 0; i < sg.n_cases; i++) {
        json_t *c = json_array_get(cases, i), *t = json_object_get(c, "tflops");
        json_t *g = json_object_get(c, "gflops");
        cr_assert_not_null(t, "case %zu has the key", i);
        cr_expect_eq(json_is_null(t), json_is_null(g), "case %zu", i);
        if (json_is_number(t)) {
            cr_expect_eq(json_number_value(t), json_number_value(g) / 1000.0, "case %zu", i);
            n_values++;
        }
    }
    cr_expect_eq(n_values, 3, "the failed case has none");
    json_decref(doc);
    free(text);
    br_results_free(back, 1);
    br_run_dispose(&sg);
}
