/* SPDX-License-Identifier: Apache-2.0 */
/* test_opt.c - the option table (runner/cli/opt.c, opt_usage.c): parsing,
 * --help, the suggestion for a mistyped option, the man page and the bash
 * completion. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/opt.h"

typedef struct t_opts {
    int flag, off, color;
    const char *file;
    br_opt_list items;
    double ratio;
} t_opts;

static int t_ratio(void *dst, const char *option, const char *arg) {
    (void)option;
    *(double *)dst = atof(arg);
    return 0;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const br_opt_spec t_spec[] = {
    {BR_OPT_FLAG, "flag", 'f', offsetof(t_opts, flag), NULL, "a flag", .flag_value = 1},
    {BR_OPT_FLAG, "no-off", 0, offsetof(t_opts, off), NULL, "off", .flag_value = 0},
    {BR_OPT_VALUE, "file", 'o', offsetof(t_opts, file), "FILE", "a file"},
    {BR_OPT_LIST, "item", 'i', offsetof(t_opts, items), "X", "an item (repeatable)"},
    {BR_OPT_ENUM, "fail-on", 0, offsetof(t_opts, color), "WHAT", "when", NULL, br_fail_on_names,
     "expected slower, any-change or never, found '%s'"},
    {BR_OPT_FN, "ratio", 0, offsetof(t_opts, ratio), "R", "a ratio", t_ratio},
    {BR_OPT_HELP, "help", 'h', 0, NULL, "show this help"},
    {BR_OPT_END}};
#pragma GCC diagnostic pop

static const br_opt_cmd t_cmd = {.prog = "prog",
                                 .synopsis = "[options]",
                                 .about = "A test.\n",
                                 .opts = t_spec,
                                 .exit_status = "0 ok.\n"};

static br_parse_result parse(t_opts *o, br_opt_parsed *a, const char **args) {
    char *argv[32] = {"prog"};
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    memset(o, 0, sizeof *o);
    o->off = 1;
    return br_opt_parse(a, &t_cmd, o, argc, argv);
}

Test(opt, parses_every_kind_and_keeps_positionals_in_order) {
    t_opts o;
    br_opt_parsed a;
    const char *args[] = {"one",       "-f", "--file=x.txt", "two",       "-iA",
                          "--item",    "B",  "--no-off",     "--fail-on", "never",
                          "--rat=0.5", "--", "-f",           NULL};
    cr_assert_eq(parse(&o, &a, args), BR_PARSE_OK);
    cr_assert_eq(o.flag, 1);
    cr_assert_eq(o.off, 0);
    cr_assert_str_eq(o.file, "x.txt");
    cr_assert_eq(o.items.n, 2);
    cr_assert_str_eq(o.items.items[0], "A");
    cr_assert_str_eq(o.items.items[1], "B");
    cr_assert_eq(o.color, BR_FAIL_ON_NEVER);
    cr_assert_float_eq(o.ratio, 0.5, 1e-12);
    cr_assert_eq(a.n_args, 3);
    cr_assert_str_eq(a.args[0], "one");
    cr_assert_str_eq(a.args[1], "two");
    cr_assert_str_eq(a.args[2], "-f");
    free(a.args);
    br_opt_list_free(&o.items);
}

Test(opt, grouped_short_flags_reach_help) {
    t_opts o;
    br_opt_parsed a;
    const char *args[] = {"-fh", NULL};
    cr_assert_eq(parse(&o, &a, args), BR_PARSE_HELP);
    cr_assert_eq(o.flag, 1);
    free(a.args);
}

Test(opt, a_mistyped_option_is_one_line_with_a_suggestion, .init = cr_redirect_stderr) {
    t_opts o;
    br_opt_parsed a;
    const char *args[] = {"--fial-on", "never", NULL};
    cr_assert_eq(parse(&o, &a, args), BR_PARSE_BAD);
    free(a.args);
    fflush(stderr);
    cr_assert_stderr_eq_str("prog: unknown option '--fial-on'; did you mean '--fail-on'?\n"
                            "try 'prog --help'\n");
}

/* The newcomer's --jsn=x.json got no suggestion (the value was part of
 * the name compared); it gets one, in the form typed. */
