/* SPDX-License-Identifier: Apache-2.0 */
/* test_docs.c - README.md and the docs pages cannot rot: their relative links
 * and shown files are checked (check_docs.py), the figures the suites decide
 * (check_figures.py) and the kernel API page against the header
 * (check_kernel_api.py), and their shell commands that need no GPU are run
 * against this build, with the outputs shown as some command's output
 * compared (run_doc_commands.py). */
#include <criterion/criterion.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "docs_util.h"

Test(docs, links_and_shown_files_are_true) {
    DOCS_REQUIRE("os");
    char *out = NULL;
    int status = docs_python(&out, "check_docs.py", (const char *[]){BR_SOURCE_DIR, NULL});
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(strstr(out, " 0 problem(s)"), "%s", out);
    free(out);
}

Test(docs, the_kernel_api_page_is_the_header) {
    DOCS_REQUIRE("os");
    char *out = NULL;
    int status = docs_python(&out, "check_kernel_api.py", (const char *[]){BR_SOURCE_DIR, NULL});
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(strstr(out, " 0 problem(s)"), "%s", out);
    free(out);
}

Test(docs, figures_the_suites_decide_are_true) {
    DOCS_REQUIRE("yaml");
    char *exe = strdup(BR_BENCHRUN_EXE);
    cr_assert_not_null(exe);
    char *out = NULL;
    int status =
        docs_python(&out, "check_figures.py", (const char *[]){BR_SOURCE_DIR, dirname(exe), NULL});
    cr_assert_eq(status, 0, "%s", out);
    cr_assert(strstr(out, " 0 problem(s)"), "%s", out);
    free(out);
    free(exe);
}

Test(docs, shell_commands_run) {
    /* docs/suite-format.md runs the schema validator. */
    DOCS_REQUIRE("jsonschema,yaml");
    char *exe = strdup(BR_BENCHRUN_EXE);
    cr_assert_not_null(exe);
    char *out = NULL;
    int status = docs_python(&out, "run_doc_commands.py",
                             (const char *[]){BR_SOURCE_DIR, dirname(exe), NULL});
    cr_assert_eq(status, 0, "%s", out);
    /* The front page's own example is among them. */
    cr_assert(strstr(out, "$ build/benchrun docs/examples/axpy/axpy.yaml"), "%s", out);
    cr_assert(strstr(out, ", 0 failed"), "%s", out);
    free(out);
    free(exe);
}
