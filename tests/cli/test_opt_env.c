/* SPDX-License-Identifier: Apache-2.0 */
/* test_opt_env.c - the environment variables benchrun reads are listed, one
 * line each, in `benchrun --help` ("environment:") and in the man page
 * (ENVIRONMENT): every name that a getenv("NAME") of runner/ and reporters/
 * reads (found with grep over the sources, so a new one that is not
 * listed fails here), and the subcommands' help does not repeat them. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cli/commands.h"
#include "cli/opt.h"

/* What write(f, cmd) prints (caller frees). */
static char *capture(void (*write)(FILE *f, const br_opt_cmd *cmd), const br_opt_cmd *cmd) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    write(f, cmd);
    fclose(f);
    char *copy = strdup(buf);
    free(buf);
    return copy;
}

static void write_man(FILE *f, const br_opt_cmd *cmd) {
    (void)cmd;
    br_cmd_man(f);
}

#define capture_help(cmd) capture(br_opt_help, cmd)
#define capture_man()     capture(write_man, NULL)

/* The names getenv reads in the sources, one per line (caller frees). */
static char *names_read(void) {
    char *cmd = br_strfmt("grep -rhoE 'getenv\\(\"[A-Za-z_][A-Za-z0-9_]*\"\\)' '%s/runner' "
                          "'%s/reporters' | sed -E 's/getenv\\(\"(.*)\"\\)/\\1/' | sort -u",
                          BR_SOURCE_DIR, BR_SOURCE_DIR);
    FILE *p = popen(cmd, "r");
    cr_assert_not_null(p);
    char *buf = calloc(1, 4096);
    size_t n = fread(buf, 1, 4095, p);
    buf[n] = '\0';
    cr_assert_eq(pclose(p), 0, "grep failed: %s", cmd);
    free(cmd);
    return buf;
}

Test(opt_env, help_and_man_list_every_variable_read) {
    char *names = names_read(), *help = capture_help(&br_cmd_run_spec), *man = capture_man();
    const char *env = strstr(help, "\nenvironment:\n");
    cr_assert_not_null(env, "no environment section:\n%s", help);
    const char *man_env = strstr(man, ".SH ENVIRONMENT\n");
    cr_assert_not_null(man_env, "no ENVIRONMENT in the man page");
    size_t count = 0;
    for (char *line = strtok(names, "\n"); line; line = strtok(NULL, "\n"), count++) {
        char *row = br_strfmt("\n  %s  ", line), *tp = br_strfmt(".TP\n\\fB%s\\fR\n", line);
        cr_assert(strstr(env, row), "%s is read but not in --help:\n%s", line, env);
        cr_assert(strstr(man_env, tp), "%s not in the man page", line);
        free(row);
        free(tp);
    }
    cr_assert_geq(count, 8, "the sources read CC, CXX, BENCHRUN_NVCC, ...: %zu found", count);
    /* the names benchrun's documentation promises */
    const char *promised[] = {"BENCHRUN_INCLUDE_DIR", "BENCHRUN_NVCC", "CC", "CXX",
                              "XDG_CACHE_HOME",       "NO_COLOR"};
    for (size_t i = 0; i < sizeof promised / sizeof promised[0]; i++) {
        char *row = br_strfmt("\n  %s  ", promised[i]);
        cr_assert(strstr(env, row), "%s missing", promised[i]);
        free(row);
    }
    free(names);
    free(help);
    free(man);
}

Test(opt_env, one_line_each_and_only_in_the_main_help) {
    char *help = capture_help(&br_cmd_run_spec);
    const char *env = strstr(help, "\nenvironment:\n") + strlen("\nenvironment:\n");
    for (const char *line = env; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        cr_assert_leq(len, 80, "a line over 80 columns: %.*s", (int)len, line);
        cr_assert(strncmp(line, "  ", 2) == 0, "not a row: %.*s", (int)len, line);
        line += len + (nl != NULL);
    }
    char *compare = capture_help(&br_cmd_compare_spec),
         *history = capture_help(&br_cmd_history_spec);
    cr_assert_null(strstr(compare, "environment:"));
    cr_assert_null(strstr(history, "environment:"));
    free(compare);
    free(history);
    free(help);
}