Test(opt, a_mistyped_option_with_a_value_is_suggested_with_it, .init = cr_redirect_stderr) {
    t_opts o;
    br_opt_parsed a;
    const char *args[] = {"--fial-on=never", NULL};
    cr_assert_eq(parse(&o, &a, args), BR_PARSE_BAD);
    free(a.args);
    fflush(stderr);
    cr_assert_stderr_eq_str("prog: unknown option '--fial-on=never'; did you mean "
                            "'--fail-on=never'?\n"
                            "try 'prog --help'\n");
}

/* A flag of Google Benchmark, hyperfine, pytest-benchmark or NVBench gets
 * benchrun's way to the same end. */
Test(opt, another_tools_flag_gets_a_pointer, .init = cr_redirect_stderr) {
    t_opts o;
    br_opt_parsed a;
    const char *args[] = {"--benchmark_filter=BM_x", NULL};
    cr_assert_eq(parse(&o, &a, args), BR_PARSE_BAD);
    free(a.args);
    fflush(stderr);
    cr_assert_stderr_eq_str("prog: unknown option '--benchmark_filter=BM_x'; --benchmark_filter is "
                            "Google Benchmark's: here, -k KERNEL (a glob; -p NAME=VALUE picks "
                            "sizes)\ntry 'prog --help'\n");
    const char *tool, *here;
    const char *flags[] = {"export-json", "benchmark-compare", "axis", "benchmark_out"};
    const char *tools[] = {"hyperfine's", "pytest-benchmark's", "NVBench's", "Google Benchmark's"};
    for (size_t i = 0; i < 4; i++) {
        cr_assert(br_opt_foreign(flags[i], strlen(flags[i]), &tool, &here), "%s", flags[i]);
        cr_expect_str_eq(tool, tools[i]);
        cr_expect(strstr(here, "--") || strstr(here, "benchrun") || strstr(here, "-p"), "%s", here);
    }
    cr_expect_not(br_opt_foreign("jsn", 3, &tool, &here));
}

Test(opt, an_unknown_option_without_a_close_one_has_no_suggestion, .init = cr_redirect_stderr) {
    t_opts o;
    br_opt_parsed a;
    const char *args[] = {"--zzzzzzzz", NULL};
    cr_assert_eq(parse(&o, &a, args), BR_PARSE_BAD);
    free(a.args);
    fflush(stderr);
    cr_assert_stderr_eq_str("prog: unknown option '--zzzzzzzz'\ntry 'prog --help'\n");
}

Test(opt, a_bad_enum_value_and_a_missing_value_are_usage_errors, .init = cr_redirect_stderr) {
    t_opts o;
    br_opt_parsed a;
    const char *bad[] = {"--fail-on", "sometimes", NULL};
    cr_assert_eq(parse(&o, &a, bad), BR_PARSE_BAD);
    free(a.args);
    const char *missing[] = {"--file", NULL};
    cr_assert_eq(parse(&o, &a, missing), BR_PARSE_BAD);
    free(a.args);
    fflush(stderr);
    cr_assert_stderr_eq_str(
        "prog: --fail-on: expected slower, any-change or never, found 'sometimes'\n"
        "prog: option '--file' requires an argument\ntry 'prog --help'\n");
}

Test(opt, suggests_the_closest_option_of_benchrun) {
    cr_assert_str_eq(br_opt_suggest(br_cmd_run_spec.opts, "jsn"), "json");
    cr_assert_str_eq(br_opt_suggest(br_cmd_run_spec.opts, "treshold"), "threshold");
    cr_assert_null(br_opt_suggest(br_cmd_run_spec.opts, "frobnicate"));
}

/* What f received after write(f). */
static char *capture(void (*write)(FILE *f, const void *ctx), const void *ctx) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert_not_null(f);
    write(f, ctx);
    fclose(f);
    return buf;
}

static void write_help(FILE *f, const void *cmd) {
    br_opt_help(f, cmd);
}

