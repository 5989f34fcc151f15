/* SPDX-License-Identifier: Apache-2.0 */
/* test_commands.c - the command table (runner/cli/commands.c) through the
 * executable: every command it lists is reached by its name and says its
 * own usage; a misspelt command gets a suggestion, but a word that may be a
 * suite (a file, a path, a .yaml name) is run as one; benchrun alone prints
 * the short usage. */
#include <criterion/criterion.h>

#include "cli/commands.h"
#include "e2e_util.h"

TestSuite(commands, .init = e2e_tmp_make, .fini = e2e_tmp_drop, .timeout = 120);

static e2e_result run(const char *cwd, const char *const *args) {
    e2e_result r;
    cr_assert_eq(e2e_run(&r, cwd, args), 0);
    return r;
}

Test(commands, the_table_is_the_run_then_the_subcommands_by_name) {
    cr_assert_null(br_commands[0].name, "the run comes first and has no name");
    cr_assert_eq(br_commands[0].main, br_cmd_run);
    for (size_t i = 1; i < br_n_commands; i++) {
        const br_command *c = &br_commands[i];
        cr_assert_not_null(c->name);
        if (i > 1)
            cr_assert_lt(strcmp(br_commands[i - 1].name, c->name), 0, "%s out of order", c->name);
        char *prog = br_strfmt("benchrun %s", c->name);
        cr_assert_str_eq(c->options->prog, prog);
        cr_assert_eq(br_command_find(c->name), c);
        free(prog);
    }
    for (size_t i = 0; i < br_n_commands; i++)
        cr_assert(strlen(br_commands[i].summary) < 60, "%s", br_commands[i].summary);
}

Test(commands, each_name_reaches_its_command) {
    for (size_t i = 1; i < br_n_commands; i++) {
        const char *args[] = {br_commands[i].name, "--help", NULL};
        e2e_result r = run(NULL, args);
        char *usage = br_strfmt("usage: benchrun %s ", br_commands[i].name);
        cr_expect_eq(r.status, 0, "%s --help: exit %d", br_commands[i].name, r.status);
        cr_expect(strncmp(r.out, usage, strlen(usage)) == 0, "%s", r.out);
        cr_expect(strstr(r.out, "\nexit status: "), "%s", r.out);
        free(usage);
        e2e_free(&r);
    }
}

Test(commands, a_misspelt_command_gets_a_suggestion) {
    const char *args[] = {"comapre", "a.json", "b.json", NULL};
    e2e_result r = run(tmp, args);
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.err, "benchrun: 'comapre' is not a benchrun command; did you mean "
                            "'compare'?\ntry 'benchrun --help'\n");
    cr_assert_str_eq(r.out, "");
    e2e_free(&r);
    cr_assert_str_eq(br_command_suggest("histroy"), "history");
    cr_assert_str_eq(br_command_suggest("merg"), "merge");
    cr_assert_null(br_command_suggest("reduction"));
}

/* asv's `asv run A..B` typed here: where a run and a range of commits are. */
Test(commands, run_points_to_a_run_and_to_run_range) {
    const char *args[] = {"run", "HEAD~5..HEAD", "suite.yaml", NULL};
    e2e_result r = run(tmp, args);
    cr_assert_eq(r.status, 2);
    cr_assert(strstr(r.err, "a run is 'benchrun SUITE.yaml...'"), "%s", r.err);
    cr_assert(strstr(r.err, "benchrun run-range A..B SUITE.yaml"), "%s", r.err);
    e2e_free(&r);
}

/* A word close to a command that is a file, a path or a YAML name is a
 * suite: it is opened, not corrected. */
Test(commands, a_word_that_may_be_a_suite_is_run_as_one) {
    const char *words[] = {"./comapre", "comapre.yaml", "comapre.yml", "comapre"};
    char *file = e2e_put("comapre", "name: [\n"); /* the last word is this file */
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        const char *args[] = {"-q", words[i], NULL};
        const char *bare[] = {words[i], NULL};
        e2e_result r = run(tmp, i == 0 ? args : bare);
        cr_expect_eq(r.status, 2, "%s: exit %d", words[i], r.status);
        cr_expect_null(strstr(r.err, "did you mean"), "%s:\n%s", words[i], r.err);
        cr_expect(strstr(r.err, "comapre"), "%s: the suite is named:\n%s", words[i], r.err);
        e2e_free(&r);
    }
    free(file);
}

Test(commands, benchrun_alone_prints_the_short_usage) {
    const char *args[] = {NULL};
    e2e_result r = run(NULL, args);
    cr_assert_eq(r.status, 2);
    cr_assert_str_eq(r.out, "");
    cr_assert(strncmp(r.err, "usage: benchrun [options] SUITE.yaml...\n", 40) == 0, "%s", r.err);
    for (size_t i = 1; i < br_n_commands; i++) {
        char *row = br_strfmt("\n  %-10s%s\n", br_commands[i].name, br_commands[i].summary);
        cr_expect(strstr(r.err, row), "no row of %s:\n%s", br_commands[i].name, r.err);
        free(row);
    }
    cr_assert(strstr(r.err, "benchrun --help"), "%s", r.err);
    size_t lines = 0;
    for (const char *c = r.err; *c; c++)
        lines += *c == '\n';
    cr_assert_leq(lines, 20, "a short usage, not the help (%zu lines):\n%s", lines, r.err);
    e2e_free(&r);
}
