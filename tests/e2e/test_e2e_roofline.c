/* SPDX-License-Identifier: Apache-2.0 */
/* The executable with --energy and --roofline: a machine without NVML says
 * so once and measures on; `benchrun report` draws the roofline of a
 * results file; --roofline takes a file name. */
#include <criterion/criterion.h>

#include <string.h>
#include <sys/stat.h>

#include "e2e_util.h"
#include "platform/energy.h"
#include "reporters/gnuplot.h"

TestSuite(e2e_roofline, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

static size_t count(const char *s, const char *what) {
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

Test(e2e_roofline, without_nvml_energy_is_said_missing_once) {
    char why[512];
    if (br_energy_available(why, sizeof why))
        cr_skip_test("this machine has NVML: the missing-NVML path is not exercised");
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *args[] = {cache,
                          "--energy",
                          "--no-compare",
                          "--min-time",
                          "1ms",
                          BR_FIXTURES_DIR "/e2e/ok.yaml",
                          BR_FIXTURES_DIR "/e2e/ok.yaml",
                          NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\n%s", r.status, r.err);
    cr_assert_eq(count(r.err, "benchrun: energy: NVML not available ("), 1,
                 "said once for two suites:\n%s", r.err);
    cr_assert(strstr(r.err, "): no energy figures\n"), "%s", r.err);
    cr_assert(strstr(r.out, "sum_ok"), "the cases were measured all the same");
    cr_assert_null(strstr(r.out, "J/exec"), "no energy, no energy columns");
    e2e_free(&r);
    free(cache);
}

Test(e2e_roofline, report_draws_the_roofline_of_a_results_file) {
    if (!br_gnuplot_have())
        cr_skip_test("gnuplot is not on PATH (apt-get install gnuplot-nox): no SVG drawn");
    char *svg = br_strfmt("%s/roofline.svg", tmp);
    const char *args[] = {
        "report", "--no-compare", "--roofline", svg, BR_FIXTURES_DIR "/roofline/h100.json", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, tmp, args), 0);
    cr_assert_eq(r.status, 1, "the fixture has a failed case: exit %d\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "benchrun: roofline drawn in "), "%s", r.err);
    struct stat st;
    cr_assert_eq(stat(svg, &st), 0);
    cr_assert_gt(st.st_size, 1000);
    cr_assert(strstr(r.out, "% roof"), "the table's roofline columns:\n%s", r.out);
    e2e_free(&r);
    free(svg);
}

Test(e2e_roofline, roofline_needs_a_file_name) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *args[] = {cache, "--roofline", "-", BR_FIXTURES_DIR "/e2e/ok.yaml", NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 2, "exit %d\n%s", r.status, r.err);
    cr_assert(strstr(r.err, "--roofline expects a file name, not '-'"), "%s", r.err);
    e2e_free(&r);
    free(cache);
}