static void expect_golden(const br_opt_cmd *cmd, const char *name) {
    char *path = br_strfmt("%s/tests/cli/%s", BR_SOURCE_DIR, name), *want = NULL;
    cr_assert_eq(br_read_file(&want, NULL, path, 1 << 20), 0, "%s", path);
    char *got = capture(write_help, cmd);
    cr_assert_str_eq(got, want, "%s differs", name);
    free(got);
    free(want);
    free(path);
}

Test(opt, help_texts_come_from_the_tables_unchanged) {
    expect_golden(&br_cmd_run_spec, "golden_run_help.txt");
    expect_golden(&br_cmd_compare_spec, "golden_compare_help.txt");
    expect_golden(&br_cmd_history_spec, "golden_history_help.txt");
}

static void write_man(FILE *f, const void *ctx) {
    (void)ctx;
    br_cmd_man(f);
}

static void write_completion(FILE *f, const void *ctx) {
    (void)ctx;
    br_cmd_completion_bash(f);
}

/* The rows of opts as the man page writes their heads. */
static void expect_man_rows(const char *man, const br_opt_spec *opts) {
    for (const br_opt_spec *o = opts; o->kind != BR_OPT_END; o++) {
        if (o->kind == BR_OPT_SECTION)
            continue;
        char *dashed = br_strdup(o->name), *row = NULL;
        size_t k = 0;
        char esc[128];
        for (const char *c = dashed; *c && k + 3 < sizeof esc; c++) {
            if (*c == '-')
                esc[k++] = '\\';
            esc[k++] = *c;
        }
        esc[k] = '\0';
        row = br_strfmt("\\fB\\-\\-%s\\fR", esc);
        cr_assert(strstr(man, row), "the man page lacks %s", row);
        free(row);
        free(dashed);
    }
}

Test(opt, the_man_page_has_every_section_command_and_option) {
    char *man = capture(write_man, NULL);
    cr_assert(strncmp(man, ".TH BENCHRUN 1 ", 15) == 0, "%s", man);
    const char *sections[] = {".SH NAME\n",        ".SH SYNOPSIS\n", ".SH DESCRIPTION\n",
                              ".SH OPTIONS\n",     ".SH COMMANDS\n", ".SH EXIT STATUS\n",
                              ".SH ENVIRONMENT\n", ".SH FILES\n",    ".SH EXAMPLES\n",
                              ".SH SEE ALSO\n"};
    const char *at = man;
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++) {
        const char *s = strstr(man, sections[i]);
        cr_assert(s, "no %s", sections[i]);
        cr_assert_gt(s, at, "%s out of order", sections[i]);
        at = s;
    }
    cr_assert(strstr(man, "\\fB\\-\\-json\\fR \\fIFILE\\fR\n"), "%s", man);
    cr_assert(strstr(man, "\\fB\\-k\\fR, \\fB\\-\\-kernel\\fR \\fIPATTERN\\fR\n"));
    for (size_t i = 0; i < br_n_commands; i++) {
        const br_opt_cmd *c = br_commands[i].options;
        char prog[64]; /* roff's "\-" for each '-' of the name (run-range) */
        size_t k = 0;
        for (const char *p = c->prog; *p && k + 3 < sizeof prog; p++) {
            if (*p == '-')
                prog[k++] = '\\';
            prog[k++] = *p;
        }
        prog[k] = '\0';
        char *synopsis = br_strfmt(".PP\n\\fB%s\\fR ", prog);
        cr_assert(strstr(man, synopsis), "no synopsis of %s", c->prog);
        free(synopsis);
        if (i > 0) {
            char *heading = br_strfmt(".SS %s\n", prog);
            cr_assert(strstr(man, heading), "no section of %s", c->prog);
            free(heading);
        }
        expect_man_rows(man, c->opts);
    }
    free(man);
}

