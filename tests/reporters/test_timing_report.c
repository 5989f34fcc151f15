/* SPDX-License-Identifier: Apache-2.0 */
/* The timing report's lanes (reporters/timing_report.h): a plain run
 * whose host cases ran beside its GPU cases (more case time than from the
 * first start to the last end) counts the measuring once and lists a GPU
 * lane and a host lane; the same cases one after another keep the phase
 * rows and list no lanes; the devices' opening (--devices) has a row of
 * its own, outside the unaccounted time, and no row when it was not
 * measured. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reporters/timing_report.h"

/* Write the report of one run of two GPU cases (kernel 0) and two host
 * cases (kernel 1), each 1 s long, beginning at began[0..4) s; the text
 * (caller frees). */
static char *report_of_inv(const double *began, const br_timing_invocation *inv) {
    br_run_kernel k[2] = {{.name = "gpu", .backend = BR_BACKEND_GPU},
                          {.name = "cpu", .backend = BR_BACKEND_HOST}};
    br_case_result c[4];
    memset(c, 0, sizeof c);
    for (size_t i = 0; i < 4; i++) {
        c[i].kernel = i < 2 ? 0 : 1;
        c[i].status = BR_STATUS_OK;
        c[i].wall.present = 1;
        c[i].wall.total_ns = 1e9;
        c[i].wall.other_ns = 1e9;
        c[i].wall.began_ns = began[i] * 1e9;
    }
    br_run run;
    memset(&run, 0, sizeof run);
    run.kernels = k;
    run.n_kernels = 2;
    run.cases = c;
    run.n_cases = 4;
    const br_run *runs[] = {&run};
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    cr_assert_eq(br_timing_report_write(f, runs, 1, inv), 0);
    fclose(f);
    return text;
}

static char *report_of(const double *began) {
    br_timing_invocation inv = {.prepare_ns = 0, .outputs_ns = 0, .total_ns = 0};
    return report_of_inv(began, &inv);
}

Test(timing_report, host_cases_beside_the_gpu_cases_count_the_measuring_once) {
    const double began[] = {0, 1, 0, 1}; /* the host cases at once with the GPU cases */
    char *t = report_of(began);
    cr_expect(strstr(t, "timing report: 2.000 s wall"), "%s", t);
    cr_expect(strstr(t, "cases on 2 lanes at once: 4.000 s of case time in 2.000 s"), "%s", t);
    cr_expect(strstr(t, "  GPU             2 case(s)     2.000 s busy, from 0.000 to 2.000 s"),
              "%s", t);
    cr_expect(strstr(t, "  host            2 case(s)     2.000 s busy"), "%s", t);
    free(t);
}

Test(timing_report, cases_one_after_another_list_no_lanes) {
    const double began[] = {0, 2, 1, 3}; /* interleaved in time, never at once */
    char *t = report_of(began);
    cr_expect(strstr(t, "timing report: 4.000 s wall"), "%s", t);
    cr_expect_null(strstr(t, "lanes"), "%s", t);
    cr_expect(strstr(t, "  other            4.000  100.0%"), "%s", t);
    free(t);
}

Test(timing_report, the_devices_opening_is_a_row_and_not_unaccounted) {
    const double began[] = {0, 2, 1, 3}; /* the cases: 4 s */
    br_timing_invocation inv = {.prepare_ns = 0.5e9, .devices_ns = 1.5e9, .total_ns = 7e9};
    char *t = report_of_inv(began, &inv);
    cr_expect(strstr(t, "  prepare          0.500    7.1%\n  devices          1.500   21.4%\n"
                        "  compile "),
              "%s", t);
    cr_expect(strstr(t, "  unaccounted      1.000   14.3%"), "%s", t);
    free(t);
    inv.devices_ns = 0;
    t = report_of_inv(began, &inv);
    cr_expect_null(strstr(t, "devices"), "%s", t);
    cr_expect(strstr(t, "  unaccounted      2.500   35.7%"), "%s", t);
    free(t);
}
