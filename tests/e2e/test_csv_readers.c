/* SPDX-License-Identifier: Apache-2.0 */
/* test_csv_readers.c - the CSV files of a 10,000-sample case (--csv and
 * --samples-csv) read by their users' tools with those tools' defaults:
 * Python's csv module (fields of at most 131,072 characters) and DuckDB's
 * read_csv (every column typed: numbers not VARCHAR). The reading is done by
 * tests/fixtures/csv/readers.py; DuckDB is the duckdb Python module, the
 * duckdb CLI, or node with @duckdb/node-api on NODE_PATH, and the test is
 * skipped (visibly) without one. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>

#include "e2e_util.h"

#define N_SAMPLES "10000"

static char *cases_csv, *samples_csv;

static void make_tmp(void) {
    e2e_tmp_make();
    cases_csv = br_strfmt("%s/cases.csv", tmp);
    samples_csv = br_strfmt("%s/samples.csv", tmp);
}

static void drop_tmp(void) {
    e2e_tmp_drop();
    free(cases_csv);
    free(samples_csv);
}

TestSuite(csv_readers, .init = make_tmp, .fini = drop_tmp, .timeout = 300);

/* Measure sum_ok at n = 1000 and 4096 with exactly N_SAMPLES cold samples. */
static void run_benchrun(void) {
    char *cache = br_strfmt("--cache-dir=%s/cache", tmp);
    const char *args[] = {cache,
                          "--min-samples",
                          N_SAMPLES,
                          "--max-samples",
                          N_SAMPLES,
                          "--timeout",
                          "60s",
                          "--csv",
                          cases_csv,
                          "--samples-csv",
                          samples_csv,
                          "--quiet",
                          BR_FIXTURES_DIR "/e2e/ok.yaml",
                          NULL};
    e2e_result r;
    cr_assert_eq(e2e_run(&r, NULL, args), 0);
    cr_assert_eq(r.status, 0, "exit %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    e2e_free(&r);
    free(cache);
}

/* Run readers.py with `how`; returns its exit status, its output in *out. */
static int readers(char **out, const char *how, const char *extra) {
    char *cmd = br_strfmt("python3 '%s/csv/readers.py' %s '%s' '%s' %s 2>&1", BR_FIXTURES_DIR, how,
                          cases_csv, samples_csv, extra);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    size_t len = 0;
    FILE *m = open_memstream(out, &len);
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, p)) > 0)
        fwrite(buf, 1, got, m);
    fclose(m);
    int st = pclose(p);
    free(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int have_python3(void) {
    return system("command -v python3 >/dev/null 2>&1") == 0;
}

Test(csv_readers, python_csv_reads_a_10000_sample_case_with_its_defaults) {
    if (!have_python3())
        cr_skip_test("python3 is not installed");
    run_benchrun();
    char *out = NULL;
    int rc = readers(&out, "python", N_SAMPLES);
    cr_assert_eq(rc, 0, "readers.py python: exit %d\n%s", rc, out);
    cr_expect(strstr(out, "20000 sample rows"), "%s", out);
    free(out);
}

Test(csv_readers, duckdb_types_every_column) {
    if (!have_python3())
        cr_skip_test("python3 is not installed");
    char *out = NULL;
    if (readers(&out, "probe", "") == 77) {
        free(out);
        cr_skip_test("no DuckDB (the duckdb Python module, the duckdb CLI, or node with "
                     "@duckdb/node-api on NODE_PATH)");
    }
    free(out);
    run_benchrun();
    int rc = readers(&out, "duckdb", "");
    cr_assert_eq(rc, 0, "readers.py duckdb: exit %d\n%s", rc, out);
    cr_log_info("%s", out);
    free(out);
}