/* groff reads the page without a warning (-ww), when groff is there. */
Test(opt, the_man_page_renders) {
    char *man = capture(write_man, NULL);
    char path[] = "/tmp/br-man-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, man, strlen(man)), (ssize_t)strlen(man));
    close(fd);
    char *cmd = br_strfmt("command -v groff >/dev/null || exit 0; "
                          "test -z \"$(groff -man -Tutf8 -ww -z %s 2>&1)\"",
                          path);
    cr_assert_eq(system(cmd), 0, "groff warns about the man page");
    unlink(path);
    free(cmd);
    free(man);
}

Test(opt, the_bash_completion_knows_options_values_and_subcommands) {
    char *sh = capture(write_completion, NULL);
    cr_assert(strstr(sh, "complete -F _benchrun benchrun\n"));
    cr_assert(strstr(sh, "--fail-on) vals=\"slower any-change never\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "--clock) vals=\"events kernel\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "--cache) vals=\"flush warm flush-memset\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "--mode) vals=\"cold batch both\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "--headline) vals=\"cold batch\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "--devices) vals=\"all\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "--set) vals=\"basic full\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "--json) vals=\"-f\" ;;"), "%s", sh);
    cr_assert(strstr(sh, "    history)\n"), "%s", sh);
    cr_assert(
        strstr(sh,
               "opts=\"ab bisect check compare history init merge profile publish report run-range "
               "--kernel -k"),
        "%s", sh);
    char path[] = "/tmp/br-completion-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, sh, strlen(sh)), (ssize_t)strlen(sh));
    close(fd);
    char *cmd = br_strfmt("command -v bash >/dev/null || exit 0; bash -n %s", path);
    cr_assert_eq(system(cmd), 0, "bash -n refuses the script:\n%s", sh);
    /* What bash itself offers after "benchrun --mode ". */
    char *offer = br_strfmt("command -v bash >/dev/null || exit 0; bash -c '. %s; "
                            "COMP_WORDS=(benchrun --mode \"\"); COMP_CWORD=2; _benchrun; "
                            "test \"${COMPREPLY[*]}\" = \"cold batch both\"'",
                            path);
    cr_assert_eq(system(offer), 0, "bash does not offer cold batch both after --mode");
    unlink(path);
    free(offer);
    free(cmd);
    free(sh);
}

/* Every option that takes one of fixed words offers them to the
 * completion: no row of any command is left without (br_opt_unvalued). */
Test(opt, every_option_with_fixed_values_completes_them) {
    for (size_t i = 0; i < br_n_commands; i++) {
        const br_opt_spec *o = br_opt_unvalued(br_commands[i].options->opts);
        cr_expect_null(o, "%s --%s %s: fixed values, none for the completion",
                       br_commands[i].options->prog, o ? o->name : "", o ? o->value_name : "");
    }
    /* A row with a fixed-value name and no values is found. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
    static const br_opt_spec bad[] = {
        {BR_OPT_FN, "ok", 0, 0, "N", "a number", t_ratio},
        {BR_OPT_FN, "style", 0, 0, "STYLE", "plain or fancy", t_ratio},
        {BR_OPT_END}};
#pragma GCC diagnostic pop
    const br_opt_spec *o = br_opt_unvalued(bad);
    cr_assert(o && strcmp(o->name, "style") == 0);
}

/* The words a row offers are words its converter takes, and a word that is
 * none of them is refused. */
Test(opt, the_fixed_values_offered_are_accepted) {
    size_t checked = 0;
    for (size_t i = 0; i < br_n_commands; i++)
        for (const br_opt_spec *o = br_commands[i].options->opts; o->kind != BR_OPT_END; o++) {
            if (!o->values || !o->fn)
                continue;
            char *words = br_strdup(o->values), *save = NULL, option[64];
            snprintf(option, sizeof option, "--%s", o->name);
            for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
                char dst[256] = {0};
                cr_expect_eq(o->fn(dst, option, w), 0, "%s %s refused", option, w);
            }
            char dst[256] = {0};
            cr_expect_neq(o->fn(dst, option, "zzz-none"), 0, "%s zzz-none taken", option);
            free(words);
            checked++;
        }
    cr_assert_geq(checked, 4, "--devices, --cpu, --tool and --set have fixed values");
}
