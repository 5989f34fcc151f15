/* SPDX-License-Identifier: Apache-2.0 */
/* test_reporter.c - what every reporter shares (reporters/reporter.c): the
 * registry, no runs, a write error. The runs are built by hand
 * (results_fixture.h). */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"
#include "report_util.h"

TestSuite(reporters, .init = fixtures_setup, .fini = fixtures_teardown);

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
