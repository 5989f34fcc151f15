/* SPDX-License-Identifier: Apache-2.0 */
/* report_util.h - what the reporter tests share: render runs with a
 * reporter into memory, and compare an output with a reviewed golden file
 * (tests/fixtures/golden/). Include it once per test program, after
 * results_fixture.h.
 *
 * To regenerate the goldens after an intended change of output, run the
 * test with BR_UPDATE_GOLDEN=1 in the environment, then review the diff of
 * tests/fixtures/golden/ before committing it. */
#ifndef BR_TEST_REPORT_UTIL_H
#define BR_TEST_REPORT_UTIL_H

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "reporters/reporter.h"
#include "model/run.h"
#include "results_fixture.h"

#ifndef BR_FIXTURES_DIR
#error "BR_FIXTURES_DIR must name tests/fixtures"
#endif

/* --- rendering and golden files ---------------------------------------------- */

/* Render the runs with reporter `name`; the caller frees the result. */
__attribute__((unused)) static char *render(const char *name, const br_run *const *runs,
                                            size_t n_runs, int ascii, size_t *out_len) {
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

__attribute__((unused)) static char *read_file(const char *path, size_t *out_len) {
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
__attribute__((unused)) static void check_golden(const char *name, const char *got,
                                                 size_t got_len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/golden/%s", BR_FIXTURES_DIR, name);
    const char *update = getenv("BR_UPDATE_GOLDEN");
    if (update && strcmp(update, "1") == 0) {
        FILE *f = fopen(path, "wb");
        cr_assert_not_null(f, "cannot write %s", path);
        cr_assert_eq(fwrite(got, 1, got_len, f), got_len);
        cr_assert_eq(fclose(f), 0);
        cr_log_info("updated golden file %s", path);
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

__attribute__((unused)) static void golden_test(const char *reporter, int ascii,
                                                const char *golden) {
    size_t len = 0;
    char *out = render(reporter, fixture_ptrs, N_RUNS, ascii, &len);
    check_golden(golden, out, len);
    free(out);
}

/* Render run `i` of the fixture alone. */
__attribute__((unused)) static char *render_one(const char *reporter, size_t i, int ascii) {
    return render(reporter, &fixture_ptrs[i], 1, ascii, NULL);
}

#endif
